// Private to core/ptx: the rows of the PTX instruction table. A family (ld, add, cvt, ...) has one
// or more form rows; each row lists the qualifier slots it accepts (a slot holds at most one token:
// a state space, a rounding modifier, .ftz, ...), the type tokens it accepts (two lists for cvt:
// destination and source), its operand templates (role, name, which type, scalar admissibility),
// its minimum target and a one-line description. parsePtxOpcode() in ptx_table.cpp picks the row
// that accepts a spelling; the markdown and completion code walk the same rows.
#pragma once

#include <string_view>
#include <vector>

#include "core/ptx/ptx_table.h"

namespace tirx::ptxrows {

/// What a qualifier slot means; parsePtxOpcode() fills PtxInstruction fields by kind.
enum class SlotKind {
  Space,
  Cache,
  NonCoherent,
  EvictL1,
  EvictL2,
  Prefetch,
  Vector,
  Rounding,
  Approx,
  Ftz,
  Sat,
  Satfinite,
  Relu,
  NaN,
  Xorsign,
  Abs,
  Mode,
};

/// One accepted token: its spelling (with the leading '.'), minimum target, meaning, an
/// optional token that must also be present (".nc" needs ".global") and one that must not
/// (".lu" excludes ".nc").
struct Qual {
  std::string_view text;
  int minSm = 50;
  std::string_view description;
  std::string_view requires_ = {};
  std::string_view excludes_ = {};
};

struct Slot {
  SlotKind kind;
  bool required = false;
  std::vector<Qual> tokens;
  int exclusiveGroup = 0;  ///< slots sharing a nonzero group cannot both be filled
};

/// Which PTX type an operand carries.
enum class TypeFrom { Dst, Src, DstWide };

struct OperandTpl {
  OperandRole role = OperandRole::SrcReg;
  std::string_view name;
  TypeFrom type = TypeFrom::Dst;
  bool scalar = false;    ///< a typed scalar may stand in
  bool vector = false;    ///< atom = the .vN width (ld/st)
  bool optional = false;  ///< trailing optional operand (three-input min/max)
};

/// cvt only: how the destination and source types must relate for the row to apply.
enum class Pair { Any, FloatNarrow, FloatWiden, FloatSame, IntFromFloat, FloatFromInt, IntFromInt };

struct FormRow {
  PtxFamily family;
  std::string_view summary;  ///< short label of the form, e.g. "float32"
  std::vector<Slot> slotSpecs;
  std::vector<Qual> types;     ///< destination (or only) type tokens
  std::vector<Qual> srcTypes;  ///< cvt: source type tokens
  Pair pair = Pair::Any;
  std::vector<OperandTpl> operands;
  int minSm = 50;
  int extendedMinSm = 0;  ///< minimum target when optional operands are used
  std::string_view description;
};

struct FamilyRow {
  PtxFamily family;
  std::string_view name;
  std::string_view description;
  std::vector<std::string> examples;
};

const std::vector<FormRow>& formRows();
const std::vector<FamilyRow>& familyRows();

/// Width in bits of a PTX type token (".f16x2" -> 32, ".b8" -> 8), 0 if not a type.
int typeBits(std::string_view token);
bool isFloatType(std::string_view token);
bool isIntType(std::string_view token);
/// Meaning of a PTX type token, "" if not a type.
std::string_view typeDescription(std::string_view token);
/// True for every PTX type token the table knows, accepted by some row or not.
bool isTypeToken(std::string_view token);

/// The slot kind's phrase for messages: "a rounding modifier", "a state space", ...
std::string_view slotPhrase(SlotKind k);
/// Every spelling the table accepts, one per combination of slot tokens and types (for
/// exhaustive tests against ptxas). Rows are expanded with at most `perRowLimit` spellings.
std::vector<std::string> enumerateSpellings(int perRowLimit = 100000);

}  // namespace tirx::ptxrows
