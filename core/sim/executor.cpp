// The simulator's driver: checks the arguments against the kernel signature, flattens the body
// into jump code, then runs every CTA. Inside a CTA the threads run one after another until each
// stops at a barrier or ends; a `cta_sync` releases when every thread waits on it, a `warp_sync`
// when every lane of the warp does; anything else is a deadlock (E0730). Faults are collected
// (deduplicated per line) and a fatal one stops the run.
#include <chrono>
#include <cstring>

#include <algorithm>

#include "core/sim/sim_internal.h"

namespace tirx::sim {

Runner::Runner(const ir::Program& p, const ir::Kernel& k, std::vector<ir::KernelArg>& a,
               const SimOptions& o, Provenance& pv)
    : program(p), kernel(k), args(a), opt(o), prov(pv) {}

int Runner::line(int instr) const { return span(instr).line; }

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

namespace {
/// Buffers the kernel can write through a global store (tile-op st or element store).
void collectStored(const std::vector<ir::Stmt>& body, std::vector<bool>& stored) {
  for (const auto& s : body) {
    int b = -1;
    if (s.kind == ir::StmtKind::Store && s.tensor) b = s.tensor->buffer;
    if (s.kind == ir::StmtKind::Apply && s.apply && s.apply->instr.family == PtxFamily::St &&
        !s.apply->operands.empty() && !s.apply->operands[0].isScalar)
      b = s.apply->operands[0].tensor.buffer;
    if (b >= 0 && b < static_cast<int>(stored.size())) stored[b] = true;
    collectStored(s.body, stored);
    collectStored(s.orelse, stored);
  }
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
  std::vector<bool> stored(kernel.buffers.size(), false);
  collectStored(kernel.body, stored);
  prov.args.assign(args.size(), {});
  prov.bufferNames.clear();
  for (const auto& b : kernel.buffers) prov.bufferNames.push_back(b.name);
  for (size_t i = 0; i < ps.size(); ++i) {
    const auto& p = ps[i];
    auto& a = args[i];
    if (!p.isTensor) {
      if (a.isTensor) {
        faultAt("launch", "E0770", p.span, "argument " + std::to_string(i) + " ('" + p.name +
                                               "') must be a scalar, found a tensor", true);
        return false;
      }
      // Bind the scalar: every thread starts with the argument converted to the parameter's dtype.
      if (p.var >= 0 && p.var < static_cast<int>(kernel.vars.size())) {
        if (initVars.size() != kernel.vars.size()) initVars.assign(kernel.vars.size(), Value{});
        initVars[p.var] = castTo(bitsToValue(a.scalarBits, a.scalarType), a.scalarType,
                                 kernel.vars[p.var].dtype);
      }
      continue;
    }
    if (!a.isTensor || p.buffer < 0 || p.buffer >= static_cast<int>(kernel.buffers.size())) {
      faultAt("launch", "E0770", p.span, "argument " + std::to_string(i) + " ('" + p.name +
                                             "') must be a tensor", true);
      return false;
    }
    const ir::Buffer& b = kernel.buffers[p.buffer];
    if (a.tensor.dtype != b.dtype || a.tensor.shape != b.shape) {
      std::string want = std::string(ir::dtypeName(b.dtype)) + " (", got = std::string(ir::dtypeName(a.tensor.dtype)) + " (";
      for (size_t d = 0; d < b.shape.size(); ++d) want += (d ? ", " : "") + std::to_string(b.shape[d]);
      for (size_t d = 0; d < a.tensor.shape.size(); ++d) got += (d ? ", " : "") + std::to_string(a.tensor.shape[d]);
      faultAt("launch", "E0770", p.span, "argument " + std::to_string(i) + " ('" + p.name +
                                             "') must be " + want + "), found " + got + ")", true);
      return false;
    }
    const size_t need = static_cast<size_t>(a.tensor.numel()) * ir::dtypeBytes(a.tensor.dtype);
    if (a.tensor.data.size() != need) a.tensor.data.resize(need, 0);
    argOfBuffer[p.buffer] = static_cast<int>(i);
    // Tensors the kernel never stores to keep an empty owner list (every element "not written").
    if (opt.trackProvenance && stored[p.buffer]) prov.args[i].assign(a.tensor.numel(), ElementOwner{});
  }
  // Buffer sizes in bytes, shared-memory placement.
  bufferBytes.assign(kernel.buffers.size(), 0);
  sharedOffset.assign(kernel.buffers.size(), 0);
  int64_t sharedTop = 0;
  for (size_t b = 0; b < kernel.buffers.size(); ++b) {
    const auto& buf = kernel.buffers[b];
    const int64_t eb = ir::dtypeBytes(buf.dtype);
    int64_t elems = buf.storageElems;
    if (buf.scope == ir::MemScope::Global) {
      elems = 1;
      for (auto e : buf.shape) elems *= e;
    } else if (elems <= 0) {
      elems = buf.scope == ir::MemScope::Local ? buf.layout.storageSlots() : buf.layout.span("m");
    }
    bufferBytes[b] = elems * eb;
    if (buf.scope == ir::MemScope::Shared) {
      const int64_t al = std::max<int64_t>(buf.alignBytes > 0 ? buf.alignBytes : 16, 1);
      sharedTop = (sharedTop + al - 1) / al * al;
      sharedOffset[b] = sharedTop;
      sharedTop += bufferBytes[b];
    }
  }
  shared.assign(sharedTop, 0);
  shadow.assign(sharedTop, ShadowByte{});
  std::vector<int> breaks, continues;
  compile(kernel.body, breaks, continues);
  code.push_back({Op::Halt, nullptr});
  return true;
}

void Runner::compile(const std::vector<ir::Stmt>& body, std::vector<int>& breaks,
                     std::vector<int>& continues) {
  static int tmpCounter = 0;
  (void)tmpCounter;
  for (const ir::Stmt& s : body) {
    switch (s.kind) {
      case ir::StmtKind::Assign: code.push_back({Op::Assign, &s}); break;
      case ir::StmtKind::Store: code.push_back({Op::Store, &s}); break;
      case ir::StmtKind::Apply: code.push_back({Op::Apply, &s}); break;
      case ir::StmtKind::Ewise: code.push_back({Op::Ewise, &s}); break;
      case ir::StmtKind::Barrier:
        code.push_back({s.barrier == "warp_sync" ? Op::WarpSync : Op::Barrier, &s});
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
      case ir::StmtKind::Return: code.push_back({Op::Halt, &s}); break;
    }
  }
}

void Runner::runThread(Thread& t) {
  const int n = static_cast<int>(code.size());
  while (!fatal && t.pc >= 0 && t.pc < n) {
    const int pc = t.pc;
    const Instr& in = code[pc];
    if (++t.steps > opt.maxStepsPerThread) {
      fault("timeout", "E0740", pc,
            "runaway loop: " + threadName(cta, t.tid) + " executed more than " +
                std::to_string(opt.maxStepsPerThread) + " statements",
            true);
      return;
    }
    switch (in.op) {
      case Op::Assign: {
        const ir::Stmt& s = *in.stmt;
        if (s.value && s.var >= 0 && s.var < static_cast<int>(t.vars.size())) {
          Value v = eval(*s.value, t, t.vars, pc);
          const ir::DType vt = kernel.vars[s.var].dtype;
          if (ir::isFloat(vt) != ir::isFloat(s.value->dtype)) {
            if (ir::isFloat(vt)) v.f = static_cast<double>(v.i);
            else v.i = static_cast<int64_t>(v.f);
          }
          t.vars[s.var] = normalize(v, vt);
        }
        ++elementOps;
        ++t.pc;
        break;
      }
      case Op::Store: execStore(*in.stmt, t, pc); ++t.pc; break;
      case Op::Apply: execApply(*in.stmt->apply, t, pc); ++t.pc; break;
      case Op::Ewise: execEwise(*in.stmt->ewise, t, pc); ++t.pc; break;
      case Op::Jump: t.pc = in.target; break;
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
        const ir::Stmt& s = *in.stmt;
        const Value start = s.start ? eval(*s.start, t, t.vars, pc) : Value{};
        const Value stop = s.stop ? eval(*s.stop, t, t.vars, pc) : Value{};
        Value step = s.step ? eval(*s.step, t, t.vars, pc) : Value{1, 1};
        if (step.i == 0) {
          fault("loop", "E0741", pc, "range() step must not be zero", true);
          return;
        }
        if (t.tmps.size() < static_cast<size_t>(in.tmp + 2)) t.tmps.resize(in.tmp + 2);
        t.tmps[in.tmp] = stop;
        t.tmps[in.tmp + 1] = step;
        if (s.var >= 0 && s.var < static_cast<int>(t.vars.size()))
          t.vars[s.var] = normalize(start, kernel.vars[s.var].dtype);
        ++t.pc;
        break;
      }
      case Op::ForCheck: {
        const ir::Stmt& s = *in.stmt;
        const int64_t v = (s.var >= 0 && s.var < static_cast<int>(t.vars.size())) ? t.vars[s.var].i : 0;
        const int64_t stop = t.tmps[in.tmp].i, step = t.tmps[in.tmp + 1].i;
        const bool go = step > 0 ? v < stop : v > stop;
        t.pc = go ? pc + 1 : in.target;
        break;
      }
      case Op::ForStep: {
        const ir::Stmt& s = *in.stmt;
        if (s.var >= 0 && s.var < static_cast<int>(t.vars.size())) {
          Value& v = t.vars[s.var];
          v.i += t.tmps[in.tmp + 1].i;
          v = normalize(v, kernel.vars[s.var].dtype);
        }
        t.pc = in.target;
        break;
      }
      case Op::Barrier:
      case Op::WarpSync: t.state = ThreadState::Waiting; return;
      case Op::Halt: t.state = ThreadState::Done; return;
    }
  }
  if (t.pc >= n || t.pc < 0) t.state = ThreadState::Done;
}

void Runner::runCta() {
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
    }
  }
  std::fill(shared.begin(), shared.end(), 0);
  std::fill(shadow.begin(), shadow.end(), ShadowByte{});
  ctaEpoch = 0;
  warpEpoch.assign((nThreads + 31) / 32, 0);
  while (!fatal) {
    for (auto& t : threads) {
      if (t.state != ThreadState::Running) continue;
      runThread(t);
      if (fatal) return;
    }
    int64_t done = 0, atCta = 0;
    int ctaPc = -1;
    bool divergent = false;
    for (auto& t : threads) {
      if (t.state == ThreadState::Done) ++done;
      else if (code[t.pc].op == Op::Barrier) {
        ++atCta;
        if (ctaPc < 0) ctaPc = t.pc;
        else if (ctaPc != t.pc) divergent = true;
      }
    }
    if (done == nThreads) return;
    bool released = false;
    // warp_sync: release every warp whose unfinished lanes all wait on a warp_sync.
    for (int64_t w = 0; w * 32 < nThreads; ++w) {
      bool all = true, any = false;
      for (int64_t i = w * 32; i < std::min(nThreads, w * 32 + 32); ++i) {
        const Thread& t = threads[i];
        if (t.state == ThreadState::Done) continue;
        if (t.state == ThreadState::Waiting && code[t.pc].op == Op::WarpSync) any = true;
        else all = false;
      }
      if (all && any) {
        for (int64_t i = w * 32; i < std::min(nThreads, w * 32 + 32); ++i) {
          Thread& t = threads[i];
          if (t.state != ThreadState::Waiting) continue;
          t.state = ThreadState::Running;
          ++t.pc;
        }
        ++warpEpoch[w];
        released = true;
      }
    }
    if (released) continue;
    if (atCta == nThreads && !divergent) {
      for (auto& t : threads) {
        t.state = ThreadState::Running;
        ++t.pc;
      }
      ++ctaEpoch;
      continue;
    }
    // Nobody can move: a deadlock. Name a waiting thread and one that will never arrive.
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
      notes.push_back({span(threads[absent].pc), "thread " + std::to_string(absent) + " waits here instead"});
      why = "waits at another barrier";
    }
    fault("deadlock", divergent ? "E0731" : "E0730", waitPc,
          "barrier not reached by every thread: " + threadName(cta, waiter) +
              " waits here but thread " + std::to_string(absent) + " " + why + " (" +
              std::to_string(atCta) + " of " + std::to_string(nThreads) + " threads arrived)",
          true, notes);
    return;
  }
}

