// `T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], dst_shared, src_global, chunk_bytes=16,
// scope=..., pred=..., src_size=... | ignore_src=...)` (spec TC §2.1-§2.3, decision ASYNC-4):
//   1. direction: the destination is shared, the source global (E0176);
//   2. chunk_bytes= is a constant 4, 8 or 16, and 16 with .cg (E0277);
//   3. each operand is (*group, *repeat, atom) with an atom of exactly chunk_bytes bytes (E0163-
//      E0167), the same repeats on both sides;
//   4. atoms contiguous and chunk-aligned on both sides, distinct destinations across threads,
//      bounds (checkOwnershipAndMemory: E0174, E0175, E0181, E0182, E0137);
//   5. the zero-fill forms: src_size= (an integer, bytes read; constant ones within [0,
//      chunk_bytes]) or ignore_src= (a bool), never both (E0278); preserve_dst= has no meaning.
#include "core/sema/sema_internal.h"

namespace tirx::sema {

/// The zero-fill forms of cp.async: `src_size=` (an integer from 0 to chunk_bytes) or
/// `ignore_src=` (a bool), not both (E0278); false after an error.
bool Analyzer::cpAsyncZeroFill(const ast::Expr& call, const std::string& op, int64_t chunk,
                               ir::ExprPtr& srcSize, ir::ExprPtr& ignoreSrc) {
  const ast::Expr* ss = keyword(call, "src_size");
  const ast::Expr* ig = keyword(call, "ignore_src");
  if (ss && ig) {
    auto& d = error("E0278", ig->span, op + " takes src_size= or ignore_src=, not both");
    note(d, ss->span, "src_size= is here");
    return false;
  }
  if (ss) {
    Scalar v = lowerScalar(*ss);
    if (v.ok() && v.literal) v = coerce(v, ir::DType::UInt32, ss->span, "src_size=");
    if (!v.ok()) return false;
    if (!ir::isInt(v.expr->dtype)) {
      error("E0278", ss->span,
            "src_size= of " + op + " is an integer byte count, found " +
                std::string(ir::dtypeName(v.expr->dtype)));
      return false;
    }
    if (auto c = constValue(*v.expr); c && (*c < 0 || *c > chunk)) {
      error("E0278", ss->span,
            "src_size= of " + op + " must be from 0 to chunk_bytes (" + std::to_string(chunk) +
                "), found " + std::to_string(*c));
      return false;
    }
    srcSize = v.expr;
  }
  if (ig) {
    ignoreSrc = asBool(lowerScalar(*ig), ig->span);
    if (!ignoreSrc) return false;
  }
  return true;
}

/// The chunk_bytes= of a cp.async (4, 8 or 16; 16 only for .cg), or nullopt with its error.
std::optional<int64_t> Analyzer::cpAsyncChunk(const ast::Expr& call, const PtxInstruction& instr) {
  const std::string& op = instr.opcode;
  const ast::Expr* cb = keyword(call, "chunk_bytes");
  if (!cb) {
    error("E0277", call.span,
          op + " needs chunk_bytes=4, 8 or 16: the copy width is never inferred from the layout");
    return std::nullopt;
  }
  const size_t before = m_diags.size();
  const auto chunk = staticInt(*cb, false);
  if (!chunk || (*chunk != 4 && *chunk != 8 && *chunk != 16)) {
    if (m_diags.size() == before)
      error("E0277", cb->span,
            "chunk_bytes= of " + op + " must be a constant 4, 8 or 16, found '" + text(cb->span) +
                "'");
    return std::nullopt;
  }
  if (instr.type == ".cg" && *chunk != 16) {
    auto& d =
        error("E0277", cb->span,
              op + " copies 16 bytes per atom (.cg), found chunk_bytes=" + std::to_string(*chunk));
    note(d, call.args[1]->span, "use .ca for 4- or 8-byte chunks");
    return std::nullopt;
  }
  return chunk;
}

void Analyzer::lowerCpAsync(const ast::Expr& call, const PtxInstruction& instr, ir::ExecScope scope,
                            std::vector<ir::Stmt>& out) {
  const std::string op = instr.opcode;
  const int n = static_cast<int>(call.args.size()) - 2;
  if (n != 2) {
    auto& d = error("E0162", n > 2 ? call.args[4]->span : call.span,
                    op + " takes 2 operands, found " + std::to_string(n));
    note(d, call.args[1]->span,
         "operands in order: the shared destination, then the global source");
    return;
  }
  const std::optional<int64_t> chunk = cpAsyncChunk(call, instr);
  if (!chunk) return;
  if (const ast::Expr* p = keyword(call, "preserve_dst")) {
    error("E0180", p->span,
          "preserve_dst= does not apply to " + op +
              ": with pred= false the destination keeps its bytes anyway");
    return;
  }
  ir::ExprPtr pred, srcSize, ignoreSrc;
  if (const ast::Expr* p = keyword(call, "pred")) {
    pred = asBool(lowerScalar(*p), p->span);
    if (!pred) return;
  }
  if (!cpAsyncZeroFill(call, op, *chunk, srcSize, ignoreSrc)) return;
  // Operands.
  const std::vector<int64_t> group = ir::groupExtents(scope, m_body->blockThreads);
  const size_t gr = group.size();
  std::vector<OperandCheck> ops;
  std::optional<std::vector<int64_t>> repeat;
  for (int i = 0; i < 2; ++i) {
    const ast::Expr& oe = *call.args[size_t(i) + 2];
    const char* name = i == 0 ? "dst" : "src";
    if (!isTensorExpr(oe)) {
      if (oe.kind == ast::ExprKind::Name && !lookup(oe.text))
        unknownName(oe);
      else
        error("E0169", oe.span,
              std::string("operand '") + name + "' of " + op + " must be a " +
                  (i == 0 ? "shared" : "global") + " tensor, found '" + text(oe.span) + "'");
      return;
    }
    auto ref = lowerTensor(oe);
    if (!ref) return;
    const ir::TensorRef& t = *ref;
    const ir::MemScope want = i == 0 ? ir::MemScope::Shared : ir::MemScope::Global;
    if (t.scope != want) {
      auto& d = error("E0176", oe.span,
                      std::string("operand '") + name + "' of " + op + " is the " +
                          (i == 0 ? "shared destination" : "global source") + ", but '" + t.text +
                          "' is a " + std::string(ir::memScopeName(t.scope)) + " tensor");
      note(d, call.args[1]->span,
           "cp.async copies global -> shared only: destination (shared) first, then the source "
           "(global)");
      return;
    }
    const int eb = ir::dtypeBytes(t.dtype);
    if (eb <= 0 || *chunk % eb != 0) {
      error("E0167", oe.span,
            "chunk_bytes=" + std::to_string(*chunk) + " is not a whole number of " +
                std::string(ir::dtypeName(t.dtype)) + " elements of '" + t.text + "'");
      return;
    }
    const int64_t atom = *chunk / eb;
    if (t.shape.size() < gr + 1) {
      error("E0163", oe.span,
            "operand '" + t.text + "' of " + op + " has " + std::to_string(t.shape.size()) +
                " axes; scope=\"" + std::string(ir::execScopeName(scope)) +
                "\" needs the group axes, repeats and an atom of " + std::to_string(atom) +
                " elements");
      return;
    }
    const std::vector<int64_t> lead(t.shape.begin(), t.shape.begin() + long(gr));
    if (lead != group) {
      error("E0164", oe.span,
            "operand '" + t.text + "' of " + op + " at scope=\"" +
                std::string(ir::execScopeName(scope)) +
                "\" needs a leading group shape matching the scope's threads");
      return;
    }
    if (t.shape.back() != atom) {
      auto& d =
          error("E0165", oe.span,
                op + " with chunk_bytes=" + std::to_string(*chunk) +
                    " needs a last operand axis of " + std::to_string(atom) + " " +
                    std::string(ir::dtypeName(t.dtype)) + " element" + (atom == 1 ? "" : "s") +
                    ", found " + std::to_string(t.shape.back()) + " in '" + t.text + "'");
      note(d, oe.span,
           "the atom is exactly chunk_bytes bytes; view the tile so that its last axis holds one "
           "chunk");
      return;
    }
    std::vector<int64_t> rep(t.shape.begin() + long(gr), t.shape.end() - 1);
    if (!repeat) {
      repeat = rep;
    } else if (*repeat != rep) {
      auto& d = error("E0166", oe.span,
                      "the repeats of '" + t.text + "' differ from those of the destination");
      note(d, ops[0].op.span,
           "both operands are (group, repeat, chunk) with the same repeat shape");
      return;
    }
    OperandCheck oc;
    oc.expr = &oe;
    oc.name = name;
    oc.isMemory = true;
    oc.isDst = i == 0;
    oc.atom = static_cast<int>(atom);
    oc.op.span = oe.span;
    oc.op.tensor = t;
    ops.push_back(std::move(oc));
  }
  const size_t mark = m_diags.size();
  checkOwnershipAndMemory(op, scope, group, *repeat, ops);
  if (hasErrors(Diagnostics(m_diags.begin() + long(mark), m_diags.end()))) return;
  auto apply = std::make_shared<ir::TileApply>();
  apply->instr = instr;
  apply->scope = scope;
  apply->group = group;
  apply->repeat = *repeat;
  apply->pred = pred;
  apply->chunkBytes = static_cast<int>(*chunk);
  apply->srcSize = srcSize;
  apply->ignoreSrc = ignoreSrc;
  for (auto& oc : ops) {
    apply->atom.push_back(oc.atom);
    apply->operands.push_back(std::move(oc.op));
  }
  ir::Stmt st;
  st.kind = ir::StmtKind::Apply;
  st.span = call.span;
  st.apply = apply;
  out.push_back(std::move(st));
}

}  // namespace tirx::sema
