// TileApply and TileEwise lowering (spec §2.2, §2.6, §3.4): every repeat becomes one inline-PTX
// statement (or one inlined call) — plain `asm` for register-only arithmetic, `asm volatile` for
// memory, cp.async and warp collectives (decision SCHED-1) — register operands bind constant slots
// of the per-thread array, memory operands bind the atom's start address in the group coordinates.
#include "core/codegen/codegen_internal.h"

namespace tirx::codegen {

bool SlotPlan::allConstant() const {
  for (const auto& s : slotOf)
    if (!s) return false;
  return true;
}

namespace {

/// Every group coordinate of `extents`, row-major, until `f` returns false.
template <class F>
void forEachGroup(std::span<const int64_t> extents, F&& f) {
  std::vector<int64_t> g(extents.size(), 0);
  const int64_t n = product(extents);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i;
    for (size_t d = extents.size(); d-- > 0;) {
      g[d] = rest % extents[d];
      rest /= extents[d];
    }
    if (!f(g)) return;
  }
}

/// Layout evaluations a slot plan or an affine-address proof may spend (group coordinates x tail
/// elements or repeats): 2^18, a sixteenth of the 2^22 evaluations that took 2.1 s in a release
/// build and timed out the ASan fuzz target (a CTA of 256 threads with 1024 registers or repeats
/// each fits). Beyond it the
/// slot or address is computed in the generated code (`offsetExpr`): still exact, only not folded
/// to a constant. Every bundled example and benchmark kernel stays well inside it (same CUDA).
constexpr int64_t kMaxSlotPlanWork = int64_t(1) << 18;

int64_t mOf(const ir::TensorRef& ref, const std::vector<int64_t>& coord) {
  AxisCoord c = ref.resolve(coord);
  return c["m"];
}

}  // namespace

SlotPlan planRegisterSlots(const ir::TensorRef& ref, int groupRank) {
  SlotPlan plan;
  const size_t gr = size_t(std::max(groupRank, 0));
  if (ref.shape.size() < gr) return plan;
  const std::span<const int64_t> gext(ref.shape.data(), gr);
  const std::vector<int64_t> tailShape(ref.shape.begin() + long(gr), ref.shape.end());
  const int64_t nTail = product(tailShape);
  plan.slotOf.assign(size_t(nTail), std::nullopt);
  if (ref.hasDynamicOffset()) return plan;
  const int64_t nGroups = product(gext);
  if (nGroups > 0 && nTail > kMaxSlotPlanWork / nGroups) return plan;
  for (int64_t t = 0; t < nTail; ++t) {
    const std::vector<int64_t> tail = unflatten(t, tailShape);
    std::optional<int64_t> slot;
    bool constant = true;
    forEachGroup(gext, [&](const std::vector<int64_t>& g) {
      std::vector<int64_t> coord = g;
      coord.insert(coord.end(), tail.begin(), tail.end());
      const int64_t m = mOf(ref, coord);
      if (!slot)
        slot = m;
      else if (*slot != m)
        constant = false;
      return constant;
    });
    if (constant) plan.slotOf[size_t(t)] = slot;
  }
  return plan;
}

std::optional<AffineOffset> affineOffset(const ir::TensorRef& ref, int groupRank,
                                         std::span<const int64_t> tail) {
  const size_t gr = size_t(std::max(groupRank, 0));
  if (ref.hasDynamicOffset() || ref.shape.size() < gr) return std::nullopt;
  const std::span<const int64_t> gext(ref.shape.data(), gr);
  auto at = [&](const std::vector<int64_t>& g) {
    std::vector<int64_t> coord = g;
    coord.insert(coord.end(), tail.begin(), tail.end());
    return mOf(ref, coord);
  };
  AffineOffset a;
  std::vector<int64_t> zero(gr, 0);
  a.constant = at(zero);
  a.coef.assign(gr, 0);
  for (size_t i = 0; i < gr; ++i) {
    if (gext[i] < 2) continue;
    std::vector<int64_t> e = zero;
    e[i] = 1;
    a.coef[i] = at(e) - a.constant;
  }
  bool ok = true;
  forEachGroup(gext, [&](const std::vector<int64_t>& g) {
    int64_t v = a.constant;
    for (size_t i = 0; i < gr; ++i) v += a.coef[i] * g[i];
    if (v != at(g)) ok = false;
    return ok;
  });
  if (!ok) return std::nullopt;
  return a;
}

