// A tune as a Slurm job array (issue 26; docs/tune.md "Slurm"). Slurm is the scheduler: the parent
// writes the script and the job (parameters, candidates, node device) into a directory every node
// sees, submits one `sbatch --array` whose task i runs `tirx tune-task DIR i` (which evaluates
// candidate i exactly as a local tune does and writes DIR/result-i.json by rename), waits until
// squeue no longer lists the array, and reads the result files. Tasks that left no result (a
// failed or killed task, a dead node) are resubmitted once as a second array of those indices,
// then reported as failed. Ctrl-C (the cancel token) scancels the array and keeps what finished.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/driver/child_process.h"
#include "core/tune/tune.h"

namespace tirx::tune {

namespace fs = std::filesystem;

namespace {

std::string findInPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(std::string(path ? path : "") + ":/usr/bin:/usr/sbin:/bin");
  std::string d;
  while (std::getline(dirs, d, ':')) {
    const fs::path p = fs::path(d.empty() ? "." : d) / name;
    if (::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return {};
}

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool writeText(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  return !ec;
}

/// Runs a Slurm client (sbatch, squeue, scancel) with a 30 s limit; its output, or nullopt when it
/// could not start, was killed or exited non-zero (the output then goes to `why`).
std::optional<std::string> slurmCommand(const std::string& dir, std::vector<std::string> argv,
                                        std::string& why) {
  const std::string exe = findInPath(argv[0]);
  if (exe.empty()) {
    why = argv[0] + " is not installed (Slurm's client commands are needed)";
    return std::nullopt;
  }
  const std::string log = (fs::path(dir) / "slurm-command.log").string();
  const driver::ChildResult r = driver::runChild(exe, argv, log, 30000, nullptr);
  const std::string text = readText(log);
  if (!r.started || r.stop != driver::ChildStop::None || r.exitCode != 0) {
    why = argv[0] + " failed: " + (r.started ? text : "cannot start " + exe);
    return std::nullopt;
  }
  return text;
}

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Submits the tasks `indices` as one array; the job id, or nullopt with `why`.
std::optional<std::string> submit(const SlurmOptions& s, const std::vector<size_t>& indices,
                                  std::string& why) {
  std::string list;
  for (size_t i : indices) list += (list.empty() ? "" : ",") + std::to_string(i);
  std::vector<std::string> argv = {"sbatch",
                                   "--parsable",
                                   "--job-name=tirx-tune",
                                   "--array=" + list,
                                   "--cpus-per-task=1",
                                   "--output=" + (fs::path(s.workDir) / "task-%a.log").string()};
  if (!s.partition.empty()) argv.push_back("--partition=" + s.partition);
  const auto node = driver::parseDevice(s.nodeDevice);
  if (node && node->kind == driver::DeviceKind::Cuda) argv.push_back("--gres=gpu:1");
  argv.push_back("--wrap=exec " + shellQuote(s.tirxPath) + " tune-task " + shellQuote(s.workDir) +
                 " $SLURM_ARRAY_TASK_ID");
  auto out = slurmCommand(s.workDir, argv, why);
  if (!out) return std::nullopt;
  std::string id = out->substr(0, out->find_first_of(";\n"));
  if (id.empty()) why = "sbatch printed no job id: " + *out;
  return id.empty() ? std::nullopt : std::optional<std::string>(id);
}

/// Waits until squeue no longer lists job `id`; false when cancelled or past the time limit (the
/// array is then scancelled).
bool waitForArray(const SlurmOptions& s, const std::string& id, const CancelTokenPtr& cancel,
                  std::string& why) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    std::string err;
    auto out = slurmCommand(s.workDir, {"squeue", "-h", "-j", id, "-o", "%i"}, err);
    // Once the controller has purged the job, squeue calls its id invalid: the array is done.
    if ((out && out->find_first_not_of(" \n") == std::string::npos) ||
        (!out && err.find("Invalid job id") != std::string::npos))
      return true;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool stop = (cancel && cancel->cancelled()) || elapsed > s.timeoutSeconds;
    if (stop) {
      std::string ignored;
      slurmCommand(s.workDir, {"scancel", id}, ignored);
      why = cancel && cancel->cancelled() ? "cancelled"
                                          : "the job array " + id + " did not finish within " +
                                                std::to_string(int(s.timeoutSeconds)) + " s";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
}

nlohmann::json jobJson(const TuneSpace& space, const std::vector<Candidate>& todo,
                       const TuneOptions& o, const SlurmOptions& s) {
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : space.params) params.push_back({{"name", p.name}, {"values", p.values}});
  return {{"file_name", o.evaluate.fileName}, {"arch", o.evaluate.arch}, {"device", s.nodeDevice},
          {"kernel", o.evaluate.kernel},      {"params", params},        {"candidates", todo}};
}

}  // namespace

TuneReport runTuneSlurm(std::string_view source, const TuneSpace& space, const TuneOptions& options,
                        const SlurmOptions& s) {
  TuneReport report;
  report.total = enumerateCandidates(space).size();
  CacheContext ctx = options.cache;
  CacheSplit split = splitByCache(source, space, options.cachePath, ctx);
  for (auto& hit : split.hits) report.results.push_back(hit);
  report.cacheHits = split.hits.size();
  const auto log = [&](const std::string& line) {
    if (s.log) s.log(line);
  };
  std::error_code ec;
  fs::create_directories(s.workDir, ec);
  if (!split.todo.empty() &&
      (ec || !writeText(fs::path(s.workDir) / "script.py", std::string(source)) ||
       !writeText(fs::path(s.workDir) / "job.json",
                  jobJson(space, split.todo, options, s).dump()))) {
    report.cacheErrors.push_back("cannot write the job into '" + s.workDir + "'");
    report.skipped = split.todo.size();
    return report;
  }
  std::vector<size_t> pending;
  for (size_t i = 0; i < split.todo.size(); ++i) pending.push_back(i);
  const CancelTokenPtr& cancel = options.evaluate.cancel;
  std::string failure;
  for (int round = 0; round < 2 && !pending.empty() && failure.empty(); ++round) {
    if (round == 1) {
      std::string list;
      for (size_t i : pending) list += (list.empty() ? "" : ",") + std::to_string(i);
      log("resubmitting " + std::to_string(pending.size()) + " task(s) without a result: " + list);
    }
    auto id = submit(s, pending, failure);
    if (!id) break;
    log("submitted job array " + *id + " (" + std::to_string(pending.size()) + " tasks)");
    if (!waitForArray(s, *id, cancel, failure) && failure != "cancelled") break;
    std::vector<size_t> missing;
    for (size_t i : pending) {
      std::string key;
      CandidateResult r;
      const std::string line =
          readText(fs::path(s.workDir) / ("result-" + std::to_string(i) + ".json"));
      if (!parseResultLine(line, key, r)) {
        missing.push_back(i);
        continue;
      }
      std::string why;
      if (!options.cachePath.empty() && r.outcome != Outcome::Failed &&
          !appendCache(options.cachePath, split.keys[i], r, why))
        report.cacheErrors.push_back(why);
      report.results.push_back(r);
      if (options.onResult) options.onResult(r, report.results.size(), report.total);
    }
    pending = missing;
    if (failure == "cancelled") break;
  }
  report.cancelled = cancel && cancel->cancelled();
  if (!report.cancelled)
    for (size_t i : pending) {
      CandidateResult r;
      for (size_t p = 0; p < space.params.size(); ++p)
        r.values[space.params[p].name] = split.todo[i][p];
      r.outcome = Outcome::Failed;
      r.reason = !failure.empty() ? failure
                                  : "slurm task " + std::to_string(i) +
                                        " left no result twice (log: " + s.workDir + "/task-" +
                                        std::to_string(i) + ".log)";
      report.results.push_back(r);
    }
  report.skipped = report.total - report.results.size();
  // Everything came back: the work directory has served; else it stays for its task logs.
  if (pending.empty() && failure.empty() && !report.cancelled) fs::remove_all(s.workDir, ec);
  const auto node = driver::parseDevice(s.nodeDevice);
  rankResults(report.results, node && node->isSim());
  return report;
}

int runSlurmTask(const std::string& dir, int index, std::string& why) {
  const std::string source = readText(fs::path(dir) / "script.py");
  const nlohmann::json job =
      nlohmann::json::parse(readText(fs::path(dir) / "job.json"), nullptr, false);
  if (!job.is_object() || !job.contains("candidates") || index < 0 ||
      size_t(index) >= job["candidates"].size()) {
    why = "no candidate " + std::to_string(index) + " in '" + dir + "/job.json'";
    return 2;
  }
  std::vector<ParamOverride> params;
  for (const auto& p : job["params"])
    params.push_back({p["name"].get<std::string>(), p["values"].get<std::vector<int64_t>>(), {}});
  const TuneSpace space = findTuneSpace(source, params);
  auto device = driver::parseDevice(job.value("device", "sim"));
  if (!space.ok() || !device) {
    why = "the job in '" + dir + "' does not describe a tune space and a device";
    return 2;
  }
  EvaluateOptions eo;
  eo.device = *device;
  eo.arch = job.value("arch", "sm_90");
  eo.fileName = job.value("file_name", "script.py");
  eo.kernel = job.value("kernel", "");
  const Candidate c = job["candidates"][size_t(index)].get<Candidate>();
  CandidateResult r = evaluateCandidate(substitute(source, space, c), space, c, eo);
  r.lane = std::string(std::getenv("SLURMD_NODENAME") ? std::getenv("SLURMD_NODENAME") : "") + ":" +
           device->text();
  if (!writeText(fs::path(dir) / ("result-" + std::to_string(index) + ".json"),
                 resultLine("", r))) {
    why = "cannot write the result into '" + dir + "'";
    return 2;
  }
  return 0;
}

}  // namespace tirx::tune
