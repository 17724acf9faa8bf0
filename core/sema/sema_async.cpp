// The raw asynchronous-protocol statements of spec TC §1.4 (decision ASYNC-1 in
// docs/decisions.md): cp.async and bulk commit/wait groups, mbarrier init / arrive /
// arrive.expect_tx / expect_tx and the blocking parity wait, and the proxy fences. Each is an
// expression statement `T.ptx.<tokens>(...)` (keywords with a trailing `_`, `::` as `__`) or
// `T.ptx["ptx.opcode"](...)`; the spelling is normalised to the PTX opcode and looked up in one
// table that says its operands and minimum target. An mbarrier operand is `bar.ptr_to([i, ...])`,
// an element of a shared uint64 tensor (8 bytes, naturally aligned). Codes E0274-E0276.
#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

using ir::AsyncKind;

struct AsyncSpelling {
  const char* opcode;  ///< normalised PTX spelling
  AsyncKind kind;
  int minSm;
  bool barrier;              ///< first operand is an mbarrier pointer
  int minValues, maxValues;  ///< scalar operands after the barrier
  const char* valueName;
};

const std::vector<AsyncSpelling>& spellings() {
  static const std::vector<AsyncSpelling> v = {
      {"cp.async.commit_group", AsyncKind::CpAsyncCommit, 80, false, 0, 0, ""},
      {"cp.async.wait_group", AsyncKind::CpAsyncWait, 80, false, 1, 1, "N"},
      {"cp.async.wait_all", AsyncKind::CpAsyncWait, 80, false, 0, 0, ""},
      {"cp.async.bulk.commit_group", AsyncKind::BulkCommit, 90, false, 0, 0, ""},
      {"cp.async.bulk.wait_group", AsyncKind::BulkWait, 90, false, 1, 1, "N"},
      {"cp.async.bulk.wait_group.read", AsyncKind::BulkWait, 90, false, 1, 1, "N"},
      {"mbarrier.init.shared.b64", AsyncKind::MbarInit, 80, true, 1, 1, "count"},
      {"mbarrier.init.shared::cta.b64", AsyncKind::MbarInit, 80, true, 1, 1, "count"},
      {"mbarrier.arrive.shared.b64", AsyncKind::MbarArrive, 80, true, 0, 1, "count"},
      {"mbarrier.arrive.shared::cta.b64", AsyncKind::MbarArrive, 80, true, 0, 1, "count"},
      {"mbarrier.arrive.expect_tx.shared.b64", AsyncKind::MbarArriveExpectTx, 90, true, 1, 1,
       "bytes"},
      {"mbarrier.arrive.expect_tx.shared::cta.b64", AsyncKind::MbarArriveExpectTx, 90, true, 1, 1,
       "bytes"},
      {"mbarrier.expect_tx.shared.b64", AsyncKind::MbarExpectTx, 90, true, 1, 1, "bytes"},
      {"mbarrier.expect_tx.shared::cta.b64", AsyncKind::MbarExpectTx, 90, true, 1, 1, "bytes"},
      {"mbarrier.inval.shared.b64", AsyncKind::MbarInval, 80, true, 0, 0, ""},
      {"mbarrier.inval.shared::cta.b64", AsyncKind::MbarInval, 80, true, 0, 0, ""},
      {"mbarrier.try_wait", AsyncKind::MbarWait, 90, true, 1, 1, "parity"},
      {"mbarrier.try_wait.parity.shared::cta.b64", AsyncKind::MbarWait, 90, true, 1, 1, "parity"},
      {"fence.proxy.async", AsyncKind::FenceProxyAsync, 90, false, 0, 0, ""},
      {"fence.proxy.async.shared::cta", AsyncKind::FenceProxyAsync, 90, false, 0, 0, ""},
      {"fence.mbarrier_init.release.cluster", AsyncKind::FenceMbarrierInit, 90, false, 0, 0, ""},
      {"fence.mbarrier_init", AsyncKind::FenceMbarrierInit, 90, false, 0, 0, ""},
      // sm_90a: lowerAsyncStatement requires exactly sm_90 for these (minSm 90 + the wgmma prefix)
      {"wgmma.fence.sync.aligned", AsyncKind::WgmmaFence, 90, false, 0, 0, ""},
      {"wgmma.commit_group.sync.aligned", AsyncKind::WgmmaCommit, 90, false, 0, 0, ""},
      {"wgmma.wait_group.sync.aligned", AsyncKind::WgmmaWait, 90, false, 1, 1, "N"},
  };
  return v;
}

