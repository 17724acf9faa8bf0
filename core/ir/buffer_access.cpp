// forEachStmt / forEachExpr and the buffer-access analysis over them (rules in buffer_access.h).
#include "core/ir/buffer_access.h"

namespace tirx::ir {
namespace {

void visitExpr(const ExprPtr& e, const std::function<void(const Expr&)>& fn);

void visitRef(const TensorRef& r, const std::function<void(const Expr&)>& fn) {
  for (const auto& lo : r.lo) visitExpr(lo, fn);
}

void visitExpr(const ExprPtr& e, const std::function<void(const Expr&)>& fn) {
  if (!e) return;
  fn(*e);
  if (e->tensor) visitRef(*e->tensor, fn);
  for (const auto& a : e->args) visitExpr(a, fn);
}

}  // namespace

void forEachTensor(const Stmt& s, const TensorFn& fn) {
  if (s.kind == StmtKind::Store && s.tensor) fn(*s.tensor, 0, true, false);
  if (s.kind == StmtKind::Apply && s.apply)
    for (size_t i = 0; i < s.apply->operands.size(); ++i) {
      const TileOperand& op = s.apply->operands[i];
      if (op.isScalar) continue;
      // A destination kept where the predicate is false (preserveDst) is also read.
      fn(op.tensor, int(i), i == 0, i != 0 || s.apply->preserveDst);
    }
  if (s.kind == StmtKind::Ewise && s.ewise) {
    fn(s.ewise->dst, 0, true, false);
    for (size_t i = 0; i < s.ewise->inputs.size(); ++i)
      if (!s.ewise->inputs[i].isScalar) fn(s.ewise->inputs[i].tensor, int(i) + 1, false, true);
  }
  if (s.kind == StmtKind::Tma && s.tma) {  // written order: destination, source, mbar=
    const bool st = s.tma->store;
    fn(s.tma->global, st ? 0 : 1, st, !st);
    fn(s.tma->shared, st ? 1 : 0, !st, st);
    if (s.tma->mbar) fn(*s.tma->mbar, 2, true, true);
  }
  if (s.kind == StmtKind::Wgmma && s.wgmma) {
    const Wgmma& w = *s.wgmma;
    fn(w.d, 0, true, true);
    if (w.aRegisters)
      fn(w.aRegs, 1, false, true);
    else
      fn(w.a.ref, 1, false, true);
    fn(w.b.ref, 2, false, true);
  }
  if (s.kind == StmtKind::Async && s.async && s.async->barrier)
    fn(*s.async->barrier, 0, true, true);
}

void forEachStmt(const std::vector<Stmt>& body, const std::function<void(const Stmt&)>& fn) {
  for (const Stmt& s : body) {
    fn(s);
    forEachStmt(s.body, fn);
    forEachStmt(s.orelse, fn);
  }
}

void forEachExpr(const Expr& e, const std::function<void(const Expr&)>& fn) {
  fn(e);
  if (e.tensor) visitRef(*e.tensor, fn);
  for (const auto& a : e.args) visitExpr(a, fn);
}

void forEachExpr(const Stmt& s, const std::function<void(const Expr&)>& fn) {
  visitExpr(s.value, fn);
  for (const auto& i : s.indices) visitExpr(i, fn);
  visitExpr(s.start, fn);
  visitExpr(s.stop, fn);
  visitExpr(s.step, fn);
  visitExpr(s.barrierCount, fn);
  if (s.apply) {
    visitExpr(s.apply->pred, fn);
    visitExpr(s.apply->srcSize, fn);
    visitExpr(s.apply->ignoreSrc, fn);
    for (const auto& op : s.apply->operands) visitExpr(op.scalar, fn);
  }
  if (s.ewise)
    for (const auto& in : s.ewise->inputs) visitExpr(in.scalar, fn);
  if (s.tma) {
    for (const auto& c : s.tma->coords) visitExpr(c, fn);
    for (const auto& i : s.tma->mbarIndex) visitExpr(i, fn);
  }
  if (s.wgmma) visitExpr(s.wgmma->scaleD, fn);
  if (s.async) {
    for (const auto& i : s.async->barIndex) visitExpr(i, fn);
    visitExpr(s.async->value, fn);
  }
  forEachTensor(s, [&](const TensorRef& r, int, bool, bool) { visitRef(r, fn); });
}

BufferAccess bufferAccess(const Kernel& kernel) {
  BufferAccess a;
  a.reads.assign(kernel.buffers.size(), false);
  a.writes.assign(kernel.buffers.size(), false);
  auto mark = [&a](std::vector<bool>& v, int b) {
    if (b >= 0 && size_t(b) < v.size()) v[size_t(b)] = true;
  };
  forEachStmt(kernel.body, [&](const Stmt& s) {
    forEachTensor(s, [&](const TensorRef& r, int, bool write, bool read) {
      if (write) mark(a.writes, r.buffer);
      if (read) mark(a.reads, r.buffer);
    });
    forEachExpr(s, [&](const Expr& e) {
      if (e.kind == ExprKind::Load && e.tensor) mark(a.reads, e.tensor->buffer);
    });
  });
  return a;
}

std::vector<TileOpUse> tileOpUses(const Kernel& kernel, int buffer) {
  std::vector<TileOpUse> out;
  forEachStmt(kernel.body, [&](const Stmt& s) {
    std::string opcode;
    if (s.apply)
      opcode = s.apply->instr.opcode;
    else if (s.ewise)
      opcode = "tile.ewise";
    else if (s.tma)
      opcode = s.tma->instr.opcode;
    else if (s.wgmma)
      opcode = s.wgmma->instr.opcode;
    else
      return;  // element stores and async statements are not tile ops
    forEachTensor(s, [&](const TensorRef& r, int operand, bool write, bool) {
      if (r.buffer != buffer) return;
      TileOpUse u;
      u.stmt = &s;
      u.opcode = opcode;
      u.operand = operand;
      u.write = write;
      if (s.apply && size_t(operand) < s.apply->atom.size())
        u.atom = s.apply->atom[size_t(operand)];
      out.push_back(std::move(u));
    });
  });
  return out;
}

std::vector<bool> writtenParams(const Kernel& kernel) {
  const BufferAccess a = bufferAccess(kernel);
  std::vector<bool> out(kernel.params.size(), false);
  for (size_t i = 0; i < kernel.params.size(); ++i)
    out[i] = kernel.params[i].isTensor && a.isWritten(kernel.params[i].buffer);
  return out;
}

std::vector<bool> writeOnlyParams(const Kernel& kernel) {
  const BufferAccess a = bufferAccess(kernel);
  std::vector<bool> out(kernel.params.size(), false);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const int b = kernel.params[i].buffer;
    out[i] = kernel.params[i].isTensor && a.isWritten(b) && !a.isRead(b);
  }
  return out;
}

}  // namespace tirx::ir
