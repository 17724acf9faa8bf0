// `tirx profile FILE [--kernel K] [--device cuda[:N]|ssh:HOST] [--json] [-o REPORT] [--sass
// LISTING] [--arch sm_90] [--clock-control none|base]`: runs the kernel under Nsight Compute's
// command line (`ncu`, found as $TIRX_NCU, on PATH or in /usr/local/cuda/bin; missing: exit 3),
// reads the source, details and raw pages back as CSV and folds the per-SASS-instruction counters
// onto script lines through tirx's own SASS line records (core/toolchain/ncu_profile.h); prints per
// line stall samples by reason, instructions and bank-conflict wavefronts, per kernel duration,
// roofline point, occupancy and registers; keeps REPORT.ncu-rep and writes REPORT.json. `--sass`
// takes an `nvdisasm -c -g` listing of the same cubin when no nvdisasm is installed.
// `--clock-control` is passed to ncu; tirx's default is `none` (ncu's own is `base`, which locks
// the clocks at the base frequency and so under-reports FLOP/s against a timed benchmark: decision
// PROF-3). An ssh:// device is profiled by the host's tirx (app/cli/profile_remote.h). Exit
// status: 0, 1 the profile failed, 2 usage/I/O, 3 no ncu (or no answer from the host).
// Documented in docs/cli.md ("tirx profile").
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli/cli.h"
#include "app/cli/profile_remote.h"
#include "core/driver/child_process.h"
#include "core/driver/compile.h"
#include "core/sema/sema.h"
#include "core/toolchain/ncu_profile.h"

namespace tirx::cli {

namespace {

const char* kProfileUsage =
    "usage: tirx profile FILE [--kernel K] [--device cuda[:N]|ssh:HOST] [--json] [-o REPORT]\n"
    "                    [--sass NVDISASM_G_LISTING] [--arch sm_90] [--clock-control none|base]\n";

/// $TIRX_NCU, else `ncu` on PATH, else /usr/local/cuda/bin/ncu; empty when none is executable.
std::string findNcu() {
  if (const char* v = std::getenv("TIRX_NCU"); v && *v) return access(v, X_OK) == 0 ? v : "";
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string d;
    while (std::getline(dirs, d, ':'))
      if (!d.empty() && access((d + "/ncu").c_str(), X_OK) == 0) return d + "/ncu";
  }
  return access("/usr/local/cuda/bin/ncu", X_OK) == 0 ? "/usr/local/cuda/bin/ncu" : "";
}

std::string selfExe() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("tirx") : p.string();
}

/// Runs ncu with `args`; its output (stdout and stderr) in `text`. False when it did not exit 0.
bool runNcu(const std::string& ncu, const std::vector<std::string>& args, const std::string& log,
            std::string& text) {
  std::vector<std::string> argv{ncu};
  argv.insert(argv.end(), args.begin(), args.end());
  const driver::ChildResult r = driver::runChild(ncu, argv, log, 600000, nullptr);
  std::ifstream in(log, std::ios::binary);
  text.assign(std::istreambuf_iterator<char>(in), {});
  return r.started && r.stop == driver::ChildStop::None && r.exitCode == 0;
}

}  // namespace

