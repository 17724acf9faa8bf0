// parsePtxOpcode(): splits an opcode spelling into dot-separated tokens, finds the family row set,
// takes the trailing type token(s), picks the first form row of the family that accepts every
// qualifier, then checks the cross-token rules (".nc" needs ".global", 256-bit accesses, .xorsign
// with .abs, exclusive cache/eviction qualifiers) and builds the PtxInstruction from the row.
// When no row accepts the spelling, the error names the first offending token with its column.
#include "core/ptx/ptx_table.h"

#include <algorithm>
#include <array>

#include "core/ptx/ptx_async.h"
#include "core/ptx/ptx_collective.h"
#include "core/ptx/ptx_rows.h"
#include "core/ptx/ptx_tma.h"
#include "core/ptx/ptx_wgmma.h"

namespace tirx {
namespace {

using namespace ptxrows;

struct Token {
  std::string text;  // with the leading '.' except for the family name
  int column = 0;
};

std::vector<Token> splitTokens(std::string_view op) {
  std::vector<Token> out;
  size_t start = 0;
  for (size_t i = 0; i <= op.size(); ++i) {
    if (i == op.size() || op[i] == '.') {
      if (out.empty()) {
        out.push_back({std::string(op.substr(0, i)), 0});
      } else {
        out.push_back({std::string(op.substr(start, i - start)), static_cast<int>(start)});
      }
      start = i;
    }
  }
  return out;
}

bool fail(PtxParseError* err, std::string msg, int column, int length) {
  if (err) *err = PtxParseError{std::move(msg), column, length};
  return false;
}

int editDistance(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

/// The closest candidate within edit distance 2, or "".
std::string closest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  int bestD = 3;
  for (const std::string& c : candidates) {
    int d = editDistance(word, c);
    if (d < bestD) bestD = d, best = c;
  }
  return best;
}

/// "a, b or c"
std::string orList(const std::vector<std::string>& items, size_t maxItems = 8) {
  std::string out;
  size_t n = std::min(items.size(), maxItems);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += (i + 1 == n && n == items.size()) ? " or " : ", ";
    out += items[i];
  }
  if (n < items.size()) out += ", ...";
  return out;
}

void addUnique(std::vector<std::string>& v, std::string_view s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.emplace_back(s);
}

std::vector<const FormRow*> rowsOf(PtxFamily f) {
  std::vector<const FormRow*> out;
  for (const FormRow& r : formRows())
    if (r.family == f) out.push_back(&r);
  return out;
}

const Qual* findQual(const std::vector<Qual>& qs, std::string_view t) {
  for (const Qual& q : qs)
    if (q.text == t) return &q;
  return nullptr;
}

/// Slot kind of a token in any row of any family (for "does not take a rounding modifier").
std::optional<SlotKind> globalKind(std::string_view t) {
  for (const FormRow& r : formRows())
    for (const Slot& s : r.slotSpecs)
      if (findQual(s.tokens, t)) return s.kind;
  return std::nullopt;
}

bool pairMatches(Pair p, std::string_view dst, std::string_view src) {
  switch (p) {
    case Pair::Any:
      return true;
    case Pair::FloatNarrow:
      return isFloatType(dst) && isFloatType(src) && typeBits(dst) < typeBits(src);
    case Pair::FloatWiden:
      return isFloatType(dst) && isFloatType(src) && typeBits(dst) > typeBits(src);
    case Pair::FloatSame:
      return isFloatType(dst) && dst == src;
    case Pair::IntFromFloat:
      return isIntType(dst) && isFloatType(src);
    case Pair::FloatFromInt:
      return isFloatType(dst) && isIntType(src);
    case Pair::IntFromInt:
      return isIntType(dst) && isIntType(src);
  }
  return false;
}

std::string widenType(std::string_view t) {
  static const std::array<std::pair<std::string_view, std::string_view>, 4> w = {
      {{".u16", ".u32"}, {".s16", ".s32"}, {".u32", ".u64"}, {".s32", ".s64"}}};
  for (auto [a, b] : w)
    if (a == t) return std::string(b);
  return std::string(t);
}

/// The outcome of matching the qualifier tokens against one row.
struct RowMatch {
  bool ok = true;
  int badToken = -1;  // index into quals, or -1 for "missing"
  std::string message;
  std::vector<int> slotOf;  // per qualifier token: slot index
  std::vector<const Slot*> missing;
};

RowMatch matchRow(const FormRow& row, const std::vector<Token>& quals, const std::string& shown) {
  RowMatch m;
  std::vector<int> filled(row.slotSpecs.size(), -1);
  for (size_t i = 0; i < quals.size(); ++i) {
    const std::string& t = quals[i].text;
    int slot = -1;
    for (size_t s = 0; s < row.slotSpecs.size(); ++s)
      if (findQual(row.slotSpecs[s].tokens, t)) slot = static_cast<int>(s);
    if (slot < 0) {
      m.ok = false;
      m.badToken = static_cast<int>(i);
      return m;
    }
    if (filled[slot] >= 0) {
      m.ok = false;
      m.badToken = static_cast<int>(i);
      m.message = quals[filled[slot]].text == t
                      ? "duplicate qualifier '" + t + "'"
                      : "'" + t + "' conflicts with '" + quals[filled[slot]].text + "': " + shown +
                            " takes at most " + std::string(slotPhrase(row.slotSpecs[slot].kind));
      return m;
    }
    filled[slot] = static_cast<int>(i);
    m.slotOf.push_back(slot);
  }
  for (size_t s = 0; s < row.slotSpecs.size(); ++s)
    if (row.slotSpecs[s].required && filled[s] < 0) m.missing.push_back(&row.slotSpecs[s]);
  if (!m.missing.empty()) m.ok = false;
  return m;
}

std::string missingMessage(const std::vector<const Slot*>& missing, const std::string& shown) {
  std::vector<std::string> toks;
  for (const Slot* s : missing)
    for (const Qual& q : s->tokens) addUnique(toks, q.text);
  SlotKind k = missing.front()->kind;
  std::string what = k == SlotKind::Space      ? "missing state space"
                     : k == SlotKind::Rounding ? "missing rounding modifier"
                     : k == SlotKind::Approx   ? "missing rounding or approximation modifier"
                     : k == SlotKind::Mode     ? "missing mode"
                                               : "missing qualifier";
  bool mixed =
      std::any_of(missing.begin(), missing.end(), [&](const Slot* s) { return s->kind != k; });
  if (mixed) what = "missing rounding or approximation modifier";
  return what + ": " + shown + " needs " + orList(toks, 12);
}

/// Fills the instruction fields set by one qualifier token.
void applyQual(PtxInstruction& in, SlotKind kind, const std::string& t) {
  switch (kind) {
    case SlotKind::Space:
      in.space = t.substr(1);
      break;
    case SlotKind::Vector:
      in.vector = std::stoi(t.substr(2));
      break;
    case SlotKind::Rounding:
      in.rounding = t;
      break;
    case SlotKind::Approx:
      in.approx = true;
      break;  // .approx and .full: not IEEE-rounded
    case SlotKind::Ftz:
      in.ftz = true;
      break;
    case SlotKind::Sat:
      in.sat = true;
      break;
    case SlotKind::NaN:
      in.nanMode = true;
      break;
    default:
      break;
  }
}

PtxOperandSpec makeOperand(const OperandTpl& tpl, const PtxInstruction& in) {
  PtxOperandSpec op;
  op.role = tpl.role;
  op.name = std::string(tpl.name);
  op.ptxType = tpl.type == TypeFrom::Src       ? in.srcType
               : tpl.type == TypeFrom::DstWide ? widenType(in.type)
                                               : in.type;
  op.bits = typeBits(op.ptxType);
  op.atom = tpl.vector ? in.vector : 1;
  op.dtypes = ptxTypeDtypes(op.ptxType);
  op.scalarAllowed = tpl.scalar;
  if (tpl.role == OperandRole::Address) {
    op.constraint = (in.space == "shared" || in.space == "shared::cta") ? "r" : "l";
  } else if (!op.dtypes.empty()) {
    op.constraint = std::string(ptxConstraintFor(op.dtypes.front()));
  }
  return op;
}

std::string describe(const FormRow& row, const std::vector<Token>& quals) {
  std::string d(row.description);
  for (const Token& q : quals)
    for (const Slot& s : row.slotSpecs)
      if (const Qual* info = findQual(s.tokens, q.text)) {
        if (s.kind == SlotKind::Vector || s.kind == SlotKind::Space) continue;
        d += "; " + q.text + ": " + std::string(info->description);
      }
  return d;
}

/// Where the trailing type tokens start (one, or two for cvt: destination then source); nullopt
/// after an error (a type qualifier in the middle, or a missing one).
std::optional<int> findTypeTokens(const FamilyRow& fam, const std::vector<std::string>& famTypes,
                                  const std::vector<Token>& toks, std::string_view opcode,
                                  PtxParseError* error) {
  const int len = static_cast<int>(opcode.size());
  const int typeCount = fam.family == PtxFamily::Cvt ? 2 : 1;
  int firstType = static_cast<int>(toks.size());
  while (firstType > 1 && isTypeToken(toks[firstType - 1].text) &&
         static_cast<int>(toks.size()) - firstType < typeCount)
    --firstType;
  const int foundTypes = static_cast<int>(toks.size()) - firstType;
  if (foundTypes == 0) {
    for (size_t i = 1; i < toks.size(); ++i)
      if (isTypeToken(toks[i].text))
        return fail(
                   error,
                   "type qualifier '" + toks[i].text + "' must come last in " + std::string(opcode),
                   toks[i].column, static_cast<int>(toks[i].text.size())),
               std::nullopt;
    return fail(error,
                "missing type qualifier: " + std::string(opcode) + " needs " + orList(famTypes, 3),
                len, 0),
           std::nullopt;
  }
  if (foundTypes < typeCount) {
    return fail(error,
                "missing source type: " + std::string(opcode) +
                    " needs a destination and a source type, e.g. cvt.rn.f16.f32",
                len, 0),
           std::nullopt;
  }
  std::vector<Token> quals(toks.begin() + 1, toks.begin() + firstType);
  // No tensor of a tile op lives in .local memory (T.alloc_local tiles are registers), so no
  // kernel could use a .local spelling: refuse it here rather than accept what cannot run.
  if (fam.family == PtxFamily::Ld || fam.family == PtxFamily::St)
    for (const Token& q : quals)
      if (q.text == ".local")
        return fail(error,
                    "'.local' is not a state space of a tile op: its memory operand is a global or "
                    "shared tensor (T.alloc_local tiles are registers)",
                    q.column, static_cast<int>(q.text.size())),
               std::nullopt;
  for (const Token& q : quals)
    if (isTypeToken(q.text))
      return fail(error, "type qualifier '" + q.text + "' must come last in " + std::string(opcode),
                  q.column, static_cast<int>(q.text.size())),
             std::nullopt;
  return firstType;
}

/// The error for a first token that names no family of the element-wise table: a statement, a
/// family outside the table, or a misspelling.
std::nullopt_t unknownFamily(const std::string& name, const std::vector<std::string>& famNames,
                             PtxParseError* error) {
  static const std::vector<std::string> other = {
      "rsqrt",    "tanh",  "sin",  "cos",   "mad",   "and", "or",    "xor",
      "not",      "shl",   "shr",  "setp",  "selp",  "cp",  "wgmma", "tcgen05",
      "atom",     "red",   "vote", "match", "elect", "bar", "ldu",   "prmt",
      "copysign", "testp", "bfe",  "bfi",   "popc",  "clz", "brev",  "fns"};
  if (name == "bar" || name == "barrier")  // a statement, not an element-wise tile op (BAR-1)
    return fail(error,
                "'" + name +
                    "' is not a tile instruction: named barriers are statements, "
                    "T.ptx.bar.sync(id, count) and T.ptx.bar.arrive(id, count)",
                0, static_cast<int>(name.size())),
           std::nullopt;
  if (std::find(other.begin(), other.end(), name) != other.end()) {
    return fail(error,
                "the PTX instruction family '" + name +
                    "' is not in the supported tile instruction table (supported: " +
                    orList(famNames, 32) + ")",
                0, static_cast<int>(name.size())),
           std::nullopt;
  }
  std::string msg = "unknown PTX instruction family '" + name + "'";
  std::string near = closest(name, famNames);
  if (!near.empty()) msg += " (did you mean '" + near + "'?)";
  return fail(error, msg, 0, static_cast<int>(name.size())), std::nullopt;
}

/// The error when no row of the family accepts every qualifier: the earliest token no row
/// accepts, else the slots every row misses.
std::nullopt_t noMatchingRow(const std::vector<RowMatch>& results,
                             const std::vector<const FormRow*>& cands,
                             const std::vector<Token>& quals, const std::string& famName,
                             const std::string& shown, std::string_view opcode,
                             PtxParseError* error) {
  const int len = static_cast<int>(opcode.size());
  // Prefer a bad token over a missing slot: report the earliest token no row accepts.
  int bad = -1;
  std::string explicitMsg;
  for (const RowMatch& m : results) {
    if (m.badToken < 0) {
      bad = -1;
      explicitMsg.clear();
      break;
    }
    if (bad < 0 || m.badToken > bad) {
      bad = m.badToken;
      explicitMsg = m.message;
    }
  }
  if (bad >= 0) {
    const Token& t = quals[bad];
    int tl = static_cast<int>(t.text.size());
    if (!explicitMsg.empty()) return fail(error, explicitMsg, t.column, tl), std::nullopt;
    bool looksVector = t.text.size() >= 3 && t.text[1] == 'v' &&
                       std::all_of(t.text.begin() + 2, t.text.end(), ::isdigit);
    bool famHasVector = false;
    std::vector<std::string> rowToks;
    for (const FormRow* r : cands)
      for (const Slot& s : r->slotSpecs) {
        if (s.kind == SlotKind::Vector) famHasVector = true;
        for (const Qual& q : s.tokens) addUnique(rowToks, q.text);
      }
    if (looksVector && famHasVector)
      return fail(error,
                  "'" + t.text + "' is not a vector width of " + famName +
                      " (expected .v2, .v4 or .v8)",
                  t.column, tl),
             std::nullopt;
    if (std::optional<SlotKind> k = globalKind(t.text)) {
      std::string what = (*k == SlotKind::Rounding || *k == SlotKind::Space ||
                          *k == SlotKind::Vector || *k == SlotKind::Cache)
                             ? std::string(slotPhrase(*k))
                             : "'" + t.text + "'";
      if (*k == SlotKind::Rounding && t.text.size() == 4 && t.text.back() == 'i')
        what = "an integer rounding modifier";
      return fail(error, shown + " does not take " + what, t.column, tl), std::nullopt;
    }
    std::string msg = "'" + t.text + "' is not a qualifier of " + shown;
    std::string near = closest(t.text, rowToks);
    if (!near.empty())
      msg += " (did you mean '" + near + "'?)";
    else if (!rowToks.empty())
      msg += " (expected " + orList(rowToks, 10) + ")";
    return fail(error, msg, t.column, tl), std::nullopt;
  }
  std::vector<const Slot*> missing;
  for (const RowMatch& m : results)
    missing.insert(missing.end(), m.missing.begin(), m.missing.end());
  return fail(error, missingMessage(missing, std::string(opcode)), len, 0), std::nullopt;
}

/// Applies the qualifiers `quals` (matched to the slots of `chosen`) to `in`, checking what each
/// requires and excludes; false after an error. `hasXorsign` says whether `.xorsign` was given.
bool applyQualifiers(PtxInstruction& in, const FormRow& chosen, const RowMatch& match,
                     const std::vector<Token>& toks, const std::vector<Token>& quals,
                     std::string_view opcode, bool& hasXorsign, PtxParseError* error) {
  std::vector<int> groupUsed;
  for (size_t i = 0; i < quals.size(); ++i) {
    const Slot& slot = chosen.slotSpecs[match.slotOf[i]];
    const Qual* q = findQual(slot.tokens, quals[i].text);
    in.minSm = std::max(in.minSm, q->minSm);
    applyQual(in, slot.kind, quals[i].text);
    if (slot.kind == SlotKind::Xorsign) hasXorsign = true;
    if (!q->requires_.empty()) {
      bool present = std::any_of(toks.begin() + 1, toks.end(),
                                 [&](const Token& t) { return t.text == q->requires_; });
      if (!present)
        return fail(error,
                    "'" + quals[i].text + "' needs '" + std::string(q->requires_) + "' in " +
                        std::string(opcode),
                    quals[i].column, static_cast<int>(quals[i].text.size()));
    }
    if (!q->excludes_.empty()) {
      for (const Token& t : toks)
        if (t.text == q->excludes_)
          return fail(error, "'" + quals[i].text + "' cannot be combined with '" + t.text + "'",
                      quals[i].column, static_cast<int>(quals[i].text.size()));
    }
    if (slot.exclusiveGroup != 0) {
      for (int j : groupUsed)
        if (chosen.slotSpecs[match.slotOf[j]].exclusiveGroup == slot.exclusiveGroup)
          return fail(error,
                      "'" + quals[i].text + "' cannot be combined with '" + quals[j].text + "'",
                      quals[i].column, static_cast<int>(quals[i].text.size()));
      groupUsed.push_back(static_cast<int>(i));
    }
  }
  return true;
}

/// Checks that hold between qualifiers and types once they are applied: vector widths of memory
/// accesses, `.ftz` and `.sat` of cvt; false after an error.
bool checkCombinedQualifiers(PtxInstruction& in, const std::string& famName,
                             const std::string& shown, const Token& dstTok, std::string_view opcode,
                             PtxParseError* error) {
  const int len = static_cast<int>(opcode.size());
  if (in.isMemory()) {
    int bits = in.vector * typeBits(in.type);
    if (bits > 256 || (in.vector == 8 && typeBits(in.type) != 32))
      return fail(error,
                  "'.v" + std::to_string(in.vector) + "' is not a vector width of " + famName +
                      in.type + ": .v8 needs a 32-bit type (.b32, .u32, .s32 or .f32)",
                  dstTok.column, static_cast<int>(dstTok.text.size()));
    if (bits > 128) {
      if (in.space != "global")
        return fail(error,
                    std::string(opcode) + " is a 256-bit access, which only .global supports", 0,
                    len);
      in.minSm = std::max(in.minSm, 100);
    }
  }
  if (in.family == PtxFamily::Cvt && in.ftz && in.type != ".f32" && in.srcType != ".f32")
    return fail(error, shown + " does not take '.ftz' (it needs a .f32 source or destination)", 0,
                len);
  if (in.family == PtxFamily::Cvt && in.sat && isIntType(in.type) && isIntType(in.srcType)) {
    // .sat is illegal where the destination holds every source value.
    bool dstSigned = in.type[1] == 's', srcSigned = in.srcType[1] == 's';
    int db = typeBits(in.type), sb = typeBits(in.srcType);
    bool superset = (dstSigned == srcSigned && db >= sb) || (dstSigned && !srcSigned && db > sb);
    if (superset)
      return fail(
          error,
          shown + " does not take '.sat': " + in.type + " holds every " + in.srcType + " value", 0,
          len);
  }
  return true;
}

}  // namespace

