// Views of the PTX instruction table for people: per-token descriptions (editor hovers),
// next-token completions, the exhaustive spelling enumeration used by tests, and the Markdown
// rendering embedded in docs/ptx.md. Everything here walks the rows of ptx_rows.cpp.
#include <algorithm>
#include <functional>

#include "core/ptx/ptx_collective.h"
#include "core/ptx/ptx_rows.h"
#include "core/ptx/ptx_table.h"
#include "core/ptx/ptx_tma.h"
#include "core/ptx/ptx_wgmma.h"

namespace tirx {
namespace {

using namespace ptxrows;

const FamilyRow* familyByName(std::string_view name) {
  for (const FamilyRow& f : familyRows())
    if (f.name == name) return &f;
  return nullptr;
}

const Qual* slotQual(const FormRow& r, std::string_view t, const Slot** slotOut = nullptr) {
  for (const Slot& s : r.slotSpecs)
    for (const Qual& q : s.tokens)
      if (q.text == t) {
        if (slotOut) *slotOut = &s;
        return &q;
      }
  return nullptr;
}

bool hasType(const std::vector<Qual>& qs, std::string_view t) {
  return std::any_of(qs.begin(), qs.end(), [&](const Qual& q) { return q.text == t; });
}

/// Escapes '|' for a Markdown table cell.
std::string cell(std::string_view s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

std::string smText(int sm) {
  return sm <= 50 ? "" : "sm_" + std::to_string(sm);
}

std::string syntaxOf(const FormRow& r) {
  std::string s(familyName(r.family));
  auto alts = [](const std::vector<Qual>& qs) {
    if (qs.size() == 1) return std::string(qs[0].text);
    std::string o = ".{";
    for (size_t i = 0; i < qs.size(); ++i) o += (i ? "|" : "") + std::string(qs[i].text.substr(1));
    return o + "}";
  };
  for (const Slot& sl : r.slotSpecs) {
    std::string a = alts(sl.tokens);
    s += sl.required ? a : "[" + a + "]";
  }
  s += alts(r.types);
  if (!r.srcTypes.empty()) s += alts(r.srcTypes);
  return s;
}

std::string operandsOf(const FormRow& r) {
  std::string o;
  for (const OperandTpl& t : r.operands) {
    if (!o.empty()) o += ", ";
    std::string name(t.name);
    if (t.role == OperandRole::Address) name = "[" + name + "]";
    if (t.vector) name += "{N}";
    if (t.optional) name += "?";
    o += name;
  }
  return o;
}

}  // namespace

std::vector<PtxTokenInfo> describePtxTokens(std::string_view opcode) {
  if (isCollectiveFamilyName(opcode.substr(0, opcode.find('.'))))
    return describeCollectiveTokens(opcode);
  if (isTmaSpelling(opcode)) return describeTmaTokens(opcode);
  if (isWgmmaSpelling(opcode)) return describeWgmmaTokens(opcode);
  std::vector<PtxTokenInfo> out;
  size_t start = 0;
  std::vector<std::pair<std::string, int>> toks;
  for (size_t i = 0; i <= opcode.size(); ++i) {
    if (i == opcode.size() || (opcode[i] == '.' && i > 0)) {
      toks.emplace_back(std::string(opcode.substr(start, i - start)), static_cast<int>(start));
      start = i;
    }
  }
  if (toks.empty()) return out;
  const FamilyRow* fam = familyByName(toks[0].first);
  int typeIndex = 0;
  for (size_t i = 0; i < toks.size(); ++i) {
    PtxTokenInfo info{toks[i].first, toks[i].second, ""};
    if (i == 0) {
      if (fam) info.description = std::string(fam->description);
    } else if (isTypeToken(info.text)) {
      std::string d(typeDescription(info.text));
      if (fam && fam->family == PtxFamily::Cvt)
        d = (typeIndex++ == 0 ? "destination type: " : "source type: ") + d;
      info.description = d;
    } else if (fam) {
      for (const FormRow& r : formRows())
        if (r.family == fam->family)
          if (const Qual* q = slotQual(r, info.text)) {
            info.description = std::string(q->description);
            if (q->minSm > 50) info.description += " (" + smText(q->minSm) + "+)";
            break;
          }
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<PtxTokenInfo> ptxCompletions(std::string_view prefix) {
  std::vector<PtxTokenInfo> out;
  auto add = [&](std::string_view text, int col, std::string_view desc) {
    for (const PtxTokenInfo& o : out)
      if (o.text == text) return;
    out.push_back({std::string(text), col, std::string(desc)});
  };
  size_t firstDot = prefix.find('.');
  if (firstDot == std::string_view::npos) {
    for (const FamilyRow& f : familyRows())
      if (f.name.substr(0, prefix.size()) == prefix) add(f.name, 0, f.description);
    for (PtxTokenInfo& c : collectiveCompletions(prefix)) add(c.text, c.column, c.description);
    return out;
  }
  if (isCollectiveFamilyName(prefix.substr(0, firstDot))) return collectiveCompletions(prefix);
  const FamilyRow* fam = familyByName(prefix.substr(0, firstDot));
  if (!fam) return out;
  size_t lastDot = prefix.rfind('.');
  std::string_view partial = prefix.substr(lastDot);
  std::vector<std::string> done;
  size_t pos = firstDot;
  while (pos < lastDot) {
    size_t next = prefix.find('.', pos + 1);
    done.emplace_back(prefix.substr(pos, next - pos));
    pos = next;
  }
  const int col = static_cast<int>(lastDot);
  for (const FormRow& r : formRows()) {
    if (r.family != fam->family) continue;
    std::vector<const Slot*> used;
    std::vector<std::string> types;
    bool ok = true;
    for (const std::string& t : done) {
      const Slot* s = nullptr;
      if (slotQual(r, t, &s) && types.empty()) {
        used.push_back(s);
      } else if (types.empty() ? hasType(r.types, t) : hasType(r.srcTypes, t)) {
        types.push_back(t);
      } else {
        ok = false;
      }
    }
    size_t typeCount = r.srcTypes.empty() ? 1 : 2;
    if (!ok || types.size() >= typeCount) continue;
    auto matches = [&](std::string_view t) { return t.substr(0, partial.size()) == partial; };
    if (types.empty()) {
      for (const Slot& s : r.slotSpecs) {
        if (std::find(used.begin(), used.end(), &s) != used.end()) continue;
        for (const Qual& q : s.tokens)
          if (matches(q.text)) add(q.text, col, q.description);
      }
      for (const Qual& q : r.types)
        if (matches(q.text)) add(q.text, col, q.description);
    } else {
      for (const Qual& q : r.srcTypes)
        if (matches(q.text) &&
            parsePtxOpcode(std::string(prefix.substr(0, lastDot)) + std::string(q.text)))
          add(q.text, col, q.description);
    }
  }
  return out;
}

namespace ptxrows {

std::vector<std::string> enumerateSpellings(int perRowLimit) {
  std::vector<std::string> out;
  for (const FormRow& r : formRows()) {
    std::vector<std::string> rowOut;
    std::string base(familyName(r.family));
    std::vector<const Qual*> chosen;
    std::vector<int> groups;
    // Structurally impossible combinations (exclusive slots, missing or excluded partner tokens)
    // are skipped here; parsePtxOpcode() has the last word on the rest.
    auto plausible = [&](const std::vector<Qual>& extra) {
      auto present = [&](std::string_view t) {
        for (const Qual* q : chosen)
          if (q->text == t) return true;
        for (const Qual& q : extra)
          if (q.text == t) return true;
        return false;
      };
      for (const Qual* q : chosen) {
        if (!q->requires_.empty() && !present(q->requires_)) return false;
        if (!q->excludes_.empty() && present(q->excludes_)) return false;
      }
      return true;
    };
    std::function<void(size_t, std::string)> walk = [&](size_t slot, std::string s) {
      if (static_cast<int>(rowOut.size()) >= perRowLimit) return;
      if (slot == r.slotSpecs.size()) {
        for (const Qual& t : r.types) {
          if (r.srcTypes.empty()) {
            if (plausible({t})) rowOut.push_back(s + std::string(t.text));
          } else {
            for (const Qual& u : r.srcTypes)
              if (plausible({t, u}))
                rowOut.push_back(s + std::string(t.text) + std::string(u.text));
          }
        }
        return;
      }
      const Slot& sl = r.slotSpecs[slot];
      if (!sl.required) walk(slot + 1, s);
      if (sl.exclusiveGroup != 0 &&
          std::find(groups.begin(), groups.end(), sl.exclusiveGroup) != groups.end())
        return;
      if (sl.exclusiveGroup != 0) groups.push_back(sl.exclusiveGroup);
      for (const Qual& q : sl.tokens) {
        chosen.push_back(&q);
        walk(slot + 1, s + std::string(q.text));
        chosen.pop_back();
      }
      if (sl.exclusiveGroup != 0) groups.pop_back();
    };
    walk(0, base);
    for (std::string& s : rowOut)
      if (parsePtxOpcode(s)) out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace ptxrows

std::string ptxTableMarkdown() {
  std::string md;
  md +=
      "<!-- generated by ptxTableMarkdown() in core/ptx/ptx_docs.cpp; "
      "tests/core/tst_ptx_table.cpp checks that this block matches the code -->\n";
  md += "## Families\n\n| family | what it does | examples |\n|---|---|---|\n";
  for (const FamilyRow& f : familyRows()) {
    std::string ex;
    for (size_t i = 0; i < f.examples.size() && i < 4; ++i)
      ex += (i ? ", `" : "`") + f.examples[i] + "`";
    md += "| `" + std::string(f.name) + "` | " + cell(f.description) + " | " + ex + " |\n";
  }
  md +=
      "\n## Forms\n\nSyntax: `[.x]` optional, `.{a|b}` exactly one of, operands in call order "
      "(destination first), `{N}` = atom of the `.vN` width, `?` = optional operand.\n";
  for (const FamilyRow& f : familyRows()) {
    md += "\n### " + std::string(f.name) + "\n\n" + std::string(f.description) + ".\n\n";
    md +=
        "| form | syntax | operands | min target | scalars | description "
        "|\n|---|---|---|---|---|---|\n";
    for (const FormRow& r : formRows()) {
      if (r.family != f.family) continue;
      bool scalars = std::any_of(r.operands.begin(), r.operands.end(),
                                 [](const OperandTpl& o) { return o.scalar; });
      std::string sm = smText(r.minSm);
      int lowestType = 1000;
      for (const Qual& t : r.types) lowestType = std::min(lowestType, t.minSm);
      if (lowestType > r.minSm) sm = smText(lowestType);
      if (r.extendedMinSm)
        sm += (sm.empty() ? "" : ", ") + std::string("3 inputs: ") + smText(r.extendedMinSm);
      md += "| " + std::string(r.summary) + " | `" + cell(syntaxOf(r)) + "` | " + operandsOf(r) +
            " | " + (sm.empty() ? "any" : sm) + " | " + (scalars ? "sources" : "no") + " | " +
            cell(r.description) + " |\n";
    }
  }
  md += "\n## Types and register carriers (spec §2.5, §2.6)\n\n";
  md +=
      "| PTX type | bits | tensor dtypes (canonical first) | constraint | meaning "
      "|\n|---|---|---|---|---|\n";
  for (std::string_view t : {".b8",  ".b16", ".b32",   ".b64",    ".u8",    ".u16",   ".u32",
                             ".u64", ".s8",  ".s16",   ".s32",    ".s64",   ".f16",   ".bf16",
                             ".f32", ".f64", ".f16x2", ".bf16x2", ".u16x2", ".s16x2", ".f32x2"}) {
    std::vector<DTypeName> ds = ptxTypeDtypes(t);
    std::string dl;
    for (size_t i = 0; i < ds.size(); ++i) dl += (i ? ", " : "") + ds[i];
    md += "| `" + std::string(t) + "` | " + std::to_string(typeBits(t)) + " | " + dl + " | `" +
          std::string(ptxConstraintFor(ds.front())) + "` | " + cell(typeDescription(t)) + " |\n";
  }
  md += "\n## Qualifiers\n\n| qualifier | families | min target | meaning |\n|---|---|---|---|\n";
  struct Entry {
    std::string text, desc;
    std::vector<std::string> fams;
    int sm;
  };
  std::vector<Entry> entries;
  for (const FormRow& r : formRows())
    for (const Slot& s : r.slotSpecs)
      for (const Qual& q : s.tokens) {
        std::string fam(familyName(r.family));
        auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
          return e.text == q.text && e.desc == q.description;
        });
        if (it == entries.end()) {
          entries.push_back({std::string(q.text), std::string(q.description), {fam}, q.minSm});
          continue;
        }
        it->sm = std::min(it->sm, q.minSm);
        if (std::find(it->fams.begin(), it->fams.end(), fam) == it->fams.end())
          it->fams.push_back(fam);
      }
  for (const Entry& e : entries) {
    std::string sm = smText(e.sm), fams;
    for (size_t i = 0; i < e.fams.size(); ++i) fams += (i ? ", " : "") + e.fams[i];
    md += "| `" + e.text + "` | " + fams + " | " + (sm.empty() ? "any" : sm) + " | " +
          cell(e.desc) + " |\n";
  }
  md += collectiveMarkdown();
  md += tmaMarkdown();
  md += wgmmaMarkdown();
  return md;
}

}  // namespace tirx
