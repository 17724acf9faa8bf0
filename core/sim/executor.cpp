// The simulator's driver: checks the arguments against the kernel signature and what the launch
// needs against the memory limit, flattens the body into jump code (each instruction knows its
// work cost), then runs every CTA. Inside a CTA the threads run one after another until each
// stops at a barrier or ends; a `cta_sync` releases when every thread waits on it, a `warp_sync`
// when every lane of the warp does; anything else is a deadlock (E0730). Every instruction
// charges the work budget, which alone stops a long loop (E0740). Faults are collected
// (deduplicated per line) and a fatal one stops the run.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

#include "core/ir/buffer_access.h"
#include "core/ir/specialize.h"
#include "core/sim/sim_internal.h"

namespace tirx::sim {

Runner::Runner(const ir::Program& p, const ir::Kernel& k, std::vector<ir::KernelArg>& a,
               const SimOptions& o, Provenance& pv, WorkBudget& b)
    : program(p), kernel(k), args(a), opt(o), prov(pv), budget(b) {
  timeline.reset(o);
}

void Runner::budgetStop(const Thread& t, int instr) {
  fault("budget", "E0740", instr, budget.message() + "; stopped in " + threadName(cta, t.tid),
        true);
}

int Runner::line(int instr) const {
  return span(instr).line;
}

SourceSpan Runner::span(int instr) const {
  if (instr < 0 || instr >= static_cast<int>(code.size()) || !code[instr].stmt) return kernel.span;
  return code[instr].stmt->span;
}

void Runner::faultAt(const std::string& kind, const std::string& c, SourceSpan sp,
                     std::string message, bool isFatal) {
  if (isFatal) fatal = true;
  if (static_cast<int>(faults.size()) >= opt.maxFaults) return;
  faults.push_back({kind, makeError(c, sp, std::move(message))});
}

void Runner::fault(const std::string& kind, const std::string& c, int instr, std::string message,
                   bool isFatal, std::vector<DiagNote> notes) {
  if (isFatal && !fatal && ctaThreads && hang.empty() && (kind == "deadlock" || kind == "budget"))
    captureHang(*ctaThreads, kind);
  if (isFatal) fatal = true;
  std::string key = kind + ":" + c + ":" + std::to_string(line(instr));
  if (!notes.empty()) key += ":" + std::to_string(notes[0].span.line);
  for (const auto& k : m_faultKeys)
    if (k == key) return;
  m_faultKeys.push_back(key);
  if (static_cast<int>(faults.size()) >= opt.maxFaults) return;
  Diagnostic d = makeError(c, span(instr), std::move(message));
  d.notes = std::move(notes);
  faults.push_back({kind, std::move(d)});
}

void Runner::warnAt(const std::string& kind, const std::string& c, int instr, std::string message) {
  const std::string key = kind + ":" + c + ":" + std::to_string(line(instr));
  for (const auto& k : m_faultKeys)
    if (k == key) return;
  m_faultKeys.push_back(key);
  if (static_cast<int>(faults.size()) >= opt.maxFaults) return;
  faults.push_back({kind, makeWarning(c, span(instr), std::move(message))});
}

namespace {
/// a * b and a + b saturating at INT64_MAX (sizes are never negative here).
int64_t satMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}
int64_t satAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}
}  // namespace

