// Entry points of semantic analysis (analyze, checkScript, parseArch) and the module scope: import
// binding in both spellings (tvm.* and tvm_tirx.*), module constants (ints, layouts), dispatch of
// decorated defs to kernels and scalar functions, name lookup with "did you mean" suggestions,
// and the small argument helpers every call check shares. Non-TIRx module code (the numpy/torch
// harness at the bottom of a doc example) is bound as Foreign and never checked here.
#include <algorithm>
#include <charconv>
#include <functional>

#include "core/sema/sema_internal.h"

namespace tirx {

namespace sema {

namespace {

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

/// Module paths of the three TIRx namespaces, in both spellings (spec §0.1).
enum class TirxModule { None, Script, ScriptParent, Layout, Axis };
TirxModule classifyModule(const std::string& m) {
  for (const char* root : {"tvm", "tvm_tirx"}) {
    const std::string r = root;
    if (m == r + ".script.tirx") return TirxModule::Script;
    if (m == r + ".script") return TirxModule::ScriptParent;
    if (m == r + ".tirx.layout") return TirxModule::Layout;
    if (m == r + ".backend.cuda.axis") return TirxModule::Axis;
  }
  return TirxModule::None;
}

const std::vector<std::string> kLayoutNames = {"S", "R", "TileLayout", "Axis", "ComposeLayout"};
const std::vector<std::string> kAxisNames = {"laneid",    "warpid", "tx", "wgid",  "tid_in_wg",
                                             "wid_in_wg", "bx",     "by", "bz",    "cbx",
                                             "cby",       "cbz",    "m",  "TLane", "TCol"};

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string closestName(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestDist = std::max<size_t>(1, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    if (c == name) continue;
    const size_t d = editDistance(name, c);
    if (d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  return best;
}

Analyzer::Analyzer(const ast::Module& module, const SemaOptions& options)
    : AnalyzerState(module, options) {
  m_program.targetSm = options.sm;
}

Diagnostic& Analyzer::error(const char* code, SourceSpan span, std::string message) {
  m_diags.push_back(makeError(code, span, std::move(message)));
  return m_diags.back();
}

Diagnostic& Analyzer::warning(const char* code, SourceSpan span, std::string message) {
  m_diags.push_back(makeWarning(code, span, std::move(message)));
  return m_diags.back();
}

void Analyzer::note(Diagnostic& d, SourceSpan span, std::string message) {
  d.notes.push_back(DiagNote{span, std::move(message)});
}

std::string Analyzer::text(const SourceSpan& s) const {
  if (!s.valid() || s.offset < 0 || static_cast<size_t>(s.offset) >= m_module.source.size())
    return {};
  return m_module.source.substr(s.offset, s.length);
}

void Analyzer::addOpcodeSite(const ast::Expr& str, bool valid, std::optional<PtxInstruction> instr,
                             std::string info) {
  ir::OpcodeSite site;
  site.span = str.span;
  const std::string lit = text(str.span);
  // the spelling inside the quotes (a prefix such as r"" and either quote character)
  const size_t open = lit.find_first_of("\"'");
  if (open != std::string::npos && lit.size() >= open + 2) {
    const int q = static_cast<int>(open) + 1;
    site.span.offset += q;
    site.span.col += q;
    site.span.length = std::max(0, site.span.length - q - 1);
  }
  site.opcode = str.text;
  site.valid = valid;
  site.instr = std::move(instr);
  site.info = std::move(info);
  m_program.opcodeSites.push_back(std::move(site));
}

int Analyzer::addSymbol(ir::Symbol s) {
  m_program.symbols.push_back(std::move(s));
  return static_cast<int>(m_program.symbols.size()) - 1;
}

void Analyzer::useSymbol(int symbol, SourceSpan span) {
  if (symbol >= 0 && symbol < static_cast<int>(m_program.symbols.size()))
    m_program.symbols[symbol].uses.push_back(span);
}

const Binding* Analyzer::lookup(const std::string& name) {
  if (m_body) {
    auto it = m_body->locals.names.find(name);
    if (it != m_body->locals.names.end()) return &it->second;
  }
  auto it = m_moduleScope.names.find(name);
  return it == m_moduleScope.names.end() ? nullptr : &it->second;
}

std::vector<std::string> Analyzer::namesInScope() const {
  std::vector<std::string> out;
  for (const auto& [n, b] : m_moduleScope.names) out.push_back(n);
  if (m_body)
    for (const auto& [n, b] : m_body->locals.names) out.push_back(n);
  return out;
}

void Analyzer::unknownName(const ast::Expr& nameExpr) {
  auto& d = error("E0100", nameExpr.span, "unknown name '" + nameExpr.text + "'");
  const std::string best = closestName(nameExpr.text, namesInScope());
  if (!best.empty()) {
    note(d, nameExpr.span, "did you mean '" + best + "'?");
  } else if (std::find(kAxisNames.begin(), kAxisNames.end(), nameExpr.text) != kAxisNames.end()) {
    note(d, nameExpr.span,
         "thread axes are imported with `from tvm.backend.cuda.axis import " + nameExpr.text + "`");
  } else if (std::find(kLayoutNames.begin(), kLayoutNames.end(), nameExpr.text) !=
             kLayoutNames.end()) {
    note(d, nameExpr.span,
         "layout builders are imported with `from tvm.tirx.layout import " + nameExpr.text + "`");
  }
}

// The dotted builtins this checker knows (for "did you mean" on T.*).
const std::vector<std::string>& knownBuiltins() {
  static const std::vector<std::string> v = {"T.function",
                                             "T.macro",
                                             "T.Tensor",
                                             "T.device_entry",
                                             "T.cuda.LaunchConfig",
                                             "T.alloc_local",
                                             "T.alloc_shared",
                                             "T.cuda.tile.apply",
                                             "T.cuda.tile.ewise",
                                             "T.ptx",
                                             "T.cuda.thread_idx",
                                             "T.cuda.block_idx",
                                             "T.cuda.block_dim",
                                             "T.cuda.grid_dim",
                                             "T.cuda.lane_id",
                                             "T.cuda.warp_id",
                                             "T.cuda.linear_thread_id",
                                             "T.cuda.cta_sync",
                                             "T.cuda.warp_sync",
                                             "T.cuda.warpgroup_sync",
                                             "T.cuda.elect_sync",
                                             "T.ptx.setmaxnreg",
                                             "T.ptx.bar.sync",
                                             "T.ptx.bar.arrive",
                                             "T.cuda.__shfl_sync",
                                             "T.cuda.__shfl_xor_sync",
                                             "T.cuda.__shfl_up_sync",
                                             "T.cuda.__shfl_down_sync",
                                             "T.ComposeLayout",
                                             "T.serial",
                                             "T.unroll",
                                             "T.exp",
                                             "T.exp2",
                                             "T.log",
                                             "T.log2",
                                             "T.sqrt",
                                             "T.rsqrt",
                                             "T.tanh",
                                             "T.sigmoid",
                                             "T.abs",
                                             "T.fabs",
                                             "T.floor",
                                             "T.ceil",
                                             "T.round",
                                             "T.sin",
                                             "T.cos",
                                             "T.pow",
                                             "T.max",
                                             "T.min",
                                             "T.if_then_else",
                                             "T.ceildiv",
                                             "T.dynamic",
                                             "T.Cast",
                                             "T.cast",
                                             "T.TileLayout",
                                             "T.S",
                                             "T.R",
                                             "T.float32",
                                             "T.float16",
                                             "T.bfloat16",
                                             "T.float64",
                                             "T.int8",
                                             "T.int16",
                                             "T.int32",
                                             "T.int64",
                                             "T.uint8",
                                             "T.uint16",
                                             "T.uint32",
                                             "T.uint64",
                                             "T.bool",
                                             "T.f32",
                                             "T.f16",
                                             "T.bf16",
                                             "T.f64",
                                             "T.i8",
                                             "T.i16",
                                             "T.i32",
                                             "T.i64",
                                             "T.u8",
                                             "T.u16",
                                             "T.u32",
                                             "T.u64"};
  static const std::vector<std::string> all = [] {
    std::vector<std::string> a = v;
    for (auto& n : asyncStatementNames()) a.push_back(n);
    return a;
  }();
  return all;
}

void Analyzer::unknownBuiltin(const ast::Expr& e, const std::string& path) {
  auto& d = error("E0101", e.span, "unknown TIRx name '" + path + "'");
  const std::string best = closestName(path, knownBuiltins());
  if (!best.empty()) note(d, e.span, "did you mean '" + best + "'?");
}

std::string Analyzer::builtinPath(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Name) {
    const Binding* b = lookup(e.text);
    if (b && b->kind == Binding::Kind::Namespace) return "T";
    if (b && b->kind == Binding::Kind::LayoutBuilder) return "T." + e.text;
    return {};
  }
  if (e.kind == ast::ExprKind::Attribute && !e.args.empty() && e.args[0]) {
    const std::string base = builtinPath(*e.args[0]);
    if (base.empty()) return {};
    return base + "." + e.text;
  }
  return {};
}

const ast::Expr* Analyzer::keyword(const ast::Expr& call, const std::string& name) const {
  for (const auto& k : call.keywords)
    if (k.name == name && k.value) return k.value.get();
  return nullptr;
}

bool Analyzer::checkCallShape(const ast::Expr& call, const std::string& display, int minPos,
                              int maxPos, const std::vector<std::string>& keywords) {
  bool ok = true;
  const int npos = static_cast<int>(call.args.size()) - 1;
  for (size_t i = 1; i < call.args.size(); ++i) {
    if (call.args[i] && call.args[i]->kind == ast::ExprKind::Starred) {
      error("E0102", call.args[i]->span, display + " does not accept *arguments");
      return false;
    }
  }
  if (npos < minPos) {
    error("E0104", call.span,
          display + " needs " + (minPos == maxPos ? "" : "at least ") + std::to_string(minPos) +
              " positional argument" + (minPos == 1 ? "" : "s") + ", found " +
              std::to_string(npos));
    ok = false;
  } else if (maxPos >= 0 && npos > maxPos) {
    error("E0102", call.args[maxPos + 1]->span,
          display + " takes " + (minPos == maxPos ? "" : "at most ") + std::to_string(maxPos) +
              " positional argument" + (maxPos == 1 ? "" : "s") + ", found " +
              std::to_string(npos));
    ok = false;
  }
  for (const auto& k : call.keywords) {
    if (std::find(keywords.begin(), keywords.end(), k.name) == keywords.end()) {
      auto& d =
          error("E0103", k.span,
                display + " has no keyword argument '" + (k.name.empty() ? "**" : k.name) + "'");
      const std::string best = closestName(k.name, keywords);
      if (!best.empty()) note(d, k.span, "did you mean '" + best + "'?");
      ok = false;
    }
  }
  return ok;
}

std::optional<bool> Analyzer::staticCondition(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Bool:
      return e.boolValue;
    case K::Unary:
      if (e.op == ast::Op::Not)
        if (auto v = staticCondition(*e.args[0])) return !*v;
      return std::nullopt;
    case K::BoolOp: {  // every operand must fold: no short-circuit past an unknown one
      std::optional<bool> acc;
      for (const auto& a : e.args) {
        const auto v = staticCondition(*a);
        if (!v) return std::nullopt;
        acc = !acc ? *v : (e.op == ast::Op::And ? (*acc && *v) : (*acc || *v));
      }
      return acc;
    }
    case K::Compare: {  // a chain `0 < POLY <= 64` of integer comparisons
      std::vector<int64_t> v;
      for (const auto& a : e.args) {
        const auto x = staticInt(*a, false);
        if (!x) return std::nullopt;
        v.push_back(*x);
      }
      for (size_t i = 0; i < e.ops.size(); ++i) {
        const int64_t a = v[i], b = v[i + 1];
        bool r = false;
        switch (e.ops[i]) {
          case ast::Op::Eq:
            r = a == b;
            break;
          case ast::Op::NotEq:
            r = a != b;
            break;
          case ast::Op::Lt:
            r = a < b;
            break;
          case ast::Op::LtE:
            r = a <= b;
            break;
          case ast::Op::Gt:
            r = a > b;
            break;
          case ast::Op::GtE:
            r = a >= b;
            break;
          default:
            return std::nullopt;
        }
        if (!r) return false;
      }
      return true;
    }
    default:
      if (const auto x = staticInt(e, false)) return *x != 0;  // `if POLY:`
      return std::nullopt;
  }
}

std::optional<int64_t> Analyzer::staticInt(const ast::Expr& e, bool report) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Int:
      return e.intValue;
    case K::Name: {
      const Binding* b = lookup(e.text);
      if (b && b->kind == Binding::Kind::IntConst) {
        useSymbol(b->symbol, e.span);
        return b->intValue;
      }
      if (!b) {
        if (report) unknownName(e);
        return std::nullopt;
      }
      if (b->failedFold) {
        reportModuleFold(*b);
        return std::nullopt;
      }
      break;
    }
    case K::Unary:
      if (e.op == ast::Op::Neg || e.op == ast::Op::Pos || e.op == ast::Op::Invert) {
        auto v = staticInt(*e.args[0], report);
        if (!v) return std::nullopt;
        const IntFold f = foldIntUnary(e.op, *v);
        if (!f.ok()) {
          // A fold error is reported even when the caller words its own "not static" message.
          reportFoldError(f, e.span);
          return std::nullopt;
        }
        return f.value;
      }
      break;
    case K::Binary: {
      switch (e.op) {
        case ast::Op::Add:
        case ast::Op::Sub:
        case ast::Op::Mul:
        case ast::Op::FloorDiv:
        case ast::Op::Mod:
        case ast::Op::Pow:
        case ast::Op::BitAnd:
        case ast::Op::BitOr:
        case ast::Op::BitXor:
        case ast::Op::LShift:
        case ast::Op::RShift:
          break;
        default:
          goto notStatic;
      }
      auto a = staticInt(*e.args[0], report);
      if (!a) return std::nullopt;
      auto b = staticInt(*e.args[1], report);
      if (!b) return std::nullopt;
      const IntFold f = foldIntBinary(e.op, *a, *b);
      if (!f.ok()) {
        reportFoldError(f, e.span);
        return std::nullopt;
      }
      return f.value;
    }
    case K::IfExp: {  // `8 if POLY == 0 else POLY`: only the branch Python evaluates is folded
      const std::optional<bool> c = staticCondition(*e.args[1]);
      if (!c) break;
      return staticInt(*e.args[*c ? 0 : 2], report);
    }
    case K::Call: {
      // Python's max, min and abs on integers (`POLY_ALLOC = max(POLY, 8)`), unless the script
      // rebinds the name.
      const ast::Expr& callee = *e.args[0];
      if (ast::isIntBuiltinCall(e) && !lookup(callee.text)) {
        std::optional<int64_t> acc;
        for (size_t i = 1; i < e.args.size(); ++i) {
          auto v = staticInt(*e.args[i], report);
          if (!v) return std::nullopt;
          if (callee.text == "abs") {
            const IntFold f = foldIntUnary(ast::Op::Neg, *v);  // |INT64_MIN| overflows
            if (*v < 0 && !f.ok()) {
              reportFoldError(f, e.span);
              return std::nullopt;
            }
            return *v < 0 ? f.value : *v;
          }
          if (!acc || (callee.text == "max" ? *v > *acc : *v < *acc)) acc = v;
        }
        return acc;
      }
      const std::string p = e.args.empty() ? "" : builtinPath(*e.args[0]);
      if ((p == "T.int32" || p == "T.int64" || p == "T.i32" || p == "T.i64") && e.args.size() == 2)
        return staticInt(*e.args[1], report);
      if (p == "T.ceildiv" && e.args.size() == 3 && e.keywords.empty()) {
        // ceildiv(a, b) = a // b + (a % b != 0), Python's floor division on exact integers
        // (the runtime lowering's formula, DEC-SCALAR-6).
        auto a = staticInt(*e.args[1], report);
        if (!a) return std::nullopt;
        auto b = staticInt(*e.args[2], report);
        if (!b) return std::nullopt;
        IntFold f = foldIntBinary(ast::Op::Mod, *a, *b);
        const bool inexact = f.ok() && f.value != 0;
        if (f.ok()) f = foldIntBinary(ast::Op::FloorDiv, *a, *b);
        if (f.ok() && inexact) f = foldIntBinary(ast::Op::Add, f.value, 1);
        if (!f.ok()) {
          reportFoldError(f, e.span);
          return std::nullopt;
        }
        return f.value;
      }
      break;
    }
    default:
      break;
  }
notStatic:
  if (report) error("E0105", e.span, "expected a static integer, found '" + text(e.span) + "'");
  return std::nullopt;
}

void Analyzer::reportModuleFold(const Binding& b) {
  if (std::find(m_reportedFolds.begin(), m_reportedFolds.end(), b.failedFold) !=
      m_reportedFolds.end())
    return;
  m_reportedFolds.push_back(b.failedFold);
  staticInt(*b.failedFold, false);  // not quiet now: reports the overflow at the definition
}

/// Reads a static shape (an int or a tuple/list of ints) into `out`, reporting `code` with
/// messages about `noun` ("tensor", "allocation"); false when any dimension is not a static
/// positive integer, the shape is empty, or it has more than 2^40 elements.
bool Analyzer::staticShape(const ast::Expr& sh, const char* code, const std::string& noun,
                           const std::string& article, std::vector<int64_t>& out) {
  std::vector<const ast::Expr*> dims;
  if (sh.kind == ast::ExprKind::Tuple || sh.kind == ast::ExprKind::List)
    for (const auto& d : sh.args) dims.push_back(d.get());
  else
    dims.push_back(&sh);
  bool ok = true;
  if (dims.empty()) {
    error(code, sh.span, article + " needs at least one dimension");
    ok = false;
  }
  for (const ast::Expr* d : dims) {
    const size_t before = m_diags.size();
    auto v = staticInt(*d, false);
    if (!v && m_diags.size() != before) {
      ok = false;
    } else if (!v) {
      error(code, d->span,
            noun + " dimensions must be static positive integers (decision D-1), found '" +
                text(d->span) + "'");
      ok = false;
    } else if (*v <= 0) {
      error(code, d->span, noun + " dimensions must be positive, found " + std::to_string(*v));
      ok = false;
    } else {
      out.push_back(*v);
    }
  }
  if (ok && out.size() > static_cast<size_t>(ir::kMaxTensorRank)) {
    const bool vowel = !noun.empty() && std::string("aeiou").find(noun[0]) != std::string::npos;
    error("E0242", sh.span,
          (vowel ? "an " : "a ") + noun + " of " + std::to_string(out.size()) +
              " dimensions; at most " + std::to_string(ir::kMaxTensorRank) + " are supported");
    ok = false;
  }
  if (ok && tooManyElements(out)) {
    error(code, sh.span, noun + " of more than 2^40 elements");
    ok = false;
  }
  return ok;
}

std::optional<ir::DType> Analyzer::dtypeArg(const ast::Expr& e, bool report) {
  std::string name;
  if (e.kind == ast::ExprKind::Str) {
    name = e.text;
  } else if (const Binding* b = e.kind == ast::ExprKind::Name ? lookup(e.text) : nullptr;
             b && b->kind == Binding::Kind::DTypeConst) {
    return static_cast<ir::DType>(b->intValue);  // a module alias: `dtype = T.float16`
  } else {
    const std::string p = builtinPath(e);
    if (startsWith(p, "T.")) name = p.substr(2);
  }
  auto t = name.empty() ? std::nullopt : ir::parseDType(name);
  if (!t || *t == ir::DType::Void) {
    if (report) {
      auto& d = error("E0114", e.span,
                      "expected a dtype such as \"float32\", found '" + text(e.span) + "'");
      std::vector<std::string> names;
      for (int i = 0; i < static_cast<int>(ir::DType::Void); ++i)
        names.emplace_back(ir::dtypeName(static_cast<ir::DType>(i)));
      const std::string best = closestName(name, names);
      if (!best.empty()) note(d, e.span, "did you mean \"" + best + "\"?");
    }
    return std::nullopt;
  }
  return t;
}

LayoutEnv Analyzer::layoutEnv() const {
  LayoutEnv env;
  for (const auto& [n, b] : m_moduleScope.names)
    if (b.kind == Binding::Kind::IntConst) env.ints[n] = b.intValue;
  return env;
}

std::optional<TileLayout> Analyzer::layoutArg(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Name) {
    const Binding* b = lookup(e.text);
    if (!b) {
      unknownName(e);
      return std::nullopt;
    }
    if (b->kind == Binding::Kind::Layout) {
      useSymbol(b->symbol, e.span);
      return m_layouts[b->index];
    }
    error("E0132", e.span, "expected a TileLayout, found '" + e.text + "'");
    return std::nullopt;
  }
  if (e.kind == ast::ExprKind::Str) {
    if (e.text == "default") return std::nullopt;  // caller treats as row-major
    error("E0132", e.span, "layout string must be \"default\", found \"" + e.text + "\"");
    return std::nullopt;
  }
  // Every name inside the expression must be bound (layout builders, axes, int constants).
  std::vector<const ast::Expr*> stack{&e};
  bool namesOk = true;
  while (!stack.empty()) {
    const ast::Expr* x = stack.back();
    stack.pop_back();
    if (x->kind == ast::ExprKind::Name) {
      const Binding* b = lookup(x->text);
      if (!b) {
        unknownName(*x);
        namesOk = false;
      }
      continue;
    }
    if (x->kind == ast::ExprKind::Attribute) continue;  // T.S / T.TileLayout
    // Python's max, min and abs in an extent (`S[(4, max(POLY, 8))]`): layout_parse folds them.
    const bool builtinCall = x->kind == ast::ExprKind::Call && !x->args.empty() &&
                             x->args[0]->kind == ast::ExprKind::Name &&
                             ast::isIntBuiltinName(x->args[0]->text) && !lookup(x->args[0]->text);
    for (size_t i = builtinCall ? 1 : 0; i < x->args.size(); ++i)
      if (x->args[i]) stack.push_back(x->args[i].get());
    for (const auto& k : x->keywords)
      if (k.value) stack.push_back(k.value.get());
  }
  if (!namesOk) return std::nullopt;
  auto layout = layoutFromExpr(e, layoutEnv(), m_diags);
  if (layout) {  // a layout written in place: the studio's hover (ir::Program::layoutLiterals)
    auto& lits = m_program.layoutLiterals;
    const bool seen = std::any_of(lits.begin(), lits.end(), [&](const ir::LayoutLiteral& l) {
      return l.span.offset == e.span.offset && l.span.length == e.span.length;
    });
    if (!seen) lits.push_back({e.span, *layout});
  }
  return layout;
}