namespace detail {

std::vector<std::string> Emitter::groupVars(ir::ExecScope scope) const {
  switch (scope) {
    case ir::ExecScope::Thread:
      return {};
    case ir::ExecScope::Warp:
      return {"tirx_lane"};
    case ir::ExecScope::Warpgroup:
      return {"(tirx_warp & 3)", "tirx_lane"};
    case ir::ExecScope::Cta:
    case ir::ExecScope::Cluster:
      return {"tirx_warp", "tirx_lane"};
  }
  return {};
}

namespace {

/// `c + Σ coef·g` as C, folding warp/lane pairs into the linear thread id.
std::string affineText(const AffineOffset& a, const std::vector<std::string>& vars,
                       ir::ExecScope scope) {
  std::vector<std::pair<int64_t, std::string>> terms;
  if (vars.size() == 2 && a.coef.size() == 2 && a.coef[0] == 32 * a.coef[1] && a.coef[1] != 0) {
    terms.push_back(
        {a.coef[1], scope == ir::ExecScope::Warpgroup ? "(tirx_tid & 127)" : "tirx_tid"});
  } else {
    for (size_t i = 0; i < a.coef.size() && i < vars.size(); ++i)
      if (a.coef[i] != 0) terms.push_back({a.coef[i], vars[i]});
  }
  std::string s;
  for (const auto& [c, v] : terms) {
    std::string t = c == 1 ? v : std::to_string(c) + " * " + v;
    s += s.empty() ? t : " + " + t;
  }
  if (s.empty()) return std::to_string(a.constant);
  if (a.constant > 0) s += " + " + std::to_string(a.constant);
  if (a.constant < 0) s += " - " + std::to_string(-a.constant);
  return s;
}

struct AsmOperand {
  bool output = false;
  std::string constraint;  ///< e.g. "=f", "l", "+h"
  std::string value;
};

}  // namespace

/// The inline-asm operands of one repeat of a tile apply, as emitApply assembles them.
struct Emitter::ApplyAsm {
  std::vector<AsmOperand> ops;
  std::vector<std::string> byteTemps, byteOuts;  ///< 8-bit destinations (see applyOperands)
  std::vector<std::vector<size_t>> refs;         ///< per tile operand: indices into ops
};

/// The inline-asm operands of repeat `r` of a tile apply: scalars, addresses (an affine form of the
/// group coordinates where one is proven, else the layout's offset expression) and register
/// elements (through the slot plans), into `as`.
void Emitter::applyOperands(const ir::TileApply& a, const std::vector<PtxOperandSpec>& specs,
                            const std::vector<SlotPlan>& plans, int64_t r, ApplyAsm& as) {
  const int groupRank = int(a.group.size());
  const std::vector<std::string> gv = groupVars(a.scope);
  const int64_t nRep = product(a.repeat);
  std::vector<AsmOperand>& ops = as.ops;
  std::vector<std::string>& byteTemps = as.byteTemps;
  std::vector<std::string>& byteOuts = as.byteOuts;
  std::vector<std::vector<size_t>>& refs = as.refs;
  refs.assign(a.operands.size(), {});
  for (size_t i = 0; i < a.operands.size(); ++i) {
    const ir::TileOperand& op = a.operands[i];
    const PtxOperandSpec& spec = specs[i];
    if (op.isScalar) {
      const ir::DType t = op.scalar ? op.scalar->dtype : ir::DType::Float32;
      const char c = ir::dtypeBits(t) == 8 ? 'h' : constraintOf(t);
      std::string v;
      if (ir::dtypeBits(t) == 8) {
        v = "(unsigned short)(unsigned char)(" + expr(op.scalar) + ")";
      } else if (c == 'h') {
        if (op.scalar && op.scalar->kind == ir::ExprKind::FloatImm)
          v = "(unsigned short)" +
              std::to_string(t == ir::DType::BFloat16
                                 ? floatToBf16Bits(float(op.scalar->floatValue))
                                 : floatToHalfBits(float(op.scalar->floatValue)));
        else
          v = toStorage(expr(op.scalar), t, t);
      } else {
        v = expr(op.scalar);
      }
      refs[i].push_back(ops.size());
      ops.push_back({false, std::string(1, c), v});
      continue;
    }
    const ir::TensorRef& ref = op.tensor;
    const int64_t tailOff = int64_t(groupRank) + int64_t(a.repeat.size());
    std::vector<int64_t> tailShape(
        ref.shape.begin() + std::min<long>(groupRank, long(ref.shape.size())), ref.shape.end());
    const std::vector<int64_t> atomShape(
        ref.shape.begin() + std::min<long>(tailOff, long(ref.shape.size())), ref.shape.end());
    const int64_t atomElems = product(atomShape);
    if (spec.role == OperandRole::Address) {
      const std::vector<int64_t> tail = unflatten(r * atomElems, tailShape);
      std::string off;
      // A swizzle, or strides known only per call, leave the address to offsetExpr.
      const bool swz = !m_kernel->buffers.at(size_t(ref.buffer)).swizzle.isIdentity() ||
                       ir::hasSymbolicStrides(m_kernel->buffers.at(size_t(ref.buffer)));
      // The affine form is proven over every group coordinate, once per repeat: within the
      // same work bound as the slot plans, else the address is computed in the code.
      const int64_t nGroups = product(std::span<const int64_t>(
          ref.shape.data(), std::min<size_t>(size_t(std::max(groupRank, 0)), ref.shape.size())));
      const bool bounded = nGroups == 0 || nRep <= kMaxSlotPlanWork / nGroups;
      if (auto af = swz || !bounded ? std::nullopt : affineOffset(ref, groupRank, tail)) {
        off = affineText(*af, gv, a.scope);
      } else {
        std::vector<std::string> coord = gv;
        for (int64_t t : tail) coord.push_back(std::to_string(t));
        off = offsetExpr(ref, coord);
      }
      std::string ptr = typedPointer(ref);
      const bool wrapped = off.size() > 1 && off.front() == '(' && off.back() == ')';
      std::string addr =
          off == "0" ? ptr
                     : ptr + " + " +
                           (off.find(' ') != std::string::npos && !wrapped ? "(" + off + ")" : off);
      refs[i].push_back(ops.size());
      if (ref.scope == ir::MemScope::Shared)
        ops.push_back({false, "r", "(unsigned)__cvta_generic_to_shared(" + addr + ")"});
      else if (ref.scope == ir::MemScope::Local && a.instr.space == "local")
        ops.push_back({false, "l", "__cvta_generic_to_local(" + addr + ")"});
      else
        ops.push_back({false, "l", addr});
      continue;
    }
    const bool out = spec.role == OperandRole::DstReg;
    // 8-bit registers have no inline-asm constraint of their own: they travel in a 16-bit "h"
    // register (PTX uses its low byte), outputs through a temporary assigned back below.
    const bool byte = ir::dtypeBits(ref.dtype) == 8;
    const char c = byte ? 'h' : constraintOf(ref.dtype);
    for (int64_t e = 0; e < atomElems; ++e) {
      const int64_t t = r * atomElems + e;
      std::string lv;
      const auto& plan = plans[i];
      if (t < int64_t(plan.slotOf.size()) && plan.slotOf[size_t(t)]) {
        lv = element(ref, std::to_string(*plan.slotOf[size_t(t)]));
      } else {
        std::vector<std::string> coord = gv;
        for (int64_t x : unflatten(t, tailShape)) coord.push_back(std::to_string(x));
        lv = element(ref, offsetExpr(ref, coord));
      }
      refs[i].push_back(ops.size());
      if (byte && out) {
        const std::string tmp = "tirx_b" + std::to_string(byteTemps.size());
        byteTemps.push_back(a.preserveDst ? tmp + " = (unsigned char)(" + lv + ")" : tmp);
        byteOuts.push_back(lv + " = (" + valueType(ref.dtype) + ")" + tmp + ";");
        lv = tmp;
      } else if (byte) {
        lv = "(unsigned short)(unsigned char)(" + lv + ")";
      }
      ops.push_back({out, (out ? (a.preserveDst ? "+" : "=") : "") + std::string(1, c), lv});
    }
  }
}

/// The `asm volatile(...)` statement of one repeat of a tile apply from its operands: outputs
/// numbered first, the pred= and cp.async zero-fill predicates, 8-bit outputs through temporaries.
std::string Emitter::applyAsmLine(const ir::TileApply& a, const std::vector<PtxOperandSpec>& specs,
                                  const ApplyAsm& as) {
  const std::vector<AsmOperand>& ops = as.ops;
  const std::vector<std::string>& byteTemps = as.byteTemps;
  const std::vector<std::string>& byteOuts = as.byteOuts;
  const std::vector<std::vector<size_t>>& refs = as.refs;
  // Number outputs first, then inputs (GCC inline-asm order).
  std::vector<int> number(ops.size());
  int nOut = 0;
  for (size_t k = 0; k < ops.size(); ++k)
    if (ops[k].output) number[k] = nOut++;
  int nIn = nOut;
  for (size_t k = 0; k < ops.size(); ++k)
    if (!ops[k].output) number[k] = nIn++;
  std::string text = a.instr.opcode;
  for (size_t i = 0; i < a.operands.size(); ++i) {
    text += i ? ", " : " ";
    const auto& idx = refs[i];
    if (specs[i].role == OperandRole::Address) {
      text += "[%" + std::to_string(number[idx[0]]) + "]";
    } else if (idx.size() == 1) {
      text += "%" + std::to_string(number[idx[0]]);
    } else {
      text += "{";
      for (size_t k = 0; k < idx.size(); ++k)
        text += (k ? ", %" : "%") + std::to_string(number[idx[k]]);
      text += "}";
    }
  }
  text += ";";
  std::string predIn;
  if (a.instr.family == PtxFamily::CpAsync) {
    // cp.async [dst], [src], chunk{, src_size | , ignore-src predicate}; pred= guards it.
    text.pop_back();
    text += ", " + std::to_string(a.chunkBytes);
    int next = nIn;
    std::string regs, pre;
    auto input = [&](const ir::ExprPtr& e) {
      predIn += (predIn.empty() ? "" : ", ") + std::string("\"r\"((unsigned)(") + expr(e) + "))";
      return "%" + std::to_string(next++);
    };
    if (a.srcSize) text += ", " + input(a.srcSize);
    if (a.ignoreSrc) {
      regs += "tirx_z";
      pre += "setp.ne.b32 tirx_z, " + input(a.ignoreSrc) + ", 0; ";
      text += ", tirx_z";
    }
    text += ";";
    if (a.pred) {
      regs += regs.empty() ? "tirx_p" : ", tirx_p";
      pre += "setp.ne.b32 tirx_p, " + input(a.pred) + ", 0; ";
      text = "@tirx_p " + text;
    }
    if (!regs.empty()) text = "{ .reg .pred " + regs + "; " + pre + text + " }";
  } else if (a.pred) {
    text = "{ .reg .pred tirx_p; setp.ne.b32 tirx_p, %" + std::to_string(nIn) + ", 0; @tirx_p " +
           text + " }";
    predIn = "\"r\"((unsigned)(" + expr(a.pred) + "))";
  }
  std::string outs, ins;
  for (size_t k = 0; k < ops.size(); ++k) {
    std::string& dst = ops[k].output ? outs : ins;
    dst += (dst.empty() ? "" : ", ") + ("\"" + ops[k].constraint + "\"(" + ops[k].value + ")");
  }
  if (!predIn.empty()) ins += (ins.empty() ? "" : ", ") + predIn;
  std::string line = std::string(a.instr.isRegisterOnly() ? "asm(\"" : "asm volatile(\"") + text +
                     "\" : " + outs + " : " + ins;
  if (a.instr.isMemory() || a.instr.family == PtxFamily::CpAsync) line += " : \"memory\"";
  line += ");";
  if (!byteTemps.empty()) {
    std::string decl = "{ unsigned short ";
    for (size_t k = 0; k < byteTemps.size(); ++k) decl += (k ? ", " : "") + byteTemps[k];
    line = decl + "; " + line;
    for (const std::string& o : byteOuts) line += " " + o;
    line += " }";
  }
  return line;
}

void Emitter::emitApply(const ir::Stmt& s) {
  const ir::TileApply& a = *s.apply;
  if (!a.atomRank.empty()) {  // ldmatrix, stmatrix, mma.sync: the lane is inside the atom
    emitMatrixCollective(s);
    return;
  }
  const int groupRank = int(a.group.size());
  const int arity = int(a.operands.size());
  std::vector<PtxOperandSpec> specs = a.instr.operandsFor(arity);
  if (specs.size() != a.operands.size()) specs = a.instr.operands;
  if (specs.size() != a.operands.size()) {
    internalError(s.span, "cannot lower " + a.instr.opcode + ": expected " +
                              std::to_string(specs.size()) + " operands, found " +
                              std::to_string(a.operands.size()));
    return;
  }
  const int64_t nRep = product(a.repeat);
  // Slot plans of the register operands.
  std::vector<SlotPlan> plans(a.operands.size());
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!a.operands[i].isScalar && a.operands[i].tensor.scope == ir::MemScope::Local &&
        specs[i].role != OperandRole::Address)
      plans[i] = planRegisterSlots(a.operands[i].tensor, groupRank);

