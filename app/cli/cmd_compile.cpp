// `tirx compile FILE [--kernel K] [--arch sm_90] --emit cuda|ptx|sass|resources|ir|map|regs [-o
// OUT]`: runs the compile pipeline (core/driver/compile.h) as far as the requested product needs
// and writes it to stdout or OUT. Diagnostics go to stderr, gcc style. Exit status: 0 success, 1 a
// script or toolchain error, 2 usage/I/O, 3 environment (no disassembler for --emit sass).
// `--emit regs` prints the registers per script line (core/toolchain/register_facts.h): measured
// with nvdisasm, else the IR estimate, every estimated figure marked `~`.
// Documented in docs/cli.md ("tirx compile").
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include "app/cli/cli.h"
#include "core/driver/compile.h"
#include "core/driver/kernel_occupancy.h"
#include "core/sema/sema.h"

namespace tirx::cli {

namespace {

const char* kCompileUsage =
    "usage: tirx compile FILE [--kernel K] [--arch sm_90] --emit "
    "cuda|ptx|sass|resources|ir|map|regs [-o OUT]\n";

// Blocks per SM of each kernel with the resource that limits them (core/toolchain/occupancy.h);
// estimated register figures are marked `~`.
std::string occupancyTable(const std::vector<driver::KernelOccupancy>& rows, int sm) {
  const toolchain::SmLimits l = toolchain::smLimits(sm);
  std::ostringstream s;
  s << "occupancy on sm_" << sm << " (per SM: " << l.registersPerSm << " registers, "
    << l.sharedPerSm / 1024 << " KiB shared, " << l.maxThreadsPerSm << " threads, "
    << l.maxBlocksPerSm << " blocks)\n";
  s << std::left << std::setw(24) << "kernel" << std::right << std::setw(8) << "threads"
    << std::setw(11) << "registers" << std::setw(12) << "shared (B)" << std::setw(11) << "blocks/SM"
    << std::setw(10) << "warps/SM" << std::setw(11) << "occupancy"
    << "  limiter\n";
  for (const auto& r : rows) {
    const toolchain::Occupancy& o = r.occupancy;
    const std::string tilde = r.input.registersEstimated ? "~" : "";
    s << std::left << std::setw(24) << r.kernel << std::right << std::setw(8)
      << r.input.threadsPerBlock << std::setw(11)
      << tilde + std::to_string(r.input.registersPerThread) << std::setw(12)
      << r.input.sharedBytesPerBlock;
    if (!o.valid) {
      s << "  does not fit: " << o.error << "\n";
      continue;
    }
    std::ostringstream pct;
    pct << std::fixed << std::setprecision(1) << o.occupancy * 100 << "%";
    std::string limiters;
    for (auto x : o.limiters)
      limiters += (limiters.empty() ? "" : " and ") + toolchain::occupancyLimiterName(x);
    s << std::setw(11) << tilde + std::to_string(o.blocksPerSm) << std::setw(10) << o.warpsPerSm
      << std::setw(11) << tilde + pct.str() << "  " << limiters << "; register budget " << tilde
      << o.registerBudget << "/thread\n";
  }
  return s.str();
}

std::string resourcesText(const driver::CompileProducts& p, int sm) {
  std::ostringstream s;
  s << "target " << (p.target.empty() ? "sm_" + std::to_string(sm) : p.target) << "\n";
  s << std::left << std::setw(24) << "kernel" << std::right << std::setw(10) << "registers"
    << std::setw(14) << "spill stores" << std::setw(13) << "spill loads" << std::setw(12)
    << "shared (B)" << std::setw(11) << "stack (B)" << std::setw(10) << "barriers"
    << "\n";
  for (const auto& r : p.resources)
    s << std::left << std::setw(24) << r.kernel << std::right << std::setw(10) << r.registers
      << std::setw(14) << r.spillStores << std::setw(13) << r.spillLoads << std::setw(12)
      << r.sharedBytes << std::setw(11) << r.stackBytes << std::setw(10) << r.barriers << "\n";
  s << occupancyTable(driver::kernelOccupancy(p, sm), sm);
  s << std::fixed << std::setprecision(2) << "timings (ms): front end " << p.timings.frontEndMs
    << ", codegen " << p.timings.codegenMs << ", nvrtc " << p.timings.nvrtcMs << ", nvJitLink "
    << p.timings.linkMs << ", total " << p.timings.totalMs
    << (p.timings.cacheHit ? " (cached)" : "") << "\n";
  return s.str();
}

std::string mapText(const driver::CompileProducts& p) {
  std::ostringstream s;
  s << "script line -> CUDA lines | PTX lines\n";
  std::map<int, std::pair<std::vector<int>, std::vector<int>>> rows;
  for (size_t l = 1; l < p.map.cudaToScript.size(); ++l)
    if (p.map.cudaToScript[l] > 0) rows[p.map.cudaToScript[l]].first.push_back(int(l));
  for (size_t l = 1; l < p.map.ptxToScript.size(); ++l)
    if (p.map.ptxToScript[l] > 0) rows[p.map.ptxToScript[l]].second.push_back(int(l));
  auto ranges = [](const std::vector<int>& v) {
    std::string out;
    for (size_t i = 0; i < v.size();) {
      size_t j = i;
      while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
      out += (out.empty() ? "" : ",") + std::to_string(v[i]) +
             (j > i ? "-" + std::to_string(v[j]) : "");
      i = j + 1;
    }
    return out.empty() ? std::string("-") : out;
  };
  for (const auto& [line, r] : rows)
    s << std::setw(5) << line << " -> " << ranges(r.first) << " | " << ranges(r.second) << "\n";
  return s.str();
}

}  // namespace

int cmdCompile(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o = parseOptions(args, {"--kernel", "--arch", "--emit", "-o"}, {"--help"});
  if (o.has("--help")) {
    out << kCompileUsage;
    return 0;
  }
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx compile: " << (o.error.empty() ? "expected exactly one FILE" : o.error) << "\n"
        << kCompileUsage;
    return 2;
  }
  const std::string emit = o.get("--emit", "");
  static const std::vector<std::string> kinds = {"cuda", "ptx", "sass", "resources",
                                                 "ir",   "map", "regs"};
  if (std::find(kinds.begin(), kinds.end(), emit) == kinds.end()) {
    err << "tirx compile: --emit must be one of cuda, ptx, sass, resources, ir, map, regs; found '"
        << emit << "'\n"
        << kCompileUsage;
    return 2;
  }
  const std::string arch = o.get("--arch", "sm_90");
  const int sm = parseArch(arch);
  if (sm == 0) {
    err << "tirx compile: malformed --arch '" << arch << "' (expected e.g. sm_90 or sm_100a)\n";
    return 2;
  }
  const std::string& path = o.positional[0];
  std::string source;
  if (!readFile(path, source, err)) return 2;

