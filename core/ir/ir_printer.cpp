// printProgram: a readable, deterministic text dump of the Kernel IR (`tirx compile --emit ir`,
// golden tests). Scalar functions first, then kernels with their launch, buffers (scope, dtype,
// shape, layout, alignment, storage) and statements; tile operations show the instruction, scope
// and the group/repeat/atom split; tensor operands print as written in the script plus their
// resolved mapping. Every statement ends with its script line (`; L12`).
#include <sstream>

#include "core/ir/ir.h"

namespace tirx::ir {

namespace {

std::string ints(const std::vector<int64_t>& v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + (v.size() == 1 ? ",)" : ")");
}

const char* binOpText(BinOp op) {
  switch (op) {
    case BinOp::Add:
      return "+";
    case BinOp::Sub:
      return "-";
    case BinOp::Mul:
      return "*";
    case BinOp::Div:
      return "/";
    case BinOp::FloorDiv:
      return "//";
    case BinOp::Mod:
      return "%";
    case BinOp::TruncDiv:
      return "tdiv";
    case BinOp::TruncMod:
      return "tmod";
    case BinOp::Min:
      return "min";
    case BinOp::Max:
      return "max";
    case BinOp::BitAnd:
      return "&";
    case BinOp::BitOr:
      return "|";
    case BinOp::BitXor:
      return "^";
    case BinOp::Shl:
      return "<<";
    case BinOp::Shr:
      return ">>";
    case BinOp::Eq:
      return "==";
    case BinOp::Ne:
      return "!=";
    case BinOp::Lt:
      return "<";
    case BinOp::Le:
      return "<=";
    case BinOp::Gt:
      return ">";
    case BinOp::Ge:
      return ">=";
    case BinOp::And:
      return "and";
    case BinOp::Or:
      return "or";
    case BinOp::Neg:
      return "-";
    case BinOp::Not:
      return "not ";
    case BinOp::Invert:
      return "~";
  }
  return "?";
}

struct Printer {
  const Program& p;
  const std::vector<Var>* vars = nullptr;
  std::ostringstream os;

  std::string var(int id) const {
    if (vars && id >= 0 && id < static_cast<int>(vars->size())) return (*vars)[id].name;
    return "v" + std::to_string(id);
  }

  std::string expr(const ExprPtr& e) const { return e ? expr(*e) : std::string("<null>"); }

  std::string expr(const Expr& e) const {
    static const char* dims = "xyz";
    const char d = dims[e.dim >= 0 && e.dim < 3 ? e.dim : 0];
    switch (e.kind) {
      case ExprKind::IntImm:
        return e.dtype == DType::Int32 ? std::to_string(e.intValue)
                                       : "T." + std::string(dtypeName(e.dtype)) + "(" +
                                             std::to_string(e.intValue) + ")";
      case ExprKind::BoolImm:
        return e.intValue ? "True" : "False";
      case ExprKind::FloatImm: {
        std::ostringstream s;
        s << "T." << dtypeName(e.dtype) << "(" << e.floatValue << ")";
        return s.str();
      }
      case ExprKind::Var:
        return var(e.var);
      case ExprKind::ThreadIdx:
        return std::string("threadIdx.") + d;
      case ExprKind::BlockIdx:
        return std::string("blockIdx.") + d;
      case ExprKind::BlockDim:
        return std::string("blockDim.") + d;
      case ExprKind::GridDim:
        return std::string("gridDim.") + d;
      case ExprKind::Load: {
        std::string out = (e.tensor ? e.tensor->text : std::string("?")) + "[";
        for (size_t i = 0; i < e.args.size(); ++i) out += (i ? ", " : "") + expr(e.args[i]);
        return out + "]";
      }
      case ExprKind::Unary:
        return std::string(binOpText(e.op)) + "(" + expr(e.args[0]) + ")";
      case ExprKind::Binary:
        if (e.op == BinOp::Min || e.op == BinOp::Max)
          return std::string(binOpText(e.op)) + "(" + expr(e.args[0]) + ", " + expr(e.args[1]) +
                 ")";
        [[fallthrough]];
      case ExprKind::Compare:
      case ExprKind::Logical:
        return "(" + expr(e.args[0]) + " " + binOpText(e.op) + " " + expr(e.args[1]) + ")";
      case ExprKind::Select:
        return "select(" + expr(e.args[0]) + ", " + expr(e.args[1]) + ", " + expr(e.args[2]) + ")";
      case ExprKind::Intrinsic:
      case ExprKind::Call: {
        std::string out =
            e.kind == ExprKind::Call && e.func >= 0 && e.func < static_cast<int>(p.functions.size())
                ? p.functions[e.func].name
                : "T." + e.name;
        out += "(";
        for (size_t i = 0; i < e.args.size(); ++i) out += (i ? ", " : "") + expr(e.args[i]);
        return out + ")";
      }
      case ExprKind::Cast:
        return "cast<" + std::string(dtypeName(e.dtype)) + ">(" + expr(e.args[0]) + ")";
    }
    return "?";
  }

