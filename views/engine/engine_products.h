// The studio's values of the engine's later stages and the jobs that make them: a compile job
// hands back core/driver's CompileProducts, a verify job core/verify's Report, each with only
// what the worker adds for the docks (a status line, decimated plots). The run* functions run on
// the job runner's worker thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diag/budget.h"
#include "core/driver/compile.h"
#include "core/toolchain/ncu_profile.h"
#include "core/verify/verify.h"
#include "views/engine/plot_series.h"

namespace tirx::views {

struct CompileRequest {
  std::string source;
  std::string fileName;
  int sm = 90;
  /// The session's analysis of this very text, name and sm (ScriptFacts::frontEnd), or null: the
  /// job then runs the front end itself. One analysis serves diagnostics, compile and verify.
  std::shared_ptr<const FrontEndResult> analysed;
};

/// What a compile job hands the studio: core/driver's products as the engine published them (the
/// texts, the source map the Assembly dock links through, the resources it renders, the register
/// facts of the editor's gutter, the diagnostics) and the one line the worker wrote for the
/// status bar. A compile that could not run at all has a default `engine` and says why in
/// `summary`.
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
  /// Simulate only this CTA of each kernel on seeded inputs, the check code not run (the Pipeline
  /// dock's "Simulate CTA alone" for launches too large to simulate whole; verify::VerifyOptions::
  /// onlyCta). The run is on the simulator whatever `device` says. -1: a normal verify.
  int64_t onlyCta = -1;
  /// As CompileRequest::analysed.
  std::shared_ptr<const FrontEndResult> analysed;
};

/// What the Results dock draws of one check, decimated on the worker (plot_series.h) so that the
/// GUI thread draws a few thousand points whatever the size of the output.
struct CheckPlots {
  PlotSeries output, reference, error;  ///< output, reference and |output − reference|
  HeatGrid heat;  ///< |error| of a 2-D (or higher) output, rows × last dimension; else empty
};

/// What a verify job hands the studio: core/verify's Report as the engine made it (checks with
/// their worst elements and producers, errors, faults, kernel runs with their shared-memory
/// counts, owners and timelines) and only what the worker adds for the docks.
struct VerifyProducts {
  verify::Report engine;
  std::vector<CheckPlots> plots;  ///< one per engine.checks entry
  std::string summary;            ///< the status bar's line, or why it could not run
  std::string device;             ///< the device: as the user picked it ("cuda:0"), or as recorded
  bool cancelled = false;         ///< stopped through its cancel token (Stop, Esc, a newer run)
  /// Something ran: no device was missing, and a kernel ran or a check was made.
  bool ran() const {
    return !engine.environmentError && (!engine.runs.empty() || !engine.checks.empty());
  }
};

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
  std::optional<toolchain::Profile> profile;  ///< attached by `tirx bundle --profile`
};
OpenedBundle loadBundleFile(const std::string& path, int plotColumns = 512);

/// GPUs the engine can see ("cuda:0 — NVIDIA H200"), empty without a driver or core/device.
std::vector<std::pair<std::string, std::string>> availableDevices();

}  // namespace tirx::views