void Analyzer::bindImport(const ast::Stmt& s) {
  if (s.kind == ast::StmtKind::Import) {
    for (const auto& a : s.names) {
      Binding b;
      b.span = a.span;
      const TirxModule m = classifyModule(a.name);
      if (m == TirxModule::Script && !a.asname.empty()) {
        b.kind = Binding::Kind::Namespace;
        m_moduleScope.names[a.asname] = b;
      } else {
        // `import tvm` / `import torch`: the harness's business.
        const std::string bound = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
        b.kind = Binding::Kind::Foreign;
        m_moduleScope.names[bound] = b;
      }
    }
    return;
  }
  const TirxModule m = classifyModule(s.module);
  for (const auto& a : s.names) {
    Binding b;
    b.span = a.span;
    const std::string bound = a.asname.empty() ? a.name : a.asname;
    if (m == TirxModule::ScriptParent && a.name == "tirx") {
      b.kind = Binding::Kind::Namespace;
    } else if (m == TirxModule::Layout &&
               std::find(kAxisNames.begin(), kAxisNames.end(), a.name) != kAxisNames.end()) {
      // The layout module re-exports the axes (`from tvm.tirx.layout import tid_in_wg, TLane`).
      b.kind = Binding::Kind::Axis;
    } else if (m == TirxModule::Layout) {
      if (std::find(kLayoutNames.begin(), kLayoutNames.end(), a.name) == kLayoutNames.end()) {
        auto& d = error("E0106", a.span, "'" + a.name + "' is not a name of " + s.module);
        std::vector<std::string> known = kLayoutNames;
        known.insert(known.end(), kAxisNames.begin(), kAxisNames.end());
        const std::string best = closestName(a.name, known);
        if (!best.empty()) note(d, a.span, "did you mean '" + best + "'?");
        continue;
      }
      b.kind = Binding::Kind::LayoutBuilder;
    } else if (m == TirxModule::Axis) {
      if (std::find(kAxisNames.begin(), kAxisNames.end(), a.name) == kAxisNames.end()) {
        auto& d = error("E0106", a.span, "'" + a.name + "' is not a thread axis of " + s.module);
        const std::string best = closestName(a.name, kAxisNames);
        if (!best.empty()) note(d, a.span, "did you mean '" + best + "'?");
        continue;
      }
      b.kind = Binding::Kind::Axis;
    } else {
      b.kind = Binding::Kind::Foreign;
    }
    m_moduleScope.names[bound] = b;
  }
}

