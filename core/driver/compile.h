// The compile pipeline as one call, for the CLI and the studio: script text → front end (parse +
// sema) → CUDA C++ (codegen, with #line) → PTX (NVRTC) → cubin + resources (nvJitLink) → SASS
// (when a disassembler exists). Returns every product, the source map (script line ↔ CUDA lines
// ↔ PTX lines), per-stage timings, and all diagnostics — script errors from sema and toolchain
// messages mapped back to script lines (E0910 NVRTC, E0911 ptxas).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/diag/diagnostic.h"
#include "core/diag/result.h"
#include "core/ir/ir.h"
#include "core/toolchain/register_facts.h"
#include "core/toolchain/toolchain.h"

namespace tirx {
struct FrontEndResult;  // core/sema/sema.h
}  // namespace tirx

namespace tirx::driver {

struct CompileOptions {
  int sm = 90;           ///< target architecture (sema gating, NVRTC compute_XX, sm_XX)
  std::string kernel;    ///< only this kernel (empty: all)
  bool cubin = true;     ///< link to a cubin and report resources
  bool sass = true;      ///< disassemble when a disassembler exists
  bool useCache = true;  ///< reuse the in-memory caches (script level and NVRTC level)
  /// The front end's result for this very text, file name and `sm`, when the caller already has
  /// it (the studio's analysis, `tirx diff`'s check): compileScript then skips the front end, so
  /// one analysis serves the diagnostics, the compile and the verify. Must outlive the call.
  const FrontEndResult* analysed = nullptr;
};

struct Timings {
  double frontEndMs = 0, codegenMs = 0, nvrtcMs = 0, linkMs = 0, sassMs = 0, totalMs = 0;
  bool cacheHit = false;
};

struct CompileProducts {
  bool ok = false;  ///< no errors; every requested product exists
  ir::Program program;
  Diagnostics diagnostics;  ///< front end, codegen and toolchain, sorted
  std::string fileName;
  std::string cuda, ptx, sass, sassStatus;
  std::vector<uint8_t> cubin;
  std::vector<toolchain::KernelResources> resources;
  codegen::SourceMap map;
  /// Registers per script line: measured (nvdisasm) or an IR estimate, labelled in `source`.
  toolchain::RegisterFacts registers;
  std::vector<std::string> kernels;
  std::string toolLog;  ///< NVRTC and nvJitLink logs, verbatim
  std::string target;   ///< the machine code's target: "sm_90", or "sm_90a" for wgmma/setmaxnreg
  Timings timings;
};

/// Whole pipeline from script text. A Status only when a tool cannot be used at all. With
/// `useCache`, an unchanged script (same text, file name and options) is a lookup
/// (`timings.cacheHit`, stage timings 0); otherwise NVRTC's cache still applies per CUDA source.
Result<CompileProducts> compileScript(std::string_view source, const std::string& fileName,
                                      const CompileOptions& options = {});
/// From an already-checked program (the front end is skipped).
Result<CompileProducts> compileProgram(const ir::Program& program, const std::string& fileName,
                                       const CompileOptions& options = {},
                                       std::string_view source = {});

/// ptxas' wgmma notes that name only a function (C7520 and the other "wgmma.mma_async
/// instructions are serialized" messages) get the script line of that kernel's first wgmma
/// statement; messages that already have a line, or name no kernel of `program`, are unchanged.
void placeWgmmaNotes(std::vector<toolchain::ToolMessage>& messages, const ir::Program& program);

/// Turn toolchain messages into diagnostics at script lines (spans cover the line's text when
/// `source` is given).
Diagnostics toolDiagnostics(const std::vector<toolchain::ToolMessage>& messages,
                            std::string_view source);

}  // namespace tirx::driver
