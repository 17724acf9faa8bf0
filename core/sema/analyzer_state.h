// Private to core/sema: what the Analyzer's parts share while one module is checked — the module
// and options, the program being built, the diagnostics, the module scope, the macros being
// expanded, the hoisted collectives and the body (kernel or scalar function) being lowered. The
// functions that read and write it are declared in analyzer.h.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/layout/layout_parse.h"
#include "core/layout/swizzle_layout.h"
#include "core/sema/fragment_facts.h"
#include "core/sema/sema_values.h"

namespace tirx::sema {

/// The state of one Analyzer run.
struct AnalyzerState {
  AnalyzerState(const ast::Module& module, const SemaOptions& options)
      : m_module(module), m_options(options) {}

  const ast::Module& m_module;
  SemaOptions m_options;
  ir::Program m_program;
  std::vector<FragmentFact>* m_fragments = nullptr;
  std::vector<DescriptorFact>* m_descriptors = nullptr;
  Diagnostics m_diags;
  Scope m_moduleScope;
  std::vector<TileLayout> m_layouts;
  std::map<std::string, SourceSpan>
      m_functionDefs;  ///< every def name (for later-definition notes)
  bool m_quietFolds =
      false;  ///< module assignments: a fold error makes a harness value, not an error
  bool m_foldFailedQuietly = false;
  std::vector<const ast::Expr*> m_reportedFolds;  ///< failedFold expressions already reported

  // The body being lowered (kernel or scalar function).
  struct BodyContext {
    bool inFunction = false;
    ir::Kernel* kernel = nullptr;
    ir::ScalarFunction* function = nullptr;
    std::vector<ir::Var>* vars = nullptr;
    std::vector<bool> varThreadDep;
    std::vector<bool> bufferUsed;
    std::vector<int> bufferSymbol;
    Scope locals;
    int loopDepth = 0;
    std::vector<SourceSpan> divergence;  ///< thread-dependent conditions enclosing the statement
    std::vector<SourceSpan>
        laneDivergence;             ///< the lane-dependent ones among them (not warp-uniform)
    std::vector<uint8_t> varLanes;  ///< per var: how its value varies over a warp (sema_warp.cpp)
    int hoistCounter = 0;           ///< temporaries made for hoisted collectives
    bool sawDeviceEntry = false;
    bool skippedRefused = false;  ///< something was skipped for a refused name (sema_recovery.cpp)
    bool launchOk = false;
    int64_t blockThreads = 0;
    ir::DType returnType = ir::DType::Float32;
    /// Statements binding each name of the kernel body, and the forms of one-definition variables
    /// (sema_affine.cpp).
    std::map<std::string, int> assignCount;
    std::map<int, VarForm> varForms;
  };
  std::unique_ptr<BodyContext> m_body;

  // ---- macros (sema_macro.cpp; decision L-2) ----
  struct MacroDef {
    const ast::Stmt* def = nullptr;
    bool hygienic = true;
  };
  std::vector<MacroDef> m_macros;
  std::vector<int> m_expanding;  ///< the macros being expanded, outermost first
  int m_expansion = 0;           ///< the expansion being lowered (0: none)
  int m_expansionCount = 0;

  // ---- error recovery (sema_recovery.cpp) ----
  std::unique_ptr<std::set<std::string>>
      m_moduleBindings;       ///< every name the module binds anywhere
  bool m_starImport = false;  ///< `from x import *`: names unknowable

  // ---- hoisted collectives (sema_warp.cpp) and swizzled layouts (sema_swizzle.cpp) ----
  /// Statement-level scope for hoisted collectives: statements lowered by lowerStmt are inserted
  /// into `out` at `at` when the scope ends.
  struct HoistFrame {
    bool allowed = false;
    std::vector<ir::Stmt> stmts;
  };
  std::vector<HoistFrame> m_hoist;
  std::vector<ComposeLayout> m_composeLayouts;
};

}  // namespace tirx::sema
