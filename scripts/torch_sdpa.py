#!/usr/bin/env python3
"""The torch side of bench_gpu_attention (decision ATT-2): a helper process that holds Q, K and V
on the GPU and answers one command per line on stdin, one reply line on stdout, so that the C++
benchmark can interleave its own launches with torch's SDPA (A B C A B C ...) in one call.

Usage: torch_sdpa.py B H S D CAUSAL   (CAUSAL 0 or 1)
       torch_sdpa.py --values T I...     (the inputs' values, no torch needed)

Q, K, V (B, H, S, D) bf16 come from the same integer hash as bench/attention_bench.cpp's
inputValue (element i of tensor t: byte 1 of a 32-bit mix of (i, t), v = (k - 128) / 64, exact in
bf16), computed here with int64 tensor arithmetic (every product stays below 2**63), so no tensor
crosses the process boundary.

Replies: first "ready torch VERSION cudnn YES|NO flash YES|NO", then per command
  ref PATH           SDPA with the cuDNN backend (else the default) written to PATH as raw bf16
                     (B, H, S, D); reply "ok BACKEND maxdiff X" where X = max |flash - cuDNN|
  time BACKEND N     N launches of SDPA with BACKEND (cudnn or flash), each timed with CUDA
                     events; reply "ms T1 ... TN" or "unavailable REASON"
  quit               exit 0
An exception becomes "error MESSAGE" (one line) and the helper goes on.
"""
import ctypes
import sys


def mix(i, t):
    """Byte k of the hash of element i of tensor t, as k - 128: on Python ints (--values) and on
    int64 torch tensors alike (the same operators; every product stays below 2**63)."""
    m = 0xFFFFFFFF
    x = (i * 2654435761 + t * 40503 + 1) & m
    x = x ^ (x >> 15)
    x = (x * 2146121005) & m
    x = x ^ (x >> 13)
    x = (x * 739982445) & m
    x = x ^ (x >> 16)
    return ((x >> 8) & 255) - 128


def inputs(shape, tensor, device):
    import torch

    n = 1
    for s in shape:
        n *= s
    v = mix(torch.arange(n, dtype=torch.int64, device=device), tensor).to(torch.float32) / 64
    return v.to(torch.bfloat16).reshape(shape)


def main():
    if sys.argv[1:2] == ["--values"]:  # the hash without torch, for tests/core/tst_attention_bench
        t = int(sys.argv[2])
        print(" ".join(repr(mix(int(i), t) / 64) for i in sys.argv[3:]))
        return
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F

    BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}
    b, h, s, d, causal = (int(x) for x in sys.argv[1:6])
    dev = "cuda"
    q, k, v = (inputs((b, h, s, d), t, dev) for t in range(3))
    refused = {}

    def run(name):
        with sdpa_kernel([BACKENDS[name]]):
            return F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))

    for name in BACKENDS:  # warm up; a backend that refuses the shape is reported, not fatal
        try:
            run(name)
            torch.cuda.synchronize()
            refused[name] = None
        except Exception as e:  # noqa: BLE001 - the reason goes back to the benchmark
            refused[name] = str(e).replace("\n", " ")[:200]
    yes = lambda n: "YES" if refused[n] is None else "NO"
    print("ready torch %s cudnn %s flash %s" % (torch.__version__, yes("cudnn"), yes("flash")), flush=True)
    for line in sys.stdin:
        cmd = line.split()
        try:
            if not cmd:
                continue
            if cmd[0] == "quit":
                return
            if cmd[0] == "ref":
                ref_name = "cudnn" if refused["cudnn"] is None else "default"
                ref = run("cudnn") if ref_name == "cudnn" else F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
                diff = float("nan")
                if refused["flash"] is None:
                    diff = (run("flash").float() - ref.float()).abs().max().item()
                host = ref.contiguous().cpu()  # raw bf16 bytes without numpy
                with open(cmd[1], "wb") as out:
                    out.write(ctypes.string_at(host.data_ptr(), host.numel() * host.element_size()))
                print("ok %s maxdiff %.6g" % (ref_name, diff), flush=True)
            elif cmd[0] == "time":
                name, n = cmd[1], int(cmd[2])
                if refused.get(name, "unknown backend") is not None:
                    print("unavailable %s" % refused.get(name, "unknown backend"), flush=True)
                    continue
                ms = []
                with sdpa_kernel([BACKENDS[name]]):
                    for _ in range(n):
                        e0 = torch.cuda.Event(enable_timing=True)
                        e1 = torch.cuda.Event(enable_timing=True)
                        e0.record()
                        F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
                        e1.record()
                        torch.cuda.synchronize()
                        ms.append(e0.elapsed_time(e1))
                print("ms " + " ".join("%.6f" % t for t in ms), flush=True)
            else:
                print("error unknown command %s" % cmd[0], flush=True)
        except Exception as e:  # noqa: BLE001
            print("error %s" % str(e).replace("\n", " ")[:300], flush=True)


if __name__ == "__main__":
    main()
