// runCompile(): core/driver's compileScript on the worker; the studio keeps its products as they
// are and adds only the status bar's line.
#include <sstream>

#include "views/engine/engine_products.h"

namespace tirx::views {

CompileProducts runCompile(const CompileRequest& request) {
  CompileProducts out;
  driver::CompileOptions options;
  options.sm = request.sm;
  options.analysed = request.analysed.get();
  auto result = driver::compileScript(request.source, request.fileName, options);
  if (!result) {
    out.summary = "compile failed: " + result.error().text();
    return out;
  }
  out.engine = std::move(*result);
  const driver::CompileProducts& p = out.engine;
  int errors = 0;
  for (const auto& d : p.diagnostics) errors += d.severity == Severity::Error;
  std::ostringstream sum;
  sum << (p.ok ? "compiled " : "compile failed ") << request.fileName << " for sm_" << request.sm
      << " in " << p.timings.totalMs << " ms";
  if (errors) sum << ", " << errors << " errors";
  if (!p.resources.empty()) sum << " · " << p.resources.front().registers << " registers";
  out.summary = sum.str();
  return out;
}

}  // namespace tirx::views