std::string_view familyName(PtxFamily f) {
  for (const FamilyRow& r : familyRows())
    if (r.family == f) return r.name;
  for (const PtxFamilyInfo& c : ptxFamilies())
    if (c.family == f) return c.name;
  return "?";
}

const std::vector<PtxFamilyInfo>& ptxFamilies() {
  static const std::vector<PtxFamilyInfo> infos = [] {
    std::vector<PtxFamilyInfo> out;
    for (const FamilyRow& r : familyRows())
      out.push_back({r.family, std::string(r.name), std::string(r.description), r.examples});
    for (PtxFamilyInfo& c : collectiveFamilyInfos()) out.push_back(std::move(c));
    out.push_back(tmaFamilyInfo());
    out.push_back(cpAsyncFamilyInfo());
    out.push_back(wgmmaFamilyInfo());
    return out;
  }();
  return infos;
}

int PtxInstruction::minSmForArity(int arity) const {
  if (arity < minArity || arity > maxArity) return 0;
  if (arity > minArity) return std::max(minSm, minSmExtended);
  return minSm;
}

std::vector<PtxOperandSpec> PtxInstruction::operandsFor(int arity) const {
  if (arity < minArity || arity > maxArity) return {};
  std::vector<PtxOperandSpec> out = operands;
  for (int i = minArity; i < arity; ++i) out.push_back(extraOperands[i - minArity]);
  return out;
}