bool Runner::bindArgs() {
  const auto& ps = kernel.params;
  if (args.size() != ps.size()) {
    faultAt("launch", "E0770", kernel.span,
            "kernel '" + kernel.name + "' takes " + std::to_string(ps.size()) +
                " arguments, found " + std::to_string(args.size()),
            true);
    return false;
  }
  argOfBuffer.assign(kernel.buffers.size(), -1);
  initVars.assign(kernel.vars.size(), Value{});
  prov.args.assign(args.size(), {});
  prov.bufferNames.clear();
  for (const auto& b : kernel.buffers) prov.bufferNames.push_back(b.name);
  for (size_t i = 0; i < ps.size(); ++i) {
    const auto& p = ps[i];
    auto& a = args[i];
    if (!p.isTensor) {
      if (a.isTensor) {
        faultAt("launch", "E0770", p.span,
                "argument " + std::to_string(i) + " ('" + p.name +
                    "') must be a scalar, found a tensor",
                true);
        return false;
      }
      // Bind the scalar: every thread starts with the argument converted to the parameter's dtype.
      if (p.var >= 0 && p.var < static_cast<int>(kernel.vars.size()))
        initVars[p.var] =
            castTo(bitsToValue(a.scalarBits, a.scalarType), a.scalarType, kernel.vars[p.var].dtype);
      continue;
    }
    if (!a.isTensor || p.buffer < 0 || p.buffer >= static_cast<int>(kernel.buffers.size())) {
      faultAt("launch", "E0770", p.span,
              "argument " + std::to_string(i) + " ('" + p.name + "') must be a tensor", true);
      return false;
    }
    const ir::Buffer& b = kernel.buffers[p.buffer];
    if (a.tensor.dtype != b.dtype || a.tensor.shape != b.shape) {
      std::string want = std::string(ir::dtypeName(b.dtype)) + " (",
                  got = std::string(ir::dtypeName(a.tensor.dtype)) + " (";
      for (size_t d = 0; d < b.shape.size(); ++d)
        want += (d ? ", " : "") + std::to_string(b.shape[d]);
      for (size_t d = 0; d < a.tensor.shape.size(); ++d)
        got += (d ? ", " : "") + std::to_string(a.tensor.shape[d]);
      faultAt("launch", "E0770", p.span,
              "argument " + std::to_string(i) + " ('" + p.name + "') must be " + want +
                  "), found " + got + ")",
              true);
      return false;
    }
    argOfBuffer[p.buffer] = static_cast<int>(i);
  }
  // Buffer sizes in bytes, shared-memory placement (sizes saturate: checkMemory refuses them).
  bufferBytes.assign(kernel.buffers.size(), 0);
  sharedOffset.assign(kernel.buffers.size(), 0);
  int64_t sharedTop = 0;
  for (size_t b = 0; b < kernel.buffers.size(); ++b) {
    const auto& buf = kernel.buffers[b];
    const int64_t eb = ir::dtypeBytes(buf.dtype);
    int64_t elems = buf.storageElems;
    if (buf.scope == ir::MemScope::Global) {
      elems = 1;
      for (auto e : buf.shape) elems = satMul(elems, std::max<int64_t>(e, 0));
    } else if (elems <= 0) {
      elems = buf.scope == ir::MemScope::Local ? buf.layout.storageSlots() : buf.layout.span("m");
    }
    bufferBytes[b] = satMul(std::max<int64_t>(elems, 0), eb);
    if (buf.scope == ir::MemScope::Shared) {
      const int64_t al = std::clamp<int64_t>(buf.alignBytes > 0 ? buf.alignBytes : 16, 1, 4096);
      sharedTop = satAdd(sharedTop, al - 1) / al * al;
      sharedOffset[b] = sharedTop;
      sharedTop = satAdd(sharedTop, bufferBytes[b]);
    }
  }
  m_sharedBytes = sharedTop;
  if (!checkMemory()) return false;
  for (size_t i = 0; i < ps.size(); ++i) {
    if (!ps[i].isTensor) continue;
    auto& a = args[i];
    const size_t need = static_cast<size_t>(bufferBytes[ps[i].buffer]);
    if (a.tensor.data.size() != need) a.tensor.data.resize(need, 0);
    // Elements the caller left undefined hold the poison the GPU runner also uploads (values.h).
    if (a.tensor.defined.size() != size_t(a.tensor.numel())) a.tensor.defined.clear();
    a.tensor.poisonUndefined(ir::kPoisonByte);
  }
  shared.assign(sharedTop, 0);
  shadow.assign(sharedTop, ShadowByte{});
  trackShared = sharedTop > 0;
  computeFunctionCosts();
  std::vector<int> breaks, continues;
  compile(kernel.body, breaks, continues);
  code.push_back({Op::Halt, nullptr});
  for (Instr& in : code) in.cost = instrCost(in);
  return true;
}

namespace {
constexpr int64_t kCostCap = int64_t{1} << 40;  // saturation: far beyond any budget
int64_t capAdd(int64_t a, int64_t b) {
  return std::min(kCostCap, a + b);
}
}  // namespace

int64_t Runner::exprCost(const ir::Expr& e) const {
  int64_t c = 0;  // one unit per node (arguments and region starts), a call's function besides
  ir::forEachExpr(e, [&](const ir::Expr& n) {
    c = capAdd(c, 1);
    if (n.kind == ir::ExprKind::Call && n.func >= 0 && n.func < static_cast<int>(funcCost.size()))
      c = capAdd(c, funcCost[n.func]);
  });
  return c;
}

void Runner::computeFunctionCosts() {
  // Sema makes a function call only functions defined before it, so index order sees callees
  // first (a later callee would count 0: an undercount, never a loop).
  funcCost.assign(program.functions.size(), 0);
  funcOps.assign(program.functions.size(), -1);
  for (size_t f = 0; f < program.functions.size(); ++f) {
    int64_t c = 0;  // one unit per statement and its value's cost
    ir::forEachStmt(program.functions[f].body, [&](const ir::Stmt& st) {
      c = capAdd(c, 1);
      if (st.value) c = capAdd(c, exprCost(*st.value));
    });
    funcCost[f] = std::max<int64_t>(1, c);
  }
}

