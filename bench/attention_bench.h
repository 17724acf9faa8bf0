// The parts of bench_gpu_attention that need no GPU, apart so tests/core/tst_attention_bench.cpp
// can test them: the command line, the attention FLOP count (4·B·H·S²·D, halved for causal), the
// input formula both sides compute (this program on the host, scripts/torch_sdpa.py with torch on
// the GPU: no tensor crosses the process boundary), the output check against SDPA's output, the
// helper's reply lines, and the medians and ratios the report prints (decision ATT-2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tirx::bench {

struct AttentionArgs {
  std::string kernel;  ///< the kernel script (default bench/kernels/attention_fwd_bf16_d128.py)
  int64_t batch = 4;   ///< the issue's shape: batch 4, 32 heads, 4096 tokens
  int64_t heads = 32;
  int64_t seq = 4096;
  bool causal = false;
  int rounds = 10;  ///< A B C rounds (tirx, torch cuDNN, torch flash), interleaved
  int iters = 10;   ///< timed launches of each side per round
  std::string python = "python3";
  bool noTorch = false;  ///< time the kernel alone, check it against the host reference only
  /// An ablation (a kernel with a stage removed on purpose): the checks run and print, but a
  /// mismatch does not stop the timing; the figures are marked `unchecked`, never a result.
  bool unchecked = false;
};

/// Parses `bench_gpu_attention [KERNEL] [--batch B] [--heads H] [--seq S] [--causal] [--rounds R]
/// [--iters N] [--python EXE] [--no-torch]`. On error returns nullopt and sets `error` to a
/// one-line message naming the argument.
std::optional<AttentionArgs> parseAttentionArgs(const std::vector<std::string>& argv,
                                                std::string& error);

/// Multiply-adds of Q Kᵀ and P V counted as 2 flops each: 4·B·H·S²·D, half of it when causal
/// (the flash-attention convention; the diagonal blocks' extra work is not counted).
double attentionFlops(int64_t batch, int64_t heads, int64_t seq, int64_t headDim, bool causal);

/// Element `index` of input `tensor` (0 Q, 1 K, 2 V) in the flat (B, H, S, D) order: a 32-bit
/// integer hash of (index, tensor) whose byte k gives (k − 128) / 64, a value in [-2, 2) that bf16
/// holds exactly. scripts/torch_sdpa.py computes the same hash with int64 tensor arithmetic (every
/// product stays below 2⁶³).
float inputValue(int tensor, uint64_t index);

/// The output check: element i passes when |got − ref| ≤ atol + rtol·|ref| (torch.testing's rule)
/// and both are finite. `meanRel` is Σ|got − ref| / Σ|ref| over the finite pairs: the elementwise
/// rule has to allow bf16-level differences at every element, so a systematic error of a few
/// tenths of a percent (a wrong exponential, which the softmax's normalisation mostly cancels)
/// passes it; the mean does not.
struct CloseReport {
  int64_t count = 0;
  int64_t bad = 0;
  int64_t firstBad = -1;  ///< flat index of the first failing element
  double maxAbs = 0;      ///< largest |got − ref| over the finite pairs
  double sumAbs = 0;      ///< Σ|got − ref| over the finite pairs
  double sumRef = 0;      ///< Σ|ref| over the finite pairs
  bool ok() const { return count > 0 && bad == 0; }
  double meanRel() const { return sumRef > 0 ? sumAbs / sumRef : 0; }
};
CloseReport compareClose(const float* got, const float* ref, int64_t n, double atol, double rtol);

/// The tolerance the benchmark checks with: P is rounded to bf16 before P V and the exponentials
/// are ex2.approx, as in cuDNN and flash attention, so the outputs agree at bf16 level.
inline constexpr double kAttentionAtol = 2e-2;
inline constexpr double kAttentionRtol = 2e-2;
/// The mean check against the double-precision host reference: rounding P to bf16 before P V and
/// O to bf16 leaves Σ|d| / Σ|ref| ≈ 0.21 % (the simulator's kernels at 1 × 1 × 1024 and a numpy
/// model of that rounding at 4096 keys, head dim 64 and 128, hash and normal inputs all give
/// 0.20–0.22 %); exp2's linear coefficient 2 % off in a quarter of P gives 0.30–0.33 %, 5 % off
/// 0.52–0.60 %.
inline constexpr double kAttentionMeanRel = 3e-3;

/// A reply of scripts/torch_sdpa.py: "ready …" (first), "ms T1 T2 …" (timings), "ok …",
/// "unavailable REASON" or "error MESSAGE". `parseTimings` returns the numbers of an "ms" line,
/// nullopt otherwise.
std::optional<std::vector<double>> parseTimings(const std::string& line);

/// Whether `line` is one of the helper's replies ("ready ", "ok ", "ms ", "unavailable ",
/// "error "); anything else on its stdout is some library's chatter.
bool isHelperReply(const std::string& line);

/// Median of `v` (the upper middle element of an even count, as bench_gpu_gemm), 0 when empty.
double median(std::vector<double> v);

/// "89.7 %" — a / b in percent with one decimal, "-" when b is not positive.
std::string percent(double a, double b);

}  // namespace tirx::bench