namespace {
/// Does `e` look like TIRx layout code (TileLayout(...), S[...], R[...], T.TileLayout(...))?
bool looksLikeLayout(const ast::Expr& e, Analyzer& a) {
  if (e.kind == ast::ExprKind::Call || e.kind == ast::ExprKind::Subscript ||
      e.kind == ast::ExprKind::Attribute) {
    const ast::Expr* head = e.args.empty() ? nullptr : e.args[0].get();
    if (!head) return false;
    const std::string p = a.builtinPath(*head);
    return p == "T.TileLayout" || p == "T.S" || p == "T.R" || p == "T.ComposeLayout";
  }
  if (e.kind == ast::ExprKind::Binary && e.op == ast::Op::Add)
    return looksLikeLayout(*e.args[0], a) || looksLikeLayout(*e.args[1], a);
  return false;
}
}  // namespace

std::optional<ir::DType> Analyzer::moduleDTypeAlias(const ast::Expr& e) {
  // `dtype = T.float16` or `dtype = "float16"` is an alias usable wherever a dtype is expected; a
  // string that is no dtype name stays a plain harness value.
  if (e.kind == ast::ExprKind::Str) {
    auto t = ir::parseDType(e.text);
    return t && *t != ir::DType::Void ? t : std::nullopt;
  }
  if (e.kind == ast::ExprKind::Name) {
    const Binding* b = lookup(e.text);
    if (b && b->kind == Binding::Kind::DTypeConst) return static_cast<ir::DType>(b->intValue);
    return std::nullopt;
  }
  const std::string p = builtinPath(e);
  if (!startsWith(p, "T.")) return std::nullopt;
  auto t = ir::parseDType(p.substr(2));
  return t && *t != ir::DType::Void ? t : std::nullopt;
}