/// "T.ptx.cp.async_.bulk.wait_group" -> "cp.async.bulk.wait_group"; "shared__cta" -> "shared::cta".
std::string normalise(std::string s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "__") == 0) {
      out += "::";
      ++i;
    } else if (s[i] == '_' && (i + 1 == s.size() || s[i + 1] == '.')) {
      continue;  // keyword escape: async_ -> async
    } else {
      out += s[i];
    }
  }
  return out;
}

const AsyncSpelling* findSpelling(const std::string& opcode) {
  for (const auto& s : spellings())
    if (opcode == s.opcode) return &s;
  return nullptr;
}

constexpr int64_t kMaxCount = (int64_t(1) << 20) - 1;

}  // namespace

std::vector<std::string> asyncStatementNames() {
  std::vector<std::string> v{"T.cuda.mbarrier_wait"};
  for (const auto& s : spellings()) v.push_back(std::string("T.ptx.") + s.opcode);
  return v;
}

std::vector<AsyncStatementDoc> asyncStatementDocs() {
  std::vector<AsyncStatementDoc> v;
  v.push_back({"T.cuda.mbarrier_wait", "T.cuda.mbarrier_wait(bar, parity)",
               "wait until the mbarrier `bar` completes the phase of `parity`"});
  for (const auto& s : spellings()) {
    // the Python spelling: `async` is a keyword (async_), `::` is written `__`
    std::string py;
    for (size_t i = 0; s.opcode[i]; ++i) {
      if (s.opcode[i] == ':' && s.opcode[i + 1] == ':') {
        py += "__";
        ++i;
      } else {
        py += s.opcode[i];
      }
      if (py.size() >= 6 && py.compare(py.size() - 6, 6, ".async") == 0 && s.opcode[i + 1] == '.')
        py += '_';
    }
    std::string args = s.barrier ? "bar" : "";
    for (int k = 0; k < s.maxValues; ++k) {
      if (!args.empty()) args += ", ";
      args += k >= s.minValues ? "[" + std::string(s.valueName) + "]" : std::string(s.valueName);
    }
    v.push_back({"T.ptx." + py, "T.ptx." + py + "(" + args + ")",
                 "PTX " + std::string(s.opcode) + " (sm_" + std::to_string(s.minSm) + "+)"});
  }
  return v;
}

bool Analyzer::isAsyncStatement(const ast::Expr& call) {
  const ast::Expr& callee = *call.args[0];
  if (callee.kind == ast::ExprKind::Subscript)
    return builtinPath(*callee.args[0]) == "T.ptx" && callee.args[1]->kind == ast::ExprKind::Str &&
           findSpelling(callee.args[1]->text);
  const std::string p = builtinPath(callee);
  if (p == "T.cuda.mbarrier_wait") return true;
  if (p.rfind("T.ptx.", 0) != 0) return false;
  const std::string op = normalise(p.substr(6));
  // Any T.ptx.cp.async / mbarrier / fence spelling is ours: unknown ones get a "did you mean".
  return op.rfind("cp.async", 0) == 0 || op.rfind("mbarrier", 0) == 0 ||
         op.rfind("fence", 0) == 0 || op.rfind("wgmma", 0) == 0;
}

