// The tuning space of a script (decision TUNE-1): the module-level `TUNE = {"NAME": [v, ...]}`
// table and the `--param` overrides, checked against the module constants they name, read from
// the parser's AST; candidates as the cartesian product; a candidate's script as a text edit of
// each constant's literal at the span the parser reported; the script hash with those literals
// normalised.
#include <algorithm>
#include <charconv>
#include <cstdio>

#include "core/script/parser.h"
#include "core/tune/tune.h"

namespace tirx::tune {

namespace {

/// The module-level `NAME = <int literal>` definitions (the last one wins, as in Python).
std::map<std::string, const ast::Expr*> moduleIntConstants(const ast::Module& m) {
  std::map<std::string, const ast::Expr*> out;
  for (const auto& s : m.body) {
    if (s->kind != ast::StmtKind::Assign || s->targets.size() != 1 || !s->value) continue;
    const ast::Expr& t = *s->targets[0];
    if (t.kind == ast::ExprKind::Name) out[t.text] = s->value.get();
  }
  return out;
}

/// The value of the module-level `TUNE = {...}` table, null when the script has none.
const ast::Expr* tuneTable(const ast::Module& m) {
  const ast::Expr* table = nullptr;
  for (const auto& s : m.body)
    if (s->kind == ast::StmtKind::Assign && s->targets.size() == 1 && s->value &&
        s->targets[0]->kind == ast::ExprKind::Name && s->targets[0]->text == "TUNE")
      table = s->value.get();
  return table;
}

// TUNE := '{' STR ':' '[' INT (',' INT)* ']' (',' ...)* '}'
void readTable(const ast::Expr& table, std::vector<ParamOverride>& params, Diagnostics& diags) {
  if (table.kind != ast::ExprKind::Dict) {
    diags.push_back(makeError("E0860", table.span,
                              "TUNE must be a dict of parameter names to lists of integers, like "
                              "{\"BLOCK_N\": [64, 128]}"));
    return;
  }
  for (size_t i = 0; i + 1 < table.args.size(); i += 2) {
    const ast::Expr& key = *table.args[i];
    const ast::Expr& list = *table.args[i + 1];
    if (key.kind != ast::ExprKind::Str) {
      diags.push_back(makeError("E0860", key.span, "a TUNE key must be a parameter name string"));
      continue;
    }
    if ((list.kind != ast::ExprKind::List && list.kind != ast::ExprKind::Tuple) ||
        list.args.empty()) {
      diags.push_back(
          makeError("E0860", list.span,
                    "the candidates of '" + key.text + "' must be a non-empty list of integers"));
      continue;
    }
    ParamOverride p{key.text, {}, key.span};
    for (const auto& v : list.args) {
      if (v->kind != ast::ExprKind::Int) {
        diags.push_back(makeError("E0860", v->span,
                                  "a candidate of '" + key.text + "' must be an integer literal"));
        continue;
      }
      p.values.push_back(v->intValue);
    }
    for (const auto& q : params)
      if (q.name == p.name)
        diags.push_back(makeError("E0861", key.span, "'" + p.name + "' is listed twice in TUNE"));
    params.push_back(std::move(p));
  }
}

}  // namespace

bool TuneSpace::ok() const {
  for (const auto& d : diagnostics)
    if (d.severity == Severity::Error) return false;
  return !params.empty();
}

bool parseParamOverride(std::string_view text, ParamOverride& out, std::string& why) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    why = "expected NAME=v1,v2,..., found '" + std::string(text) + "'";
    return false;
  }
  out = {std::string(text.substr(0, eq)), {}, {}};
  std::string_view rest = text.substr(eq + 1);
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    int64_t v = 0;
    const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size()) {
      why = "expected an integer value of " + out.name + ", found '" + std::string(item) + "'";
      return false;
    }
    out.values.push_back(v);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return true;
}

