// The PTX instruction table: a data table (not a switch) describing every instruction family the
// TIRx tile subset can apply (ld, st, mov, add/sub/mul, fma, div, rcp, sqrt, min/max, ex2, lg2,
// abs, neg, cvt; and the warp collectives ldmatrix, stmatrix, mma.sync, shfl.sync, redux.sync of
// ptx_collective.h). parsePtxOpcode() turns a spelling such as "ld.global.v4.b32" into a
// PtxInstruction: family, qualifiers, operand roles with atom extents and accepted dtypes (spec
// §2.4, §2.5), scalar admissibility, minimum target and a one-line description.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tirx {

enum class PtxFamily {
  Ld,
  St,
  // Mov … Cvt: register-only arithmetic, kept contiguous (PtxInstruction::isRegisterOnly).
  Mov,
  Add,
  Sub,
  Mul,
  Fma,
  Div,
  Rcp,
  Sqrt,
  Min,
  Max,
  Ex2,
  Lg2,
  Abs,
  Neg,
  Cvt,
  // warp collectives (ptx_collective.h)
  Ldmatrix,
  Stmatrix,
  Mma,
  Shfl,
  Redux,
  // TMA tensor copies (ptx_tma.h)
  BulkTensor,
  // asynchronous copies (ptx_async.h)
  CpAsync,
  // Hopper warpgroup MMA (ptx_wgmma.h)
  Wgmma
};

/// A canonical element dtype name as the scripts spell it: "float32", "uint16", "bfloat16", ...
using DTypeName = std::string;

enum class OperandRole {
  DstReg,   ///< register destination (written)
  SrcReg,   ///< register source (read); may be a scalar when `scalarAllowed`
  Address,  ///< memory operand (global/shared/local tensor); the atom start address is passed
};

struct PtxOperandSpec {
  OperandRole role = OperandRole::SrcReg;
  std::string name;               ///< "dst", "a", "b", "c", "src", "hi", "lo", "mem", ...
  std::string ptxType;            ///< the PTX type of this operand: ".b32", ".f32", ".f16x2", ...
  int bits = 32;                  ///< storage width of one element of the operand
  int atom = 1;                   ///< trailing atom extent (vector length for ld/st, else 1)
  std::vector<DTypeName> dtypes;  ///< accepted tensor dtypes, canonical first (spec §2.5)
  bool scalarAllowed = false;     ///< a typed scalar expression may stand in (broadcast)
  std::string constraint;         ///< inline-asm constraint letter for the canonical dtype
  /// Warp collectives: the operand's atom axes in units of its canonical dtype, the lane inside
  /// (ldmatrix registers (count, 8, 4) words, shared rows (count, 8, 8) halves; mma A (16, k/2),
  /// B (8, k/2) words, C/D (16, 8) floats; shfl/redux (1)). Empty for thread-level families.
  std::vector<int64_t> atomShape;
};

struct PtxInstruction {
  std::string opcode;  ///< the exact spelling, e.g. "fma.rn.f32"
  PtxFamily family = PtxFamily::Mov;
  std::vector<std::string> qualifiers;  ///< every dot-separated token after the family name
  std::string space;                    ///< ld/st: "global", "shared", "shared::cta", "local"
  int vector = 1;                       ///< .v2/.v4 -> 2/4, else 1
  std::string type;                     ///< the (destination) type qualifier: ".b32", ".f16", ...
  std::string srcType;                  ///< cvt only: the source type
  std::string rounding;                 ///< ".rn", ".rz", ".rm", ".rp", ".rni"... or empty
  /// approx: .approx or .full (div); nanMode: .NaN; packed: an x2 type (.f16x2, .f32x2, ...).
  /// Other qualifiers (.relu, .satfinite, .xorsign.abs, cache/eviction hints) are in `qualifiers`.
  bool ftz = false, sat = false, approx = false, nanMode = false, packed = false;
  std::vector<PtxOperandSpec> operands;  ///< in call order, destination first (minArity of them)
  /// Optional trailing operands (the `c` of three-input min/max), appended by operandsFor().
  std::vector<PtxOperandSpec> extraOperands;
  int minArity = 0, maxArity = 0;  ///< operand counts accepted (max/min: 3 or 4)
  int minSm = 50;                  ///< minimum target for the base form
  int minSmExtended = 0;           ///< minimum target when extra operands are used
  /// e.g. three-input max.f32 (arity 4) needs sm_100; 0 when `arity` is not accepted at all.
  int minSmForArity(int arity) const;
  std::string description;  ///< one line, for tooltips and completion
  // Warp collectives (ptx_collective.cpp): ldmatrix/stmatrix .xN and .trans; mma K (8 or 16) and
  // the A/B type (".bf16", ".f16"); the shfl mode (".bfly", ...) or redux operation (".add", ...).
  int matrices = 0;
  bool trans = false;
  int mmaK = 0;
  std::string abType;
  std::string mode;
  /// cp.async.bulk.tensor (ptx_tma.h): the rank (1..5) and the direction (false: global → shared
  /// load completing on an mbarrier; true: shared → global store in a bulk group).
  int tensorRank = 0;
  bool tmaStore = false;
  /// wgmma.mma_async (ptx_wgmma.h): N of m64nNk16 (8..256 step 8); abType holds ".bf16"/".f16".
  int wgmmaN = 0;
  /// ldmatrix, stmatrix, mma, shfl, redux: executed by a whole warp together.
  bool isCollective() const {
    return family == PtxFamily::Ldmatrix || family == PtxFamily::Stmatrix ||
           family == PtxFamily::Mma || family == PtxFamily::Shfl || family == PtxFamily::Redux;
  }
  bool isMemory() const { return family == PtxFamily::Ld || family == PtxFamily::St; }
  /// Reads and writes registers only, with no effect beyond its outputs (mov … cvt): codegen
  /// emits it as plain, schedulable `asm` (decision SCHED-1).
  bool isRegisterOnly() const { return family >= PtxFamily::Mov && family <= PtxFamily::Cvt; }
  /// Operand specs for a call with `arity` operands (min/max have 2- and 3-input forms); empty
  /// when `arity` is outside [minArity, maxArity].
  std::vector<PtxOperandSpec> operandsFor(int arity) const;
};