void Analyzer::bindModuleName(const ast::Expr& target, const ast::Expr& value) {
  const std::string& name = target.text;
  Binding b;
  b.span = target.span;
  if (poisonModuleName(target, value)) return;  // one error at the root cause (sema_recovery.cpp)
  if (looksLikeLayout(value, *this) && isComposeLayoutExpr(value)) {
    bindComposeConstant(name, value, target.span);
    return;
  }
  if (value.kind == ast::ExprKind::Call && builtinPath(*value.args[0]) == "T.dynamic") {
    // `n = T.dynamic("n")`: a symbolic extent, a kernel parameter of every kernel whose tensor
    // shapes use it (sema_dynamic.cpp).
    if (checkCallShape(value, "T.dynamic", 1, 1, {"dtype"}) &&
        value.args[1]->kind != ast::ExprKind::Str)
      error("E0292", value.args[1]->span,
            "T.dynamic expects the symbol's name as a string, found '" + text(value.args[1]->span) +
                "'");
    b.kind = Binding::Kind::Dynamic;
    m_moduleScope.names[name] = b;
    return;
  }
  if (auto t = moduleDTypeAlias(value)) {
    b.kind = Binding::Kind::DTypeConst;
    b.intValue = static_cast<int64_t>(*t);
    m_moduleScope.names[name] = b;
    return;
  }
  if (looksLikeLayout(value, *this)) {
    auto layout = layoutArg(value);
    if (!layout) {
      b.kind = Binding::Kind::Foreign;  // errors reported; keep the name known
      m_moduleScope.names[name] = b;
      return;
    }
    b.kind = Binding::Kind::Layout;
    b.index = static_cast<int>(m_layouts.size());
    m_layouts.push_back(*layout);
    ir::Symbol sym;
    sym.kind = ir::Symbol::Kind::Layout;
    sym.name = name;
    sym.span = target.span;
    sym.layout = *layout;
    for (const auto& it : layout->shard) sym.shape.push_back(it.extent);
    b.symbol = addSymbol(std::move(sym));
  } else {
    // An integer that leaves int64 (`BIG = 1 << 70`) is legal Python: a harness value, not an
    // error here; TIRx code that uses it gets "cannot be used as a scalar value".
    m_quietFolds = true;
    const auto v = staticInt(value, false);
    m_quietFolds = false;
    b.kind = v ? Binding::Kind::IntConst : Binding::Kind::Foreign;
    b.intValue = v.value_or(0);
    if (!v && !m_foldFailedQuietly)
      if (auto f = staticFloat(value)) {  // `LOG2E = 1.4426950408889634` (sema_constants.cpp)
        b.kind = Binding::Kind::FloatConst;
        b.floatValue = *f;
      }
    if (!v && m_foldFailedQuietly) b.failedFold = &value;
    m_foldFailedQuietly = false;
  }
  m_moduleScope.names[name] = b;
}

