// The studio's value view of the engine's later stages: compile products (CUDA C++, PTX, SASS,
// resources, the script ↔ CUDA ↔ PTX line map) and verification results (checks, worst elements,
// output/reference arrays, timings). engine_products.cpp fills them from core/driver/compile.h and
// core/verify/verify.h; while those modules are not built, the run* functions are not callable and
// the *Available() functions say so, and the docks show an honest "not available yet" state.
// These functions run on the job runner's worker thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diag/budget.h"
#include "core/diag/diagnostic.h"
#include "core/driver/compile.h"
#include "core/ir/async_timeline.h"
#include "core/ir/shared_access.h"
#include "core/toolchain/register_facts.h"
#include "core/verify/verify.h"
#include "views/plot_series.h"

namespace tirx::views {

struct CompileRequest {
  std::string source;
  std::string fileName;
  int sm = 90;
};

/// What a compile job hands the studio: core/driver's products as the engine published them (the
/// texts, the source map the Assembly dock links through, the resources it renders, the register
/// facts of the editor's gutter, the diagnostics) and the one line the worker wrote for the
/// status bar. A compile that could not run at all has a default `engine` and says why in `summary`.
struct CompileProducts {
  driver::CompileProducts engine;
  std::string summary;
};

struct VerifyRequest {
  std::string source;
  std::string fileName;
  int sm = 90;
  std::string device;  ///< "sim", "cuda:N" or "ssh://[user@]host[:port]/cuda[:N]" / "…/sim"
  /// GPU runs under compute-sanitizer: "memcheck", "racecheck", "initcheck", "synccheck" or empty.
  std::string sanitize;
  int plotColumns = 512;  ///< decimation columns (half the chart width): ≤ 2 points per column
  int heatRows = 256, heatCols = 512;  ///< the heat map's largest grid (cells)
  /// Record the simulator's asynchronous timeline of every launch (the Pipeline dock).
  bool recordTimeline = true;
};

/// One mismatching element of an output.
struct WorstElement {
  std::vector<int64_t> index;
  int64_t flat = 0;
  double actual = 0, expected = 0, absError = 0, relError = 0;
  /// The engine's producer of the element (cta, thread, warp, lane, register tile and slot, lines),
  /// as core/verify reports it; `owner.known` false when the kernel never stored it.
  verify::OwnerInfo owner;
  int line = 0;  ///< the script line of the tile op that wrote it (else the store), 0 when unknown
};

/// One comparison (one assert_close / assert_allclose, or one output of one kernel).
struct CheckResult {
  std::string name;
  bool passed = false;
  std::string message;
  double maxAbsError = 0, maxRelError = 0;
  int64_t mismatches = 0;
  std::vector<int64_t> shape;
  int64_t elements = 0;  ///< compared elements (the length of the full series)
  /// Output, reference and |output − reference| decimated on the worker (plot_series.h).
  PlotSeries plotOutput, plotReference, plotError;
  HeatGrid heat;  ///< |error| of a 2-D (or higher) output, rows × last dimension
  std::vector<WorstElement> worst;
  int line = 0;
};

/// Whose a statement's shared-memory counts are: the kernel run and the shared allocation the
/// statement addresses (core/verify's KernelRun::sharedBuffers; empty when unknown).
struct SharedAccessOwner {
  std::string kernel;
  std::string buffer;
};

/// The asynchronous timeline of one simulated kernel launch (the Pipeline dock's input).
struct TimelineRun {
  std::string kernel;
  int line = 0;  ///< the launch's line in the script
  ir::AsyncTimeline timeline;
};

struct VerifyProducts {
  bool ran = false;     ///< false when it could not run (environment), see summary
  bool passed = false;  ///< every check passed and no fault
  bool cancelled = false;  ///< stopped through its cancel token (Stop, Esc, a newer run)
  std::string summary;
  std::string device;
  std::vector<CheckResult> checks;
  Diagnostics faults;  ///< simulator faults, harness errors
  /// The simulator's shared-memory traffic per statement, every kernel run (bank model).
  std::vector<ir::SharedAccessCount> sharedAccesses;
  std::vector<std::pair<std::string, double>> timings;  ///< (phase, milliseconds)
  std::vector<SharedAccessOwner> sharedOwners;  ///< per sharedAccesses entry
  /// Simulator launches that recorded asynchronous events, in launch order.
  std::vector<TimelineRun> timelines;
  /// The engine's report as core/verify made it (checks with their full output and reference
  /// arrays, faults, runs). The fields above are being folded into this one (issue 12).
  verify::Report engine;
};

/// Whether the engine pieces are built into this binary, and if not, why.
bool compileAvailable();
std::string compileUnavailableReason();
bool verifyAvailable();
std::string verifyUnavailableReason();

/// Compile a script (front end, codegen, NVRTC, nvJitLink, SASS). Slow: worker thread only.
CompileProducts runCompile(const CompileRequest& request);
/// Compile, run and verify a script on `request.device`. Slow: worker thread only. `cancel` (may be
/// null) stops the simulator, the harness and a GPU runner child (which is killed).
VerifyProducts runVerify(const VerifyRequest& request, const CancelTokenPtr& cancel = nullptr);

/// File > Export Bundle: the script verified on `request.device` with every launch recorded, as
/// the bundle's JSON text (core/verify/bundle.h). Slow: worker thread only.
struct BundleExport {
  bool ok = false;
  std::string json;     ///< the bundle (when ok)
  std::string summary;  ///< "2 launches on NVIDIA H200 (cuda:0), 2/2 checks passed" or why not
};
BundleExport runExportBundle(const VerifyRequest& request, const CancelTokenPtr& cancel = nullptr);

/// A bundle opened read-only: its script, the recorded generated code and checks as the docks'
/// values. `ok` false with `error` for an unreadable, malformed or newer bundle. Worker thread.
struct OpenedBundle {
  bool ok = false;
  std::string error;
  std::string script, scriptFile, summary;
  CompileProducts products;
  VerifyProducts report;
};
OpenedBundle loadBundleFile(const std::string& path, int plotColumns = 512);

/// GPUs the engine can see ("cuda:0 — NVIDIA H200"), empty without a driver or core/device.
std::vector<std::pair<std::string, std::string>> availableDevices();

}  // namespace tirx::views