int cmdProfile(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o =
      parseOptions(args, {"--kernel", "--device", "-o", "--sass", "--arch", "--clock-control"},
                   {"--json", "--help", "--stdio"});
  if (o.has("--help")) {
    out << kProfileUsage;
    return 0;
  }
  if (o.has("--stdio")) return profileStdio(std::cin, out);  // the host's side of ssh://
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx profile: " << (o.error.empty() ? "expected exactly one FILE" : o.error) << "\n"
        << kProfileUsage;
    return 2;
  }
  const std::string clocks = o.get("--clock-control", "none");
  if (clocks != "none" && clocks != "base") {
    err << "tirx profile: --clock-control takes none or base, not '" << clocks << "'\n";
    return 2;
  }
  const std::string& path = o.positional[0];
  // ncu profiles processes of its own machine: an ssh:// GPU is profiled by the host's tirx.
  if (const auto parsed = driver::parseDevice(o.get("--device"));
      parsed && parsed->kind == driver::DeviceKind::Remote && parsed->remote) {
    std::string source;
    if (!readFile(path, source, err)) return 2;
    return profileOverSsh(*parsed->remote, path, source, o, out, err);
  }
  const std::optional<driver::DeviceSpec> spec =
      deviceOption(o, "profile", err, "cuda", {.sim = false, .remote = false});
  if (!spec) return 2;
  const std::string device = spec->text();
  std::string source;
  if (!readFile(path, source, err)) return 2;
  const std::string ncu = findNcu();
  if (ncu.empty()) {
    err << "tirx profile: Nsight Compute's ncu was not found ($TIRX_NCU, PATH, "
           "/usr/local/cuda/bin/ncu); install Nsight Compute on the GPU host\n";
    return 3;
  }
  driver::CompileOptions co;
  co.sm = parseArch(o.get("--arch", "sm_90"));
  co.kernel = o.get("--kernel", "");
  auto compiled = driver::compileScript(source, path, co);
  if (!compiled || !compiled->ok || compiled->kernels.empty()) {
    err << "tirx profile: the script does not compile"
        << (compiled ? "\n" + formatGcc(compiled->diagnostics, path)
                     : ": " + compiled.error().text())
        << "\n";
    return 1;
  }
  const std::string kernel = co.kernel.empty() ? compiled->kernels.front() : co.kernel;
  std::string listing = compiled->sass;
  if (!o.get("--sass").empty() && !readFile(o.get("--sass"), listing, err)) return 2;
  const std::string stem = std::filesystem::path(path).stem().string();
  const std::string rep = o.get("-o", stem + ".profile");
  std::string text;
  std::vector<std::string> run{"--target-processes",
                               "all",
                               "--set",
                               "full",
                               "--import-source",
                               "yes",
                               "--launch-count",
                               "1",
                               "--clock-control",
                               clocks,
                               "-f",
                               "-o",
                               rep,
                               selfExe(),
                               "run",
                               path,
                               "--device",
                               device,
                               "--kernel",
                               kernel};
  if (!runNcu(ncu, run, rep + ".ncu.log", text)) {
    err << "tirx profile: ncu failed:\n" << text << "\n";
    return 1;
  }
  std::string pages[3];
  const char* names[3] = {"source", "details", "raw"};
  for (int i = 0; i < 3; ++i) {
    std::vector<std::string> a{"-i", rep + ".ncu-rep", "--page", names[i], "--csv"};
    if (i == 0) a.insert(a.end(), {"--print-source", "sass"});
    if (!runNcu(ncu, a, rep + "." + names[i] + ".csv", pages[i])) {
      err << "tirx profile: ncu -i " << rep << ".ncu-rep --page " << names[i] << " failed:\n"
          << pages[i] << "\n";
      return 1;
    }
  }
  const auto page = toolchain::parseNcuSourcePage(pages[0]);
  if (!page.error.empty()) {
    err << "tirx profile: " << page.error << "\n";
    return 1;
  }
  toolchain::Profile p = toolchain::foldProfile(page, toolchain::parseSassLineInfo(listing, path),
                                                kernel, toolchain::parseNcuDetailsPage(pages[1]),
                                                toolchain::parseNcuRawPage(pages[2]));
  if (listing.empty()) p.status += " (no SASS listing: install nvdisasm or pass --sass)";
  for (const auto& r : compiled->resources)
    if (r.kernel == kernel) {
      if (p.kernel.registers == 0) p.kernel.registers = r.registers;
      p.kernel.spillBytes = r.spillStores + r.spillLoads;
    }
  const nlohmann::json j = toolchain::profileJson(p);
  std::ofstream f(rep + ".json");
  f << j.dump(2) << "\n";
  if (!f) {
    err << "tirx profile: cannot write '" << rep << ".json'\n";
    return 2;
  }
  if (o.has("--json"))
    out << j.dump(2) << "\n";
  else
    out << toolchain::formatProfile(p, path) << "saved " << rep << ".json and " << rep
        << ".ncu-rep\n";
  return 0;
}

}  // namespace tirx::cli