void Analyzer::bindModuleAssign(const ast::Stmt& s) {
  if (!s.value) return;
  for (const auto& target : s.targets) {
    if (target && target->kind == ast::ExprKind::Name) {
      bindModuleName(*target, *s.value);
      continue;
    }
    // `ROWS, COLS = 8, 4` binds pairwise; other tuple targets and subscripts belong to the harness.
    if (target && target->kind == ast::ExprKind::Tuple) {
      bool pairwise =
          s.value->kind == ast::ExprKind::Tuple && s.value->args.size() == target->args.size();
      // Python evaluates the whole right side first: `a, b = b, a` cannot bind one by one.
      std::function<bool(const ast::Expr&)> mentionsTarget = [&](const ast::Expr& e) {
        if (e.kind == ast::ExprKind::Name)
          for (const auto& t : target->args)
            if (t && t->kind == ast::ExprKind::Name && t->text == e.text) return true;
        for (const auto& a : e.args)
          if (a && mentionsTarget(*a)) return true;
        return false;
      };
      if (pairwise && mentionsTarget(*s.value)) pairwise = false;
      for (size_t i = 0; i < target->args.size(); ++i) {
        const auto& t = target->args[i];
        if (!t || t->kind != ast::ExprKind::Name) continue;
        if (pairwise && s.value->args[i])
          bindModuleName(*t, *s.value->args[i]);
        else
          m_moduleScope.names[t->text] =
              Binding{Binding::Kind::Foreign, 0, -1, -1, nullptr, t->span};
      }
    }
  }
}