  std::string tensor(const TensorRef& t) const {
    std::string out = t.text + " : " + std::string(memScopeName(t.scope)) + " " +
                      std::string(dtypeName(t.dtype)) + ints(t.shape);
    bool identity = t.shape == t.layoutShape && t.elemOffset == 0;
    for (size_t d = 0; d < t.dimMap.size(); ++d)
      if (t.dimMap[d] != static_cast<int>(d) || (d < t.lo.size() && t.lo[d])) identity = false;
    out += " -> buf" + std::to_string(t.buffer);
    if (!identity) {
      out += " over " + ints(t.layoutShape) + " dims [";
      for (size_t d = 0; d < t.dimMap.size(); ++d) {
        out += d ? ", " : "";
        const std::string lo = d < t.lo.size() && t.lo[d] ? expr(t.lo[d]) : "0";
        out += t.dimMap[d] >= 0 ? lo + "+c" + std::to_string(t.dimMap[d]) : lo;
      }
      out += "]";
      if (t.elemOffset) out += " +" + std::to_string(t.elemOffset);
    }
    out += " layout " + t.layout.toString();
    return out;
  }

  void indent(int n) {
    for (int i = 0; i < n; ++i) os << "  ";
  }

  void stmts(const std::vector<Stmt>& body, int depth) {
    for (const auto& s : body) stmt(s, depth);
  }

