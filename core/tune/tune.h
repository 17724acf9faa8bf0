// Tuning a kernel's compile-time choices (issue 26, decision TUNE-1 in docs/decisions.md). A
// tunable parameter is a module constant the kernel uses (`ROWS = 1`), and its candidates are a
// module-level table plain Python accepts (`TUNE = {"ROWS": [1, 2], "STAGES": [2, 3]}`) or the
// CLI's `--param NAME=v1,v2`. `findTuneSpace` reads both from the parser's AST (never from text
// patterns); a candidate's script is the source with each constant's literal replaced at the span
// the parser reported. `evaluateCandidate` rejects a candidate that fails the front end (its
// first error), verifies the survivors through verify::verifyScript (a wrong answer is rejected,
// never ranked) and times them: the simulator's work units and wall time, or a GPU's median launch
// time through the runner. The cache (tune_cache.cpp) is a JSON-lines file of CandidateResults.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/budget.h"
#include "core/diag/diagnostic.h"
#include "core/diag/result.h"
#include "core/driver/device.h"

namespace tirx::tune {

/// One tunable constant: its name, its candidate values in order, and the span of the integer
/// literal of its module-level definition (`ROWS = 1`: the `1`).
struct TuneParam {
  std::string name;
  std::vector<int64_t> values;
  SourceSpan literal;
};

struct TuneSpace {
  std::vector<TuneParam> params;
  /// Malformed tables and unknown or non-literal constants (E0860..E0863), with spans; a space
  /// with an error is not tuned.
  Diagnostics diagnostics;
  bool ok() const;
};

/// One `--param NAME=v1,v2,...` (values are integers).
struct ParamOverride {
  std::string name;
  std::vector<int64_t> values;
  SourceSpan span;  ///< the TUNE key it came from; invalid for --param
};
/// Reads `NAME=v1,v2`; false with `why` for anything else.
bool parseParamOverride(std::string_view text, ParamOverride& out, std::string& why);

/// The tunable parameters of `source`: the module-level `TUNE` table, then `overrides` replacing a
/// listed parameter's values or adding another module constant. Every parameter must be defined at
/// module level as `NAME = <integer literal>`.
TuneSpace findTuneSpace(std::string_view source, const std::vector<ParamOverride>& overrides = {});

/// One point of the space: a value per parameter, in TuneSpace::params order.
using Candidate = std::vector<int64_t>;
/// The cartesian product of the parameters' values (the first parameter varies slowest).
std::vector<Candidate> enumerateCandidates(const TuneSpace& space);
/// `source` with each parameter's literal replaced by the candidate's value.
std::string substitute(std::string_view source, const TuneSpace& space, const Candidate& c);
/// "ROWS=2 COLS=1".
std::string candidateText(const TuneSpace& space, const Candidate& c);
/// A hex digest of `source` with every tuned literal replaced by one placeholder: the same for
/// every candidate of one script, different once anything else in it changes.
std::string scriptHash(std::string_view source, const TuneSpace& space);

enum class Outcome { Ranked, RejectedCheck, RejectedVerify, Failed };
const char* outcomeName(Outcome o);  ///< "ranked", "rejected_check", "rejected_verify", "failed"

/// What became of one candidate. Times are those of the kernel launches of the verify (simulator)
/// or the GPU's median of the timed launches.
struct CandidateResult {
  std::map<std::string, int64_t> values;
  Outcome outcome = Outcome::Failed;
  std::string reason;   ///< the first error's "CODE: message (line L:C)", or the failed check
  double timeMs = 0;    ///< median launch time (GPU) or summed simulator run time
  int64_t simWork = 0;  ///< simulator work units of the timing run (0 on a GPU)
  double flops = 0;     ///< 2·M·N·K when the script declares M, N and K; else 0
  double bytes = 0;     ///< bytes of the kernels' tensor arguments
  int registers = 0, sharedBytes = 0;  ///< from the compile (0 when unknown); shared: static +
                                       ///< the launch's dynamic bytes
  /// The lowest compile-time occupancy (active warps / maximum per SM) of its kernels, from
  /// driver::kernelOccupancy; 0 when unknown (no NVRTC, or cached by an older tirx).
  double occupancy = 0;
  std::string device;   ///< where it ran ("simulator", "NVIDIA H100 (cuda:0)")
  std::string lane;     ///< the lane that ran it ("sim", "cuda:1"); empty for cached results
  bool cached = false;  ///< read from the cache, not run now
};

struct EvaluateOptions {
  driver::DeviceSpec device;
  std::string arch = "sm_90";
  std::string fileName = "<script>";
  BudgetLimits budget;  ///< per candidate
  CancelTokenPtr cancel;
  int warmup = 5, repeats = 20;  ///< GPU timing
  std::string runnerPath;        ///< the `tirx` runner; empty = driver::findRunner()
  std::string kernel;            ///< time only this kernel (empty: every kernel)
};

/// Check, verify and time one candidate's script (already substituted).
CandidateResult evaluateCandidate(const std::string& candidateSource, const TuneSpace& space,
                                  const Candidate& c, const EvaluateOptions& options);

/// The ranking order: ranked results by time (simulator: work units, then time), then the rest.
void rankResults(std::vector<CandidateResult>& results, bool simulator);

// --- cache (tune_cache.cpp) -------------------------------------------------------------------

/// What a cache entry is keyed by besides the parameter values.
struct CacheContext {
  std::string scriptHash;
  std::string arch;
  std::string device;  ///< device kind and name ("sim", "cuda:NVIDIA H100 …")
  std::string driver;  ///< driver version, "" for the simulator
  std::string shapes;  ///< "M=128 N=128 K=128": the non-tuned integer constants
};
/// One result as one line of the cache (JSON, no newline); parseResultLine reads it back (false
/// for a torn or foreign line).
std::string resultLine(const std::string& key, const CandidateResult& r);
bool parseResultLine(const std::string& line, std::string& key, CandidateResult& r);
/// The key of one candidate's entry.
std::string cacheKey(const CacheContext& ctx, const std::map<std::string, int64_t>& values);
/// Every entry of `path` (keyed by cacheKey); a missing file is empty, a torn or malformed line is
/// skipped. Later lines win.
std::map<std::string, CandidateResult> readCache(const std::string& path);
/// Appends one whole line with O_APPEND (one write call); false with `why` on an I/O error.
bool appendCache(const std::string& path, const std::string& key, const CandidateResult& r,
                 std::string& why);
/// The non-tuned module-level integer constants, "M=128 N=128".
std::string shapeText(std::string_view source, const TuneSpace& space);

}  // namespace tirx::tune

