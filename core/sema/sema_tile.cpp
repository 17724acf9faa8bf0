// The tile operations' call-level checks (spec §2.3, §3.3): the instruction string (parsePtxOpcode,
// E0350 at the offending token inside the literal), operand count and minimum target, the scope and
// its launch (OPEN-4), operand kinds (register / memory / scalar), dtype width and carriers (§2.5),
// typed scalars, the (*group, *repeat, *atom) split of every operand (§1.9), and for ewise the
// function's arity and types. Per-element checks (ownership, slots, memory atoms) follow in
// sema_tile_check.cpp once every operand is well formed.
#include <algorithm>

#include "core/ptx/ptx_tma.h"
#include "core/sema/sema_internal.h"

namespace tirx::sema {

using ir::DType;

namespace {
std::string shapeText(const std::vector<int64_t>& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string joinTypes(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i)
    out += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + v[i];
  return out;
}

const std::vector<std::string> kScopes = {"thread", "warp", "warpgroup", "cta", "cluster"};
}  // namespace

std::optional<ir::ExecScope> Analyzer::lowerScope(const ast::Expr& call) {
  const ast::Expr* s = keyword(call, "scope");
  if (!s) return ir::ExecScope::Thread;
  if (s->kind != ast::ExprKind::Str) {
    error("E0160", s->span,
          "scope= expects one of \"thread\", \"warp\", \"warpgroup\", \"cta\", found '" +
              text(s->span) + "'");
    return std::nullopt;
  }
  if (s->text == "thread") return ir::ExecScope::Thread;
  if (s->text == "warp") return ir::ExecScope::Warp;
  if (s->text == "warpgroup") return ir::ExecScope::Warpgroup;
  if (s->text == "cta") return ir::ExecScope::Cta;
  if (s->text == "cluster") {
    error("E0160", s->span,
          "scope=\"cluster\" needs a thread-block cluster, which this checker does not support");
    return std::nullopt;
  }
  auto& d = error(
      "E0160", s->span,
      "unknown scope \"" + s->text + "\"; expected \"thread\", \"warp\", \"warpgroup\" or \"cta\"");
  const std::string best = closestName(s->text, kScopes);
  if (!best.empty()) note(d, s->span, "did you mean \"" + best + "\"?");
  return std::nullopt;
}

bool Analyzer::checkScopeLaunch(ir::ExecScope scope, const ast::Expr& call) {
  if (!m_body->launchOk) return false;  // the launch is already reported; nothing to check against
  const int64_t threads = m_body->blockThreads;
  const ast::Expr* s = keyword(call, "scope");
  const SourceSpan at = s ? s->span : call.span;
  const int64_t unit = scope == ir::ExecScope::Warpgroup ? 128
                       : scope == ir::ExecScope::Thread  ? 1
                                                         : 32;
  if (threads % unit != 0) {
    auto& d = error("E0161", at,
                    "scope=\"" + std::string(ir::execScopeName(scope)) +
                        "\" needs a block of a multiple of " + std::to_string(unit) +
                        " threads, but the kernel launches " + std::to_string(threads));
    note(d, m_body->kernel->launchSpan,
         "the launch is here (decision OPEN-4: partial warps are rejected)");
    return false;
  }
  if (scope == ir::ExecScope::Cta && !m_body->divergence.empty()) {
    auto& d = error("E0211", call.span,
                    "a scope=\"cta\" tile operation inside thread-dependent control flow; every "
                    "thread of the block must execute it");
    note(d, m_body->divergence.back(), "this condition depends on the thread index");
    return false;
  }
  return true;
}

std::string Analyzer::describeThread(int64_t t) const {
  return "thread " + std::to_string(t) + " (warp " + std::to_string(t / 32) + ", lane " +
         std::to_string(t % 32) + ")";
}

/// The instruction of `T.cuda.tile.apply`: T.ptx["..."] or a plain string, parsed (E0178, E0350);
/// its literal is recorded as an opcode site.
std::optional<PtxInstruction> Analyzer::applyInstruction(const ast::Expr& call) {
  const ast::Expr& ie = *call.args[1];
  const ast::Expr* str = nullptr;
  if (ie.kind == ast::ExprKind::Subscript && builtinPath(*ie.args[0]) == "T.ptx" &&
      ie.args[1]->kind == ast::ExprKind::Str)
    str = ie.args[1].get();
  else if (ie.kind == ast::ExprKind::Str)
    str = &ie;
  if (!str) {
    error("E0178", ie.span,
          "the first argument of T.cuda.tile.apply is the instruction, written "
          "T.ptx[\"ld.global.v4.b32\"], found '" +
              text(ie.span) + "'");
    return std::nullopt;
  }
  PtxParseError perr;
  auto instr = parsePtxOpcode(str->text, &perr);
  addOpcodeSite(*str, instr.has_value(), instr, instr ? std::string() : perr.message);
  if (!instr) {
    SourceSpan at = str->span;
    const std::string lit = text(str->span);
    const int quote = lit.empty() ? 1 : static_cast<int>(lit.find_first_of("\"'")) + 1;
    at.offset += quote + perr.column;
    at.col += quote + perr.column;
    at.length = std::max(1, perr.length);
    error("E0350", at, perr.message);
    return std::nullopt;
  }
  return instr;
}

/// A scalar operand of a tile apply: it stands in for a register source (spec §2.3 rule 6) and
/// needs a typed value of a dtype the operand accepts (E0169, E0170); false after an error.
bool Analyzer::applyScalarOperand(const PtxInstruction& instr, const PtxOperandSpec& spec,
                                  const ast::Expr& oe, OperandCheck& oc) {
  const std::string& op = instr.opcode;
  // A scalar stands in for a register source (spec §2.3 rule 6).
  if (oe.kind == ast::ExprKind::Name && !lookup(oe.text)) {
    unknownName(oe);
    return false;
  }
  if (spec.role != OperandRole::SrcReg || !spec.scalarAllowed) {
    const char* why = spec.role == OperandRole::DstReg ? "a register tensor (the destination)"
                      : spec.role == OperandRole::Address
                          ? "a global or shared tensor (the memory operand)"
                          : "a register tensor; this instruction takes no scalar here";
    auto& d = error("E0169", oe.span,
                    "operand '" + spec.name + "' of " + op + " must be " + why + ", found '" +
                        text(oe.span) + "'");
    if (spec.role == OperandRole::SrcReg &&
        (instr.family == PtxFamily::St || instr.family == PtxFamily::Abs ||
         instr.family == PtxFamily::Neg))
      note(d, oe.span,
           "scalar sources are accepted only by arithmetic, mov and ex2/lg2 (decision OPEN-9)");
    return false;
  }
  Scalar s = lowerScalar(oe);
  if (!s.ok()) {
    return false;
  }
  const std::string want = spec.dtypes.empty() ? std::string("?") : spec.dtypes.front();
  if (s.literal) {
    auto& d = error("E0170", oe.span,
                    "scalar operand '" + spec.name + "' of " + op + " needs a typed " + want +
                        " value, found the bare literal " + text(oe.span));
    note(d, oe.span, "write T." + want + "(" + text(oe.span) + ")");
    return false;
  }
  if (!contains(spec.dtypes, ir::dtypeName(s.expr->dtype))) {
    auto& d =
        error("E0170", oe.span,
              "scalar operand '" + spec.name + "' of " + op + " (" + spec.ptxType + ") needs " +
                  joinTypes(spec.dtypes) + ", found " + std::string(ir::dtypeName(s.expr->dtype)));
    note(d, oe.span, "no implicit conversion happens; write T." + want + "(...)");
    return false;
  }
  oc.op.isScalar = true;
  oc.op.scalar = s.expr;
  return true;
}

/// A tensor operand of a tile apply: memory or registers as its role says, the element width and
/// carrier dtype, and the shape (group, repeat..., atom) (E0163-E0168, E0176); null after an error.
std::shared_ptr<const ir::TensorRef> Analyzer::applyTensorOperand(
    const ast::Expr& call, const PtxInstruction& instr, const PtxOperandSpec& spec,
    const ast::Expr& oe, ir::ExecScope scope, const std::vector<int64_t>& group, bool launchOk) {
  const std::string& op = instr.opcode;
  const ast::Expr& ie = *call.args[1];
  const size_t gr = group.size();
  auto ref = lowerTensor(oe);
  if (ref && !staticOperand(*ref, oe.span)) ref = nullptr;
  if (!ref) return nullptr;
  const ir::TensorRef& t = *ref;
  const std::string dtn(ir::dtypeName(t.dtype));
  // Operand kind against the role.
  if (spec.role == OperandRole::Address) {
    ir::MemScope want = t.scope;
    if (instr.space == "global")
      want = ir::MemScope::Global;
    else if (instr.space == "shared" || instr.space == "shared::cta")
      want = ir::MemScope::Shared;
    if (t.scope == ir::MemScope::Local || t.scope != want || instr.space == "local") {
      auto& d = error("E0176", oe.span,
                      "operand '" + spec.name + "' of " + op + " is the " +
                          (instr.space.empty() ? std::string("memory") : instr.space) +
                          " memory operand, but '" + t.text + "' is a " +
                          std::string(ir::memScopeName(t.scope)) + " tensor");
      if (t.scope == ir::MemScope::Local)
        note(d, ie.span,
             std::string("operands come destination first: ") +
                 (instr.family == PtxFamily::Ld ? "registers, memory" : "memory, registers"));
      return nullptr;
    }
  } else if (t.scope != ir::MemScope::Local) {
    auto& d = error("E0176", oe.span,
                    "operand '" + spec.name + "' of " + op + " is a register operand, but '" +
                        t.text + "' is a " + std::string(ir::memScopeName(t.scope)) + " tensor");
    if (instr.isMemory())
      note(d, ie.span,
           std::string("operands come destination first: ") +
               (instr.family == PtxFamily::Ld ? "registers, memory" : "memory, registers"));
    else
      note(d, oe.span, "stage memory through registers with an ld instruction first");
    return nullptr;
  }
  // Dtype width, then carrier (spec §2.3 rule 3, §2.5).
  const int bits = ir::dtypeBits(t.dtype);
  if (bits != spec.bits) {
    auto& d = error("E0167", oe.span,
                    "operand '" + spec.name + "' of " + op + " needs " + std::to_string(spec.bits) +
                        "-bit elements (" + spec.ptxType + "), but '" + t.text + "' holds " + dtn +
                        " (" + std::to_string(bits) + "-bit)");
    if (!spec.dtypes.empty()) note(d, oe.span, "accepted element types: " + joinTypes(spec.dtypes));
    return nullptr;
  }
  if (!spec.dtypes.empty() && !contains(spec.dtypes, dtn)) {
    auto& d = error("E0168", oe.span,
                    "operand '" + spec.name + "' of " + op + " (" + spec.ptxType + ") needs a " +
                        joinTypes(spec.dtypes) + " carrier, found " + dtn);
    note(d, oe.span,
         "reinterpret the bits with a dtype view: " + t.text + ".view(\"" + spec.dtypes.front() +
             "\")");
    return nullptr;
  }
  // (*group, *repeat, atom) split.
  const size_t rank = t.shape.size();
  if (rank < gr + 1) {
    error("E0163", oe.span,
          "operand '" + t.text + "' of " + op + " has shape " + shapeText(t.shape) + "; scope=\"" +
              std::string(ir::execScopeName(scope)) + "\" needs (" +
              (gr ? "group " + shapeText(group) + ", " : std::string()) + "repeat..., atom of " +
              std::to_string(spec.atom) + ")");
    return nullptr;
  }
  if (launchOk) {
    const std::vector<int64_t> lead(t.shape.begin(), t.shape.begin() + gr);
    if (lead != group) {
      auto& d =
          error("E0164", oe.span,
                "operand '" + t.text + "' of " + op + " at scope=\"" +
                    std::string(ir::execScopeName(scope)) + "\" needs a leading group shape " +
                    shapeText(group) + ", found " + shapeText(lead));
      if (scope == ir::ExecScope::Cta && lead.size() == 2 && lead[0] > group[0] &&
          t.layout.size("warpid") > 1)
        note(d, m_body->kernel->launchSpan,
             "the layout puts these elements in warp " + std::to_string(lead[0] - 1) +
                 ", but block=" + std::to_string(m_body->blockThreads) + " launches " +
                 (group[0] == 1 ? std::string("one warp") : std::to_string(group[0]) + " warps"));
      else
        note(d, oe.span,
             "the group prefix is " + std::string(scope == ir::ExecScope::Cta
                                                      ? "(warps in the block, 32 lanes)"
                                                      : "fixed by the scope"));
      return nullptr;
    }
  }
  if (t.shape.back() != spec.atom) {
    auto& d = error("E0165", oe.span,
                    op + " needs a last operand axis of " + std::to_string(spec.atom) + " element" +
                        (spec.atom == 1 ? "" : "s") + ", found " + std::to_string(t.shape.back()) +
                        " in '" + t.text + "'");
    if (spec.atom == 1) {
      std::string dims;
      for (int64_t x : t.shape) dims += std::to_string(x) + ", ";
      note(d, oe.span, "add a unit atom axis with a view: " + t.text + ".view(" + dims + "1)");
    }
    return nullptr;
  }
  return ref;
}

/// The operand count of `instr` and the architecture it needs for that count (E0162, E0177).
bool Analyzer::applyArityOk(const ast::Expr& call, const PtxInstruction& instr, int n) {
  const std::string& op = instr.opcode;
  const ast::Expr& ie = *call.args[1];
  if (n < instr.minArity || n > instr.maxArity) {
    const auto specs = instr.operandsFor(instr.minArity);
    std::string names;
    for (size_t i = 0; i < specs.size(); ++i) names += (i ? ", " : "") + specs[i].name;
    const std::string count =
        instr.minArity == instr.maxArity
            ? std::to_string(instr.minArity)
            : std::to_string(instr.minArity) + " or " + std::to_string(instr.maxArity);
    const SourceSpan at = n > instr.maxArity ? call.args[instr.maxArity + 2]->span : call.span;
    auto& d = error("E0162", at, op + " takes " + count + " operands, found " + std::to_string(n));
    note(d, ie.span, "operands in order, destination first: " + names);
    return false;
  }
  const int minSm = instr.minSmForArity(n);
  if (minSm > m_options.sm) {
    auto& d = error("E0177", call.span,
                    op + " with " + std::to_string(n) + " operands is not available on sm_" +
                        std::to_string(m_options.sm));
    const bool extended =
        n > instr.minArity && (instr.family == PtxFamily::Max || instr.family == PtxFamily::Min);
    note(d, ie.span,
         (extended ? "three-input " + op : op) + " needs sm_" + std::to_string(minSm) +
             "; this check targets sm_" + std::to_string(m_options.sm));
    return false;
  }
  return true;
}

void Analyzer::lowerApply(const ast::Expr& call, std::vector<ir::Stmt>& out) {
  const std::vector<std::string> kApplyKeywords = {"scope",       "pred",     "preserve_dst", "loc",
                                                   "chunk_bytes", "src_size", "ignore_src"};
  if (call.args.size() < 2 || !call.args[1] || call.args[1]->kind == ast::ExprKind::Starred) {
    checkCallShape(call, "T.cuda.tile.apply", 2, -1, kApplyKeywords);
    return;
  }
  // The instruction is checked before the keywords: an unsupported instruction is the root cause
  // when both are wrong.
  const std::optional<PtxInstruction> instr = applyInstruction(call);
  if (!instr) return;
  // TMA copies take their own keywords (box=, coords=, mbar=, ...): sema_tma.cpp.
  if (instr->family == PtxFamily::BulkTensor) return lowerTma(call, *instr, out);
  // wgmma takes descriptor tuples and scale/trans immediates: sema_wgmma.cpp.
  if (instr->family == PtxFamily::Wgmma) return lowerWgmma(call, *instr, out);
  if (!checkCallShape(call, "T.cuda.tile.apply", 2, -1, kApplyKeywords)) return;
  const std::string op = instr->opcode;
  const int n = static_cast<int>(call.args.size()) - 2;
  if (!applyArityOk(call, *instr, n)) return;
  for (const char* kw : {"chunk_bytes", "src_size", "ignore_src"})
    if (const ast::Expr* k = keyword(call, kw); k && instr->family != PtxFamily::CpAsync) {
      error("E0102", k->span,
            std::string(kw) + "= belongs to cp.async; " + op + " does not take it");
      return;
    }
  auto scope = lowerScope(call);
  if (!scope) return;
  const bool launchOk = checkScopeLaunch(*scope, call);
  if (!launchOk) return;  // the launch or scope is already reported; operand shapes would be noise
  if (instr->family == PtxFamily::CpAsync) {  // sema_cp_async.cpp
    lowerCpAsync(call, *instr, *scope, out);
    return;
  }
  if (instr->isCollective()) {  // warp collectives: sema_warp.cpp, sema_collective.cpp
    if (!checkCollectiveContext(*instr, *scope, call)) return;
    if (instr->family != PtxFamily::Shfl && instr->family != PtxFamily::Redux) {
      lowerMatrixCollective(call, *instr, *scope, out);
      return;
    }
  }
  ir::ExprPtr pred;
  bool preserve = false;
  if (const ast::Expr* p = keyword(call, "pred")) {
    pred = asBool(lowerScalar(*p), p->span);
    if (!pred) return;
  }
  if (const ast::Expr* p = keyword(call, "preserve_dst")) {
    if (p->kind != ast::ExprKind::Bool) {
      error("E0180", p->span, "preserve_dst= expects True or False, found '" + text(p->span) + "'");
      return;
    }
    preserve = p->boolValue;
    if (preserve && !pred) {
      error("E0180", p->span, "preserve_dst=True only has a meaning together with pred=");
      return;
    }
  }
  const auto specs = instr->operandsFor(n);
  const std::vector<int64_t> group = ir::groupExtents(*scope, m_body->blockThreads);
  const size_t gr = group.size();
  std::vector<OperandCheck> ops;
  bool ok = true;
  std::optional<std::vector<int64_t>> repeat;
  size_t repeatFrom = 0;
  for (int i = 0; i < n; ++i) {
    const ast::Expr& oe = *call.args[i + 2];
    const PtxOperandSpec& spec = specs[i];
    OperandCheck oc;
    oc.expr = &oe;
    oc.name = spec.name;
    oc.op.span = oe.span;
    oc.isMemory = spec.role == OperandRole::Address;
    oc.isDst = i == 0;
    oc.atom = spec.atom;
    if (!isTensorExpr(oe)) {
      if (applyScalarOperand(*instr, spec, oe, oc))
        ops.push_back(std::move(oc));
      else
        ok = false;
      continue;
    }
    const std::shared_ptr<const ir::TensorRef> ref =
        applyTensorOperand(call, *instr, spec, oe, *scope, group, launchOk);
    if (!ref) {
      ok = false;
      continue;
    }
    const ir::TensorRef& t = *ref;
    std::vector<int64_t> rep(t.shape.begin() + gr, t.shape.end() - 1);
    if (!repeat) {
      repeat = rep;
      repeatFrom = ops.size();
    } else if (*repeat != rep) {
      auto& d = error("E0166", oe.span,
                      "repeat shape " + shapeText(rep) + " of '" + t.text + "' differs from " +
                          shapeText(*repeat) + " of '" + ops[repeatFrom].op.tensor.text + "'");
      note(d, ops[repeatFrom].op.span,
           "every tensor operand is (group, repeat, atom) with the same repeat shape");
      ok = false;
      continue;
    }
    oc.op.tensor = t;
    ops.push_back(std::move(oc));
  }
  if (!ok || !launchOk) return;
  const std::vector<int64_t> rep = repeat.value_or(std::vector<int64_t>{});
  const size_t before = m_diags.size();
  checkOwnershipAndMemory(op, *scope, group, rep, ops);
  if (hasErrors(Diagnostics(m_diags.begin() + before, m_diags.end()))) return;
  auto apply = std::make_shared<ir::TileApply>();
  apply->instr = *instr;
  apply->scope = *scope;
  apply->group = group;
  apply->repeat = rep;
  apply->pred = pred;
  apply->preserveDst = preserve;
  for (auto& oc : ops) {
    apply->atom.push_back(oc.op.isScalar ? 1 : oc.atom);
    apply->operands.push_back(std::move(oc.op));
  }
  ir::Stmt st;
  st.kind = ir::StmtKind::Apply;
  st.span = call.span;
  st.apply = apply;
  out.push_back(std::move(st));
}

/// The scalar function of `T.cuda.tile.ewise` (its first argument), taking as many parameters as
/// the call passes inputs (E0190, E0192); -1 after an error.
int Analyzer::ewiseFunction(const ast::Expr& call) {
  const ast::Expr& fe = *call.args[1];
  int func = -1;
  if (fe.kind == ast::ExprKind::Lambda) {
    auto& d = error("E0190", fe.span,
                    "T.cuda.tile.ewise with a lambda is not supported; define a "
                    "@T.function(private=True) scalar function");
    note(d, fe.span, "decision OPEN-10 in docs/decisions.md");
    return -1;
  }
  if (fe.kind == ast::ExprKind::Name) {
    const Binding* b = lookup(fe.text);
    if (!b) {
      unknownName(fe);
      auto it = m_functionDefs.find(fe.text);
      if (it != m_functionDefs.end() && !m_diags.empty())
        note(m_diags.back(), it->second,
             "'" + fe.text +
                 "' is defined later; define scalar functions before the kernels that use them");
      return -1;
    }
    useSymbol(b->symbol, fe.span);
    if (b->kind == Binding::Kind::Function) func = b->index;
  }
  if (func < 0) {
    error("E0190", fe.span,
          "the first argument of T.cuda.tile.ewise must be a @T.function(private=True) scalar "
          "function, found '" +
              text(fe.span) + "'");
    return -1;
  }
  const ir::ScalarFunction& f = m_program.functions[func];
  const int nIn = static_cast<int>(call.args.size()) - 3;
  if (nIn != static_cast<int>(f.params.size())) {
    auto& d = error("E0192",
                    nIn > int(f.params.size()) ? call.args[f.params.size() + 3]->span : call.span,
                    "'" + f.name + "' takes " + std::to_string(f.params.size()) + " parameter" +
                        (f.params.size() == 1 ? "" : "s") + ", but ewise passes " +
                        std::to_string(nIn) + " input" + (nIn == 1 ? "" : "s"));
    note(d, f.span, "'" + f.name + "' is defined here");
    return -1;
  }
  return func;
}

void Analyzer::lowerEwise(const ast::Expr& call, std::vector<ir::Stmt>& out) {
  if (!checkCallShape(call, "T.cuda.tile.ewise", 2, -1, {"scope", "loc"})) return;
  const int func = ewiseFunction(call);
  if (func < 0) return;
  const ir::ScalarFunction& f = m_program.functions[func];
  const int nIn = static_cast<int>(call.args.size()) - 3;
  auto scope = lowerScope(call);
  if (!scope) return;
  const bool launchOk = checkScopeLaunch(*scope, call);
  if (!launchOk) return;
  const std::vector<int64_t> group = ir::groupExtents(*scope, m_body->blockThreads);
  const size_t gr = group.size();
  std::vector<OperandCheck> ops;
  bool ok = true;
  std::optional<std::vector<int64_t>> dstShape;
  for (int i = 0; i <= nIn; ++i) {
    const ast::Expr& oe = *call.args[i + 2];
    const bool isDst = i == 0;
    const DType want = isDst ? f.ret : f.vars[f.params[i - 1]].dtype;
    const std::string pname =
        isDst ? "the return value" : "parameter '" + f.vars[f.params[i - 1]].name + "'";
    OperandCheck oc;
    oc.expr = &oe;
    oc.isDst = isDst;
    oc.op.span = oe.span;
    oc.name = isDst ? "dst" : f.vars[f.params[i - 1]].name;
    if (!isTensorExpr(oe)) {
      if (isDst) {
        error("E0191", oe.span,
              "the destination of T.cuda.tile.ewise must be a local register tensor, found '" +
                  text(oe.span) + "'");
        ok = false;
        continue;
      }
      Scalar s = lowerScalar(oe);
      if (!s.ok()) {
        ok = false;
        continue;
      }
      if (s.literal) {
        auto& d = error("E0170", oe.span,
                        "scalar input for " + pname + " of '" + f.name + "' needs a typed " +
                            std::string(ir::dtypeName(want)) + " value, found the bare literal " +
                            text(oe.span));
        note(d, oe.span, "write T." + std::string(ir::dtypeName(want)) + "(" + text(oe.span) + ")");
        ok = false;
        continue;
      }
      if (s.expr->dtype != want) {
        auto& d =
            error("E0193", oe.span,
                  std::string(ir::dtypeName(want)) + " " + pname + " of '" + f.name +
                      "' receives a " + std::string(ir::dtypeName(s.expr->dtype)) + " scalar");
        note(d, f.span, "'" + f.name + "' is defined here");
        ok = false;
        continue;
      }
      oc.op.isScalar = true;
      oc.op.scalar = s.expr;
      ops.push_back(std::move(oc));
      continue;
    }
    auto ref = lowerTensor(oe);
    if (ref && !staticOperand(*ref, oe.span)) ref = nullptr;
    if (!ref) {
      ok = false;
      continue;
    }
    const ir::TensorRef& t = *ref;
    if (t.scope != ir::MemScope::Local) {
      auto& d = error("E0191", oe.span,
                      "T.cuda.tile.ewise operands must be local register tensors, but '" + t.text +
                          "' is a " + std::string(ir::memScopeName(t.scope)) + " tensor");
      note(d, oe.span,
           "stage it through registers with T.cuda.tile.apply(T.ptx[\"ld." +
               std::string(ir::memScopeName(t.scope)) + "...\"], ...) first");
      ok = false;
      continue;
    }
    if (t.dtype != want) {
      auto& d = error(isDst ? "E0194" : "E0193", oe.span,
                      "'" + f.name + "' " + (isDst ? "returns " : "takes ") +
                          std::string(ir::dtypeName(want)) + (isDst ? "" : " for " + pname) +
                          ", but '" + t.text + "' holds " + std::string(ir::dtypeName(t.dtype)));
      note(d, f.span, "'" + f.name + "' is defined here");
      ok = false;
      continue;
    }
    if (t.shape.size() < gr) {
      error("E0163", oe.span,
            "operand '" + t.text + "' has shape " + shapeText(t.shape) + "; scope=\"" +
                std::string(ir::execScopeName(*scope)) + "\" needs a leading group " +
                shapeText(group));
      ok = false;
      continue;
    }
    if (launchOk && isDst) {
      const std::vector<int64_t> lead(t.shape.begin(), t.shape.begin() + gr);
      if (lead != group) {
        auto& d =
            error("E0164", oe.span,
                  "operand '" + t.text + "' of T.cuda.tile.ewise at scope=\"" +
                      std::string(ir::execScopeName(*scope)) + "\" needs a leading group shape " +
                      shapeText(group) + ", found " + shapeText(lead));
        if (*scope == ir::ExecScope::Cta && lead.size() == 2 && lead[0] > group[0] &&
            t.layout.size("warpid") > 1)
          note(d, m_body->kernel->launchSpan,
               "the layout puts these elements in warp " + std::to_string(lead[0] - 1) +
                   ", but block=" + std::to_string(m_body->blockThreads) + " launches " +
                   (group[0] == 1 ? std::string("one warp") : std::to_string(group[0]) + " warps"));
        ok = false;
        continue;
      }
    }
    if (!dstShape) {
      dstShape = t.shape;
    } else if (*dstShape != t.shape) {
      auto& d = error("E0195", oe.span,
                      "input '" + t.text + "' has shape " + shapeText(t.shape) +
                          ", but the destination has " + shapeText(*dstShape));
      note(d, oe.span,
           "ewise does not broadcast; write a zero-stride view with .view(..., layout=...) "
           "(decision OPEN-7)");
      ok = false;
      continue;
    }
    oc.op.tensor = t;
    ops.push_back(std::move(oc));
  }
  if (!ok || !launchOk || !dstShape) return;
  const std::vector<int64_t> rep(dstShape->begin() + gr, dstShape->end());
  const size_t before = m_diags.size();
  checkOwnershipAndMemory("T.cuda.tile.ewise", *scope, group, rep, ops);
  if (hasErrors(Diagnostics(m_diags.begin() + before, m_diags.end()))) return;
  auto ew = std::make_shared<ir::TileEwise>();
  ew->func = func;
  ew->scope = *scope;
  ew->group = group;
  ew->repeat = rep;
  ew->dst = ops[0].op.tensor;
  for (size_t i = 1; i < ops.size(); ++i) ew->inputs.push_back(std::move(ops[i].op));
  ir::Stmt st;
  st.kind = ir::StmtKind::Ewise;
  st.span = call.span;
  st.ewise = ew;
  out.push_back(std::move(st));
}

}  // namespace tirx::sema
