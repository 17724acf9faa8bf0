// runCompile(): core/driver's compileScript turned into the studio's CompileProducts value (texts,
// resource report, source map as line links, registers per script line). Built when core/driver has
// sources.
#include "views/engine_products.h"

#if defined(TIRX_STUDIO_HAVE_DRIVER)
#include <sstream>

#include "core/driver/compile.h"

namespace tirx::views {

bool compileAvailable() { return true; }
std::string compileUnavailableReason() { return {}; }

CompileProducts runCompile(const CompileRequest& request) {
  CompileProducts out;
  driver::CompileOptions options;
  options.sm = request.sm;
  auto result = driver::compileScript(request.source, request.fileName, options);
  if (!result) {
    out.summary = "compile failed: " + result.error().text();
    return out;
  }
  const driver::CompileProducts& p = *result;
  out.ok = p.ok;
  out.cuda = p.cuda;
  out.ptx = p.ptx;
  out.sass = p.sass;
  out.sassNote = p.sass.empty() ? "SASS not available: " + p.sassStatus : std::string();
  out.diagnostics = p.diagnostics;
  out.compileMillis = p.timings.totalMs;
  std::ostringstream res;
  for (const auto& r : p.resources)
    res << r.kernel << ": " << r.registers << " registers, " << r.stackBytes << " bytes stack, "
        << r.spillStores << " spill stores, " << r.spillLoads << " spill loads, " << r.sharedBytes
        << " bytes shared, " << r.constantBytes << " bytes constant, " << r.barriers
        << " barriers\n";
  if (p.resources.empty()) res << "no resource report (no cubin was linked)\n";
  const auto& t = p.timings;
  res << "\ntimings: front end " << t.frontEndMs << " ms, codegen " << t.codegenMs << " ms, NVRTC "
      << t.nvrtcMs << " ms, link " << t.linkMs << " ms, SASS " << t.sassMs << " ms, total "
      << t.totalMs << " ms" << (t.cacheHit ? " (cache hit)" : "") << "\n";
  if (!p.toolLog.empty()) res << "\n" << p.toolLog;
  out.resources = res.str();
  for (size_t l = 1; l < p.map.cudaToScript.size(); ++l)
    if (p.map.cudaToScript[l] > 0) out.cudaLines.push_back({p.map.cudaToScript[l], int(l)});
  for (size_t l = 1; l < p.map.ptxToScript.size(); ++l)
    if (p.map.ptxToScript[l] > 0) out.ptxLines.push_back({p.map.ptxToScript[l], int(l)});
  for (size_t l = 1; l < p.map.sassToScript.size(); ++l)
    if (p.map.sassToScript[l] > 0) out.sassLines.push_back({p.map.sassToScript[l], int(l)});
  out.registers = p.registers;
  out.registers.instructions.clear();  // the gutter needs only the lines
  int errors = 0;
  for (const auto& d : p.diagnostics) errors += d.severity == Severity::Error;
  std::ostringstream sum;
  sum << (p.ok ? "compiled " : "compile failed ") << request.fileName << " for sm_" << request.sm
      << " in " << t.totalMs << " ms";
  if (errors) sum << ", " << errors << " errors";
  if (!p.resources.empty()) sum << " · " << p.resources.front().registers << " registers";
  out.summary = sum.str();
  return out;
}

}  // namespace tirx::views
#endif
