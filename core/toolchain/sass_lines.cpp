// sassLineFacts: the instruction on one line of disassembled SASS and what its mnemonic does
// (Hopper/Ampere mnemonics that the generated kernels contain; NVIDIA's instruction-set
// reference, "CUDA Binary Utilities", lists them). The table is the engine's: the Assembly view
// shows it and parses nothing itself.
#include <array>
#include <cctype>

#include "core/toolchain/toolchain.h"

namespace tirx::toolchain {
namespace {

struct SassMnemonic {
  std::string_view name, description;
};

constexpr std::array kSass = {
    SassMnemonic{"LDG", "load from global memory"},
    SassMnemonic{"STG", "store to global memory"},
    SassMnemonic{"LDS", "load from shared memory"},
    SassMnemonic{"STS", "store to shared memory"},
    SassMnemonic{"LDL", "load from local memory (a spill or a stack array)"},
    SassMnemonic{"STL", "store to local memory (a spill or a stack array)"},
    SassMnemonic{"LDC", "load from a constant bank (kernel parameters)"},
    SassMnemonic{"ULDC", "uniform load from a constant bank"},
    SassMnemonic{"LDSM", "ldmatrix: load 8x8 matrices from shared memory into a warp's registers"},
    SassMnemonic{"STSM", "stmatrix: store 8x8 matrices from a warp's registers to shared memory"},
    SassMnemonic{"LDGSTS", "cp.async: copy from global to shared memory without registers"},
    SassMnemonic{"LDGDEPBAR", "cp.async.commit_group: close a group of asynchronous copies"},
    SassMnemonic{"DEPBAR", "wait on a dependency barrier (cp.async.wait_group)"},
    SassMnemonic{"UTMALDG", "TMA: tensor copy from global to shared memory"},
    SassMnemonic{"UTMASTG", "TMA: tensor copy from shared to global memory"},
    SassMnemonic{"UBLKCP", "bulk copy between global and shared memory"},
    SassMnemonic{"SYNCS", "mbarrier operation (arrive, expect-tx, try-wait)"},
    SassMnemonic{"HMMA", "tensor-core matrix multiply-accumulate (mma.sync, f16/bf16)"},
    SassMnemonic{"HGMMA", "warpgroup tensor-core matrix multiply-accumulate (wgmma)"},
    SassMnemonic{"WARPGROUP", "warpgroup synchronisation around wgmma (fence, arrive)"},
    SassMnemonic{"FFMA", "fused multiply-add, f32 (one rounding)"},
    SassMnemonic{"FADD", "add, f32"},
    SassMnemonic{"FMUL", "multiply, f32"},
    SassMnemonic{"FMNMX", "minimum or maximum, f32"},
    SassMnemonic{"FSETP", "compare f32 values into a predicate"},
    SassMnemonic{"FSEL", "select between two f32 values by a predicate"},
    SassMnemonic{"FCHK", "check whether an f32 division needs the slow path"},
    SassMnemonic{"MUFU", "multi-function unit: ex2, lg2, rcp, rsq, sin, cos, sqrt (approximate)"},
    SassMnemonic{"HFMA2", "fused multiply-add on two f16 halves (also moves constants)"},
    SassMnemonic{"HADD2", "add on two f16 halves"},
    SassMnemonic{"HMUL2", "multiply on two f16 halves"},
    SassMnemonic{"HMNMX2", "minimum or maximum on two f16 halves"},
    SassMnemonic{"F2F", "convert between floating-point widths"},
    SassMnemonic{"F2FP", "convert and pack two f32 values into f16x2/bf16x2"},
    SassMnemonic{"F2I", "convert floating point to integer"},
    SassMnemonic{"I2F", "convert integer to floating point"},
    SassMnemonic{"FRND", "round f32 to an integral value"},
    SassMnemonic{"IMAD", "integer multiply-add (also moves and shifts)"},
    SassMnemonic{"IADD3", "three-input integer add"},
    SassMnemonic{"VIADD", "integer add of a register and an immediate"},
    SassMnemonic{"IMNMX", "integer minimum or maximum"},
    SassMnemonic{"IABS", "integer absolute value"},
    SassMnemonic{"ISETP", "compare integers into a predicate"},
    SassMnemonic{"LEA", "shift-and-add address computation"},
    SassMnemonic{"SHF", "funnel shift"},
    SassMnemonic{"LOP3", "three-input logical operation (any boolean function)"},
    SassMnemonic{"PLOP3", "three-input logical operation on predicates"},
    SassMnemonic{"SEL", "select between two registers by a predicate"},
    SassMnemonic{"PRMT", "permute bytes of two registers"},
    SassMnemonic{"MOV", "move"},
    SassMnemonic{"UMOV", "uniform move"},
    SassMnemonic{"S2R", "read a special register (thread or block index)"},
    SassMnemonic{"S2UR", "read a special register into a uniform register"},
    SassMnemonic{"CS2R", "read a special register pair (clock, zero)"},
    SassMnemonic{"SHFL", "shfl.sync: exchange registers between the lanes of a warp"},
    SassMnemonic{"REDUX", "redux.sync: reduce a register across the lanes of a warp"},
    SassMnemonic{"VOTE", "warp vote (ballot, any, all)"},
    SassMnemonic{"BAR", "barrier (bar.sync / __syncthreads)"},
    SassMnemonic{"WARPSYNC", "synchronise the lanes of a warp"},
    SassMnemonic{"MEMBAR", "memory barrier (fence)"},
    SassMnemonic{"FENCE", "memory or proxy fence"},
    SassMnemonic{"BRA", "branch"},
    SassMnemonic{"BSSY", "push a convergence barrier before divergent code"},
    SassMnemonic{"BSYNC", "reconverge at a convergence barrier"},
    SassMnemonic{"CALL", "call a function"},
    SassMnemonic{"RET", "return from a function"},
    SassMnemonic{"EXIT", "end the thread"},
    SassMnemonic{"NOP", "no operation (padding)"},
    SassMnemonic{"USETMAXREG", "setmaxnreg: change the warpgroup's register allocation"},
    SassMnemonic{"ELECT", "elect one lane of the warp"},
};

bool isMnemonicChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::optional<SassLineFacts> sassLineFacts(std::string_view line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos) return std::nullopt;
  std::string_view t = line.substr(i);
  if (t.rfind("/*", 0) != 0) return std::nullopt;  // instructions start with their address
  const size_t close = t.find("*/");
  if (close == std::string_view::npos) return std::nullopt;
  t = t.substr(close + 2);
  SassLineFacts f;
  i = t.find_first_not_of(" \t{");
  if (i == std::string_view::npos) return std::nullopt;
  t = t.substr(i);
  if (t.front() == '@') {  // @P0, @!P0, @!UP1, @PT
    size_t e = 1;
    while (e < t.size() && t[e] != ' ' && t[e] != '\t') ++e;
    f.guard = std::string(t.substr(0, e));
    t = t.substr(e);
    i = t.find_first_not_of(" \t");
    if (i == std::string_view::npos) return std::nullopt;
    t = t.substr(i);
  }
  size_t e = 0;
  while (e < t.size() && isMnemonicChar(t[e])) ++e;
  if (e == 0 || !(t[0] >= 'A' && t[0] <= 'Z')) return std::nullopt;
  f.mnemonic = std::string(t.substr(0, e));
  size_t m = e;
  while (m < t.size() && (t[m] == '.' || isMnemonicChar(t[m]))) ++m;
  f.modifiers = std::string(t.substr(e, m - e));
  for (const auto& s : kSass)
    if (s.name == f.mnemonic) f.description = std::string(s.description);
  return f;
}

}  // namespace tirx::toolchain
