// Semantic analysis: binds the names of a parsed TIRx script (imports, layout constants, scalar
// functions, kernels), checks every call against its signature and every tile operation against
// the legality rules of spec §2.3 and §3.3, and produces the typed Kernel IR. User errors are
// Diagnostics with codes E0100..E0999 (docs/diagnostics.md); the checker keeps going after an
// error so that one pass reports everything. Module-level code that is not TIRx (the harness at
// the bottom of a doc example: numpy/torch calls) is left for core/verify and not checked here.
#pragma once

#include <string>
#include <string_view>

#include "core/diag/diagnostic.h"
#include "core/ir/ir.h"
#include "core/script/parser.h"

namespace tirx {

struct SemaOptions {
  int sm = 90;  ///< target architecture (sm_90); gates instructions such as three-input max.f32
};

struct SemaResult {
  ir::Program program;      ///< kernels that had errors are still present but may be partial
  Diagnostics diagnostics;  ///< errors and warnings, sorted by position
};

/// Analyze a parsed module.
SemaResult analyze(const ast::Module& module, const SemaOptions& options = {});

/// The whole front end (parse + analyze): what `tirx check` and the editor's live diagnostics run.
struct FrontEndResult {
  ParseResult parse;
  ir::Program program;
  Diagnostics diagnostics;  ///< parse and sema diagnostics together, sorted
  bool ok() const { return !hasErrors(diagnostics); }
};
FrontEndResult checkScript(std::string_view source, std::string fileName = "<script>",
                           const SemaOptions& options = {});

/// Parse "sm_90" / "sm_100a" / "90" into 90/100; 0 when malformed.
int parseArch(std::string_view arch);

}  // namespace tirx