namespace tirx::tune {

// --- the sweep (tune_run.cpp) -----------------------------------------------------------------

/// Where a tune runs: one device (sim, cuda:N, ssh://…), every local GPU (`cuda:all`, one lane per
/// GPU), or a Slurm job array (`slurm[:PARTITION]`, tune_slurm.cpp).
struct TuneDevice {
  enum class Kind { Single, AllGpus, Slurm } kind = Kind::Single;
  driver::DeviceSpec single;  ///< Single
  std::string partition;      ///< Slurm: empty = the cluster's default
};
/// Reads `cuda:all`, `slurm`, `slurm:PARTITION`, and every driver::parseDevice form (not `both`).
Result<TuneDevice> parseTuneDevice(std::string_view text);
/// The lanes of `cuda:all`: cuda:0 … cuda:N-1 for the N GPUs the driver sees. With a runner
/// override ($TIRX_RUNNER, the tests' fake runner) $TIRX_TUNE_GPU_COUNT gives N instead. A Status
/// when there is no driver or no GPU.
Result<std::vector<driver::DeviceSpec>> localGpuLanes();
/// The cache's device and driver identity of `device`: for a local GPU its name from the driver
/// ("cuda:NVIDIA H100 80GB HBM3") and the driver version ("12080"); the device text and "" where
/// the driver cannot be asked (the simulator, ssh hosts, a fake runner).
std::pair<std::string, std::string> deviceIdentity(const driver::DeviceSpec& device);

struct TuneOptions {
  EvaluateOptions evaluate;  ///< its device is replaced by each lane's
  /// The devices candidates run on in parallel, one lane each (several lanes of the simulator
  /// with --jobs N; one per GPU for cuda:all).
  std::vector<driver::DeviceSpec> lanes{driver::DeviceSpec::simulator()};
  double budgetSeconds = 0;  ///< stop starting candidates after this long; 0 = no limit
  std::string cachePath;     ///< empty: no cache
  CacheContext cache;        ///< its scriptHash and shapes are filled by runTune
  /// Called (from the lane's thread, serialised) after each candidate, cached ones included.
  std::function<void(const CandidateResult&, size_t done, size_t total)> onResult;
};

struct TuneReport {
  std::vector<CandidateResult> results;  ///< ranked first (best first), then the rejected
  size_t total = 0;                      ///< candidates in the space
  size_t skipped = 0;                    ///< not started: cancelled or past the budget
  size_t cacheHits = 0;
  bool cancelled = false;
  std::vector<std::string> cacheErrors;  ///< appends that failed (the tune goes on)
  const CandidateResult* best() const;   ///< the first ranked result, null when none
};

/// Every candidate of `space` over `source`: cached ones from the cache, the others evaluated on
/// the lanes; finished results are appended to the cache as they come.
TuneReport runTune(std::string_view source, const TuneSpace& space, const TuneOptions& options);

/// The candidates of a space split into those the cache has (their results, `cached` set) and the
/// others with their cache keys; fills `ctx`'s script hash and shapes.
struct CacheSplit {
  std::vector<CandidateResult> hits;
  std::vector<Candidate> todo;
  std::vector<std::string> keys;  ///< of `todo`
};
CacheSplit splitByCache(std::string_view source, const TuneSpace& space, const std::string& path,
                        CacheContext& ctx);

// --- Slurm (tune_slurm.cpp) -------------------------------------------------------------------

struct SlurmOptions {
  std::string partition;  ///< empty: the cluster's default
  /// A directory every node sees (the script, the task list, one result file per task, logs).
  std::string workDir;
  std::string tirxPath;             ///< the `tirx` the tasks run (this binary)
  std::string nodeDevice = "cuda";  ///< the device each task tunes on (`sim` for CPU nodes)
  double timeoutSeconds = 3600;     ///< for the whole array, each round
  std::function<void(const std::string&)> log;  ///< progress lines ("submitted job 12 …")
};

/// runTune's sweep as a Slurm job array: one `sbatch --array` (task i runs `tirx tune-task DIR i`),
/// waited for with squeue, the result files collected; tasks without a result are resubmitted
/// once as a second array, then reported as failed. Ctrl-C (the cancel token) cancels the array.
TuneReport runTuneSlurm(std::string_view source, const TuneSpace& space, const TuneOptions& options,
                        const SlurmOptions& slurm);
/// The task side: evaluates candidate `index` of the job in `dir` and writes its result file.
/// Returns 0, or 2 with `why` when the job files cannot be read or the result written.
int runSlurmTask(const std::string& dir, int index, std::string& why);

/// `source` with the constants set to `values` (the --apply and the studio's Apply).
std::string applyValues(std::string_view source, const TuneSpace& space,
                        const std::map<std::string, int64_t>& values);

}  // namespace tirx::tune
