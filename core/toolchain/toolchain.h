// The CUDA toolchain as library calls: NVRTC turns generated CUDA C++ into PTX, nvJitLink turns
// PTX into a cubin and reports per-kernel resources (registers, spills, shared memory, stack,
// barriers), and nvdisasm/cuobjdump (when one is found on PATH or in the CUDA directory) turn the
// cubin into SASS. Compiler messages are kept as values with the file and line they name (after
// `#line`, the script's) and, for ptxas messages, the PTX line mapped back through `.loc`.
// Results are cached in memory, keyed on (source, options, toolkit version).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/result.h"

namespace tirx::toolchain {

struct CompileOptions {
  int sm = 90;                ///< target: compute_<sm> for NVRTC, sm_<sm> for nvJitLink
  bool archSpecific = false;  ///< the `a` targets (compute_90a / sm_90a): wgmma, setmaxnreg
  bool lineInfo = true;       ///< -lineinfo (.loc records)
  bool cubin = true;          ///< also link to a cubin (and parse resources)
  bool sass = true;           ///< also disassemble the cubin when a disassembler exists
  bool fp16Header = false;    ///< add -I<cuda>/include (the source includes cuda_fp16.h)
  bool useCache = true;
  std::string programName = "tirx_kernel.cu";
  std::vector<std::string> extraOptions;
};

/// One kernel's resource report, parsed from ptxas' verbose info log.
struct KernelResources {
  std::string kernel;
  int registers = 0;
  int stackBytes = 0;
  int spillStores = 0, spillLoads = 0;
  int sharedBytes = 0;
  int constantBytes = 0;
  int barriers = 0;
};

/// A compiler message located in a file (the script after `#line`, or the PTX).
struct ToolMessage {
  std::string tool;  ///< "nvrtc" or "ptxas"
  bool error = true;
  std::string file;    ///< file named by the message (script name for NVRTC after #line)
  int line = 0;        ///< line in `file` (0 = unknown)
  int ptxLine = 0;     ///< ptxas: the PTX line the message names
  int scriptLine = 0;  ///< the script line (from #line or from the .loc before ptxLine)
  std::string text;    ///< the message without its location prefix
  /// ptxas' wgmma performance notes (info lines `(C7510)`..`(C7520)`: injected warpgroup.arrive,
  /// serialised wgmma pipeline): the function they name; kept as warnings (error false).
  std::string function;
};

struct CompileProducts {
  bool ok = false;  ///< PTX (and cubin when asked) were produced
  std::string ptx;
  std::vector<uint8_t> cubin;
  std::string sass;        ///< empty when no disassembler ran; see sassStatus
  std::string sassStatus;  ///< "nvdisasm", "cuobjdump", "no disassembler found", error text
  /// `nvdisasm -c -plr -lrm count`: live registers per instruction (register_facts.h); run only
  /// when the SASS came from nvdisasm. Empty otherwise, see sassLiveStatus.
  std::string sassLiveRanges;
  std::string sassLiveStatus;  ///< "nvdisasm -plr", "not run: ...", or the failure
  std::vector<KernelResources> resources;
  std::string nvrtcLog, linkLog;
  std::vector<ToolMessage> messages;
  double nvrtcMs = 0, linkMs = 0, sassMs = 0;
  bool cacheHit = false;
  double totalMs = 0;  ///< wall time of this call (a cache hit: the lookup)
};

/// Compile CUDA C++ to PTX (+ cubin, resources, SASS). Compiler errors in the source are returned
/// in products (ok = false, messages); a Status only when a tool cannot be used at all.
Result<CompileProducts> compile(const std::string& source, const CompileOptions& options);

/// "NVRTC 13.0, nvJitLink 13.0"
std::string toolkitVersion();

/// Parse ptxas' verbose info log (nvJitLink -verbose) into per-kernel resources.
std::vector<KernelResources> parseResourceLog(const std::string& log);

/// One kernel's resources as one line, the form bundles record and the studio's Assembly dock
/// shows: "k: 24 registers, 0 bytes shared, 0 bytes stack, 0 spill stores, 0 spill loads, 0 bytes
/// constant, 1 barriers". A negative field (unknown: read from an older bundle) is left out.
std::string resourceLine(const KernelResources& r);
/// The inverse of resourceLine, for lines read back from a bundle: fields in any order, the
/// constant and barrier fields optional (-1 when absent). Nullopt for a line of another form.
std::optional<KernelResources> parseResourceLine(std::string_view line);

/// Map a ptxas/NVRTC log to messages; `scriptFile` is the #line file name. A ptxas message's PTX
/// line goes to the script through ptxScriptLines (core/ptx/ptx_loc.h, the source map's reader):
/// the line's own script line, else the nearest mapped line above it.
std::vector<ToolMessage> parseToolLog(const std::string& log, const std::string& tool,
                                      const std::string& ptx, const std::string& scriptFile);

/// The instruction on one line of SASS as nvdisasm/cuobjdump print it (the Assembly view's
/// hover): `/*0070*/ @!P0 LDG.E.128 R4, desc[UR4][R4.64] ;` → mnemonic "LDG", modifiers ".E.128",
/// guard "@!P0", and the one-line description of the mnemonic from the toolchain's SASS table
/// (empty for a mnemonic the table does not know). Nullopt for a line without an instruction
/// (section headers, labels, `//##` line records, blank lines).
struct SassLineFacts {
  std::string mnemonic, modifiers, guard, description;
};
std::optional<SassLineFacts> sassLineFacts(std::string_view line);

/// The disassembler found on PATH or in the CUDA directory ("" when none).
std::string findDisassembler();

/// Drop every cached compile (tests).
void clearCompileCache();
std::size_t compileCacheSize();

}  // namespace tirx::toolchain