std::optional<PtxInstruction> parsePtxOpcode(std::string_view opcode, PtxParseError* error) {
  if (opcode.empty()) return fail(error, "empty PTX instruction", 0, 0), std::nullopt;
  std::vector<Token> toks = splitTokens(opcode);
  if (!toks.empty() && isCollectiveFamilyName(toks[0].text))
    return parseCollectiveOpcode(opcode, error);
  if (isTmaSpelling(opcode)) return parseTmaOpcode(opcode, error);
  if (isWgmmaSpelling(opcode)) return parseWgmmaOpcode(opcode, error);
  if (!toks.empty() && isAsyncCopyFamilyName(toks[0].text))
    return parseCpAsyncOpcode(opcode, error);
  for (const Token& t : toks) {
    if (t.text.empty() || t.text == ".") {
      int col = t.column;
      return fail(error,
                  t.column == 0 ? "PTX instruction starts with '.': expected a family name"
                                : "empty qualifier after '.' in '" + std::string(opcode) + "'",
                  col, t.column == 0 ? 0 : 1),
             std::nullopt;
    }
  }

  // Family.
  const FamilyRow* fam = nullptr;
  std::vector<std::string> famNames;
  for (const FamilyRow& r : familyRows()) {
    famNames.emplace_back(r.name);
    if (r.name == toks[0].text) fam = &r;
  }
  for (const PtxFamilyInfo& c : collectiveFamilyInfos()) famNames.push_back(c.name);
  if (!fam) return unknownFamily(toks[0].text, famNames, error);
  const std::string famName(fam->name);
  std::vector<const FormRow*> rows = rowsOf(fam->family);

  // Trailing type tokens: one, or two for cvt (destination then source).
  const int typeCount = fam->family == PtxFamily::Cvt ? 2 : 1;
  std::vector<std::string> famTypes;
  for (const FormRow* r : rows)
    for (const Qual& q : r->types) addUnique(famTypes, q.text);
  const std::optional<int> typesAt = findTypeTokens(*fam, famTypes, toks, opcode, error);
  if (!typesAt) return std::nullopt;
  const int firstType = *typesAt;
  const std::vector<Token> quals(toks.begin() + 1, toks.begin() + firstType);
  const Token& dstTok = toks[firstType];
  const Token* srcTok = typeCount == 2 ? &toks[firstType + 1] : nullptr;
  std::string shown = famName + dstTok.text + (srcTok ? srcTok->text : std::string());

  // Rows accepting the type(s).
  std::vector<const FormRow*> cands;
  for (const FormRow* r : rows) {
    if (!findQual(r->types, dstTok.text)) continue;
    if (srcTok &&
        (!findQual(r->srcTypes, srcTok->text) || !pairMatches(r->pair, dstTok.text, srcTok->text)))
      continue;
    cands.push_back(r);
  }
  if (cands.empty()) {
    if (std::find(famTypes.begin(), famTypes.end(), dstTok.text) == famTypes.end()) {
      return fail(error,
                  "'" + dstTok.text + "' is not a type of " + famName + " (expected " +
                      orList(famTypes, 10) + ")",
                  dstTok.column, static_cast<int>(dstTok.text.size())),
             std::nullopt;
    }
    return fail(error, "cvt has no form converting " + srcTok->text + " to " + dstTok.text,
                dstTok.column,
                srcTok->column + static_cast<int>(srcTok->text.size()) - dstTok.column),
           std::nullopt;
  }

  // First row accepting all qualifiers.
  const FormRow* chosen = nullptr;
  RowMatch match;
  std::vector<RowMatch> results;
  for (const FormRow* r : cands) {
    RowMatch m = matchRow(*r, quals, shown);
    if (m.ok) {
      chosen = r;
      match = m;
      break;
    }
    results.push_back(m);
  }
  if (!chosen) return noMatchingRow(results, cands, quals, famName, shown, opcode, error);

  // Build the instruction.
  PtxInstruction in;
  in.opcode = std::string(opcode);
  in.family = fam->family;
  for (size_t i = 1; i < toks.size(); ++i) in.qualifiers.push_back(toks[i].text);
  in.type = dstTok.text;
  if (srcTok) in.srcType = srcTok->text;
  in.minSm = std::max(chosen->minSm, findQual(chosen->types, dstTok.text)->minSm);
  if (srcTok) in.minSm = std::max(in.minSm, findQual(chosen->srcTypes, srcTok->text)->minSm);
  bool hasXorsign = false;
  if (!applyQualifiers(in, *chosen, match, toks, quals, opcode, hasXorsign, error))
    return std::nullopt;
  in.packed = dstTok.text.size() > 2 && dstTok.text.compare(dstTok.text.size() - 2, 2, "x2") == 0;
  if (!checkCombinedQualifiers(in, famName, shown, dstTok, opcode, error)) return std::nullopt;

  for (const OperandTpl& tpl : chosen->operands) {
    if (tpl.optional) {
      if (!hasXorsign) in.extraOperands.push_back(makeOperand(tpl, in));
    } else {
      in.operands.push_back(makeOperand(tpl, in));
    }
  }
  in.minArity = static_cast<int>(in.operands.size());
  in.maxArity = in.minArity + static_cast<int>(in.extraOperands.size());
  in.minSmExtended = in.extraOperands.empty() ? 0 : std::max(in.minSm, chosen->extendedMinSm);
  in.description = describe(*chosen, quals);
  if (error) *error = PtxParseError{};
  return in;
}