int64_t Runner::instrCost(const Instr& in) const {
  if (!in.stmt) return 1;
  const ir::Stmt& s = *in.stmt;
  int64_t c = 1;
  auto add = [&](const ir::ExprPtr& e) {
    if (e) c = capAdd(c, exprCost(*e));
  };
  switch (in.op) {
    case Op::Assign:
    case Op::JumpIfNot:
      add(s.value);
      break;
    case Op::Store:
      add(s.value);
      for (const auto& i : s.indices) add(i);
      break;
    case Op::ForInit:
      add(s.start);
      add(s.stop);
      add(s.step);
      break;
    case Op::Apply:  // element work is charged per instance in execApply
      if (s.apply) {
        add(s.apply->pred);
        for (const auto& o : s.apply->operands) add(o.scalar);
      }
      break;
    case Op::Ewise:  // element work is charged per element in execEwise
      if (s.ewise)
        for (const auto& o : s.ewise->inputs) add(o.scalar);
      break;
    default:
      break;
  }
  return c;
}

bool Runner::checkMemory() {
  // What one launch holds: the global tensors, then per CTA every thread's registers (+ a 4-byte
  // writer record per byte) and the shared arena (+ its shadow). Provenance comes last and is
  // dropped, tensor by tensor, where it would not fit.
  int64_t global = 0, regs = 0;
  for (size_t b = 0; b < kernel.buffers.size(); ++b) {
    if (kernel.buffers[b].scope == ir::MemScope::Global) global = satAdd(global, bufferBytes[b]);
    if (kernel.buffers[b].scope == ir::MemScope::Local) regs = satAdd(regs, bufferBytes[b]);
  }
  const int64_t threads = kernel.launch.threads();
  const int64_t perThread =
      satAdd(satMul(regs, 1 + int64_t(sizeof(int32_t))),
             int64_t(sizeof(Thread)) + int64_t(kernel.vars.size() * sizeof(Value)));
  const int64_t cta =
      satAdd(satMul(threads, perThread), satMul(m_sharedBytes, 1 + int64_t(sizeof(ShadowByte))));
  const int64_t total = satAdd(global, cta);
  auto mib = [](int64_t v) { return std::to_string((v + (1 << 20) - 1) >> 20) + " MiB"; };
  if (total > opt.maxMemoryBytes) {
    faultAt("memory", "E0771", kernel.launchSpan.valid() ? kernel.launchSpan : kernel.span,
            "the simulator would need " + mib(total) + " for this launch (global tensors " +
                mib(global) + ", per CTA " + mib(cta) + ": registers of " +
                std::to_string(threads) + " threads and " + std::to_string(m_sharedBytes) +
                " bytes of shared memory with their shadow state), more than its limit of " +
                mib(opt.maxMemoryBytes) + " (SimOptions::maxMemoryBytes)",
            true);
    return false;
  }
  if (!opt.trackProvenance) return true;
  const ir::BufferAccess access = ir::bufferAccess(kernel);
  int64_t used = total;
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const auto& p = kernel.params[i];
    // Tensors the kernel never stores to keep an empty owner list (every element "not written").
    if (!p.isTensor || !access.isWritten(p.buffer)) continue;
    const int64_t n =
        bufferBytes[p.buffer] / std::max(1, ir::dtypeBytes(kernel.buffers[p.buffer].dtype));
    const int64_t bytes = satMul(n, int64_t(sizeof(ElementOwner)));
    if (satAdd(used, bytes) > opt.maxMemoryBytes) continue;  // owners unknown, never wrong
    used += bytes;
    prov.args[i].assign(n, ElementOwner{});
  }
  return true;
}

