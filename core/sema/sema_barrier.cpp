// Named barriers with a thread count (PTX ISA "bar, barrier"; TIRx prints them as
// `T.ptx.bar.sync(id, count)` and `T.ptx.bar.arrive(id, count)`):
//   - `T.ptx.bar.sync(id)`          bar.sync id           every thread of the block waits;
//   - `T.ptx.bar.sync(id, count)`   bar.sync id, count    wait until `count` threads arrived;
//   - `T.ptx.bar.arrive(id, count)` bar.arrive id, count  arrive without waiting (a producer's
//                                                          signal; PTX requires the count).
// Legality (E0226 for operands, E0224 for context): id an integer 0..15, the same in every lane of
// a warp; count an integer, warp-uniform, a positive multiple of 32 (the warp size: whole warps
// arrive) and at most the block's threads when it is a constant; no lane-dependent control flow
// around the statement (a warp arrives as a whole). Run-time ids and counts are checked by the
// simulator (E0735). The simulator's model and its deadlock and mismatch faults: docs/simulator.md
// ("Named barriers"); decision BAR-1 in docs/decisions.md.
#include "core/sema/sema_internal.h"

namespace tirx::sema {

ir::ExprPtr Analyzer::namedBarrierOperand(const ast::Expr& e, const std::string& written,
                                          bool isId) {
  const std::string what = isId ? "barrier id" : "thread count";
  Scalar v = lowerScalar(e);
  if (!v.ok()) return nullptr;
  if (v.literal) v = coerce(v, ir::DType::Int32, e.span, what.c_str());
  if (!v.ok()) return nullptr;
  if (!ir::isInt(v.expr->dtype)) {
    error("E0226", e.span,
          "the " + what + " of " + written + " is an integer, found " +
              std::string(ir::dtypeName(v.expr->dtype)));
    return nullptr;
  }
  if (auto c = constValue(*v.expr)) {
    if (isId && (*c < 0 || *c > 15)) {
      auto& d = error("E0226", e.span,
                      "the barrier id of " + written + " is 0..15, found " + std::to_string(*c));
      note(d, e.span,
           "a CTA has 16 named barriers; 0 is also the one T.cuda.cta_sync() (__syncthreads) uses");
      return nullptr;
    }
    if (!isId && (*c <= 0 || *c % 32 != 0)) {
      auto& d = error("E0226", e.span,
                      "the thread count of " + written + " is a positive multiple of 32, found " +
                          std::to_string(*c));
      note(d, e.span,
           "whole warps arrive at a named barrier: the count is in threads, 32 per warp");
      return nullptr;
    }
    if (!isId && m_body->launchOk && *c > m_body->blockThreads) {
      auto& d = error("E0226", e.span,
                      "the thread count of " + written + " is " + std::to_string(*c) +
                          ", more than the block's " + std::to_string(m_body->blockThreads) +
                          " threads: the barrier could never complete");
      note(d, m_body->kernel->launchSpan, "the launch is here");
      return nullptr;
    }
  }
  if (!warpUniform(*v.expr)) {
    error("E0224", e.span,
          "the " + what + " of " + written + " must be the same in every lane of a warp");
    return nullptr;
  }
  return v.expr;
}

void Analyzer::lowerNamedBarrier(const ast::Expr& call, bool arrive, std::vector<ir::Stmt>& out) {
  const std::string written = arrive ? "T.ptx.bar.arrive" : "T.ptx.bar.sync";
  if (!checkCallShape(call, written, arrive ? 2 : 1, 2, {})) return;
  if (!m_body->laneDivergence.empty()) {
    auto& d = error("E0224", call.span,
                    written +
                        " inside control flow that may differ between the lanes of a warp; whole "
                        "warps arrive at a named barrier");
    note(d, m_body->laneDivergence.back(),
         "this condition is not warp-uniform (it depends on the lane)");
    return;
  }
  ir::ExprPtr id = namedBarrierOperand(*call.args[1], written, true);
  ir::ExprPtr count =
      call.args.size() > 2 ? namedBarrierOperand(*call.args[2], written, false) : nullptr;
  if (!id || (call.args.size() > 2 && !count)) return;
  ir::Stmt st;
  st.kind = ir::StmtKind::Barrier;
  st.span = call.span;
  st.barrier = arrive ? "bar_arrive" : "bar_sync";
  st.value = id;
  st.barrierCount = count;
  out.push_back(std::move(st));
}

}  // namespace tirx::sema
