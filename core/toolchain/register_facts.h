// Register pressure per script line, as structured facts (the editor gutter, `tirx compile --emit
// regs`). Measured facts come from two nvdisasm passes over the cubin joined by (function,
// instruction address): `nvdisasm -c -gi` names each instruction's source line (the script's,
// through the #line directives codegen emits) and `nvdisasm -c -plr -lrm count` gives the live GPR
// / PRED / UGPR / UPRED counts per instruction (nvdisasm ignores -g while printing life ranges,
// hence two passes). Per script line they give the peak live GPRs and where, the live count at each
// wgmma (HGMMA), and the local-memory spill instructions (LDL/STL); per kernel, ptxas' allocated
// registers and spill bytes. Without a disassembler, core/driver fills the same value with an
// IR-based estimate (register_estimate.h), labelled `Estimate` and never shown as measured.
#pragma once

#include <string>
#include <vector>

#include "core/toolchain/toolchain.h"

namespace tirx::toolchain {

enum class RegisterSource { None, Measured, Estimate };
/// "measured (nvdisasm)", "estimate", "none".
std::string registerSourceName(RegisterSource s);

/// One SASS instruction of an `nvdisasm -c -gi` listing, with its live counts once joined.
struct SassInstruction {
  std::string function;  ///< the kernel (the `.text.NAME` section)
  int address = 0;       ///< byte offset in the function, as printed: /*0890*/
  int sassLine = 0;      ///< 1-based line of the instruction in the -g listing
  std::string opcode;    ///< "HGMMA.64x256x16.F32.BF16" (guard predicate dropped)
  std::string text;      ///< the instruction as printed, without the trailing ';'
  std::string file;      ///< the file of the line record in force ("" when none)
  int line = 0;          ///< its line in `file`
  int inlinedAt = 0;  ///< the call site's line when the record is an inlined body's in the script
  /// The script line: `inlinedAt` when set (an inlined body belongs to its call site, as in the
  /// PTX source map, core/ptx/ptx_loc.h), else `line` when `file` is the script, else 0.
  int scriptLine = 0;
  int gpr = -1, pred = -1, ugpr = -1, upred = -1;  ///< live counts (-1: not joined)
};

/// A wgmma issued on a line and the GPRs live there.
struct WgmmaSite {
  std::string function;
  int address = 0;
  int live = 0;  ///< measured, or the estimate of the line
};

/// The facts of one script line.
struct LineRegisters {
  int line = 0;
  std::string kernel;    ///< the kernel of the peak instruction (or of the statement)
  int instructions = 0;  ///< SASS instructions attributed to the line (0 for an estimate)
  int maxLive = 0;       ///< peak live GPRs (measured) or the estimate
  int peakAddress = -1;  ///< measured: the instruction with the peak (first of equals)
  std::string peakOpcode;
  std::vector<WgmmaSite> wgmmas;        ///< HGMMA instructions (measured) or wgmma statements
  int spillLoads = 0, spillStores = 0;  ///< LDL / STL instructions on the line
  int budget = 0;            ///< registers a thread may hold here (setmaxnreg, ptxas, or 255)
  std::string budgetSource;  ///< "setmaxnreg.inc 232 (line 77)", "ptxas: 168 registers", ...
  std::string detail;        ///< estimate: the register tiles counted ("acc 128 + words 64 + 8")
};

/// Per-kernel totals.
struct KernelRegisters {
  std::string kernel;
  int allocated = 0;  ///< ptxas "Used N registers" (0: no report)
  int spillStoreBytes = 0, spillLoadBytes = 0;
  int maxLive = 0, peakAddress = -1;  ///< measured over every instruction of the kernel
  int instructions = 0;
  int unattributed = 0;  ///< instructions whose line record is not the script (generated helpers)
};

struct RegisterFacts {
  RegisterSource source = RegisterSource::None;
  std::string status;  ///< how they were made, or why none / why only an estimate
  std::vector<KernelRegisters> kernels;
  std::vector<LineRegisters> lines;           ///< ascending line, lines with facts only
  std::vector<SassInstruction> instructions;  ///< measured only, listing order
  /// The facts of script line `line`, null when there are none.
  const LineRegisters* findLine(int line) const;
};

/// The instructions of an `nvdisasm -c -gi` (or -g) listing with their line records; `scriptFile`
/// selects the script's records (compared by base name, as the PTX source map does). Lines that are
/// not instructions are skipped; a malformed listing gives fewer (or no) instructions, never an
/// error.
std::vector<SassInstruction> parseSassLineInfo(const std::string& listing,
                                               const std::string& scriptFile);

/// The script line of every line of an `nvdisasm -g` listing, from parseSassLineInfo (the one
/// reader of nvdisasm's line records): index = listing line (1-based, [0] unused, one entry per
/// line), value = the script line of the instruction on it, 0 for records, headers, labels,
/// instructions of another file and listings without records (cuobjdump).
std::vector<int> sassLineMap(const std::string& listing, const std::string& scriptFile);

/// Live counts of an `nvdisasm -c -plr -lrm count` listing (a trailing `// | n | ... |` column
/// per register file the function uses, named by the function's header row `// | GPR | PRED |
/// UGPR | UPRED |`; an empty cell or an absent file is 0) as instructions with only function,
/// address, opcode and counts set.
std::vector<SassInstruction> parseSassLiveCounts(const std::string& listing);

/// Join the two listings by (function, address) and aggregate per script line and per kernel;
/// `resources` gives the allocated registers and spill bytes. Budgets are left for the caller
/// (core/driver knows the setmaxnreg statements). `source` is Measured when at least one
/// instruction was joined; otherwise None with `status` saying why.
RegisterFacts measuredRegisterFacts(const std::string& lineListing, const std::string& countListing,
                                    const std::string& scriptFile,
                                    const std::vector<KernelResources>& resources);

/// A table of the facts, one row per line, for `tirx compile --emit regs`: every figure of an
/// estimate is prefixed with `~` and the header says "estimate".
std::string formatRegisterFacts(const RegisterFacts& facts);

}  // namespace tirx::toolchain