void Runner::compile(const std::vector<ir::Stmt>& body, std::vector<int>& breaks,
                     std::vector<int>& continues) {
  for (const ir::Stmt& s : body) {
    switch (s.kind) {
      case ir::StmtKind::Assign:
        code.push_back({isCollectiveStmt(s) ? Op::Collective : Op::Assign, &s});
        break;
      case ir::StmtKind::Store:
        code.push_back({Op::Store, &s});
        break;
      case ir::StmtKind::Apply:
        if (s.apply && s.apply->instr.family == PtxFamily::CpAsync) async.used = true;
        code.push_back({isCollectiveStmt(s) ? Op::Collective : Op::Apply, &s});
        break;
      case ir::StmtKind::Ewise:
        code.push_back({Op::Ewise, &s});
        break;
      case ir::StmtKind::Tma:
        async.used = true;
        if (s.tma && s.tma->mbar) async.clocks = true;
        code.push_back({Op::Tma, &s});
        break;
      case ir::StmtKind::Barrier:
        if (s.barrier == "warpgroup_sync" || s.barrier == "bar_sync" || s.barrier == "bar_arrive") {
          namedBarriers = true;
          async.used = true;
          async.clocks = true;  // the barrier orders its threads through their vector clocks
          code.push_back({s.barrier == "bar_arrive" ? Op::NamedArrive : Op::NamedBarrier, &s});
          break;
        }
        if (s.barrier == "cta_sync") ctaSyncUsed = true;
        code.push_back({s.barrier == "warp_sync" ? Op::WarpSync : Op::Barrier, &s});
        break;
      case ir::StmtKind::Wgmma:
        wgmmaUsed = true;
        async.used = true;
        code.push_back({Op::Wgmma, &s});
        break;
      case ir::StmtKind::For: {
        Instr init{Op::ForInit, &s};
        init.tmp = static_cast<int>(code.size());  // temp slots keyed by the init's index
        code.push_back(init);
        const int check = static_cast<int>(code.size());
        Instr chk{Op::ForCheck, &s};
        chk.tmp = init.tmp;
        code.push_back(chk);
        std::vector<int> innerBreaks, innerContinues;
        compile(s.body, innerBreaks, innerContinues);
        const int step = static_cast<int>(code.size());
        Instr st{Op::ForStep, &s};
        st.tmp = init.tmp;
        st.target = check;
        code.push_back(st);
        const int end = static_cast<int>(code.size());
        code[check].target = end;
        for (int b : innerBreaks) code[b].target = end;
        for (int c : innerContinues) code[c].target = step;
        break;
      }
      case ir::StmtKind::While: {
        const int check = static_cast<int>(code.size());
        code.push_back({Op::JumpIfNot, &s});
        std::vector<int> innerBreaks, innerContinues;
        compile(s.body, innerBreaks, innerContinues);
        Instr back{Op::Jump, &s};
        back.target = check;
        code.push_back(back);
        const int end = static_cast<int>(code.size());
        code[check].target = end;
        for (int b : innerBreaks) code[b].target = end;
        for (int c : innerContinues) code[c].target = check;
        break;
      }
      case ir::StmtKind::If: {
        const int test = static_cast<int>(code.size());
        code.push_back({Op::JumpIfNot, &s});
        compile(s.body, breaks, continues);
        if (s.orelse.empty()) {
          code[test].target = static_cast<int>(code.size());
        } else {
          const int skip = static_cast<int>(code.size());
          code.push_back({Op::Jump, &s});
          code[test].target = static_cast<int>(code.size());
          compile(s.orelse, breaks, continues);
          code[skip].target = static_cast<int>(code.size());
        }
        break;
      }
      case ir::StmtKind::Break:
        breaks.push_back(static_cast<int>(code.size()));
        code.push_back({Op::Jump, &s});
        break;
      case ir::StmtKind::Continue:
        continues.push_back(static_cast<int>(code.size()));
        code.push_back({Op::Jump, &s});
        break;
      case ir::StmtKind::Return:
        code.push_back({Op::Halt, &s});
        break;
      case ir::StmtKind::Async:
        async.used = true;
        if (s.async && s.async->barrier) async.clocks = true;
        if (s.async && (s.async->kind == ir::AsyncKind::WgmmaFence ||
                        s.async->kind == ir::AsyncKind::WgmmaCommit ||
                        s.async->kind == ir::AsyncKind::WgmmaWait))
          wgmmaUsed = true;
        code.push_back(
            {s.async && s.async->kind == ir::AsyncKind::MbarWait ? Op::MbarWait : Op::Async, &s});
        break;
    }
  }
}

