// Kernel IR ⇒ CUDA C++. One `extern "C" __global__` function per kernel (with
// `__launch_bounds__`), private scalar functions as `__device__ __forceinline__`, register tiles
// as per-thread arrays sized by their layout's storage slots, shared tiles as
// `__shared__ alignas(A)`, every TileApply fully unrolled into one inline-PTX `asm volatile` per
// repeat (spec §2.6), every ewise invocation an inlined call. Each emitted statement is preceded
// by `#line N "FILE"`, so NVRTC's `-lineinfo` `.loc` records name script lines; the source map
// (script line ↔ CUDA lines, and after compilation ↔ PTX lines) is returned as data.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/ir/ir.h"

namespace tirx::codegen {

struct CodegenOptions {
  std::string scriptFile = "script.py";  ///< the file name written in `#line` directives
  std::string kernel;                    ///< emit only this kernel (empty: every kernel)
  bool lineDirectives = true;
};

/// One emitted statement: the script line and the CUDA lines it became (1-based, inclusive).
struct LineSpan {
  int scriptLine = 0;
  int cudaFirst = 0, cudaLast = 0;
};

struct SourceMap {
  std::vector<LineSpan> statements;  ///< in emission order
  std::vector<int> cudaToScript;     ///< index: CUDA line (1-based; [0] unused); 0 = generated
  std::vector<int> ptxToScript;      ///< index: PTX line; filled by attachPtx()
  /// index: SASS line; filled from nvdisasm -g's line records by core/toolchain's sassLineMap
  /// (codegen sits below the toolchain and does not read SASS itself).
  std::vector<int> sassToScript;
  /// CUDA / PTX / SASS lines that came from `scriptLine`, ascending.
  std::vector<int> cudaLinesOf(int scriptLine) const;
  std::vector<int> ptxLinesOf(int scriptLine) const;
  std::vector<int> sassLinesOf(int scriptLine) const;
  /// Fill ptxToScript from the `.loc` records of NVRTC's PTX (`file` = the #line name) through
  /// the one `.loc` reader, ptxScriptLines (core/ptx/ptx_loc.h): an inlined body's instructions
  /// belong to its call site's line.
  void attachPtx(const std::string& ptx, const std::string& file);
};

/// The code of an internal error: the engine met a state its own checks should have excluded (a
/// tirx bug, not a problem of the script). Its message starts "internal error:" and asks for a
/// report; user diagnostics never carry this code.
inline constexpr std::string_view kInternalErrorCode = "E0999";

struct CodegenResult {
  std::string cuda;
  SourceMap map;
  bool needsFp16Header = false;  ///< the source includes cuda_fp16.h / cuda_bf16.h
  /// The program uses sm_90a-only instructions (wgmma, setmaxnreg): compile for compute_90a /
  /// sm_90a (decision TC-2).
  bool needsSm90a = false;
  std::vector<std::string> kernels;  ///< emitted kernel names, in order
  /// E0900: no kernel of the requested name; E0999 (kInternalErrorCode): IR the generator
  /// cannot lower although sema accepted it, a tirx bug.
  Diagnostics diagnostics;
};

/// Generate CUDA C++ for the program (or one kernel of it).
CodegenResult generateCuda(const ir::Program& program, const CodegenOptions& options = {});

/// How one register operand's slots are addressed: per (repeat, atom) element, in row-major
/// order, the slot when it is the same for every group coordinate (nullopt when it depends on
/// the thread, in which case a runtime index is emitted).
struct SlotPlan {
  std::vector<std::optional<int64_t>> slotOf;
  bool allConstant() const;
};
/// `shape` = group ++ repeat ++ atom dims of `ref`; `groupRank` leading dims are the group.
SlotPlan planRegisterSlots(const ir::TensorRef& ref, int groupRank);

/// A memory offset (elements of the ref's dtype) affine in the group coordinates:
/// `constant + Σ coef[i] · g[i]`, checked for every group coordinate.
struct AffineOffset {
  int64_t constant = 0;
  std::vector<int64_t> coef;
};
/// The offset of element `ref[g, tail]` for all group coordinates g (the first `groupRank` dims),
/// or nullopt when it is not affine in g or the ref has a runtime offset.
std::optional<AffineOffset> affineOffset(const ir::TensorRef& ref, int groupRank,
                                         std::span<const int64_t> tail);

}  // namespace tirx::codegen