void Runner::runGrid() {
  const auto& g = kernel.launch.grid;
  const int64_t n = kernel.launch.ctas();
  for (cta = 0; cta < n && !fatal; ++cta) {
    ctaIdx[0] = cta % g[0];
    ctaIdx[1] = (cta / g[0]) % g[1];
    ctaIdx[2] = cta / (g[0] * g[1]);
    runCta();
  }
}

Simulator::Simulator(SimOptions options) : m_options(options) {}

Result<ir::RunOutcome> Simulator::run(const ir::Program& program, const std::string& kernelName,
                                      std::vector<ir::KernelArg>& args) {
  const ir::Kernel* k = program.findKernel(kernelName);
  if (!k) return Status{"simulator", "no kernel named '" + kernelName + "' in the program", 1};
  const auto t0 = std::chrono::steady_clock::now();
  m_provenance = {};
  Runner r(program, *k, args, m_options, m_provenance);
  ir::RunOutcome out;
  out.device = "simulator";
  if (k->launch.threads() <= 0 || k->launch.ctas() <= 0) {
    r.faultAt("launch", "E0770", k->launchSpan, "the launch has no threads", true);
  } else if (r.bindArgs()) {
    r.runGrid();
  }
  m_elementOps = r.elementOps;
  out.ran = !r.fatal;
  out.faults = std::move(r.faults);
  out.runMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace tirx::sim