void Analyzer::analyzeFunctionDef(const ast::Stmt& s) {
  // Classify by decorator: @T.function → kernel, @T.function(private=True) → scalar function.
  const ast::Expr* dec = nullptr;
  for (const auto& d : s.decorators) {
    const ast::Expr& head = d->kind == ast::ExprKind::Call ? *d->args[0] : *d;
    const std::string p = builtinPath(head);
    if (p.empty()) {
      checkForeignDecorator(s, *d);
      m_moduleScope.names[s.name] = Binding{Binding::Kind::Foreign, 0, -1, -1, nullptr, s.nameSpan};
      return;
    }
    if (p == "T.function") {
      dec = d.get();
      break;
    }
    if (p == "T.macro") {  // sema_macro.cpp
      bindMacro(s, *d);
      return;
    }
    if (p == "T.prim_func" || p == "T.jit") {
      error("E0108", d->span,
            "'" + p + "' is not supported by this checker; kernels are written with @T.function");
      m_moduleScope.names[s.name] = Binding{Binding::Kind::Foreign, 0, -1, -1, nullptr, s.nameSpan};
      return;
    }
    unknownBuiltin(head, p);
    return;
  }
  if (!dec) {  // a plain Python helper of the harness
    m_moduleScope.names[s.name] = Binding{Binding::Kind::Foreign, 0, -1, -1, nullptr, s.nameSpan};
    return;
  }
  bool isPrivate = false;
  if (dec->kind == ast::ExprKind::Call) {
    checkCallShape(*dec, "T.function", 0, 0, {"private", "check_well_formed", "persistent"});
    if (const ast::Expr* p = keyword(*dec, "private")) {
      if (p->kind != ast::ExprKind::Bool)
        error("E0105", p->span, "private= expects True or False, found '" + text(p->span) + "'");
      else
        isPrivate = p->boolValue;
    }
  }
  if (isPrivate)
    analyzeScalarFunction(s);
  else
    analyzeKernel(s);
}

