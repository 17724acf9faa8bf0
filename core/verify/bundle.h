// Reproducible kernel bundles (`tirx bundle`, `tirx replay`, the studio's File > Export bundle):
// one
// `.tirxb` file — a JSON document, binary payloads in base64 — holding the script, every kernel
// launch of a verify run with its inputs and the outputs the device produced, the checks with
// their reference values, the generated CUDA/PTX/SASS and resource report, toolkit and driver
// versions, the device name and timings (schema: docs/cli.md, "Kernel bundles"). `openBundle` turns
// a bundle file into the engine's own values (a compile's products, a verify Report), the one
// door through which the studio and the CLI open bundles. Writing records
// the launches through a wrapping Executor; reading is defensive (a truncated, malformed or newer
// bundle is a Status naming the problem, never an exception); replay re-runs each recorded launch
// from its recorded inputs and compares the outputs with the recorded ones within the tolerance of
// the check that looked at that kernel.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/result.h"
#include "core/driver/compile.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"
#include "core/toolchain/ncu_profile.h"
#include "core/verify/verify.h"

namespace tirx::verify {

/// The schema version this build writes and the newest it reads. Version 2 (issue 23, decision
/// FRONT-1): snake_case members and resources as objects; version 1 (camelCase members, resources
/// as toolchain::resourceLine text) is still read.
inline constexpr int kBundleVersion = 2;
/// The largest bundle `parseBundle` reads.
inline constexpr size_t kMaxBundleBytes = size_t(1) << 30;

struct BundleArg {
  std::string name;        ///< the kernel parameter
  ir::KernelArg input;     ///< as the launch received it
  bool hasOutput = false;  ///< the kernel writes it: `output` is what the device left
  ir::HostTensor output;
};

struct BundleLaunch {
  std::string kernel, device;
  bool ran = false;
  double compileMs = 0, runMs = 0;
  std::vector<ir::Fault> faults;
  std::vector<BundleArg> args;
};

/// The generated code of the script (all kernels), when the toolchain could compile it.
struct BundleProducts {
  std::string cuda, ptx, sass, sassStatus, error;
  /// One report per kernel, as the compile produced it. Read from a version 1 bundle (text lines):
  /// a field the line lacks is -1 (unknown).
  std::vector<toolchain::KernelResources> resources;
  /// Version 1 bundles: resource lines not in resourceLine's form, left out of `resources`.
  int unreadableResources = 0;
};

struct Bundle {
  int version = kBundleVersion;  ///< the file's schema version; bundleToJson writes kBundleVersion
  std::string tirxVersion, created;  ///< created: UTC, ISO 8601
  std::string scriptFile, script, arch = "sm_90";
  std::string requestedDevice, deviceName;  ///< "cuda:0", "NVIDIA H200 (cuda:0)"
  std::string toolkit, driver;  ///< "NVRTC 13.0, nvJitLink 13.0", "13.0" (empty: unknown)
  bool passed = false;
  double totalMs = 0;
  std::vector<Check> checks;  ///< with their output and reference values
  Diagnostics errors;
  std::vector<ir::Fault> faults;
  std::vector<BundleLaunch> launches;
  BundleProducts products;
  /// A `tirx profile` summary of this script on a GPU, attached by `tirx bundle --profile`: the
  /// studio shows it in the Profile dock when the bundle is opened.
  std::optional<toolchain::Profile> profile;
};

/// What makeBundle needs besides the script.
struct BundleOptions {
  std::string fileName = "<script>";  ///< the script's path (its base name goes into the bundle)
  std::string arch = "sm_90";
  /// Where the launches run (recorded as the bundle's requestedDevice, its text); a local GPU also
  /// records the CUDA driver's version.
  driver::DeviceSpec device;
  BudgetLimits budget;
  CancelTokenPtr cancel;
};

/// Verifies `source` on the device with every launch recorded (each kernel call runs once, there),
/// compiles it for the generated code and fills a Bundle. `report` receives the verify's Report
/// (environmentError: the device was unavailable, and the bundle is not worth writing).
Bundle makeBundle(std::string_view source, const BundleOptions& options, Report* report = nullptr);

/// Wraps `inner`: every run() is forwarded (with this executor's budget) and recorded into
/// `launches` — the arguments before the run, those the kernel writes after it, device, timings
/// and faults. `launches` must outlive the executor.
std::unique_ptr<ir::Executor> recordingExecutor(std::unique_ptr<ir::Executor> inner,
                                                std::vector<BundleLaunch>* launches);

std::string bundleToJson(const Bundle& b);
/// Status{"bundle", why}: not JSON (truncated or garbage), not a tirx bundle, a newer version,
/// or a member missing, of the wrong type, or of the wrong size.
Result<Bundle> parseBundle(std::string_view text);

/// A bundle opened into the engine's values: what the studio's Assembly and Results docks show
/// and what `tirx replay` re-runs, exactly as they would a live compile and verify.
struct OpenedBundle {
  Bundle bundle;
  /// The recorded generated code as a compile's products: the texts, the resources, and the
  /// source map of the recorded PTX and SASS (their own line records, read by the readers a live
  /// compile uses). `ok` is false when the recorded compile failed (`bundle.products.error`).
  driver::CompileProducts products;
  /// The recorded verify as a Report: its checks, errors, faults, total time, and one run per
  /// recorded launch (no span: a launch records no call site).
  Report report;
};

/// Reads and parses the bundle at `path` and turns it into engine values. Status{"open", …}
/// when the file is missing, unreadable, a directory or over kMaxBundleBytes; parseBundle's
/// Status{"bundle", …} when it is not a readable bundle.
Result<OpenedBundle> openBundle(const std::string& path);

/// The outcome of replaying one launch.
struct ReplayOutput {
  std::string param;
  bool match = false;
  int64_t differ = 0, total = 0;
  double maxAbs = 0;
  std::string detail;  ///< the first differing element, or why nothing was compared
};
struct LaunchReplay {
  std::string kernel, device;
  bool ran = false, recordedRan = false;
  bool match = false;  ///< every output within tolerance, and ran iff the recording ran
  double rtol = 0, atol = 0;
  std::vector<ReplayOutput> outputs;
  std::vector<ir::Fault> faults;
  std::string error;  ///< the executor's Status (environment), empty otherwise
};

/// The tolerance of the first check that compared `kernel`'s output; rtol 1e-5 / atol 1e-6 (the
/// device comparison's) when none did.
void bundleTolerance(const Bundle& b, const std::string& kernel, double& rtol, double& atol);

/// Re-runs every launch of `b` on `exec` from its recorded inputs and compares. `program` is the
/// checked script of the bundle.
std::vector<LaunchReplay> replayBundle(const Bundle& b, const ir::Program& program,
                                       ir::Executor& exec);

/// Compares one output with its recording: elements defined in both within rtol/atol (NaN equals
/// NaN), an element defined in one only is a difference.
ReplayOutput compareOutput(const std::string& param, const ir::HostTensor& recorded,
                           const ir::HostTensor& replayed, double rtol, double atol);

}  // namespace tirx::verify
