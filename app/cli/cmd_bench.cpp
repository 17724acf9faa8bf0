// `tirx bench FILE [--kernel K] [--arch sm_90] [--device cuda[:N]] [--repeat N] [--warmup N]
// [--json]`: compile timings per stage (uncached, then the cached recompile) and, where a CUDA
// driver exists, GPU timings through the runner (median of N launches, CUDA events) with the
// bandwidth of the kernel's tensor arguments (bytes read + written once). Without a driver the
// GPU part is skipped (exit 0), unless --device was given (exit 3). Documented in docs/cli.md.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/cli/cli.h"
#include "core/driver/compile.h"
#include "core/driver/device.h"
#include "core/driver/host_io.h"
#include "core/sema/sema.h"

namespace tirx::cli {

namespace {
const char* kBenchUsage =
    "usage: tirx bench FILE [--kernel K] [--arch sm_90] [--device cuda[:N]] [--repeat N] "
    "[--warmup N] [--json]\n";
}

int cmdBench(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o = parseOptions(args, {"--kernel", "--arch", "--device", "--repeat", "--warmup"},
                                 {"--json", "--help"});
  if (o.has("--help")) {
    out << kBenchUsage;
    return 0;
  }
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx bench: " << (o.error.empty() ? "expected exactly one FILE" : o.error) << "\n"
        << kBenchUsage;
    return 2;
  }
  const int sm = parseArch(o.get("--arch", "sm_90"));
  const bool deviceGiven = !o.getAll("--device").empty();
  const std::optional<driver::DeviceSpec> device =
      deviceOption(o, "bench", err, "cuda:0", {.sim = false, .remote = false});
  if (!device) return 2;
  std::string why;
  int64_t repeat = 50, warmup = 5;
  if (!parseInteger(o.get("--repeat", "50"), 1, 100000, repeat, why) ||
      !parseInteger(o.get("--warmup", "5"), 0, 100000, warmup, why)) {
    err << "tirx bench: --repeat/--warmup: " << why << "\n";
    return 2;
  }
  if (sm == 0) {
    err << "tirx bench: malformed --arch\n";
    return 2;
  }
  const std::string& path = o.positional[0];
  std::string source;
  if (!readFile(path, source, err)) return 2;
  driver::CompileOptions co;
  co.sm = sm;
  co.kernel = o.get("--kernel", "");
  co.sass = false;
  co.useCache = false;
  auto first = driver::compileScript(source, path, co);
  if (!first) {
    err << "tirx bench: " << first.error().text() << "\n";
    return 3;
  }
  err << formatGcc(first->diagnostics, path);
  if (!first->ok) return 1;
  co.useCache = true;
  // Fills the cache; the first compile's result above is the one reported, and it succeeded.
  (void)driver::compileScript(source, path, co);
  std::vector<double> cached;
  for (int i = 0; i < 20; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = driver::compileScript(source, path, co);
    cached.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(cached.begin(), cached.end());
  const auto& t = first->timings;
  nlohmann::json doc = {{"file", path},
                        {"compile",
                         {{"front_end_ms", t.frontEndMs},
                          {"codegen_ms", t.codegenMs},
                          {"nvrtc_ms", t.nvrtcMs},
                          {"link_ms", t.linkMs},
                          {"total_ms", t.totalMs},
                          {"cached_ms", cached[cached.size() / 2]}}}};
  if (!o.has("--json"))
    out << std::fixed << std::setprecision(3) << "compile " << path << ": front end "
        << t.frontEndMs << " ms, codegen " << t.codegenMs << " ms, NVRTC " << t.nvrtcMs
        << " ms, nvJitLink " << t.linkMs << " ms, total " << t.totalMs << " ms; cached recompile "
        << cached[cached.size() / 2] << " ms\n";
  int status = 0;
  nlohmann::json runs = nlohmann::json::array();
  driver::ExecutorContext context;
  context.sm = sm;
  context.scriptFile = path;
  context.scriptSource = source;
  context.warmup = int(warmup);
  context.repeats = int(repeat);
  context.trackDefined = false;  // timings only: one checked run
  auto made = driver::makeExecutor(*device, context);
  if (!made) {
    if (!o.has("--json")) out << "gpu: skipped (no CUDA driver found)\n";
    doc["gpu"] = "no CUDA driver";
    if (deviceGiven) status = 3;
  } else {
    ir::Executor& exec = **made;
    for (const auto& k : first->program.kernels) {
      if (!co.kernel.empty() && k.name != co.kernel) continue;
      auto a = driver::makeArguments(k, {});
      if (!a) {
        err << "tirx bench: " << a.error().message << "\n";
        return 2;
      }
      double bytes = 0;
      for (const auto& x : *a)
        if (x.isTensor) bytes += double(x.tensor.data.size());
      auto r = exec.run(first->program, k.name, *a);
      if (!r) {
        err << "tirx bench: " << r.error().text() << "\n";
        return 3;
      }
      for (const auto& f : r->faults) err << formatGcc(f.diag, path);
      if (!r->ran) {
        status = 1;
        continue;
      }
      const driver::LaunchTimings* timings = driver::lastLaunchTimings(exec);
      const double ms = timings ? timings->medianMs : r->runMs;
      const double minMs = timings ? timings->minMs : r->runMs;
      const double gbs = ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0;
      runs.push_back({{"kernel", k.name},
                      {"device", r->device},
                      {"median_ms", ms},
                      {"min_ms", minMs},
                      {"bytes", bytes},
                      {"gb_per_s", gbs}});
      if (!o.has("--json"))
        out << std::fixed << std::setprecision(4) << "gpu " << k.name << " on " << r->device
            << ": median " << ms << " ms, min " << minMs << " ms over " << repeat << " launches, "
            << std::setprecision(1) << gbs << " GB/s (" << bytes << " bytes)\n";
    }
    doc["gpu"] = runs;
  }
  if (o.has("--json")) out << doc.dump(2) << "\n";
  return status;
}

}  // namespace tirx::cli