  begin(s.span);
  for (int64_t r = 0; r < nRep; ++r) {
    ApplyAsm as;
    applyOperands(a, specs, plans, r, as);
    line(indent() + applyAsmLine(a, specs, as));
  }
  end();
}

void Emitter::emitEwise(const ir::Stmt& s) {
  const ir::TileEwise& e = *s.ewise;
  if (e.func < 0 || e.func >= int(m_prog.functions.size())) {
    internalError(s.span, "cannot lower ewise: unknown scalar function");
    return;
  }
  const ir::ScalarFunction& f = m_prog.functions[size_t(e.func)];
  auto paramType = [&](size_t i) {
    if (i < f.params.size())
      for (const auto& v : f.vars)
        if (v.id == f.params[i]) return v.dtype;
    return ir::DType::Float32;
  };
  const int groupRank = int(e.group.size());
  const std::vector<std::string> gv = groupVars(e.scope);
  const int64_t nRep = product(e.repeat);
  const SlotPlan dstPlan = planRegisterSlots(e.dst, groupRank);
  std::vector<SlotPlan> inPlans(e.inputs.size());
  for (size_t i = 0; i < e.inputs.size(); ++i)
    if (!e.inputs[i].isScalar) inPlans[i] = planRegisterSlots(e.inputs[i].tensor, groupRank);
  auto lvalue = [&](const ir::TensorRef& ref, const SlotPlan& plan, int64_t t) {
    if (t < int64_t(plan.slotOf.size()) && plan.slotOf[size_t(t)])
      return element(ref, std::to_string(*plan.slotOf[size_t(t)]));
    std::vector<std::string> coord = gv;
    const std::vector<int64_t> tailShape(
        ref.shape.begin() + std::min<long>(groupRank, long(ref.shape.size())), ref.shape.end());
    for (int64_t x : unflatten(t, tailShape)) coord.push_back(std::to_string(x));
    return element(ref, offsetExpr(ref, coord));
  };
  begin(s.span);
  for (int64_t r = 0; r < nRep; ++r) {
    std::string call = f.name + "(";
    for (size_t i = 0; i < e.inputs.size(); ++i) {
      const ir::TileOperand& in = e.inputs[i];
      const ir::DType pt = paramType(i);
      std::string v;
      if (in.isScalar) {
        v = exprAs(in.scalar, pt);
      } else {
        v = fromStorage(lvalue(in.tensor, inPlans[i], r), in.tensor.dtype);
        if (in.tensor.dtype != pt) v = "(" + valueType(pt) + ")(" + v + ")";
      }
      call += (i ? ", " : "") + v;
    }
    call += ")";
    line(indent() + lvalue(e.dst, dstPlan, r) + " = " + toStorage(call, f.ret, e.dst.dtype) + ";");
  }
  end();
}

}  // namespace detail
}  // namespace tirx::codegen
