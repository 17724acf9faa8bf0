// `tirx tune FILE [--kernel K] [--param NAME=v1,v2,...]... [--device sim|cuda[:N]|cuda:all|
// ssh://…|slurm[:PARTITION]] [--jobs N] [--budget S] [--arch sm_90] [--json] [--cache FILE]
// [--apply]`: sweeps the script's tunable constants (decision TUNE-1, docs/tune.md) through
// core/tune: every candidate is checked (rejected with its first error, never run), verified (a
// wrong answer is rejected, never ranked) and timed; prints the ranked table and the best choice,
// which --apply writes into FILE. Progress with an ETA on a terminal's stderr; Ctrl-C stops after
// the running candidates and keeps (and caches) what finished. Exit codes: 0 a candidate was
// ranked, 1 none was (or the TUNE table is malformed), 2 usage or I/O error, 3 the device is
// unavailable, 130 interrupted.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <tuple>

#include "app/cli/cli.h"
#include "core/tune/tune.h"

namespace tirx::cli {

namespace {

const char* kTuneUsage =
    "usage: tirx tune FILE [--kernel K] [--param NAME=v1,v2,...]... [--device "
    "sim|cuda[:N]|cuda:all|ssh://HOST/...|slurm[:PARTITION]]\n"
    "                 [--jobs N] [--budget S] [--arch sm_90] [--json] [--cache FILE] [--apply]\n";

struct TuneCli {
  std::string path, source;
  tune::TuneSpace space;
  tune::TuneDevice device;
  tune::TuneOptions options;
  bool json = false, apply = false;
  std::string workDir, nodeDevice;  ///< slurm only
};

/// 2·M·N·K when the script's untuned constants name M, N and K (a GEMM), else 0.
/// The FLOPs of one launch from the script's shape constants: a GEMM's 2·M·N·K, or attention's
/// 4·BATCH·HEADS·SEQ²·D, halved when the file's name says causal (bench_gpu_attention's rule, the
/// same as scripts/attention-bench.sh). 0 when neither set of constants is there (GB/s instead).
double shapeFlops(const std::string& shapes, const std::string& path) {
  std::map<std::string, double> v;
  std::istringstream in(shapes);
  std::string item;
  while (in >> item) {
    const auto eq = item.find('=');
    if (eq != std::string::npos) v[item.substr(0, eq)] = std::stod(item.substr(eq + 1));
  }
  if (v.count("M") && v.count("N") && v.count("K")) return 2 * v["M"] * v["N"] * v["K"];
  if (v.count("BATCH") && v.count("HEADS") && v.count("SEQ") && v.count("D")) {
    const double f = 4 * v["BATCH"] * v["HEADS"] * v["SEQ"] * v["SEQ"] * v["D"];
    const std::string stem = std::filesystem::path(path).stem().string();
    return stem.find("causal") != std::string::npos ? f / 2 : f;
  }
  return 0;
}

std::string valuesText(const std::map<std::string, int64_t>& values, const tune::TuneSpace& space) {
  std::string t;
  for (const auto& p : space.params) {
    const auto it = values.find(p.name);
    if (it != values.end()) t += (t.empty() ? "" : " ") + p.name + "=" + std::to_string(it->second);
  }
  return t;
}

/// Reads the options into `t`; a non-negative return is the exit status of a usage error.
int readOptions(const Args& args, TuneCli& t, std::ostream& out, std::ostream& err) {
  const Options o = parseOptions(args,
                                 {"--kernel", "--param", "--device", "--jobs", "--budget", "--arch",
                                  "--cache", "--work-dir", "--node-device"},
                                 {"--json", "--apply", "--help"});
  if (o.has("--help")) {
    out << kTuneUsage;
    return 0;
  }
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx tune: " << (o.error.empty() ? "expected exactly one FILE" : o.error) << "\n"
        << kTuneUsage;
    return 2;
  }
  t.path = o.positional[0];
  t.workDir = o.get("--work-dir");
  t.nodeDevice = o.get("--node-device", "cuda");
  t.json = o.has("--json");
  t.apply = o.has("--apply");
  std::vector<tune::ParamOverride> overrides;
  std::string why;
  for (const auto& text : o.getAll("--param")) {
    tune::ParamOverride p;
    if (!tune::parseParamOverride(text, p, why)) {
      err << "tirx tune: --param: " << why << "\n";
      return 2;
    }
    overrides.push_back(p);
  }
  auto device = tune::parseTuneDevice(o.get("--device", "sim"));
  if (!device) {
    err << "tirx tune: --device: " << device.error().message << "\n";
    return 2;
  }
  t.device = *device;
  if (auto node = driver::parseDevice(t.nodeDevice); !node) {
    err << "tirx tune: --node-device: " << node.error().message << "\n";
    return 2;
  }
  int64_t jobs = 1;
  if (!parseInteger(o.get("--jobs", "1"), 1, 256, jobs, why)) {
    err << "tirx tune: --jobs: " << why << "\n";
    return 2;
  }
  if (!o.get("--budget").empty() &&
      !parseSeconds(o.get("--budget"), t.options.budgetSeconds, why)) {
    err << "tirx tune: --budget: " << why << "\n";
    return 2;
  }
  auto& eo = t.options.evaluate;
  eo.arch = o.get("--arch", "sm_90");
  eo.fileName = t.path;
  eo.kernel = o.get("--kernel");
  t.options.cachePath = o.get("--cache");
  t.options.cache.arch = eo.arch;
  if (!readFile(t.path, t.source, err)) return 2;
  t.space = tune::findTuneSpace(t.source, overrides);
  t.options.lanes.assign(size_t(jobs), t.device.single);
  std::tie(t.options.cache.device, t.options.cache.driver) = tune::deviceIdentity(t.device.single);
  return -1;
}

void printTable(const TuneCli& t, const tune::TuneReport& r, std::ostream& out) {
  const double flops = shapeFlops(tune::shapeText(t.source, t.space), t.path);
  // On the simulator a time is the simulation's own wall time, not the kernel's: no rate column.
  const bool sim = t.options.lanes.front().isSim();
  out << "rank  " << std::left << std::setw(28) << "candidate" << std::right << std::setw(12)
      << (sim ? "sim ms" : "median ms") << std::setw(14) << (sim ? "sim work" : "") << std::setw(12)
      << (sim         ? ""
          : flops > 0 ? "TFLOP/s"
                      : "GB/s")
      << std::setw(6) << "regs" << std::setw(9) << "smem B"
      << "  status\n";
  int rank = 0;
  for (const auto& c : r.results) {
    const bool ranked = c.outcome == tune::Outcome::Ranked;
    std::ostringstream rate, time, occ;
    if (c.occupancy > 0) occ << std::fixed << std::setprecision(1) << 100 * c.occupancy << "%";
    if (ranked && c.timeMs > 0 && !sim)
      rate << std::fixed << std::setprecision(flops > 0 ? 1 : 2)
           << (flops > 0 ? flops / (c.timeMs * 1e-3) / 1e12 : c.bytes / (c.timeMs * 1e-3) / 1e9);
    if (ranked)
      time << std::fixed << std::setprecision(3) << c.timeMs;
    else
      time << "-";
    out << std::left << std::setw(6) << (ranked ? std::to_string(++rank) : "-") << std::setw(28)
        << valuesText(c.values, t.space) << std::right << std::setw(12) << time.str()
        << std::setw(14) << (ranked && sim ? std::to_string(c.simWork) : "") << std::setw(12)
        << rate.str() << std::setw(6) << c.registers << std::setw(9) << c.sharedBytes
        << std::setw(7) << occ.str() << "  " << (ranked ? "ok" : tune::outcomeName(c.outcome))
        << (c.cached ? " (cached)" : "") << (ranked ? "" : ": " + c.reason) << "\n";
  }
}

nlohmann::json reportJson(const TuneCli& t, const tune::TuneReport& r, bool applied) {
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : t.space.params) params.push_back({{"name", p.name}, {"values", p.values}});
  nlohmann::json results = nlohmann::json::array();
  int rank = 0;
  for (const auto& c : r.results) {
    const bool ranked = c.outcome == tune::Outcome::Ranked;
    results.push_back({{"rank", ranked ? ++rank : 0},
                       {"values", c.values},
                       {"outcome", tune::outcomeName(c.outcome)},
                       {"reason", c.reason},
                       {"time_ms", c.timeMs},
                       {"sim_work", c.simWork},
                       {"bytes", c.bytes},
                       {"registers", c.registers},
                       {"shared_bytes", c.sharedBytes},
                       {"occupancy", c.occupancy},
                       {"device", c.device},
                       {"lane", c.lane},
                       {"cached", c.cached}});
  }
  const tune::CandidateResult* best = r.best();
  return {{"file", t.path},
          {"device", t.options.cache.device},
          {"params", params},
          {"candidates", r.total},
          {"cache_hits", r.cacheHits},
          {"skipped", r.skipped},
          {"cancelled", r.cancelled},
          {"results", results},
          {"best", best ? nlohmann::json(best->values) : nlohmann::json(nullptr)},
          {"applied", applied}};
}

