// The warp-collective forms of the PTX table (ptx_collective.h): each form is a fixed sequence of
// steps after the family name (the PTX grammar's order, which ptxas also requires for these
// instructions), every step a set of alternative tokens with their minimum target and meaning.
// parseCollectiveOpcode() walks the steps, reports the first token that fits nowhere (naming what
// was expected there), applies the cross-token rules (mma: A and B of one type), and builds the
// PtxInstruction with the operands of spec TC §6.1 (ldmatrix/stmatrix), §7.1 (mma.sync) and §10
// (shfl.sync, redux.sync). Minimum targets were checked with ptxas 13.0 for sm_75..sm_100
// (tests/core/tst_ptx_collective.cpp).
#include "core/ptx/ptx_collective.h"

#include <algorithm>
#include <functional>

#include "core/ptx/ptx_rows.h"
#include "core/ptx/ptx_tokens.h"

namespace tirx {
namespace {

struct Tok {
  std::string_view text;
  int minSm = 50;
  std::string_view description;
};

struct Step {
  std::string_view what;  ///< "a matrix count", "the A type", ...
  bool required = true;
  std::vector<Tok> tokens;
};

struct Form {
  PtxFamily family;
  std::string_view name;
  std::string_view summary;
  std::vector<Step> steps;
  int minSm = 50;
  std::string_view description;
};

const Tok kSync{".sync", 50, "every lane named by the mask (the whole warp) executes it together"};
const Tok kAligned{".aligned", 50,
                   "all lanes execute the same instruction under warp-uniform control flow"};
const Step kSyncStep{"'.sync'", true, {kSync}};
const Step kAlignedStep{"'.aligned'", true, {kAligned}};

std::vector<Step> matrixSteps() {
  return {
      kSyncStep,
      kAlignedStep,
      {"the shape", true, {{".m8n8", 50, "8x8 matrices of 16-bit elements"}}},
      {"a matrix count",
       true,
       {{".x1", 50, "one 8x8 matrix: lanes 0-7 give the row addresses, one register per lane"},
        {".x2", 50, "two 8x8 matrices: lanes 0-15 give the row addresses, two registers per lane"},
        {".x4", 50, "four 8x8 matrices: every lane gives a row address, four registers per lane"}}},
      {"'.trans'",
       false,
       {{".trans", 50, "transpose: a lane's register holds a column pair of the stored matrix"}}},
      {"the state space",
       true,
       {{".shared", 50, "shared memory, addressed through the 32-bit shared window"},
        {".shared::cta", 50, "shared memory of the executing CTA"}}},
      {"the type", true, {{".b16", 50, "16-bit elements, two per 32-bit register"}}}};
}

std::vector<Form> buildForms() {
  std::vector<Form> forms;
  {
    Form f{PtxFamily::Ldmatrix,
           "ldmatrix",
           "load",
           {},
           75,
           "load 1, 2 or 4 8x8 b16 matrices from shared memory into the registers of a warp"};
    f.steps = matrixSteps();
    forms.push_back(std::move(f));
  }
  {
    Form f{PtxFamily::Stmatrix,
           "stmatrix",
           "store",
           {},
           90,
           "store 1, 2 or 4 8x8 b16 matrices from the registers of a warp to shared memory"};
    f.steps = matrixSteps();
    forms.push_back(std::move(f));
  }
  {
    Form f{PtxFamily::Mma,
           "mma",
           "f16/bf16 -> f32",
           {},
           75,
           "warp matrix multiply-accumulate D = A * B + C of a 16x8 tile with f32 accumulators"};
    f.steps = {
        kSyncStep,
        kAlignedStep,
        {"the shape",
         true,
         {{".m16n8k8", 75, "D 16x8 += A 16x8 * B 8x8 (A: 2 registers, B: 1, C/D: 4 per lane)"},
          {".m16n8k16", 80, "D 16x8 += A 16x16 * B 16x8 (A: 4 registers, B: 2, C/D: 4 per lane)"}}},
        {"the A layout",
         true,
         {{".row", 50, "A is row-major (the only A layout of these shapes)"}}},
        {"the B layout",
         true,
         {{".col", 50, "B is column-major (the only B layout of these shapes)"}}},
        {"the D type", true, {{".f32", 50, "four f32 accumulators per lane"}}},
        {"the A type",
         true,
         {{".bf16", 80, "bfloat16 pairs packed in 32-bit registers"},
          {".f16", 75, "binary16 pairs packed in 32-bit registers"}}},
        {"the B type",
         true,
         {{".bf16", 80, "bfloat16 pairs packed in 32-bit registers"},
          {".f16", 75, "binary16 pairs packed in 32-bit registers"}}},
        {"the C type", true, {{".f32", 50, "four f32 accumulators per lane"}}}};
    forms.push_back(std::move(f));
  }
  {
    Form f{PtxFamily::Shfl,
           "shfl",
           "exchange",
           {},
           50,
           "exchange a 32-bit register between the lanes of a warp"};
    f.steps = {
        kSyncStep,
        {"a mode",
         true,
         {{".up", 50, "read lane - b (clamped at the segment start)"},
          {".down", 50, "read lane + b (clamped at c)"},
          {".bfly", 50, "read lane ^ b (butterfly)"},
          {".idx", 50, "read lane b of the segment"}}},
        {"the type", true, {{".b32", 50, "32 untyped bits (uint32, int32 or float32 registers)"}}}};
    forms.push_back(std::move(f));
  }
  {
    Form f{PtxFamily::Redux,
           "redux",
           "arithmetic",
           {},
           80,
           "reduce a 32-bit register over the lanes of a warp; every lane receives the result"};
    f.steps = {kSyncStep,
               {"an operation",
                true,
                {{".add", 80, "sum (wraps around at 32 bits)"},
                 {".min", 80, "minimum"},
                 {".max", 80, "maximum"}}},
               {"the type",
                true,
                {{".u32", 80, "unsigned 32-bit integer"}, {".s32", 80, "signed 32-bit integer"}}}};
    forms.push_back(std::move(f));
    Form g{PtxFamily::Redux,
           "redux",
           "bitwise",
           {},
           80,
           "reduce a 32-bit register over the lanes of a warp; every lane receives the result"};
    g.steps = {
        kSyncStep,
        {"an operation",
         true,
         {{".and", 80, "bitwise and"}, {".or", 80, "bitwise or"}, {".xor", 80, "bitwise xor"}}},
        {"the type", true, {{".b32", 80, "32 untyped bits"}}}};
    forms.push_back(std::move(g));
  }
  return forms;
}

const std::vector<Form>& forms() {
  static const std::vector<Form> f = buildForms();
  return f;
}

using Token = PtxToken;

std::vector<Token> split(std::string_view op) {
  return splitPtxTokens(op);
}

const Tok* findTok(const Step& s, std::string_view t) {
  for (const Tok& k : s.tokens)
    if (k.text == t) return &k;
  return nullptr;
}

std::string alternatives(const Step& s) {
  std::string o;
  for (size_t i = 0; i < s.tokens.size(); ++i) {
    if (i) o += (i + 1 == s.tokens.size()) ? " or " : ", ";
    o += s.tokens[i].text;
  }
  return o;
}

/// The spelling pattern of a form: `ldmatrix.sync.aligned.m8n8.{x1|x2|x4}[.trans]...`.
std::string syntaxOf(const Form& f) {
  std::string s(f.name);
  for (const Step& st : f.steps) {
    std::string a;
    if (st.tokens.size() == 1) {
      a = std::string(st.tokens[0].text);
    } else {
      a = ".{";
      for (size_t i = 0; i < st.tokens.size(); ++i)
        a += (i ? "|" : "") + std::string(st.tokens[i].text.substr(1));
      a += "}";
    }
    s += st.required ? a : "[" + a + "]";
  }
  return s;
}

/// The outcome of matching the tokens against one form.
struct Match {
  bool ok = false;
  int consumed = 0;             ///< tokens accepted before the failure
  std::vector<const Tok*> tok;  ///< per token, its entry
  std::vector<int> stepOf;      ///< per token, its step
  std::string message;
  int column = 0, length = 0;
};

Match matchForm(const Form& f, const std::vector<Token>& toks, std::string_view opcode) {
  Match m;
  size_t s = 0;
  for (size_t i = 1; i < toks.size(); ++i) {
    const Token& t = toks[i];
    bool placed = false;
    while (s < f.steps.size()) {
      if (const Tok* k = findTok(f.steps[s], t.text)) {
        m.tok.push_back(k);
        m.stepOf.push_back(static_cast<int>(s));
        ++s;
        placed = true;
        break;
      }
      if (f.steps[s].required) break;
      ++s;
    }
    if (placed) {
      ++m.consumed;
      continue;
    }
    m.column = t.column;
    m.length = static_cast<int>(t.text.size());
    // A token of another step: a duplicate, or a required step before it is missing.
    for (size_t o = 0; o < f.steps.size(); ++o) {
      if (!findTok(f.steps[o], t.text)) continue;
      if (o < s) {
        m.message = "'" + t.text + "' comes too late or twice in " + std::string(opcode) +
                    ": the order is " + syntaxOf(f);
        return m;
      }
      const Step& cur = f.steps[s];
      const bool typeSlot = std::all_of(cur.tokens.begin(), cur.tokens.end(),
                                        [](const Tok& k) { return ptxrows::isTypeToken(k.text); });
      if (typeSlot && ptxrows::isTypeToken(t.text))
        break;  // a type in the wrong type slot: say which type is expected
      m.message = "missing " + std::string(cur.what) + " before '" + t.text +
                  "': " + std::string(opcode) + " needs " + alternatives(cur) + " (the form is " +
                  syntaxOf(f) + ")";
      return m;
    }
    if (s >= f.steps.size()) {
      m.message = "'" + t.text + "' is not a qualifier of " + std::string(f.name) +
                  " (the form is " + syntaxOf(f) + ")";
      return m;
    }
    const Step& st = f.steps[s];
    m.message = "'" + t.text + "' is not " + std::string(st.what) + " of " + std::string(f.name) +
                " (expected " + alternatives(st) + ")";
    return m;
  }
  for (; s < f.steps.size(); ++s) {
    if (!f.steps[s].required) continue;
    m.column = static_cast<int>(opcode.size());
    m.length = 0;
    m.message = "missing " + std::string(f.steps[s].what) + ": " + std::string(opcode) + " needs " +
                alternatives(f.steps[s]) + " (the form is " + syntaxOf(f) + ")";
    return m;
  }
  m.ok = true;
  return m;
}

PtxOperandSpec operand(OperandRole role, std::string name, std::string ptxType, int bits,
                       std::vector<int64_t> atom, std::vector<DTypeName> dtypes,
                       bool scalar = false) {
  PtxOperandSpec op;
  op.role = role;
  op.name = std::move(name);
  op.ptxType = std::move(ptxType);
  op.bits = bits;
  op.atom = 1;
  op.atomShape = std::move(atom);
  op.dtypes = std::move(dtypes);
  op.scalarAllowed = scalar;
  op.constraint =
      role == OperandRole::Address ? "r" : std::string(ptxConstraintFor(op.dtypes.front()));
  return op;
}

const std::vector<DTypeName> kWords = {"uint32", "int32"};
const std::vector<DTypeName> kHalves = {"uint16", "int16", "float16", "bfloat16"};
const std::vector<DTypeName> kB32 = {"uint32", "int32", "float32"};

void fillOperands(PtxInstruction& in) {
  switch (in.family) {
    case PtxFamily::Ldmatrix:
    case PtxFamily::Stmatrix: {
      const int64_t n = in.matrices;
      PtxOperandSpec regs =
          operand(in.family == PtxFamily::Ldmatrix ? OperandRole::DstReg : OperandRole::SrcReg,
                  in.family == PtxFamily::Ldmatrix ? "d" : "r", ".b32", 32, {n, 8, 4}, kWords);
      PtxOperandSpec mem = operand(OperandRole::Address, "mem", ".b16", 16, {n, 8, 8}, kHalves);
      if (in.family == PtxFamily::Ldmatrix)
        in.operands = {regs, mem};
      else
        in.operands = {mem, regs};
      break;
    }
    case PtxFamily::Mma: {
      const int64_t kw = in.mmaK / 2;
      in.operands = {operand(OperandRole::DstReg, "d", ".f32", 32, {16, 8}, {"float32"}),
                     operand(OperandRole::SrcReg, "a", ".b32", 32, {16, kw}, kWords),
                     operand(OperandRole::SrcReg, "b", ".b32", 32, {8, kw}, kWords),
                     operand(OperandRole::SrcReg, "c", ".f32", 32, {16, 8}, {"float32"})};
      break;
    }
    case PtxFamily::Shfl:
      in.operands = {operand(OperandRole::DstReg, "d", ".b32", 32, {1}, kB32),
                     operand(OperandRole::SrcReg, "a", ".b32", 32, {1}, kB32),
                     operand(OperandRole::SrcReg, "b", ".b32", 32, {1}, kWords, true),
                     operand(OperandRole::SrcReg, "c", ".b32", 32, {1}, kWords, true),
                     operand(OperandRole::SrcReg, "membermask", ".b32", 32, {1}, kWords, true)};
      break;
    case PtxFamily::Redux: {
      const std::vector<DTypeName> ds = in.type == ".b32" ? kWords : ptxTypeDtypes(in.type);
      in.operands = {operand(OperandRole::DstReg, "d", in.type, 32, {1}, ds),
                     operand(OperandRole::SrcReg, "a", in.type, 32, {1}, ds),
                     operand(OperandRole::SrcReg, "membermask", ".b32", 32, {1}, kWords, true)};
      break;
    }
    default:
      break;
  }
  in.minArity = in.maxArity = static_cast<int>(in.operands.size());
}

bool fail(PtxParseError* err, std::string msg, int column, int length) {
  return ptxTokenError(err, std::move(msg), column, length);
}

}  // namespace

bool isCollectiveFamily(PtxFamily f) {
  return f == PtxFamily::Ldmatrix || f == PtxFamily::Stmatrix || f == PtxFamily::Mma ||
         f == PtxFamily::Shfl || f == PtxFamily::Redux;
}

bool isCollectiveFamilyName(std::string_view family) {
  for (const Form& f : forms())
    if (f.name == family) return true;
  return false;
}

std::optional<PtxInstruction> parseCollectiveOpcode(std::string_view opcode, PtxParseError* error) {
  const std::vector<Token> toks = split(opcode);
  if (toks.empty()) return fail(error, "empty PTX instruction", 0, 0), std::nullopt;
  for (const Token& t : toks)
    if (t.text.empty() || t.text == ".")
      return fail(error, "empty qualifier after '.' in '" + std::string(opcode) + "'", t.column, 1),
             std::nullopt;
  // redux .f32 forms are sm_100a only: refuse them by name rather than as an unknown type.
  if (toks[0].text == "redux")
    for (const Token& t : toks)
      if (t.text == ".f32" || t.text == ".abs" || t.text == ".NaN")
        return fail(error,
                    "redux.sync on .f32 needs sm_100a, which this table does not support (it has "
                    ".add/.min/.max on .u32/.s32 and .and/.or/.xor on .b32)",
                    t.column, static_cast<int>(t.text.size())),
               std::nullopt;
  if (toks[0].text == "shfl" && (toks.size() < 2 || toks[1].text != ".sync"))
    return fail(error,
                "shfl without '.sync' was removed from PTX for sm_70 and newer: write "
                "shfl.sync.{up|down|bfly|idx}.b32",
                toks.size() < 2 ? static_cast<int>(opcode.size()) : toks[1].column,
                toks.size() < 2 ? 0 : static_cast<int>(toks[1].text.size())),
           std::nullopt;
  const Form* chosen = nullptr;
  Match best, match;
  bool any = false;
  for (const Form& f : forms()) {
    if (f.name != toks[0].text) continue;
    Match m = matchForm(f, toks, opcode);
    if (m.ok) {
      chosen = &f;
      match = std::move(m);
      break;
    }
    if (!any || m.consumed > best.consumed) best = std::move(m);
    any = true;
  }
  if (!chosen) {
    if (!any)
      return fail(error, "unknown PTX instruction family '" + toks[0].text + "'", 0,
                  static_cast<int>(toks[0].text.size())),
             std::nullopt;
    return fail(error, best.message, best.column, best.length), std::nullopt;
  }
  PtxInstruction in;
  in.opcode = std::string(opcode);
  in.family = chosen->family;
  in.minSm = chosen->minSm;
  for (size_t i = 1; i < toks.size(); ++i) {
    const Tok* k = match.tok[i - 1];
    const Step& st = chosen->steps[match.stepOf[i - 1]];
    in.qualifiers.push_back(toks[i].text);
    in.minSm = std::max(in.minSm, k->minSm);
    const std::string& t = toks[i].text;
    if (st.what == "a matrix count") in.matrices = t[2] - '0';
    if (t == ".trans") in.trans = true;
    if (st.what == "the state space") in.space = t.substr(1);
    if (t == ".m16n8k8") in.mmaK = 8;
    if (t == ".m16n8k16") in.mmaK = 16;
    if (st.what == "the A type") in.abType = t;
    if (st.what == "a mode" || st.what == "an operation") in.mode = t;
  }
  in.type = toks.back().text;
  if (in.family == PtxFamily::Mma) {
    in.type = ".f32";
    const Token& a = toks[7];
    const Token& b = toks[8];
    if (a.text != b.text)
      return fail(error,
                  "mma.sync takes A and B of one type: found A " + a.text + " and B " + b.text,
                  b.column, static_cast<int>(b.text.size())),
             std::nullopt;
  }
  fillOperands(in);
  std::string d(chosen->description);
  for (size_t i = 1; i < toks.size(); ++i) {
    const Step& st = chosen->steps[match.stepOf[i - 1]];
    if (st.what == "a matrix count" || st.what == "a mode" || st.what == "an operation" ||
        st.what == "the shape" || toks[i].text == ".trans")
      d += "; " + toks[i].text + ": " + std::string(match.tok[i - 1]->description);
  }
  in.description = d;
  if (error) *error = PtxParseError{};
  return in;
}

std::vector<std::string> collectiveSpellings() {
  std::vector<std::string> out;
  for (const Form& f : forms()) {
    std::function<void(size_t, std::string)> walk = [&](size_t s, std::string text) {
      if (s == f.steps.size()) {
        if (parseCollectiveOpcode(text, nullptr)) out.push_back(text);
        return;
      }
      if (!f.steps[s].required) walk(s + 1, text);
      for (const Tok& k : f.steps[s].tokens) walk(s + 1, text + std::string(k.text));
    };
    walk(0, std::string(f.name));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<PtxFamilyInfo> collectiveFamilyInfos() {
  return {
      {PtxFamily::Ldmatrix,
       "ldmatrix",
       "warp collective: load 8x8 b16 matrices from shared memory into registers",
       {"ldmatrix.sync.aligned.m8n8.x4.shared.b16",
        "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
        "ldmatrix.sync.aligned.m8n8.x2.shared.b16", "ldmatrix.sync.aligned.m8n8.x1.shared.b16"}},
      {PtxFamily::Stmatrix,
       "stmatrix",
       "warp collective: store 8x8 b16 matrices from registers to shared memory (sm_90)",
       {"stmatrix.sync.aligned.m8n8.x4.shared.b16",
        "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
        "stmatrix.sync.aligned.m8n8.x2.shared.b16"}},
      {PtxFamily::Mma,
       "mma",
       "warp collective: tensor-core D = A * B + C on a 16x8 tile, f32 accumulators",
       {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
        "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32",
        "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32"}},
      {PtxFamily::Shfl,
       "shfl",
       "warp collective: exchange a 32-bit register between lanes",
       {"shfl.sync.bfly.b32", "shfl.sync.idx.b32", "shfl.sync.up.b32", "shfl.sync.down.b32"}},
      {PtxFamily::Redux,
       "redux",
       "warp collective: reduce a 32-bit integer over the lanes (sm_80)",
       {"redux.sync.add.u32", "redux.sync.max.s32", "redux.sync.min.u32", "redux.sync.xor.b32"}},
  };
}

std::vector<PtxTokenInfo> describeCollectiveTokens(std::string_view opcode) {
  std::vector<PtxTokenInfo> out;
  const std::vector<Token> toks = split(opcode);
  if (toks.empty()) return out;
  std::vector<const Form*> fs;
  for (const Form& f : forms())
    if (f.name == toks[0].text) fs.push_back(&f);
  for (size_t i = 0; i < toks.size(); ++i) {
    PtxTokenInfo info{toks[i].text, toks[i].column, ""};
    if (i == 0 && !fs.empty()) {
      info.description = std::string(fs[0]->description);
    } else if (!fs.empty() && fs[0]->family == PtxFamily::Mma && i >= 6 && i <= 9) {
      // the four type tokens: D, A, B, C in that order
      static const char* roles[] = {"D type: ", "A type: ", "B type: ", "C type: "};
      const Step& st = fs[0]->steps[i - 1];
      if (const Tok* k = findTok(st, toks[i].text))
        info.description = roles[i - 6] + std::string(k->description);
    } else {
      for (const Form* f : fs) {
        for (const Step& st : f->steps)
          if (const Tok* k = findTok(st, toks[i].text)) {
            info.description = std::string(k->description);
            if (k->minSm > 50) info.description += " (sm_" + std::to_string(k->minSm) + "+)";
            break;
          }
        if (!info.description.empty()) break;
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<PtxTokenInfo> collectiveCompletions(std::string_view prefix) {
  std::vector<PtxTokenInfo> out;
  auto add = [&](std::string_view text, int col, std::string_view desc) {
    for (const PtxTokenInfo& o : out)
      if (o.text == text) return;
    out.push_back({std::string(text), col, std::string(desc)});
  };
  const size_t firstDot = prefix.find('.');
  if (firstDot == std::string_view::npos) {
    for (const Form& f : forms())
      if (f.name.substr(0, prefix.size()) == prefix) add(f.name, 0, f.description);
    return out;
  }
  const std::vector<Token> toks = split(prefix.substr(0, prefix.rfind('.')));
  const size_t lastDot = prefix.rfind('.');
  const std::string_view partial = prefix.substr(lastDot);
  const int col = static_cast<int>(lastDot);
  for (const Form& f : forms()) {
    if (toks.empty() || f.name != toks[0].text) continue;
    // Walk the completed tokens; the candidates are the tokens of the steps that may come next.
    size_t s = 0;
    bool ok = true;
    for (size_t i = 1; i < toks.size() && ok; ++i) {
      bool placed = false;
      while (s < f.steps.size()) {
        if (findTok(f.steps[s], toks[i].text)) {
          ++s;
          placed = true;
          break;
        }
        if (f.steps[s].required) break;
        ++s;
      }
      ok = placed;
    }
    if (!ok) continue;
    for (; s < f.steps.size(); ++s) {
      for (const Tok& k : f.steps[s].tokens)
        if (k.text.substr(0, partial.size()) == partial) add(k.text, col, k.description);
      if (f.steps[s].required) break;
    }
  }
  return out;
}

std::string collectiveMarkdown() {
  std::string md =
      "\n## Warp collectives\n\nThese spellings have a fixed token order (PTX's own; ptxas "
      "refuses others). Operands in call order, destination first, with their atom in "
      "units of the operand's dtype (the lane is inside the atom of ldmatrix, stmatrix and "
      "mma; docs/simulator.md \"Warp collectives\").\n\n";
  md +=
      "| family | form | syntax | operands (atom) | min target | description "
      "|\n|---|---|---|---|---|---|\n";
  for (const Form& f : forms()) {
    // Operands of the form's first spelling (the atoms of other counts/shapes scale alike).
    std::string ops;
    std::string spelling(f.name);
    for (const Step& st : f.steps)
      if (st.required) spelling += std::string(st.tokens.back().text);
    if (auto in = parseCollectiveOpcode(spelling, nullptr)) {
      for (const PtxOperandSpec& o : in->operands) {
        std::string shape;
        for (size_t i = 0; i < o.atomShape.size(); ++i)
          shape += (i ? ", " : "") + std::to_string(o.atomShape[i]);
        ops += (ops.empty() ? "" : ", ") +
               (o.role == OperandRole::Address ? "[" + o.name + "]" : o.name) + " (" + shape +
               (o.atomShape.size() == 1 ? "," : "") + ")" + (o.scalarAllowed ? "*" : "");
      }
    }
    int lowest = 1000;
    for (const std::string& s : collectiveSpellings())
      if (auto in = parseCollectiveOpcode(s, nullptr);
          in && in->family == f.family && s.rfind(std::string(f.name), 0) == 0)
        if ((f.family != PtxFamily::Redux) || (in->type == ".b32") == (f.summary == "bitwise"))
          lowest = std::min(lowest, in->minSm);
    std::string syntax = syntaxOf(f);
    std::string cellSyntax;
    for (char c : syntax) cellSyntax += c == '|' ? std::string("\\|") : std::string(1, c);
    md += "| `" + std::string(f.name) + "` | " + std::string(f.summary) + " | `" + cellSyntax +
          "` | " + ops + " | " +
          (lowest <= 50 ? std::string("any") : "sm_" + std::to_string(lowest)) + " | " +
          std::string(f.description) + " |\n";
  }
  md +=
      "\n`*`: a typed scalar may stand in. Atoms shown for the spelling with the last alternative "
      "of each "
      "step (`.x4`, `.m16n8k16`); `.x1`/`.x2` have (1, 8, 4)/(2, 8, 4) register words and (1, 8, "
      "8)/"
      "(2, 8, 8) shared halves (or (count, 8, 4) 32-bit words), m16n8k8 has A (16, 4) and B (8, 4) "
      "words. mma.sync takes A and B of one type; m16n8k8 with f16 needs sm_75, every bf16 form "
      "and "
      "m16n8k16 sm_80.\n";
  return md;
}

}  // namespace tirx
