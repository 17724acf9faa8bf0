// Warp-level facts the collectives need (spec TC §1.1, §6.3, §7.3, §10): which scalar values are
// warp-uniform (every lane computes the same value: constants, block indices, `tid // 32`,
// variables assigned such values outside lane-dependent control flow), the context checks every
// warp collective shares (scope, warp-uniform control flow, no pred=), and the CUDA shuffle
// spelling `T.cuda.__shfl_xor_sync(mask, var, lane_mask, width=32)` (and __shfl_sync,
// __shfl_up_sync, __shfl_down_sync) that the TIRx guides use: a warp collective inside an
// expression, hoisted into an assignment of a fresh variable just before its statement so that
// the simulator can synchronise the warp on a statement of its own.
#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

using ir::DType;
using ir::ExprKind;

namespace {

/// How a value varies over the 32 lanes of a warp.
enum Lanes : uint8_t {
  kUnset = 0,
  kUniform = 1,       ///< the same in every lane
  kUniformMul32 = 2,  ///< the same in every lane and a multiple of 32
  kTidLinear = 3,     ///< threadIdx.x + a uniform multiple of 32 (so `// 32` makes it uniform)
  kOther = 4,         ///< may differ between lanes
};

bool uniform(uint8_t c) {
  return c == kUniform || c == kUniformMul32;
}

}  // namespace

namespace {

uint8_t laneClass(const Analyzer::BodyContext* body, const ir::Expr& x) {
  auto all = [&](const ir::Expr& e) -> uint8_t {
    for (const auto& a : e.args)
      if (a && !uniform(laneClass(body, *a))) return kOther;
    return kUniform;
  };
  const ir::Kernel* k = body ? body->kernel : nullptr;
  switch (x.kind) {
    case ExprKind::IntImm:
      return x.intValue % 32 == 0 ? kUniformMul32 : kUniform;
    case ExprKind::FloatImm:
    case ExprKind::BoolImm:
    case ExprKind::BlockIdx:
    case ExprKind::BlockDim:
    case ExprKind::GridDim:
      return kUniform;
    case ExprKind::ThreadIdx:
      if (x.dim == 0) return kTidLinear;
      // A warp never spans two rows of threadIdx.y when blockDim.x is a multiple of 32.
      return k && k->launch.block[0] % 32 == 0 ? kUniform : kOther;
    case ExprKind::Var:
      if (body && x.var >= 0 && x.var < static_cast<int>(body->varLanes.size()) &&
          body->varLanes[x.var] != kUnset)
        return body->varLanes[x.var];
      return kUniform;  // parameters and never-assigned variables
    case ExprKind::Intrinsic:
      if (x.name == "elect_sync") return kOther;
      return all(x);
    case ExprKind::Load: {
      if (!x.tensor || x.tensor->scope == ir::MemScope::Local) return kOther;
      for (const auto& l : x.tensor->lo)
        if (l && !uniform(laneClass(body, *l))) return kOther;
      return all(x);
    }
    case ExprKind::Cast:
      return x.args.empty() || ir::isFloat(x.dtype) ? all(x) : laneClass(body, *x.args[0]);
    case ExprKind::Compare: {
      // `tid < 64`, `tid >= 128`, `tid <= 95`: threadIdx.x (plus a multiple of 32) against a warp
      // boundary is the same in every lane of a warp (warp specialisation writes it so).
      if (x.args.size() == 2) {
        const uint8_t a = laneClass(body, *x.args[0]), b = laneClass(body, *x.args[1]);
        if (uniform(a) && uniform(b)) return kUniform;
        const bool left = a == kTidLinear && x.args[1]->kind == ExprKind::IntImm;
        const bool right = b == kTidLinear && x.args[0]->kind == ExprKind::IntImm;
        if (left || right) {
          const int64_t c = (left ? x.args[1] : x.args[0])->intValue;
          ir::BinOp op = x.op;
          if (right)  // c OP tid  ==  tid OP' c
            op = op == ir::BinOp::Lt   ? ir::BinOp::Gt
                 : op == ir::BinOp::Gt ? ir::BinOp::Lt
                 : op == ir::BinOp::Le ? ir::BinOp::Ge
                 : op == ir::BinOp::Ge ? ir::BinOp::Le
                                       : op;
          if ((op == ir::BinOp::Lt || op == ir::BinOp::Ge) && c % 32 == 0) return kUniform;
          if ((op == ir::BinOp::Le || op == ir::BinOp::Gt) && (c + 1) % 32 == 0) return kUniform;
        }
      }
      return all(x);
    }
    case ExprKind::Binary: {
      if (x.args.size() < 2) return kOther;
      const uint8_t a = laneClass(body, *x.args[0]), b = laneClass(body, *x.args[1]);
      const ir::Expr& rhs = *x.args[1];
      const bool kMul32 =
          rhs.kind == ExprKind::IntImm && rhs.intValue > 0 && rhs.intValue % 32 == 0;
      switch (x.op) {
        case ir::BinOp::Add:
        case ir::BinOp::Sub:
          if (uniform(a) && uniform(b))
            return a == kUniformMul32 && b == kUniformMul32 ? kUniformMul32 : kUniform;
          if (a == kTidLinear && b == kUniformMul32) return kTidLinear;
          if (x.op == ir::BinOp::Add && b == kTidLinear && a == kUniformMul32) return kTidLinear;
          return kOther;
        case ir::BinOp::Mul:
          if (uniform(a) && uniform(b))
            return a == kUniformMul32 || b == kUniformMul32 ? kUniformMul32 : kUniform;
          if (a == kTidLinear && rhs.kind == ExprKind::IntImm && rhs.intValue == 1)
            return kTidLinear;
          return kOther;
        case ir::BinOp::FloorDiv:
        case ir::BinOp::TruncDiv:
          if (uniform(a) && uniform(b)) return kUniform;
          return a == kTidLinear && kMul32 ? kUniform : kOther;
        case ir::BinOp::Shr:
          if (uniform(a) && uniform(b)) return kUniform;
          return a == kTidLinear && rhs.kind == ExprKind::IntImm && rhs.intValue >= 5 &&
                         rhs.intValue < 63
                     ? kUniform
                     : kOther;
        default:
          return uniform(a) && uniform(b) ? kUniform : kOther;
      }
    }
    default:
      return all(x);
  }
}

}  // namespace