/// Rewrites FILE with the best values (a temporary file renamed over it); false after a message.
bool applyBest(const TuneCli& t, const tune::CandidateResult& best, std::ostream& err) {
  const std::string text = tune::applyValues(t.source, t.space, best.values);
  const std::string tmp = t.path + ".tune-tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f.flush()) {
      err << "tirx tune: --apply: cannot write '" << tmp << "'\n";
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, t.path, ec);
  if (ec) err << "tirx tune: --apply: cannot replace '" << t.path << "': " << ec.message() << "\n";
  return !ec;
}

/// The progress callback: "[k/n] ETA s" on a terminal's stderr (one line, redrawn).
std::function<void(const tune::CandidateResult&, size_t, size_t)> progress(std::ostream& err) {
  if (&err != &std::cerr || !::isatty(STDERR_FILENO)) return {};
  const auto start = std::chrono::steady_clock::now();
  return [&err, start](const tune::CandidateResult&, size_t done, size_t total) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double eta = done > 0 ? s / double(done) * double(total - done) : 0;
    err << "\rtirx tune: " << done << "/" << total << " candidates, ETA " << std::fixed
        << std::setprecision(0) << eta << " s   " << (done == total ? "\n" : "") << std::flush;
  };
}

/// The Slurm side of --device slurm[:PARTITION]: the shared work directory (--work-dir, else
/// ./tirx-tune-PID), this binary for the tasks, the device they tune on (--node-device).
tune::SlurmOptions slurm(const TuneCli& t, std::ostream& err) {
  tune::SlurmOptions s;
  s.partition = t.device.partition;
  s.workDir = std::filesystem::absolute(
                  t.workDir.empty() ? "tirx-tune-" + std::to_string(::getpid()) : t.workDir)
                  .string();
  std::error_code ec;
  s.tirxPath = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  s.nodeDevice = t.nodeDevice;
  if (t.options.budgetSeconds > 0) s.timeoutSeconds = t.options.budgetSeconds;
  s.log = [&err](const std::string& line) { err << "tirx tune: slurm: " << line << "\n"; };
  return s;
}

}  // namespace