void Runner::runThread(Thread& t) {
  const int n = static_cast<int>(code.size());
  while (!fatal && t.pc >= 0 && t.pc < n) {
    const int pc = t.pc;
    const Instr& in = code[pc];
    // The one limit on a run's length: the budget (work, wall time, cancellation).
    if (!charge(in.cost, t, pc)) return;
    if (!t.execCount.empty())
      ++t.execCount[size_t(pc)];  // bank counts (and the timeline) tell executions apart
    ++t.clock;
    t.loadSeq = 0;
    switch (in.op) {
      case Op::Assign: {
        const ir::Stmt& s = *in.stmt;
        if (s.value && s.var >= 0 && s.var < static_cast<int>(t.vars.size())) {
          const Value v = eval(*s.value, t, t.vars, pc);
          t.vars[s.var] = castTo(v, s.value->dtype, kernel.vars[s.var].dtype);
        }
        ++elementOps;
        ++t.pc;
        break;
      }
      case Op::Store:
        execStore(*in.stmt, t, pc);
        ++t.pc;
        break;
      case Op::Apply:
        execApply(*in.stmt->apply, t, pc);
        ++t.pc;
        if (lockstep) {  // the debugger's lock step: one tile op per thread and round
          noteTileOp(t, pc);
          return;
        }
        break;
      case Op::Ewise:
        execEwise(*in.stmt->ewise, t, pc);
        ++t.pc;
        if (lockstep) {  // the debugger's lock step: one tile op per thread and round
          noteTileOp(t, pc);
          return;
        }
        break;
      case Op::Jump:
        t.pc = in.target;
        break;
      case Op::JumpIfNot: {
        const ir::Expr* c = in.stmt->value.get();
        bool v = false;
        if (c) {
          const Value x = eval(*c, t, t.vars, pc);
          v = ir::isFloat(c->dtype) ? x.f != 0 : x.i != 0;
        }
        t.pc = v ? pc + 1 : in.target;
        break;
      }
      case Op::ForInit: {
        // Bounds are converted to the loop variable's dtype (int32, or int64 when sema saw a
        // 64-bit bound), as the generated C loop does.
        const ir::Stmt& s = *in.stmt;
        const bool hasVar = s.var >= 0 && s.var < static_cast<int>(t.vars.size());
        const ir::DType vt = hasVar ? kernel.vars[s.var].dtype : ir::DType::Int64;
        auto bound = [&](const ir::ExprPtr& e, int64_t dflt) {
          if (!e) return Value{dflt, double(dflt)};
          return castTo(eval(*e, t, t.vars, pc), e->dtype, vt);
        };
        const Value start = bound(s.start, 0), stop = bound(s.stop, 0), step = bound(s.step, 1);
        if (fatal) return;
        if (step.i == 0) {
          fault("loop", "E0741", pc, "range() step must not be zero", true);
          return;
        }
        if (t.tmps.size() < static_cast<size_t>(in.tmp + 2)) t.tmps.resize(in.tmp + 2);
        t.tmps[in.tmp] = stop;
        t.tmps[in.tmp + 1] = step;
        if (hasVar) t.vars[s.var] = start;
        ++t.pc;
        break;
      }
      case Op::ForCheck: {
        const ir::Stmt& s = *in.stmt;
        const int64_t v =
            (s.var >= 0 && s.var < static_cast<int>(t.vars.size())) ? t.vars[s.var].i : 0;
        const int64_t stop = t.tmps[in.tmp].i, step = t.tmps[in.tmp + 1].i;
        const bool go = step > 0 ? v < stop : v > stop;
        t.pc = go ? pc + 1 : in.target;
        break;
      }
      case Op::ForStep: {
        // Python's range: the next value is computed exactly; one that passes the end of the
        // variable's dtype has passed `stop` too (stop fits the dtype), so the loop ends there
        // instead of wrapping around to a value that would run the loop again.
        const ir::Stmt& s = *in.stmt;
        t.pc = in.target;
        if (s.var < 0 || s.var >= static_cast<int>(t.vars.size())) break;
        Value& v = t.vars[s.var];
        int64_t next = 0;
        const bool over = __builtin_add_overflow(v.i, t.tmps[in.tmp + 1].i, &next);
        if (over || normalize(Value{next, 0}, kernel.vars[s.var].dtype).i != next) {
          t.pc = code[in.target].target;  // the check's exit
          break;
        }
        v.i = next;
        break;
      }
      case Op::Async:
        execAsync(*in.stmt->async, t, pc);
        ++t.pc;
        break;
      case Op::MbarWait:
        if (!tryMbarWait(t, pc)) {
          t.state = ThreadState::Waiting;  // resumed by the scheduler when the phase completes
          return;
        }
        ++t.pc;
        break;
      case Op::Barrier:
      case Op::WarpSync:
      case Op::Collective:
        t.state = ThreadState::Waiting;
        return;
      case Op::Tma:
        execTma(*in.stmt->tma, t, pc);
        ++t.pc;
        if (lockstep) {  // the debugger's lock step: one tile op per thread and round
          noteTileOp(t, pc);
          return;
        }
        break;
      case Op::Wgmma:
        t.state = ThreadState::Waiting;
        return;  // released by the scheduler
      case Op::NamedBarrier:
      case Op::NamedArrive:
        if (!arriveNamedBarrier(t, pc, in.op == Op::NamedBarrier)) return;  // waits, or a fault
        ++t.pc;
        break;
      case Op::Halt:
        t.state = ThreadState::Done;
        return;
    }
  }
  if (t.pc >= n || t.pc < 0) t.state = ThreadState::Done;
}