TuneSpace findTuneSpace(std::string_view source, const std::vector<ParamOverride>& overrides) {
  TuneSpace space;
  const ParseResult parsed = parseScript(source, "<script>");
  for (const auto& d : parsed.diagnostics)
    if (d.severity == Severity::Error) space.diagnostics.push_back(d);
  std::vector<ParamOverride> wanted;
  if (const ast::Expr* table = tuneTable(parsed.module))
    readTable(*table, wanted, space.diagnostics);
  for (const auto& o : overrides) {
    bool replaced = false;
    for (auto& w : wanted)
      if (w.name == o.name) w.values = o.values, replaced = true;  // keeps the table's span
    if (!replaced) wanted.push_back(o);
  }
  const auto constants = moduleIntConstants(parsed.module);
  for (const auto& w : wanted) {
    const auto it = constants.find(w.name);
    if (it == constants.end()) {
      // A --param name has no place in the file: its diagnostic goes to the first line.
      space.diagnostics.push_back(
          makeError("E0862", w.span.valid() ? w.span : SourceSpan{1, 1, 0, 0},
                    "the tuned parameter '" + w.name + "' is not a module constant of the script"));
      continue;
    }
    if (it->second->kind != ast::ExprKind::Int) {
      space.diagnostics.push_back(makeError(
          "E0863", it->second->span,
          "the tuned parameter '" + w.name +
              "' must be defined as an integer literal (NAME = 128), found an expression"));
      continue;
    }
    space.params.push_back({w.name, w.values, it->second->span});
  }
  return space;
}

std::vector<Candidate> enumerateCandidates(const TuneSpace& space) {
  std::vector<Candidate> out{{}};
  for (const auto& p : space.params) {
    std::vector<Candidate> next;
    for (const auto& c : out)
      for (int64_t v : p.values) {
        Candidate d = c;
        d.push_back(v);
        next.push_back(std::move(d));
      }
    out = std::move(next);
  }
  if (space.params.empty()) out.clear();
  return out;
}

namespace {
std::string replaceLiterals(std::string_view source, const TuneSpace& space,
                            const std::vector<std::string>& texts) {
  // Edits from the last literal back, so earlier offsets stay valid.
  std::vector<size_t> order(space.params.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return space.params[a].literal.offset > space.params[b].literal.offset;
  });
  std::string out(source);
  for (size_t i : order) {
    const SourceSpan& s = space.params[i].literal;
    out.replace(size_t(s.offset), size_t(s.length), texts[i]);
  }
  return out;
}
}  // namespace

std::string substitute(std::string_view source, const TuneSpace& space, const Candidate& c) {
  std::vector<std::string> texts;
  for (int64_t v : c) texts.push_back(std::to_string(v));
  return replaceLiterals(source, space, texts);
}

std::string candidateText(const TuneSpace& space, const Candidate& c) {
  std::string t;
  for (size_t i = 0; i < space.params.size() && i < c.size(); ++i)
    t += (i ? " " : "") + space.params[i].name + "=" + std::to_string(c[i]);
  return t;
}

std::string scriptHash(std::string_view source, const TuneSpace& space) {
  const std::string norm =
      replaceLiterals(source, space, std::vector<std::string>(space.params.size(), "_"));
  uint64_t h = 1469598103934665603ull;  // FNV-1a 64
  for (unsigned char ch : norm) h = (h ^ ch) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string shapeText(std::string_view source, const TuneSpace& space) {
  const ParseResult parsed = parseScript(source, "<script>");
  std::string t;
  for (const auto& [name, value] : moduleIntConstants(parsed.module)) {
    bool tuned = false;
    for (const auto& p : space.params) tuned = tuned || p.name == name;
    if (tuned || value->kind != ast::ExprKind::Int) continue;
    t += (t.empty() ? "" : " ") + name + "=" + std::to_string(value->intValue);
  }
  return t;
}

}  // namespace tirx::tune