SemaResult Analyzer::run() {
  for (const auto& sp : m_module.body) {
    if (sp && sp->kind == ast::StmtKind::FunctionDef) m_functionDefs[sp->name] = sp->nameSpan;
  }
  for (const auto& sp : m_module.body) {
    if (!sp) continue;
    const ast::Stmt& s = *sp;
    switch (s.kind) {
      case ast::StmtKind::Import:
      case ast::StmtKind::ImportFrom:
        bindImport(s);
        break;
      case ast::StmtKind::Assign:
        bindModuleAssign(s);
        break;
      case ast::StmtKind::AnnAssign:
        bindModuleAssign(s);
        break;  // `N: int = 4` binds like `N = 4`
      case ast::StmtKind::FunctionDef:
        analyzeFunctionDef(s);
        break;
      default:
        break;  // harness code: loops, calls, asserts are core/verify's business
    }
  }
  checkHiddenKernels();
  requireKernel();
  SemaResult r;
  r.program = std::move(m_program);
  r.diagnostics = std::move(m_diags);
  sortAndUnique(r.diagnostics);
  return r;
}

}  // namespace sema

SemaResult analyze(const ast::Module& module, const SemaOptions& options) {
  sema::Analyzer a(module, options);
  return a.run();
}

namespace {

FrontEndResult checkScriptCollecting(std::string_view source, std::string fileName,
                                     const SemaOptions& options,
                                     std::vector<FragmentFact>* fragments,
                                     std::vector<DescriptorFact>* descriptors) {
  FrontEndResult r;
  r.parse = parseScript(source, fileName);
  sema::Analyzer a(r.parse.module, options);
  a.collectFragments(fragments);
  a.collectDescriptors(descriptors);
  SemaResult s = a.run();
  r.program = std::move(s.program);
  r.diagnostics = r.parse.diagnostics;
  // A script with syntax errors would not run at all (as in Python); sema findings on a partial
  // tree are mostly follow-on noise, so they are reported only once the syntax is clean.
  if (!hasErrors(r.parse.diagnostics))
    r.diagnostics.insert(r.diagnostics.end(), s.diagnostics.begin(), s.diagnostics.end());
  sortAndUnique(r.diagnostics);
  return r;
}

}  // namespace

FrontEndResult checkScript(std::string_view source, std::string fileName,
                           const SemaOptions& options) {
  return checkScriptCollecting(source, std::move(fileName), options, nullptr, nullptr);
}

CheckedScript checkScriptWithFragments(std::string_view source, std::string fileName,
                                       const SemaOptions& options) {
  CheckedScript c;
  c.frontEnd =
      checkScriptCollecting(source, std::move(fileName), options, &c.fragments, &c.descriptors);
  return c;
}

int parseArch(std::string_view arch) {
  if (arch.substr(0, 3) == "sm_")
    arch.remove_prefix(3);
  else if (arch.substr(0, 8) == "compute_")
    arch.remove_prefix(8);
  if (!arch.empty() && (arch.back() == 'a' || arch.back() == 'f')) arch.remove_suffix(1);
  if (arch.empty() || arch.size() > 4) return 0;
  int v = 0;
  auto [p, ec] = std::from_chars(arch.data(), arch.data() + arch.size(), v);
  if (ec != std::errc() || p != arch.data() + arch.size() || v < 10) return 0;
  return v;
}

}  // namespace tirx