/// The threads of a fresh CTA: indices, initial variables, register files (and the wgmma and
/// shared-access bookkeeping when those are on).
std::vector<Thread> Runner::makeCtaThreads() {
  const auto& lb = kernel.launch.block;
  const int64_t nThreads = kernel.launch.threads();
  std::vector<Thread> threads(nThreads);
  for (int64_t i = 0; i < nThreads; ++i) {
    Thread& t = threads[i];
    t.tid = i;
    t.idx[0] = i % lb[0];
    t.idx[1] = (i / lb[0]) % lb[1];
    t.idx[2] = i / (lb[0] * lb[1]);
    t.vars = initVars;
    t.regs.resize(kernel.buffers.size());
    t.regWriter.resize(kernel.buffers.size());
    for (size_t b = 0; b < kernel.buffers.size(); ++b) {
      if (kernel.buffers[b].scope != ir::MemScope::Local) continue;
      t.regs[b].assign(bufferBytes[b], 0);
      t.regWriter[b].assign(bufferBytes[b], 0);
      if (wgmmaUsed) {
        t.regLock.resize(kernel.buffers.size());
        t.regTouch.resize(kernel.buffers.size());
        t.regLock[b].assign(bufferBytes[b], 0);
        t.regTouch[b].assign(bufferBytes[b], 0);
      }
    }
    if (trackShared || timeline.on) t.execCount.assign(code.size(), 0);
  }
  return threads;
}

/// warp_sync: releases every warp whose unfinished lanes all wait on a warp_sync; true when one
/// was.
bool Runner::releaseWarpSyncs(std::vector<Thread>& threads) {
  const int64_t nThreads = static_cast<int64_t>(threads.size());
  bool released = false;
  for (int64_t w = 0; w * 32 < nThreads; ++w) {
    bool all = true, any = false;
    for (int64_t i = w * 32; i < std::min(nThreads, w * 32 + 32); ++i) {
      const Thread& t = threads[i];
      if (t.state == ThreadState::Done) continue;
      if (t.state == ThreadState::Waiting && code[t.pc].op == Op::WarpSync)
        any = true;
      else
        all = false;
    }
    if (all && any) {
      int64_t latest = 0;  // simulated time: the warp leaves the sync together
      for (int64_t i = w * 32; i < std::min(nThreads, w * 32 + 32); ++i)
        latest = std::max(latest, threads[i].clock);
      for (int64_t i = w * 32; i < std::min(nThreads, w * 32 + 32); ++i) {
        threads[i].clock = latest;
        Thread& t = threads[i];
        if (t.state != ThreadState::Waiting) continue;
        t.state = ThreadState::Running;
        ++t.pc;
      }
      warpEpoch[w] = nextEpoch(warpEpoch[w]);
      released = true;
    }
  }
  return released;
}

/// Nobody can move: a deadlock (E0730, E0731 when threads wait at different barriers). Names a
/// waiting thread and one that will never arrive.
void Runner::reportBarrierDeadlock(std::vector<Thread>& threads, bool divergent, int64_t atCta) {
  const int64_t nThreads = static_cast<int64_t>(threads.size());
  int waitPc = -1;
  int64_t waiter = -1, absent = -1;
  for (auto& t : threads) {
    if (t.state == ThreadState::Waiting && waiter < 0) {
      waiter = t.tid;
      waitPc = t.pc;
    }
  }
  for (auto& t : threads)
    if (!(t.state == ThreadState::Waiting && t.pc == waitPc) && absent < 0) absent = t.tid;
  std::vector<DiagNote> notes;
  std::string why = "has finished";
  if (absent >= 0 && threads[absent].state == ThreadState::Waiting) {
    notes.push_back(
        {span(threads[absent].pc), "thread " + std::to_string(absent) + " waits here instead"});
    why = "waits at another barrier";
  }
  fault("deadlock", divergent ? "E0731" : "E0730", waitPc,
        "barrier not reached by every thread: " + threadName(cta, waiter) +
            " waits here but thread " + std::to_string(absent) + " " + why + " (" +
            std::to_string(atCta) + " of " + std::to_string(nThreads) + " threads arrived)",
        true, notes);
}

