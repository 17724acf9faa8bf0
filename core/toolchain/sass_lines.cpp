// sassLineFacts: the instruction on one line of disassembled SASS and what its mnemonic does
// (Hopper/Ampere mnemonics that the generated kernels contain; NVIDIA's instruction-set
// reference, "CUDA Binary Utilities", lists them). The table is the engine's: the Assembly view
// shows it and parses nothing itself. Also lexSassLine (sass_instruction.h), the one reader of a
// SASS instruction line, which the register facts share.
#include <array>
#include <cctype>

#include "core/toolchain/sass_instruction.h"
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

std::string trimmed(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r')) --b;
  return std::string(s.substr(a, b - a));
}

}  // namespace

std::optional<SassLine> lexSassLine(std::string_view line) {
  size_t p = line.find_first_not_of(" \t");
  if (p == std::string_view::npos || line.compare(p, 2, "/*") != 0) return std::nullopt;
  const size_t close = line.find("*/", p + 2);
  if (close == std::string_view::npos || close == p + 2 || close - p - 2 > 8) return std::nullopt;
  long long addr = 0;  // at most 8 hex digits: fits, and is checked against int below
  for (size_t i = p + 2; i < close; ++i) {
    const char c = line[i];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return std::nullopt;
    addr = addr * 16 + d;
  }
  const size_t semi = line.find(';', close + 2);
  if (semi == std::string_view::npos || addr > 0x7fffffff) return std::nullopt;
  SassLine out;
  out.address = int(addr);
  std::string_view body = line.substr(close + 2, semi - close - 2);
  if (const size_t b = body.find_first_not_of(" \t"); b != std::string_view::npos && body[b] == '{')
    body.remove_prefix(b + 1);
  out.text = trimmed(body);
  std::string_view t = out.text;
  if (!t.empty() && t.front() == '@') {  // @P0, @!P0, @!UP1, @PT
    const size_t e = t.find_first_of(" \t");
    if (e == std::string_view::npos) return std::nullopt;
    out.guard = std::string(t.substr(0, e));
    t = t.substr(t.find_first_not_of(" \t", e));
  }
  const size_t e = t.find_first_of(" \t");
  out.opcode = std::string(t.substr(0, e));
  if (out.opcode.empty() || out.opcode[0] == '{' || out.opcode[0] == '}') return std::nullopt;
  out.rest = std::string(line.substr(semi + 1));
  return out;
}

std::optional<SassLineFacts> sassLineFacts(std::string_view line) {
  const std::optional<SassLine> l = lexSassLine(line);
  if (!l) return std::nullopt;
  const std::string& op = l->opcode;
  size_t e = 0;
  while (e < op.size() && isMnemonicChar(op[e])) ++e;
  if (e == 0 || !(op[0] >= 'A' && op[0] <= 'Z')) return std::nullopt;
  SassLineFacts f;
  f.guard = l->guard;
  f.mnemonic = op.substr(0, e);
  size_t m = e;
  while (m < op.size() && (op[m] == '.' || isMnemonicChar(op[m]))) ++m;
  f.modifiers = op.substr(e, m - e);
  for (const auto& s : kSass)
    if (s.name == f.mnemonic) f.description = std::string(s.description);
  return f;
}

}  // namespace tirx::toolchain