bool Analyzer::warpUniform(const ir::Expr& e) const {
  return uniform(laneClass(m_body.get(), e));
}

void Analyzer::noteVarValue(int var, const ir::Expr* value) {
  if (!m_body || var < 0) return;
  auto& lanes = m_body->varLanes;
  if (lanes.size() <= static_cast<size_t>(var)) lanes.resize(var + 1, kUnset);
  const uint8_t c =
      value && m_body->laneDivergence.empty() ? laneClass(m_body.get(), *value) : uint8_t(kOther);
  uint8_t& slot = lanes[var];
  if (slot == kUnset)
    slot = c;
  else if (slot != c)
    slot = uniform(slot) && uniform(c) ? kUniform : kOther;
}

bool Analyzer::checkCollectiveContext(const PtxInstruction& instr, ir::ExecScope scope,
                                      const ast::Expr& call) {
  const std::string& op = instr.opcode;
  if (scope == ir::ExecScope::Thread) {
    const ast::Expr* s = keyword(call, "scope");
    auto& d = error("E0260", s ? s->span : call.span,
                    op + " is a warp collective: scope= must be \"warp\", \"warpgroup\" or "
                         "\"cta\", found \"thread\"");
    note(d, call.span,
         "the 32 lanes of a warp execute it together; the scope names the warps that do (spec TC "
         "§1.1)");
    return false;
  }
  if (const ast::Expr* p = keyword(call, "pred")) {
    auto& d = error("E0262", p->span, "pred= is not accepted by the warp collective " + op);
    note(d, p->span,
         "a lane whose predicate is false would not take part; put the whole warp under a "
         "warp-uniform if instead");
    return false;
  }
  if (!m_body->laneDivergence.empty()) {
    auto& d = error("E0261", call.span,
                    op + " inside control flow that may differ between the lanes of a warp; every "
                         "lane must execute it");
    note(d, m_body->laneDivergence.back(),
         "this condition is not warp-uniform (it depends on the lane)");
    return false;
  }
  return true;
}

void Analyzer::lowerStmt(const ast::Stmt& s, std::vector<ir::Stmt>& out) {
  if (skipRefusedStmt(s))
    return;  // the refused declaration is the one root cause (sema_recovery.cpp)
  const bool allowed = m_body && !m_body->inFunction &&
                       (s.kind == ast::StmtKind::Assign || s.kind == ast::StmtKind::AnnAssign ||
                        s.kind == ast::StmtKind::AugAssign || s.kind == ast::StmtKind::ExprStmt);
  m_hoist.push_back({allowed, {}});
  const size_t at = out.size();
  lowerStmtBody(s, out);
  std::vector<ir::Stmt> hoisted = std::move(m_hoist.back().stmts);
  m_hoist.pop_back();
  if (!hoisted.empty())
    out.insert(out.begin() + static_cast<long>(std::min(at, out.size())),
               std::make_move_iterator(hoisted.begin()), std::make_move_iterator(hoisted.end()));
}

