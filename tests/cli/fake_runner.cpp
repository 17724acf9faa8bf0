// A fake GPU runner for CI machines without a GPU: started by the parent exactly as `tirx runner
// REQUEST RESPONSE` would be (TIRX_RUNNER or CudaExecutorOptions::runnerPath), it speaks the
// runner protocol of core/driver/runner_protocol.h without touching CUDA. TIRX_FAKE_RUNNER_MODE
// picks its behaviour:
//   identity   the "kernel" writes nothing: every downloaded tensor comes back as uploaded, run
//              twice with the two poison bytes when the request asks for two passes (default)
//   half       the "kernel" stores zero bytes into the first half of every downloaded tensor
//   crash      abort() (SIGABRT) without a response        segv     raise SIGSEGV
//   exit       exit(9) without a response                   hang     sleep until killed
//   garbage    a response that is not JSON                  partial  the first half of a valid one
//   wrongtypes valid JSON whose members have the wrong types
//   badoutput  ok, but an output index that is no argument  shortoutput  an output file too short
//   env        an environment error (no device), exit 3    cudafault   CUDA_ERROR_ILLEGAL_ADDRESS
//   noisy      1 MiB of binary junk on stderr, then exit 1 without a response
// TIRX_FAKE_RUNNER_PIDFILE, when set, receives the process id first (tests check it was killed).
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "core/driver/runner_protocol.h"
#include "core/ir/values.h"

using namespace tirx;
using namespace tirx::driver;

namespace {

std::string dirOf(const std::string& p) {
  const auto s = p.find_last_of('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

bool write(const std::string& path, const std::string& text) {
  return writeWholeFile(path, text.data(), text.size());
}

/// The protocol's data path without a device: upload, "run", download, compare the passes.
int emulate(const RunnerRequest& req, const std::string& dir, const std::string& respPath,
            bool half) {
  RunnerResponse resp;
  resp.kernel = req.kernel;
  resp.device = "Fake GPU";
  resp.cc = "9.0";
  resp.loadedFrom = "cubin";
  std::vector<std::vector<uint8_t>> first(req.args.size());
  for (int pass = 0; pass < req.passes; ++pass) {
    for (size_t i = 0; i < req.args.size(); ++i) {
      const RunnerArg& a = req.args[i];
      if (!a.isTensor || !a.download) continue;
      auto bytes = argumentBytes(a, dir, pass);
      if (!bytes) {
        resp.error = {"open", bytes.error().message, "request", "request", 0};
        return write(respPath, responseToJson(resp)) ? 2 : 2;
      }
      if (half)
        std::memset(
            bytes->data(), 0,
            bytes->size() / 2 / size_t(ir::dtypeBytes(a.dtype)) * size_t(ir::dtypeBytes(a.dtype)));
      if (pass == 0) {
        first[i] = *bytes;
        RunnerOutput o;
        o.index = i;
        o.file = "out" + std::to_string(i) + ".bin";
        writeWholeFile(dir + "/" + o.file, bytes->data(), bytes->size());
        resp.outputs.push_back(o);
        continue;
      }
      const std::vector<uint8_t> mask = sameBytesMask(first[i], *bytes, ir::dtypeBytes(a.dtype));
      for (auto& o : resp.outputs)
        if (o.index == i) {
          o.undefined = int64_t(std::count(mask.begin(), mask.end(), uint8_t(0)));
          if (o.undefined) {
            o.maskFile = "def" + std::to_string(i) + ".bin";
            writeWholeFile(dir + "/" + o.maskFile, mask.data(), mask.size());
          }
        }
    }
  }
  resp.ok = resp.ran = true;
  resp.firstLaunchMs = 0.001;
  return write(respPath, responseToJson(resp)) ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || std::string(argv[1]) != "runner") {
    std::fprintf(stderr, "usage: tirx_fake_runner runner REQUEST.json RESPONSE.json\n");
    return 2;
  }
  if (const char* pidFile = std::getenv("TIRX_FAKE_RUNNER_PIDFILE"))
    write(pidFile, std::to_string(::getpid()) + "\n");
  const char* m = std::getenv("TIRX_FAKE_RUNNER_MODE");
  const std::string mode = m && *m ? m : "identity";
  const std::string reqPath = argv[2], respPath = argv[3];
  std::string text;
  if (!readWholeFile(reqPath, text, kMaxProtocolText)) return 2;
  auto req = parseRequest(text);
  if (!req) {
    std::fprintf(stderr, "fake runner: %s\n", req.error().message.c_str());
    return 2;
  }
  const std::string dir = dirOf(reqPath);
  if (mode == "identity" || mode == "half") return emulate(*req, dir, respPath, mode == "half");
  if (mode == "crash") std::abort();
  if (mode == "segv") {
    // The default action, not a sanitizer's handler (ASan turns SIGSEGV into an abort).
    ::signal(SIGSEGV, SIG_DFL);
    ::raise(SIGSEGV);
  }
  if (mode == "exit") return 9;
  if (mode == "hang")
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  if (mode == "garbage") return write(respPath, "\x01\x02 this is not JSON {{{") ? 0 : 2;
  if (mode == "wrongtypes")
    return write(respPath, R"({"ok": true, "ran": "yes", "device": 7, "outputs": "many"})") ? 0 : 2;
  RunnerResponse resp;
  resp.kernel = req->kernel;
  resp.device = "Fake GPU";
  if (mode == "partial") {
    resp.ok = resp.ran = true;
    const std::string full = responseToJson(resp);
    return write(respPath, full.substr(0, full.size() / 2)) ? 0 : 2;
  }
  if (mode == "badoutput" || mode == "shortoutput") {
    resp.ok = resp.ran = true;
    RunnerOutput o;
    o.index = mode == "badoutput" ? 99 : 0;
    o.file = "out0.bin";
    write(dir + "/out0.bin", "abc");
    resp.outputs.push_back(o);
    return write(respPath, responseToJson(resp)) ? 0 : 2;
  }
  if (mode == "env") {
    resp.environment = true;
    resp.error = {"cuDeviceGet", "no CUDA device 0 (found 0)", "device", "cuda-error", 101};
    write(respPath, responseToJson(resp));
    return 3;
  }
  if (mode == "cudafault") {
    resp.fault = "illegal-address";
    resp.error = {"cuCtxSynchronize",
                  "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered", "run",
                  "illegal-address", 700};
    return write(respPath, responseToJson(resp)) ? 0 : 2;
  }
  if (mode == "noisy") {
    std::string junk(1 << 20, '\0');
    for (size_t i = 0; i < junk.size(); ++i) junk[i] = char(i * 131 % 251);
    std::fwrite(junk.data(), 1, junk.size(), stderr);
    return 1;
  }
  std::fprintf(stderr, "fake runner: unknown mode '%s'\n", mode.c_str());
  return 2;
}