void Runner::runCta() {
  const int64_t nThreads = kernel.launch.threads();
  std::vector<Thread> threads = makeCtaThreads();
  ctaThreads = &threads;
  std::fill(shared.begin(), shared.end(), 0);
  std::fill(shadow.begin(), shadow.end(), ShadowByte{});
  // Setting up a CTA is work too (one unit per thread, per 64 register bytes, per 64 shared
  // bytes), so a grid of many empty CTAs is bounded by the budget like any loop.
  {
    int64_t regBytes = 0;
    for (size_t b = 0; b < kernel.buffers.size(); ++b)
      if (kernel.buffers[b].scope == ir::MemScope::Local) regBytes += bufferBytes[b];
    if (!charge(nThreads * (1 + regBytes / 64) + static_cast<int64_t>(shared.size()) / 64,
                threads[0], 0))
      return;
  }
  ctaEpoch = 0;
  warpEpoch.assign((nThreads + 31) / 32, 0);
  resetAsync(nThreads);
  timeline.beginCta();
  wgmmaReset(nThreads);
  namedBarrierReset();
  lockstep = observing && cta == opt.observer->focusCta();
  globalLog.clear();
  globalLogged.clear();
  while (!fatal) {
    roundPc = -1;
    roundThreads = 0;
    roundMixed = false;
    for (auto& t : threads) {
      if (t.state != ThreadState::Running) continue;
      runThread(t);
      if (fatal) return;
    }
    if (lockstep) {
      if (roundThreads > 0) emitStep(StepKind::TileOp, roundPc, roundThreads, roundMixed, threads);
      // The scheduler below runs only when every thread has stopped, as without lock step.
      if (std::any_of(threads.begin(), threads.end(),
                      [](const Thread& t) { return t.state == ThreadState::Running; }))
        continue;
    }
    if (namedReleased) {  // a named barrier released threads this round had passed: run them first
      namedReleased = false;
      continue;
    }
    flushShared();  // every lane of every warp instruction so far has run
    int64_t done = 0, atCta = 0;
    int ctaPc = -1;
    bool divergent = false;
    for (auto& t : threads) {
      if (t.state == ThreadState::Done)
        ++done;
      else if (code[t.pc].op == Op::Barrier) {
        ++atCta;
        if (ctaPc < 0)
          ctaPc = t.pc;
        else if (ctaPc != t.pc)
          divergent = true;
      }
    }
    if (done == nThreads) {
      asyncExitChecks();
      if (wgmmaUsed) wgmmaExitChecks();
      return;
    }
    bool released = false;
    // mbarrier waits: a waiter whose phase has completed runs again.
    if (async.used) {
      for (auto& t : threads) {
        if (!waitsOnBarrier(t)) continue;
        if (tryMbarWait(t, t.pc)) {
          t.state = ThreadState::Running;
          ++t.pc;
          released = true;
        }
        if (fatal) return;
      }
      if (released) continue;
    }
    if (releaseWarpSyncs(threads)) released = true;
    if (released) continue;
    releasedPc = -1;
    releasedLanes = 0;
    if (wgmmaUsed && releaseWgmma(threads)) {  // wgmma (wgmma_exec.cpp)
      if (lockstep && !fatal) emitStep(StepKind::Wgmma, releasedPc, 128, false, threads);
      continue;
    }
    if (fatal) return;
    if (releaseCollectives(threads)) {  // warp collectives (collective_exec.cpp)
      if (lockstep && !fatal)
        emitStep(StepKind::Collective, releasedPc, releasedLanes, false, threads);
      continue;
    }
    if (fatal) return;
    if (atCta == nThreads && !divergent) {
      int64_t latest = 0;  // simulated time: every thread leaves the barrier at the latest arrival
      for (const auto& t : threads) latest = std::max(latest, t.clock);
      for (auto& t : threads) {
        t.clock = latest;
        t.state = ThreadState::Running;
        ++t.pc;
      }
      ctaEpoch = nextEpoch(ctaEpoch);
      continue;
    }
    // Lazy completion (decision ASYNC-2): an in-flight mbarrier-bound copy lands only now, when
    // no thread can run.
    if (async.used && retireOneAsync()) {
      if (!charge(1, threads[0], 0)) return;
      continue;
    }
    if (fatal) return;
    if (wgmmaUsed && reportWgmmaParticipation(threads)) return;
    if (namedBarriers && reportNamedBarrierDeadlock(threads)) return;
    if (async.used && std::any_of(threads.begin(), threads.end(),
                                  [&](const Thread& t) { return waitsOnBarrier(t); })) {
      reportAsyncDeadlock(threads);
      return;
    }
    reportBarrierDeadlock(threads, divergent, atCta);
    return;
  }
}

