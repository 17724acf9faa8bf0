// `tirx diff A B [--device sim|cuda[:N]] [--arch sm_90] [--json] [--no-verify] [--max-cells N]
// [--timeout S]`: two versions of a kernel script (files or `.tirxb` bundles) compared at every
// level (core/diff/version_diff.h): script, register-tile owners, CUDA/PTX/SASS by script line,
// resources, results and timings; two `tirx profile` reports compared per kernel and per line
// (core/diff/profile_diff.h). Exit codes follow diff(1) where it fits the project's scheme:
// 0 the versions are identical (timings aside), 1 they differ (or one has errors), 2 usage or I/O
// (an unreadable file, a malformed bundle), 3 the device is unavailable, 130 interrupted.
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>

#include "app/cli/cli.h"
#include "core/diff/profile_diff.h"
#include "core/diff/version_diff.h"
#include "core/sema/sema.h"

namespace tirx::cli {

namespace {

/// `path` read as a `tirx profile` REPORT.json, or nullopt when it is something else (a script,
/// a bundle): a file that does not parse as JSON is not a profile.
std::optional<toolchain::Profile> readProfile(const std::string& path) {
  std::string text;
  std::ostringstream ignored;
  if (!readFile(path, text, ignored)) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !diff::isProfileReport(j)) return std::nullopt;
  toolchain::Profile p;
  std::string why;
  if (!toolchain::profileFromJson(j, p, why)) return std::nullopt;
  return p;
}

}  // namespace

int cmdDiff(const Args& args, std::ostream& out, std::ostream& err) {
  const char* usage =
      "usage: tirx diff A B [--device sim|cuda[:N]] [--arch sm_90] [--json] [--no-verify] "
      "[--max-cells N] "
      "[--timeout S]\n"
      "  A and B are script files or .tirxb bundles, or two tirx profile REPORT.json files\n";
  const Options o = parseOptions(args, {"--device", "--arch", "--max-cells", "--timeout"},
                                 {"--json", "--no-verify"});
  if (!o.error.empty() || o.positional.size() != 2) {
    err << "tirx diff: " << (o.error.empty() ? "expected two versions A and B" : o.error) << "\n"
        << usage;
    return 2;
  }
  // Two saved profiles (tirx profile -o): kernel facts and per-line stall shares, no run.
  if (auto pa = readProfile(o.positional[0])) {
    const auto pb = readProfile(o.positional[1]);
    if (!pb) {
      err << "tirx diff: '" << o.positional[0] << "' is a profile report and '" << o.positional[1]
          << "' is not; compare two REPORT.json files of tirx profile\n";
      return 2;
    }
    const diff::ProfileDiff pd = diff::diffProfiles(*pa, *pb);
    out << (o.has("--json") ? diff::profileDiffJson(pd).dump(2) + "\n"
                            : diff::profileDiffText(pd, o.positional[0], o.positional[1]));
    return pd.identical() ? 0 : 1;
  }
  diff::DiffOptions d;
  const std::optional<driver::DeviceSpec> device =
      deviceOption(o, "diff", err, "sim", {.remote = false});
  if (!device) return 2;
  std::string why;
  d.arch = o.get("--arch", "sm_90");
  if (parseArch(d.arch) == 0) {
    err << "tirx diff: malformed --arch '" << d.arch << "'\n";
    return 2;
  }
  int64_t cells = d.maxCells;
  if (!o.get("--max-cells").empty() &&
      !parseInteger(o.get("--max-cells"), 0, 1'000'000, cells, why)) {
    err << "tirx diff: --max-cells: " << why << "\n";
    return 2;
  }
  d.maxCells = int(cells);
  if (!o.get("--timeout").empty() && !parseSeconds(o.get("--timeout"), d.budget.maxSeconds, why)) {
    err << "tirx diff: --timeout: " << why << "\n";
    return 2;
  }
  d.verify = !o.has("--no-verify");
  if (device->kind == driver::DeviceKind::Cuda && d.verify && !driver::gpuPathAvailable(&why)) {
    err << "tirx diff: " << why << "; use --device sim\n";
    return 3;
  }
  d.device = *device;  // each side's verify makes its executor with that side's script
  diff::Version versions[2];
  for (int i = 0; i < 2; ++i) {
    Result<diff::Version> v = diff::loadVersion(o.positional[size_t(i)]);
    if (!v) {
      err << "tirx diff: " << v.error().message << "\n";
      return 2;
    }
    versions[i] = std::move(*v);
  }
  d.cancel = std::make_shared<CancelToken>();
  const InterruptCancels interrupt(d.cancel);
  const diff::DiffReport r = diff::diffVersions(versions[0], versions[1], d);
  out << (o.has("--json") ? diff::diffToJson(r) + "\n" : diff::diffToText(r));
  if (interrupt.interrupted()) return kExitInterrupted;
  if (r.resultA.unavailable || r.resultB.unavailable) return 3;
  return r.identical() ? 0 : 1;
}

}  // namespace tirx::cli