int dtypeBits(std::string_view d) {
  struct E {
    std::string_view name, alias;
    int bits;
  };
  static const E table[] = {
      {"bool", "bool", 8},      {"int8", "i8", 8},     {"uint8", "u8", 8},
      {"int16", "i16", 16},     {"uint16", "u16", 16}, {"float16", "f16", 16},
      {"bfloat16", "bf16", 16}, {"int32", "i32", 32},  {"uint32", "u32", 32},
      {"float32", "f32", 32},   {"int64", "i64", 64},  {"uint64", "u64", 64},
      {"float64", "f64", 64},
  };
  for (const E& e : table)
    if (d == e.name || d == e.alias) return e.bits;
  return 0;
}

std::string_view ptxConstraintFor(std::string_view d) {
  if (d == "float32" || d == "f32") return "f";
  if (d == "float64" || d == "f64") return "d";
  switch (dtypeBits(d)) {
    case 8:
    case 16:
      return "h";
    case 32:
      return "r";
    case 64:
      return "l";
    default:
      return "";
  }
}

std::vector<DTypeName> ptxTypeDtypes(std::string_view t) {
  if (t == ".b8") return {"uint8", "int8", "bool"};
  if (t == ".b16") return {"uint16", "int16", "float16", "bfloat16"};
  if (t == ".b32") return {"uint32", "int32", "float32"};
  if (t == ".b64") return {"uint64", "int64", "float64"};
  if (t == ".f32") return {"float32"};
  if (t == ".f64") return {"float64"};
  if (t == ".f16" || t == ".bf16") return {"uint16"};
  if (t == ".f16x2" || t == ".bf16x2" || t == ".u16x2" || t == ".s16x2" || t == ".pred")
    return {"uint32"};
  if (t == ".f32x2") return {"uint64"};
  if (t.size() >= 3 && (t[1] == 'u' || t[1] == 's') && isIntType(t))
    return {std::string(t[1] == 'u' ? "uint" : "int") + std::string(t.substr(2))};
  return {};
}

}  // namespace tirx