void Runner::runGrid() {
  const auto& g = kernel.launch.grid;
  const int64_t n = kernel.launch.ctas();
  // An observer may ask for its focus CTA alone (a launch too large to simulate whole), and so may
  // the caller (SimOptions::onlyCta, the Pipeline view of one CTA).
  if (opt.onlyCta >= n) {
    faultAt("launch", "E0770", kernel.launchSpan.valid() ? kernel.launchSpan : kernel.span,
            "CTA " + std::to_string(opt.onlyCta) + " was asked for alone, but the launch of '" +
                kernel.name + "' has " + std::to_string(n) + " CTAs (0 .. " +
                std::to_string(n - 1) + ")",
            true);
    return;
  }
  const bool observerAlone = observing && opt.observer->focusOnly();
  const bool alone = observerAlone || opt.onlyCta >= 0;
  int64_t first = 0;
  if (observerAlone)
    first = opt.observer->focusCta();
  else if (opt.onlyCta >= 0)
    first = opt.onlyCta;
  const int64_t usedBefore = budget.used();
  for (cta = first; cta < n && !fatal; ++cta) {
    ctaIdx[0] = cta % g[0];
    ctaIdx[1] = (cta / g[0]) % g[1];
    ctaIdx[2] = cta / (g[0] * g[1]);
    runCta();
    ctaThreads = nullptr;
    if (alone) break;
    if (!fatal && outOfBudgetAhead(cta + 1, n, budget.used() - usedBefore)) return;
  }
}

bool Runner::outOfBudgetAhead(int64_t done, int64_t n, int64_t spent) {
  // CTAs run one after another, so after each one the rest of the launch can be projected: when
  // the CTAs still to run would need more than kMargin times what is left of the budget at the
  // average cost of those done, the run stops now, not minutes later at the budget's end (a
  // 4 × 32 × 4096 attention launch is 4,096 CTAs of ~3·10⁷ units against a budget of 4·10⁹). The
  // projection is made only over the first tenth of the launch, with a margin of 4, so launches
  // whose CTAs differ in cost keep running when they would fit: a causal grid that runs its
  // heaviest tiles first (at most twice the mean) is over-estimated by at most 2.2 there, and
  // later in such a run the average of the CTAs done says less and less about those left.
  constexpr double kMargin = 4.0;
  const int64_t left = n - done, limit = budget.limits().maxWork;
  if (left <= 0 || done <= 0 || done * 10 > n || limit <= 0 || spent <= 0) return false;
  const double perCta = static_cast<double>(spent) / static_cast<double>(done);
  const double need = perCta * static_cast<double>(left);
  const double have = static_cast<double>(limit - budget.used());
  if (need <= kMargin * have) return false;
  faultAt("budget", "E0740", kernel.launchSpan.valid() ? kernel.launchSpan : kernel.span,
          "the launch of '" + kernel.name + "' has " + std::to_string(n) + " CTAs and the " +
              std::to_string(done) + " run so far took " +
              std::to_string(static_cast<int64_t>(perCta)) +
              " work units each: the whole launch needs about " +
              std::to_string(static_cast<int64_t>(perCta * static_cast<double>(n))) +
              ", more than the budget of " + std::to_string(limit) + " allows; stopped after CTA " +
              std::to_string(cta) +
              " (run one CTA with --cta N, raise --budget, or run it on a GPU)",
          true);
  return true;
}

Simulator::Simulator(SimOptions options) : m_options(options) {}

Result<ir::RunOutcome> Simulator::run(const ir::Program& program, const std::string& kernelName,
                                      std::vector<ir::KernelArg>& args) {
  const ir::Kernel* k = program.findKernel(kernelName);
  if (!k) return Status{"simulator", "no kernel named '" + kernelName + "' in the program", 1};
  if (ir::hasSymbolicExtents(*k)) {
    // Bind the call's symbolic extents and grid, run the concrete kernel, and hand back the
    // arguments the caller wrote (specialize.h).
    return ir::runSymbolicCall(program, *k, args, "simulator",
                               [&](const ir::Program& concrete, std::vector<ir::KernelArg>& a) {
                                 return run(concrete, kernelName, a);
                               });
  }
  const auto t0 = std::chrono::steady_clock::now();
  ir::Provenance provenance;
  WorkBudget privateBudget;
  Runner r(program, *k, args, m_options, provenance,
           m_options.budget ? *m_options.budget : privateBudget);
  ir::RunOutcome out;
  out.device = "simulator";
  if (k->launch.threads() <= 0 || k->launch.ctas() <= 0) {
    r.faultAt("launch", "E0770", k->launchSpan, "the launch has no threads", true);
  } else if (r.bindArgs()) {
    r.observing = m_options.observer && m_options.observer->beginLaunch(*k);
    r.runGrid();
    if (r.observing) m_options.observer->endLaunch(!r.fatal, args, provenance);
  }
  m_elementOps = r.elementOps;
  for (auto& a : args)  // stores marked what they defined; an all-defined mask becomes empty
    if (a.isTensor) a.tensor.normalizeDefined();
  out.sharedAccesses = r.sharedCounts();
  if (r.timeline.on) {
    r.timeline.finish();
    out.timeline = std::move(r.timeline.out);
  }
  out.provenance = std::move(provenance);
  out.ran = !r.fatal;
  out.faults = std::move(r.faults);
  out.hang = std::move(r.hang);
  out.runMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace tirx::sim