  std::string product;
  if (emit == "ir") {
    SemaOptions so;
    so.sm = sm;
    const FrontEndResult fe = checkScript(source, path, so);
    err << formatGcc(fe.diagnostics, path);
    if (!fe.ok()) return 1;
    product = ir::printProgram(fe.program);
  } else {
    driver::CompileOptions co;
    co.sm = sm;
    co.kernel = o.get("--kernel", "");
    co.cubin = emit == "sass" || emit == "resources" || emit == "regs";
    co.sass = emit == "sass" || emit == "regs";
    if (emit == "cuda") co.cubin = false;
    if (emit == "cuda") {
      // Front end + codegen only: no NVRTC needed to show the source.
      SemaOptions so;
      so.sm = sm;
      const FrontEndResult fe = checkScript(source, path, so);
      err << formatGcc(fe.diagnostics, path);
      if (!fe.ok()) return 1;
      codegen::CodegenOptions cgo;
      cgo.scriptFile = path;
      cgo.kernel = co.kernel;
      const codegen::CodegenResult cg = codegen::generateCuda(fe.program, cgo);
      err << formatGcc(cg.diagnostics, path);
      if (hasErrors(cg.diagnostics)) return 1;
      product = cg.cuda;
    } else {
      auto r = driver::compileScript(source, path, co);
      if (!r) {
        err << "tirx compile: " << r.error().text() << "\n";
        return 3;
      }
      err << formatGcc(r->diagnostics, path);
      if (!r->ok) return 1;
      if (emit == "ptx")
        product = r->ptx;
      else if (emit == "resources")
        product = resourcesText(*r, sm);
      else if (emit == "map")
        product = mapText(*r);
      else if (emit == "regs")
        product = toolchain::formatRegisterFacts(r->registers);
      else {
        if (r->sass.empty()) {
          err << "tirx compile: " << r->sassStatus << "\n";
          return 3;
        }
        product = r->sass;
      }
    }
  }
  const std::string outPath = o.get("-o", "");
  if (outPath.empty() || outPath == "-") {
    out << product;
    return 0;
  }
  std::ofstream f(outPath, std::ios::binary);
  f << product;
  if (!f) {
    err << "tirx compile: cannot write '" << outPath << "'\n";
    return 2;
  }
  return 0;
}

}  // namespace tirx::cli