int cmdTuneTask(const Args& args, std::ostream&, std::ostream& err) {
  int64_t index = 0;
  std::string why;
  if (args.size() != 2 || !parseInteger(args[1], 0, 1 << 30, index, why)) {
    err << "usage: tirx tune-task DIR INDEX (run by the Slurm tasks of tirx tune)\n";
    return 2;
  }
  const int status = tune::runSlurmTask(args[0], int(index), why);
  if (status != 0) err << "tirx tune-task: " << why << "\n";
  return status;
}

int cmdTune(const Args& args, std::ostream& out, std::ostream& err) {
  TuneCli t;
  if (const int status = readOptions(args, t, out, err); status >= 0) return status;
  if (!t.space.ok()) {
    err << formatGcc(t.space.diagnostics, t.path);
    if (t.space.diagnostics.empty())
      err << "tirx tune: " << t.path
          << ": nothing to tune (no TUNE table and no --param; docs/tune.md)\n";
    return 1;
  }
  if (t.device.kind == tune::TuneDevice::Kind::AllGpus) {
    auto lanes = tune::localGpuLanes();
    if (!lanes) {
      err << "tirx tune: --device cuda:all: " << lanes.error().text() << "\n";
      return 3;
    }
    t.options.lanes = *lanes;
    // The lanes are taken as GPUs of one model (a host's GPUs): the cache names the first.
    std::tie(t.options.cache.device, t.options.cache.driver) = tune::deviceIdentity(lanes->front());
  }
  t.options.evaluate.cancel = std::make_shared<CancelToken>();
  t.options.onResult = progress(err);
  const InterruptCancels interrupt(t.options.evaluate.cancel);
  const tune::TuneReport r = t.device.kind == tune::TuneDevice::Kind::Slurm
                                 ? tune::runTuneSlurm(t.source, t.space, t.options, slurm(t, err))
                                 : tune::runTune(t.source, t.space, t.options);
  for (const auto& why : r.cacheErrors) err << "tirx tune: --cache: " << why << "\n";
  const tune::CandidateResult* best = r.best();
  bool applied = false;
  if (t.apply && best && !r.cancelled) {
    if (!applyBest(t, *best, err)) return 2;
    applied = true;
  }
  if (t.json) {
    out << reportJson(t, r, applied).dump(2) << "\n";
  } else {
    printTable(t, r, out);
    out << r.total << " candidates: " << r.results.size() - r.cacheHits << " run, " << r.cacheHits
        << " cached, " << r.skipped << " not run" << (r.cancelled ? " (interrupted)" : "") << "\n";
    if (best)
      out << "best: " << valuesText(best->values, t.space)
          << (applied ? " (applied to " + t.path + ")" : "") << "\n";
    else
      out << "no candidate verified\n";
  }
  if (interrupt.interrupted()) return kExitInterrupted;
  bool environment = !r.results.empty();
  for (const auto& c : r.results) environment = environment && c.outcome == tune::Outcome::Failed;
  if (!best && environment) return 3;
  return best ? 0 : 1;
}

}  // namespace tirx::cli