std::shared_ptr<const ir::TensorRef> Analyzer::lowerBarrierPtr(const ast::Expr& e,
                                                               std::vector<ir::ExprPtr>& index) {
  auto wrong = [&](const std::string& found) {
    auto& d = error(
        "E0274", e.span,
        "an mbarrier operand is `bar.ptr_to([i])`, an element of a shared uint64 tensor, found " +
            found);
    note(d, e.span, "allocate the barriers with T.alloc_shared((n,), \"uint64\")");
    return nullptr;
  };
  if (e.kind != ast::ExprKind::Call || e.args[0]->kind != ast::ExprKind::Attribute ||
      e.args[0]->text != "ptr_to")
    return wrong("'" + text(e.span) + "'");
  const ast::Expr& base = *e.args[0]->args[0];
  if (!isTensorExpr(base)) return wrong("'" + text(base.span) + "', which is not a tensor");
  auto ref = lowerTensor(base);
  if (!ref) return nullptr;
  if (ref->scope != ir::MemScope::Shared || ref->dtype != ir::DType::UInt64)
    return wrong("'" + ref->text + "' (" + std::string(ir::memScopeName(ref->scope)) + " " +
                 std::string(ir::dtypeName(ref->dtype)) + ")");
  if (e.args.size() != 2 || !e.keywords.empty() ||
      (e.args[1]->kind != ast::ExprKind::List && e.args[1]->kind != ast::ExprKind::Tuple))
    return wrong("'" + text(e.span) + "' (ptr_to takes one list of indices)");
  const auto& items = e.args[1]->args;
  if (items.size() != ref->shape.size()) {
    error("E0138", e.args[1]->span,
          "'" + ref->text + "' needs " + std::to_string(ref->shape.size()) + " indices, found " +
              std::to_string(items.size()));
    return nullptr;
  }
  for (size_t k = 0; k < items.size(); ++k) {
    auto idx = lowerIndex(*items[k]);
    if (!idx) return nullptr;
    if (auto c = constValue(*idx); c && (*c < 0 || *c >= ref->shape[k])) {
      error("E0137", items[k]->span,
            "index " + std::to_string(*c) + " is out of bounds for dimension " + std::to_string(k) +
                " of extent " + std::to_string(ref->shape[k]));
      return nullptr;
    }
    index.push_back(idx);
  }
  return ref;
}