  void stmt(const Stmt& s, int depth) {
    indent(depth);
    const std::string line = "  ; L" + std::to_string(s.span.line);
    switch (s.kind) {
      case StmtKind::Assign:
        os << var(s.var) << " = " << expr(s.value) << line << "\n";
        break;
      case StmtKind::Store: {
        os << (s.tensor ? s.tensor->text : std::string("?")) << "[";
        for (size_t i = 0; i < s.indices.size(); ++i) os << (i ? ", " : "") << expr(s.indices[i]);
        os << "] = " << expr(s.value) << line << "\n";
        break;
      }
      case StmtKind::Apply: {
        const TileApply& a = *s.apply;
        os << "apply " << a.instr.opcode << " scope=" << execScopeName(a.scope)
           << " group=" << ints(a.group) << " repeat=" << ints(a.repeat)
           << " atom=" << ints(a.atom);
        if (a.pred) os << " pred=" << expr(a.pred);
        if (a.preserveDst) os << " preserve_dst";
        os << line << "\n";
        for (const auto& o : a.operands) {
          indent(depth + 2);
          os << (o.isScalar
                     ? "scalar " + expr(o.scalar) + " : " + std::string(dtypeName(o.scalar->dtype))
                     : tensor(o.tensor))
             << "\n";
        }
        break;
      }
      case StmtKind::Ewise: {
        const TileEwise& e = *s.ewise;
        os << "ewise "
           << (e.func >= 0 && e.func < static_cast<int>(p.functions.size())
                   ? p.functions[e.func].name
                   : "?")
           << " scope=" << execScopeName(e.scope) << " group=" << ints(e.group)
           << " repeat=" << ints(e.repeat) << line << "\n";
        indent(depth + 2);
        os << "dst " << tensor(e.dst) << "\n";
        for (const auto& o : e.inputs) {
          indent(depth + 2);
          os << (o.isScalar ? "scalar " + expr(o.scalar) : tensor(o.tensor)) << "\n";
        }
        break;
      }
      case StmtKind::Tma: {
        const TmaCopy& t = *s.tma;
        os << "tma " << t.instr.opcode << " map=" << t.map << " box=" << ints(t.box) << " coords=(";
        for (size_t i = 0; i < t.coords.size(); ++i) os << (i ? ", " : "") << expr(t.coords[i]);
        os << ") bytes=" << t.boxBytes << line << "\n";
        indent(depth + 2);
        os << "shared " << tensor(t.shared) << "\n";
        indent(depth + 2);
        os << "global " << tensor(t.global) << "\n";
        if (t.mbar) {
          indent(depth + 2);
          os << "mbar " << t.mbar->text << "[";
          for (size_t i = 0; i < t.mbarIndex.size(); ++i)
            os << (i ? ", " : "") << expr(t.mbarIndex[i]);
          os << "]\n";
        }
        break;
      }
      case StmtKind::For:
        os << (s.unroll ? "unroll " : "for ") << var(s.var) << " in range(" << expr(s.start) << ", "
           << expr(s.stop) << ", " << expr(s.step) << "):" << line << "\n";
        stmts(s.body, depth + 1);
        break;
      case StmtKind::While:
        os << "while " << expr(s.value) << ":" << line << "\n";
        stmts(s.body, depth + 1);
        break;
      case StmtKind::If:
        os << "if " << expr(s.value) << ":" << line << "\n";
        stmts(s.body, depth + 1);
        if (!s.orelse.empty()) {
          indent(depth);
          os << "else:\n";
          stmts(s.orelse, depth + 1);
        }
        break;
      case StmtKind::Barrier:
        os << s.barrier << "(" << (s.value ? expr(s.value) : std::string())
           << (s.barrierCount ? ", " + expr(s.barrierCount) : std::string()) << ")" << line << "\n";
        break;
      case StmtKind::Wgmma: {
        const Wgmma& w = *s.wgmma;
        os << "wgmma " << w.instr.opcode << " m_repeat=" << w.mRepeat << " k_steps=" << w.kSteps
           << " scale_d=" << expr(w.scaleD) << " scale_a=" << w.scaleA << " scale_b=" << w.scaleB
           << " trans_a=" << w.transA << " trans_b=" << w.transB << line << "\n";
        indent(depth + 2);
        os << "d " << tensor(w.d) << "\n";
        auto shared = [&](const char* name, const WgmmaShared& o) {
          indent(depth + 2);
          os << name << " " << tensor(o.ref) << " lbo=" << o.lbo << " sbo=" << o.sbo
             << " swizzle=" << swizzleModeName(o.mode) << " starts=" << ints(o.start) << "\n";
        };
        if (w.aRegisters) {
          indent(depth + 2);
          os << "a " << tensor(w.aRegs) << "\n";
        } else {
          shared("a", w.a);
        }
        shared("b", w.b);
        break;
      }
      case StmtKind::Break:
        os << "break" << line << "\n";
        break;
      case StmtKind::Continue:
        os << "continue" << line << "\n";
        break;
      case StmtKind::Return:
        os << "return " << expr(s.value) << line << "\n";
        break;
      case StmtKind::Async: {
        const AsyncOp& a = *s.async;
        os << a.spelling << "(";
        if (a.barrier) {
          os << a.barrier->text << ".ptr_to([";
          for (size_t i = 0; i < a.barIndex.size(); ++i)
            os << (i ? ", " : "") << expr(a.barIndex[i]);
          os << "])" << (a.value ? ", " : "");
        }
        if (a.value) os << expr(a.value);
        if (a.kind == AsyncKind::CpAsyncWait || a.kind == AsyncKind::BulkWait ||
            a.kind == AsyncKind::WgmmaWait || a.kind == AsyncKind::SetMaxNReg)
          os << (a.kind == AsyncKind::SetMaxNReg ? (a.increase ? "True, " : "False, ") : "") << a.n;
        os << ")" << line << "\n";
        break;
      }
    }
  }
};

}  // namespace

std::string printProgram(const Program& p) {
  Printer pr{p, nullptr, {}};
  pr.os << "program target=sm_" << p.targetSm << "\n";
  for (const auto& f : p.functions) {
    pr.vars = &f.vars;
    pr.os << "\nfunction " << f.name << "(";
    for (size_t i = 0; i < f.params.size(); ++i)
      pr.os << (i ? ", " : "") << f.vars[f.params[i]].name << ": "
            << dtypeName(f.vars[f.params[i]].dtype);
    pr.os << ") -> " << dtypeName(f.ret) << "  ; L" << f.span.line << "\n";
    pr.stmts(f.body, 1);
  }
  for (const auto& k : p.kernels) {
    pr.vars = &k.vars;
    pr.os << "\nkernel " << k.name << "(";
    for (size_t i = 0; i < k.params.size(); ++i) {
      const auto& kp = k.params[i];
      pr.os << (i ? ", " : "") << kp.name << ": " << (kp.isTensor ? "tensor " : "")
            << dtypeName(kp.dtype);
    }
    pr.os << ")  ; L" << k.span.line << "\n";
    const auto& l = k.launch;
    pr.os << "  launch grid=(" << l.grid[0] << ", " << l.grid[1] << ", " << l.grid[2] << ") block=("
          << l.block[0] << ", " << l.block[1] << ", " << l.block[2] << ") threads=" << l.threads();
    if (l.dynamicSmemBytes) pr.os << " dynamic_smem=" << l.dynamicSmemBytes;
    pr.os << "\n";
    for (const auto& b : k.buffers) {
      pr.os << "  buf" << b.id << " " << b.name << ": " << memScopeName(b.scope) << " "
            << dtypeName(b.dtype) << ints(b.shape) << " layout " << b.layout.toString() << " align "
            << b.alignBytes << " storage " << b.storageElems;
      if (b.paramIndex >= 0) pr.os << " param " << b.paramIndex;
      pr.os << "\n";
    }
    for (size_t i = 0; i < k.tensorMaps.size(); ++i) {
      const TensorMap& m = k.tensorMaps[i];
      pr.os << "  tmap" << i << " param " << m.param << " " << dtypeName(m.dtype) << " base "
            << m.baseElems << " dims " << ints(m.dims) << " strides " << ints(m.strideBytes)
            << " box " << ints(m.box) << " swizzle " << m.swizzle << (m.oobNan ? " oob nan" : "")
            << "\n";
    }
    pr.stmts(k.body, 1);
  }
  return pr.os.str();
}

}  // namespace tirx::ir