Scalar Analyzer::lowerShuffleCall(const ast::Expr& e, const std::string& p) {
  static const std::vector<std::string> kNames = {"T.cuda.__shfl_sync", "T.cuda.__shfl_xor_sync",
                                                  "T.cuda.__shfl_up_sync",
                                                  "T.cuda.__shfl_down_sync"};
  if (std::find(kNames.begin(), kNames.end(), p) == kNames.end()) {
    unknownBuiltin(e.args[0] ? *e.args[0] : e, p);
    return Scalar{};
  }
  const std::string name = p.substr(7);  // "__shfl_xor_sync"
  const char* third = name == "__shfl_sync"       ? "src_lane"
                      : name == "__shfl_xor_sync" ? "lane_mask"
                                                  : "delta";
  if (!checkCallShape(e, p, 3, 4, {"width"})) return Scalar{};
  if (!m_body || m_body->inFunction || m_hoist.empty() || !m_hoist.back().allowed) {
    auto& d = error("E0270", e.span,
                    p + " is a warp collective; use it in the value of an assignment or of an "
                        "expression statement");
    note(
        d, e.span,
        m_body && m_body->inFunction
            ? std::string(
                  "a scalar function runs per element; shuffle in the kernel and pass the value in")
            : "assign the shuffled value to a variable first (v = " + p +
                  "(...)), then use the variable in the condition");
    return Scalar{};
  }
  auto arg = [&](int i) -> const ast::Expr& { return *e.args[i + 1]; };
  Scalar mask = lowerScalar(arg(0));
  Scalar val = lowerScalar(arg(1));
  Scalar lane = lowerScalar(arg(2));
  if (!mask.ok() || !val.ok() || !lane.ok()) return Scalar{};
  // The mask: a 32-bit integer (a literal such as 0xffffffff becomes uint32).
  if (mask.literal) mask = coerce(mask, DType::UInt32, arg(0).span, "the mask");
  if (!mask.ok()) return Scalar{};
  if (mask.expr->dtype != DType::UInt32 && mask.expr->dtype != DType::Int32) {
    error("E0271", arg(0).span,
          "the mask of " + p + " is a 32-bit integer, found " +
              std::string(ir::dtypeName(mask.expr->dtype)));
    return Scalar{};
  }
  if (val.literal)
    val = coerce(val, val.expr->kind == ExprKind::FloatImm ? DType::Float32 : DType::Int32,
                 arg(1).span, "the value");
  if (!val.ok()) return Scalar{};
  const DType vt = val.expr->dtype;
  if (vt != DType::Int32 && vt != DType::UInt32 && vt != DType::Float32) {
    auto& d = error("E0271", arg(1).span,
                    p + " moves a 32-bit register (int32, uint32 or float32), found " +
                        std::string(ir::dtypeName(vt)));
    note(d, arg(1).span, "shuffle the value as a 32-bit type (e.g. T.float32(x)) and convert back");
    return Scalar{};
  }
  if (lane.literal) lane = coerce(lane, DType::Int32, arg(2).span, third);
  if (!lane.ok()) return Scalar{};
  if (lane.expr->dtype != DType::Int32 && lane.expr->dtype != DType::UInt32) {
    error("E0271", arg(2).span,
          std::string(third) + " of " + p + " is a 32-bit integer, found " +
              std::string(ir::dtypeName(lane.expr->dtype)));
    return Scalar{};
  }
  int64_t width = 32;
  const ast::Expr* we = e.args.size() > 4 ? e.args[4].get() : keyword(e, "width");
  if (we) {
    const size_t before = m_diags.size();
    auto w = staticInt(*we, false);
    if (!w && m_diags.size() != before) return Scalar{};
    if (!w || *w < 1 || *w > 32 || (*w & (*w - 1)) != 0) {
      error("E0272", we->span,
            "width= of " + p + " must be a static power of two from 1 to 32, found '" +
                text(we->span) + "'");
      return Scalar{};
    }
    width = *w;
  }
  auto call = std::make_shared<ir::Expr>();
  call->kind = ExprKind::Intrinsic;
  call->name = name;
  call->dtype = vt;
  call->span = e.span;
  auto asU32 = [&](ir::ExprPtr x) -> ir::ExprPtr {
    if (x->dtype == DType::UInt32) return x;
    auto c = std::make_shared<ir::Expr>();
    c->kind = ExprKind::Cast;
    c->dtype = DType::UInt32;
    c->args = {x};
    c->span = x->span;
    return c;
  };
  auto asI32 = [&](ir::ExprPtr x) -> ir::ExprPtr {
    if (x->dtype == DType::Int32) return x;
    auto c = std::make_shared<ir::Expr>();
    c->kind = ExprKind::Cast;
    c->dtype = DType::Int32;
    c->args = {x};
    c->span = x->span;
    return c;
  };
  call->args = {asU32(mask.expr), val.expr, asI32(lane.expr), mkInt(width, we ? we->span : e.span)};
  const int var = newVar("tirx_shfl" + std::to_string(m_body->hoistCounter++), vt, e.span, true);
  noteVarValue(var, nullptr);
  ir::Stmt st;
  st.kind = ir::StmtKind::Assign;
  st.span = e.span;
  st.var = var;
  st.value = call;
  m_hoist.back().stmts.push_back(std::move(st));
  auto ref = std::make_shared<ir::Expr>();
  ref->kind = ExprKind::Var;
  ref->var = var;
  ref->dtype = vt;
  ref->span = e.span;
  return Scalar{ref, false};
}

}  // namespace tirx::sema