void Analyzer::lowerAsyncStatement(const ast::Expr& call, std::vector<ir::Stmt>& out) {
  const ast::Expr& callee = *call.args[0];
  std::string written, opcode;
  if (callee.kind == ast::ExprKind::Subscript) {
    written = "T.ptx[\"" + callee.args[1]->text + "\"]";
    opcode = callee.args[1]->text;
  } else {
    written = builtinPath(callee);
    opcode = written == "T.cuda.mbarrier_wait" ? "mbarrier.try_wait" : normalise(written.substr(6));
  }
  const AsyncSpelling* sp = findSpelling(opcode);
  if (callee.kind == ast::ExprKind::Subscript)
    addOpcodeSite(*callee.args[1], sp != nullptr, std::nullopt,
                  sp ? "asynchronous statement: PTX " + std::string(sp->opcode) + " (sm_" +
                           std::to_string(sp->minSm) + "+)"
                     : "unknown asynchronous statement '" + opcode + "'");
  if (!sp) {
    unknownBuiltin(callee, written);
    return;
  }
  if (m_body->inFunction) {
    error("E0201", call.span, written + " is not allowed in a scalar function");
    return;
  }
  if (sp->minSm > m_options.sm) {
    auto& d =
        error("E0177", call.span,
              std::string(sp->opcode) + " is not available on sm_" + std::to_string(m_options.sm));
    note(d, callee.span,
         std::string(sp->opcode) + " needs sm_" + std::to_string(sp->minSm) +
             "; this check targets sm_" + std::to_string(m_options.sm));
    return;
  }
  const bool wgmma = std::string(sp->opcode).rfind("wgmma", 0) == 0;
  if (wgmma && m_options.sm != 90) {
    auto& d =
        error("E0177", call.span,
              std::string(sp->opcode) + " is not available on sm_" + std::to_string(m_options.sm));
    note(d, callee.span,
         "wgmma is an sm_90a instruction (compiled for compute_90a/sm_90a); later architectures do "
         "not have it");
    return;
  }
  if (wgmma && !m_body->laneDivergence.empty()) {
    auto& d = error("E0224", call.span,
                    std::string(sp->opcode) +
                        " inside control flow that may differ between the lanes of a warp; every "
                        "thread of the warpgroup must execute it");
    note(d, m_body->laneDivergence.back(),
         "this condition is not warp-uniform (it depends on the lane)");
    return;
  }
  const int first = sp->barrier ? 1 : 0;
  if (!checkCallShape(call, written, first + sp->minValues, first + sp->maxValues, {})) return;
  auto op = std::make_shared<ir::AsyncOp>();
  op->kind = sp->kind;
  op->spelling = written;
  op->readOnly = std::string(sp->opcode).find(".read") != std::string::npos;
  if (sp->barrier) {
    op->barrier = lowerBarrierPtr(*call.args[1], op->barIndex);
    if (!op->barrier) return;
  }
  const bool hasValue = static_cast<int>(call.args.size()) - 1 > first;
  if (hasValue) {
    const ast::Expr& ve = *call.args[size_t(first) + 1];
    if (sp->kind == AsyncKind::CpAsyncWait || sp->kind == AsyncKind::BulkWait ||
        sp->kind == AsyncKind::WgmmaWait) {
      const size_t before = m_diags.size();
      auto n = staticInt(ve, false);
      const int64_t maxN = sp->kind == AsyncKind::WgmmaWait ? 7 : 63;
      if (!n || *n < 0 || *n > maxN) {
        if (m_diags.size() == before)
          error(sp->kind == AsyncKind::WgmmaWait ? "E0225" : "E0275", ve.span,
                std::string(sp->opcode) + " needs a constant group count N from 0 to " +
                    std::to_string(maxN) + ", found '" + text(ve.span) + "'");
        return;
      }
      op->n = *n;
    } else {
      Scalar v = lowerScalar(ve);
      if (!v.ok()) return;
      if (v.literal) v = coerce(v, ir::DType::UInt32, ve.span, sp->valueName);
      if (!v.ok()) return;
      if (!ir::isInt(v.expr->dtype)) {
        error("E0150", ve.span,
              std::string("the ") + sp->valueName + " of " + sp->opcode + " is an integer, found " +
                  std::string(ir::dtypeName(v.expr->dtype)));
        return;
      }
      if (auto c = constValue(*v.expr)) {
        const std::string name = sp->valueName;
        const bool parity = name == "parity";
        const int64_t lo = name == "count" ? 1 : 0, hi = parity ? 1 : kMaxCount;
        if (*c < lo || *c > hi) {
          error(
              "E0276", ve.span,
              "the " + name + " of " + sp->opcode + " must be " +
                  (parity ? std::string("0 or 1") : "from " + std::to_string(lo) + " to 2^20 - 1") +
                  ", found " + std::to_string(*c));
          return;
        }
      }
      op->value = v.expr;
    }
  }
  ir::Stmt st;
  st.kind = ir::StmtKind::Async;
  st.span = call.span;
  if (opcode == "cp.async.wait_all") {  // ≡ commit_group; wait_group 0 (PTX)
    auto commit = std::make_shared<ir::AsyncOp>(*op);
    commit->kind = AsyncKind::CpAsyncCommit;
    st.async = commit;
    out.push_back(st);
  }
  st.async = op;
  out.push_back(std::move(st));
}

}  // namespace tirx::sema