struct PtxParseError {
  std::string message;  ///< e.g. "unknown PTX instruction family 'lod'"
  /// 0-based offset inside the opcode string of the offending token: its leading '.' for a
  /// qualifier, 0 for the family name, the opcode's length for something missing at the end.
  int column = 0;
  int length = 0;  ///< length of the offending token (0 for something missing)
};

/// Parse and validate an opcode spelling. Returns nullopt and fills `error` when the spelling is
/// not in the table (unknown family, bad qualifier, unsupported type, bad vector width...).
std::optional<PtxInstruction> parsePtxOpcode(std::string_view opcode,
                                             PtxParseError* error = nullptr);

/// Every family with a representative list of spellings, for completion lists and docs.
struct PtxFamilyInfo {
  PtxFamily family;
  std::string name;  ///< "ld", "fma", ...
  std::string description;
  std::vector<std::string> examples;  ///< e.g. {"ld.global.v4.b32", "ld.shared.v2.b32", ...}
};
const std::vector<PtxFamilyInfo>& ptxFamilies();
std::string_view familyName(PtxFamily f);

/// Storage width in bits of a dtype name (float32 -> 32, bfloat16 -> 16, bool -> 8), 0 if unknown.
/// Accepts the canonical names and the short aliases (f32, bf16, u16, i32, ...).
int dtypeBits(std::string_view dtype);

/// Inline-asm constraint letter for a register operand of `dtype` (spec §2.6): float32 "f",
/// float64 "d", 32-bit integers "r", 8/16-bit types "h", 64-bit integers "l"; "" if unknown.
std::string_view ptxConstraintFor(std::string_view dtype);

/// Tensor dtypes a PTX operand type accepts, canonical first (spec §2.5): ".b32" ->
/// {uint32, int32, float32}, ".f16" -> {uint16}, ".f16x2" -> {uint32}; empty if unknown.
std::vector<DTypeName> ptxTypeDtypes(std::string_view ptxType);

/// One dot-separated token of an opcode with its meaning, for hovers: "ld" (family),
/// ".global" (state space), ".v4" (vector width), ... Unknown tokens get an empty description.
struct PtxTokenInfo {
  std::string text;         ///< the token as written, with its leading '.' for qualifiers
  int column = 0;           ///< 0-based offset in the opcode string
  std::string description;  ///< one line
};
std::vector<PtxTokenInfo> describePtxTokens(std::string_view opcode);

/// Completion candidates for the next token after `prefix` (an opcode typed so far, possibly
/// ending with '.' or inside a token): family names, or qualifiers/types accepted next, each
/// with its description. Never fails; an unknown prefix gives an empty list.
std::vector<PtxTokenInfo> ptxCompletions(std::string_view prefix);

/// The instruction on one line of PTX text (the Assembly view's hover): `opcode` is the spelling
/// after an optional guard predicate (`@!%p1 ld.global.v4.b32 {...};` → "ld.global.v4.b32"),
/// `instr` its table entry when the table has that exact spelling, `family` the table's family
/// of its first token (null for an instruction outside the table: `mov.u32 %r1, %tid.x` has
/// one, `setp.ne.s32` none). Nullopt for a line without an instruction: a directive (`.reg`,
/// `.loc`), a label, a brace, a comment or a blank line.
struct PtxLineFacts {
  std::string opcode;
  std::optional<PtxInstruction> instr;
  const PtxFamilyInfo* family = nullptr;
};
std::optional<PtxLineFacts> ptxLineFacts(std::string_view line);

/// The supported table as Markdown (docs/ptx.md embeds exactly this text).
std::string ptxTableMarkdown();

}  // namespace tirx
