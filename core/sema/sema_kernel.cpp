// Kernels: parameters (T.Tensor global buffers and scalar parameters), T.device_entry with its
// static launch (spec §4.3 validation, decision D-1), and the statements of a body: bindings,
// stores, loops (range / T.serial / T.unroll), if/elif/else, while, barriers (rejected inside
// thread-divergent control flow) and the tile operations (sema_tile.cpp).
#include <algorithm>

#include "core/ir/shared_memory.h"
#include "core/sema/sema_internal.h"

namespace tirx::sema {

using ir::DType;

namespace {
bool isPow2(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}
}  // namespace

int Analyzer::newVar(const std::string& name, DType t, SourceSpan span, bool threadDep) {
  ir::Var v;
  v.id = static_cast<int>(m_body->vars->size());
  v.name = name;
  v.dtype = t;
  v.span = span;
  m_body->vars->push_back(v);
  m_body->varThreadDep.push_back(threadDep);
  return v.id;
}

/// The keywords of a `T.Tensor(shape, dtype, ...)` parameter: align= (E0133), scope= (E0113),
/// strides= (E0113) and layout= (E0144, E0131), applied to `buf`.
void Analyzer::tensorParamOptions(const ast::Expr& an, ir::Buffer& buf) {
  if (const ast::Expr* a = keyword(an, "align")) {
    auto v = staticInt(*a);
    if (v && (!isPow2(*v) || *v < ir::dtypeBytes(buf.dtype))) {
      error("E0133", a->span,
            "align= must be a power of two no smaller than the element size (" +
                std::to_string(ir::dtypeBytes(buf.dtype)) + " bytes), found " + std::to_string(*v));
    } else if (v) {
      buf.alignBytes = *v;
    }
  }
  if (const ast::Expr* s = keyword(an, "scope")) {
    if (s->kind != ast::ExprKind::Str || s->text != "global")
      error("E0113", s->span,
            "kernel tensor parameters live in global memory; scope= must be \"global\", found '" +
                text(s->span) + "'");
  }
  if (const ast::Expr* st = keyword(an, "strides")) {
    std::vector<int64_t> strides;
    if (st->kind == ast::ExprKind::Tuple || st->kind == ast::ExprKind::List) {
      for (const auto& d : st->args)
        if (auto v = staticInt(*d)) strides.push_back(*v);
    }
    if (strides.size() != buf.shape.size()) {
      error("E0113", st->span,
            "strides= needs one static stride per dimension (" + std::to_string(buf.shape.size()) +
                ")");
    } else {
      TileLayout l;
      for (size_t i = 0; i < strides.size(); ++i)
        l.shard.push_back(Iter{buf.shape[i], strides[i], "m"});
      buf.layout = l;
    }
  }
  if (const ast::Expr* l = keyword(an, "layout")) {
    auto layout = layoutArg(*l);
    if (layout) {
      if (layout->hasThreadAxes()) {
        error("E0144", l->span,
              "a global tensor's layout cannot have thread axes, found " + layout->toString());
      } else if (!layout->admits(buf.shape)) {
        error("E0131", l->span,
              "layout " + layout->toString() + " holds " + std::to_string(layout->size()) +
                  " elements, but the shape holds " + std::to_string(product(buf.shape)));
      } else {
        buf.layout = *layout;
      }
    }
  }
}

void Analyzer::lowerParams(const ast::Stmt& def, ir::Kernel& k) {
  std::vector<ir::KernelParam> pendingSymbolic;  // T.dynamic extents: trailing parameters
  for (const auto& p : def.params) {
    // A parameter refused below still binds its name (sema_recovery.cpp).
    struct BindIfRefused {
      Analyzer& a;
      const ast::Param& p;
      ~BindIfRefused() {
        if (!a.m_body->locals.names.count(p.name)) a.bindRefused(p.name, p.span);
      }
    } bindIfRefused{*this, p};
    if (p.star || p.doubleStar) {
      error("E0112", p.span, "kernel parameters cannot be *args or **kwargs");
      continue;
    }
    if (!p.annotation) {
      error("E0112", p.span,
            "kernel parameter '" + p.name +
                "' needs an annotation such as T.Tensor((64,), \"float32\") or T.int32");
      continue;
    }
    const ast::Expr& an = *p.annotation;
    if (mentionsRefused(an)) {  // a shape from a refused module name: reported at its definition
      m_body->skippedRefused = true;
      continue;
    }
    ir::KernelParam kp;
    kp.name = p.name;
    kp.span = p.span;
    if (an.kind == ast::ExprKind::Call && builtinPath(*an.args[0]) == "T.Tensor") {
      if (!checkCallShape(an, "T.Tensor", 2, 2,
                          {"align", "layout", "strides", "scope", "elem_offset"}))
        continue;
      ir::Buffer buf;
      buf.name = p.name;
      buf.scope = ir::MemScope::Global;
      buf.span = p.span;
      bool ok = true;
      // shape
      ok = tensorParamShape(an, buf, k, pendingSymbolic);
      auto dt = dtypeArg(*an.args[2]);
      if (!dt) ok = false;
      if (!ok) continue;
      buf.dtype = *dt;
      buf.layout = TileLayout::rowMajor(buf.shape);
      buf.alignBytes = 16;  // OPEN-2: default alignment of a global parameter
      tensorParamOptions(an, buf);
      const int64_t span =
          buf.layout.span("m") + (buf.layout.offset.count("m") ? buf.layout.offset.at("m") : 0);
      buf.storageElems = std::max(product(buf.shape), span);
      buf.id = static_cast<int>(k.buffers.size());
      buf.paramIndex = static_cast<int>(k.params.size());
      kp.isTensor = true;
      kp.buffer = buf.id;
      kp.dtype = buf.dtype;
      ir::Symbol sym;
      sym.kind = ir::Symbol::Kind::Tensor;
      sym.name = p.name;
      sym.kernel = k.name;
      sym.span = p.span;
      sym.layout = buf.layout;
      sym.shape = buf.shape;
      if (!buf.shapeVars.empty()) {  // the studio draws one index of a symbolic extent
        for (auto& e : sym.shape)
          if (ir::isSymbolicExtent(e)) e = 1;
        sym.layout = TileLayout::rowMajor(sym.shape);
      }
      sym.dtype = buf.dtype;
      sym.scope = ir::MemScope::Global;
      sym.buffer = buf.id;
      const int symbol = addSymbol(std::move(sym));
      auto ref = std::make_shared<ir::TensorRef>();
      ref->buffer = buf.id;
      ref->scope = buf.scope;
      ref->dtype = buf.dtype;
      ref->shape = buf.shape;
      ref->layout = buf.layout;
      ref->layoutShape = buf.shape;
      for (size_t d = 0; d < buf.shape.size(); ++d) {
        ref->dimMap.push_back(static_cast<int>(d));
        ref->lo.push_back(nullptr);
        ref->loMultiple.push_back(0);
      }
      ref->text = p.name;
      ref->span = p.span;
      k.buffers.push_back(std::move(buf));
      m_body->bufferUsed.push_back(true);  // parameters are never "unused allocations"
      m_body->bufferSymbol.push_back(symbol);
      Binding b;
      b.kind = Binding::Kind::Tensor;
      b.tensor = ref;
      b.symbol = symbol;
      b.span = p.span;
      m_body->locals.names[p.name] = b;
      k.params.push_back(kp);
      continue;
    }
    auto dt = dtypeArg(an, false);
    if (!dt) {
      const std::string path = builtinPath(an);
      error("E0112", an.span,
            "unsupported kernel parameter annotation '" + text(an.span) +
                "'; expected T.Tensor(shape, dtype, ...) or a scalar type such as T.int32");
      continue;
    }
    kp.isTensor = false;
    kp.dtype = *dt;
    kp.var = newVar(p.name, *dt, p.span, false);
    Binding b;
    b.kind = Binding::Kind::Var;
    b.index = kp.var;
    b.span = p.span;
    ir::Symbol sym;
    sym.kind = ir::Symbol::Kind::Scalar;
    sym.name = p.name;
    sym.kernel = k.name;
    sym.span = p.span;
    sym.dtype = *dt;
    b.symbol = addSymbol(std::move(sym));
    m_body->locals.names[p.name] = b;
    k.params.push_back(kp);
  }
  for (auto& sp : pendingSymbolic) k.params.push_back(std::move(sp));
}

namespace {
struct ExtentParse {
  std::array<int64_t, 3> v{1, 1, 1};
  bool ok = false;
};
}  // namespace

static ExtentParse launchExtents(Analyzer& a, const ast::Expr& e, const std::string& what,
                                 ir::Kernel* runtimeOf = nullptr) {
  ExtentParse r;
  std::vector<const ast::Expr*> items;
  if (e.kind == ast::ExprKind::Tuple || e.kind == ast::ExprKind::List) {
    if (e.args.empty()) {
      a.error("E0121", e.span, what + " must have 1 to 3 extents, found an empty tuple");
      return r;
    }
    if (e.args.size() > 3) {
      a.error(
          "E0121", e.span,
          what + " must have at most 3 extents (x, y, z), found " + std::to_string(e.args.size()));
      return r;
    }
    for (const auto& x : e.args) items.push_back(x.get());
  } else {
    items.push_back(&e);
  }
  bool ok = true;
  for (size_t i = 0; i < items.size(); ++i) {
    const ast::Expr& x = *items[i];
    if (x.kind == ast::ExprKind::Bool) {
      a.error("E0120", x.span,
              what + " extents must be integers, found the bool " + a.text(x.span));
      ok = false;
      continue;
    }
    if (x.kind == ast::ExprKind::Float) {
      a.error("E0120", x.span,
              what + " extents must be integers, found the float " + a.text(x.span));
      ok = false;
      continue;
    }
    const size_t before = a.m_diags.size();
    auto v = a.staticInt(x, false);
    if (!v && a.m_diags.size() != before) {  // a fold error (overflow) was reported
      ok = false;
      continue;
    }
    if (!v && runtimeOf) {
      // A grid computed on the host per call (decision "Dynamic shapes").
      if (auto g = a.runtimeGridExtent(x, *runtimeOf)) {
        runtimeOf->launch.gridExprs[i] = g;
        continue;
      }
      ok = false;
      continue;
    }
    if (!v) {
      a.error(
          "E0120", x.span,
          what + " extents must be static integers (decision D-1), found '" + a.text(x.span) + "'");
      ok = false;
      continue;
    }
    if (*v <= 0) {
      a.error("E0120", x.span, what + " extents must be positive, found " + std::to_string(*v));
      ok = false;
      continue;
    }
    r.v[i] = *v;
  }
  r.ok = ok;
  return r;
}

bool Analyzer::lowerDeviceEntry(const ast::Expr& call, ir::Kernel& k) {
  if (!checkCallShape(call, "T.device_entry", 0, 0, {"launch", "kernel_attrs", "backend_config"}))
    return false;
  const ast::Expr* launch = keyword(call, "launch");
  if (!launch) {
    error("E0104", call.span,
          "T.device_entry needs launch=T.cuda.LaunchConfig(grid=..., block=...)");
    return false;
  }
  if (launch->kind != ast::ExprKind::Call ||
      builtinPath(*launch->args[0]) != "T.cuda.LaunchConfig") {
    error("E0105", launch->span,
          "launch= expects T.cuda.LaunchConfig(grid=..., block=...), found '" + text(launch->span) +
              "'");
    return false;
  }
  const ast::Expr& lc = *launch;
  k.launchSpan = lc.span;
  if (!checkCallShape(lc, "T.cuda.LaunchConfig", 0, 0,
                      {"grid", "block", "cluster", "preferred_cluster", "dynamic_smem_bytes",
                       "stream", "cooperative", "priority"}))
    return false;
  const ast::Expr* grid = keyword(lc, "grid");
  const ast::Expr* block = keyword(lc, "block");
  bool ok = true;
  if (!grid || !block) {
    error("E0104", lc.span,
          std::string("T.cuda.LaunchConfig needs ") + (!grid ? "grid=" : "block="));
    return false;
  }
  ExtentParse g = launchExtents(*this, *grid, "grid", &k);
  ExtentParse b = launchExtents(*this, *block, "block");
  if (g.ok) {
    k.launch.grid = g.v;  // 1 where a runtime extent stands (gridExprs)
    if (g.v[0] > 2147483647 || g.v[1] > 65535 || g.v[2] > 65535) {
      error("E0123", grid->span,
            "grid (" + std::to_string(g.v[0]) + ", " + std::to_string(g.v[1]) + ", " +
                std::to_string(g.v[2]) + ") exceeds the CUDA limits (2^31-1, 65535, 65535)");
      ok = false;
    }
  }
  if (b.ok) {
    k.launch.block = b.v;
    const int64_t threads = b.v[0] * b.v[1] * b.v[2];
    if (threads > 1024) {
      auto& d = error("E0122", block->span,
                      "a block of " + std::to_string(threads) +
                          " threads exceeds the limit of 1024 threads per block");
      note(d, block->span, "split the work over more blocks with grid= and T.cuda.block_idx");
      ok = false;
    } else if (b.v[0] > 1024 || b.v[1] > 1024 || b.v[2] > 64) {
      error("E0122", block->span, "block extents exceed the CUDA limits (1024, 1024, 64)");
      ok = false;
    }
  }
  if (const ast::Expr* ds = keyword(lc, "dynamic_smem_bytes")) {
    auto v = staticInt(*ds);
    if (v && *v < 0) {
      error("E0124", ds->span,
            "dynamic_smem_bytes must not be negative, found " + std::to_string(*v));
      ok = false;
    } else if (v) {
      k.launch.dynamicSmemBytes = *v;
    }
  }
  for (const char* kw : {"cluster", "preferred_cluster"}) {
    if (const ast::Expr* c = keyword(lc, kw)) {
      error(
          "E0124", c->span,
          std::string(kw) +
              "= is not supported by this checker (thread-block clusters are outside the subset)");
      ok = false;
    }
  }
  return ok && g.ok && b.ok;
}

// Shared memory per block against the target's limit (E0125), reported at the allocation that
// crosses it: the tiles as codegen and the runner place them (ir/shared_memory.h) plus the launch's
// dynamic_smem_bytes, which come first so that the last tile is the one named.
void Analyzer::checkSharedMemory(const ir::Kernel& k) {
  const int64_t limit = ir::sharedMemoryLimit(m_options.sm);
  const ir::SharedMemoryPlan plan = ir::planSharedMemory(k);
  if (plan.totalBytes(k) <= limit) return;
  const int64_t dyn = std::max<int64_t>(k.launch.dynamicSmemBytes, 0);
  const std::string where = " bytes of shared memory per block, over the " + std::to_string(limit) +
                            "-byte (" + std::to_string(limit / 1024) + " KiB) limit of sm_" +
                            std::to_string(m_options.sm);
  for (size_t b = 0; b < k.buffers.size(); ++b) {
    if (plan.offset[b] < 0) continue;
    const int64_t end = dyn + plan.offset[b] + ir::sharedBufferBytes(k.buffers[b]);
    if (end <= limit) continue;
    auto& d = error("E0125", k.buffers[b].span,
                    "with '" + k.buffers[b].name + "' (" +
                        std::to_string(ir::sharedBufferBytes(k.buffers[b])) + " bytes) kernel '" +
                        k.name + "' needs " + std::to_string(plan.totalBytes(k)) + where);
    if (dyn > 0)
      note(d, k.launchSpan,
           "the launch asks for " + std::to_string(dyn) + " bytes of dynamic shared memory");
    return;
  }
  error("E0125", k.launchSpan,
        "kernel '" + k.name + "' asks for " + std::to_string(plan.totalBytes(k)) + where);
}

void Analyzer::analyzeKernel(const ast::Stmt& s) {
  ir::Kernel k;
  k.name = s.name;
  k.span = s.nameSpan;
  ir::Symbol ksym;
  ksym.kind = ir::Symbol::Kind::Kernel;
  ksym.name = s.name;
  ksym.span = s.nameSpan;
  const int kernelSymbol = addSymbol(std::move(ksym));
  const size_t firstSymbol = m_program.symbols.size();

  const size_t diagsBefore = m_diags.size();
  m_body = std::make_unique<BodyContext>();
  m_body->kernel = &k;
  m_body->vars = &k.vars;
  countAssignments(s.body);
  if (s.returns)
    error("E0112", s.returns->span, "a kernel returns nothing; remove the return annotation");
  lowerParams(s, k);

  size_t i = 0;
  // A leading docstring is allowed; an f-string there is no docstring, and is refused once.
  if (i < s.body.size() && s.body[i]->kind == ast::StmtKind::ExprStmt && s.body[i]->value &&
      (s.body[i]->value->kind == ast::ExprKind::Str ||
       s.body[i]->value->kind == ast::ExprKind::FString)) {
    if (s.body[i]->value->kind == ast::ExprKind::FString)
      error("E0107", s.body[i]->value->span, "f-strings are not supported in TIRx code");
    ++i;
  }
  // Statements before T.device_entry are reported only when the entry exists (E0110 otherwise).
  bool complained = true;
  for (size_t j = i; j < s.body.size(); ++j) {
    const ast::Stmt& st = *s.body[j];
    if (st.kind == ast::StmtKind::ExprStmt && st.value && st.value->kind == ast::ExprKind::Call &&
        builtinPath(*st.value->args[0]) == "T.device_entry")
      complained = false;
  }
  for (; i < s.body.size(); ++i) {
    const ast::Stmt& st = *s.body[i];
    const bool isEntry = st.kind == ast::StmtKind::ExprStmt && st.value &&
                         st.value->kind == ast::ExprKind::Call &&
                         builtinPath(*st.value->args[0]) == "T.device_entry";
    if (isEntry) {
      if (m_body->sawDeviceEntry) {
        error("E0111", st.span, "a kernel has exactly one T.device_entry");
        continue;
      }
      m_body->sawDeviceEntry = true;
      if (mentionsRefused(*st.value)) {  // a launch size from a refused module name
        m_body->skippedRefused = true;
        continue;
      }
      m_body->launchOk = lowerDeviceEntry(*st.value, k);
      m_body->blockThreads = k.launch.threads();
      continue;
    }
    if (!m_body->sawDeviceEntry && !complained) {
      auto& d = error("E0111", st.span,
                      "statement before T.device_entry; the device code of a kernel starts with "
                      "T.device_entry(launch=...)");
      note(d, s.nameSpan, "in kernel '" + s.name + "'");
      complained = true;
    }
    lowerStmt(st, k.body);
  }
  if (!m_body->sawDeviceEntry) {
    auto& d = error("E0110", s.nameSpan,
                    "kernel '" + s.name +
                        "' has no T.device_entry(launch=T.cuda.LaunchConfig(grid=..., block=...))");
    note(d, s.nameSpan, "the launch configuration is required to check tile operations");
  }
  checkSharedMemory(k);
  // Unused allocations (only in kernels without errors: an early return after an error leaves
  // operands unvisited).
  const bool kernelErrors = hasErrors(Diagnostics(m_diags.begin() + diagsBefore, m_diags.end()));
  if (!kernelErrors && m_body->launchOk) checkStaticBounds(k);
  for (size_t b = 0; b < k.buffers.size() && !kernelErrors && !m_body->skippedRefused; ++b) {
    if (k.buffers[b].paramIndex < 0 && b < m_body->bufferUsed.size() && !m_body->bufferUsed[b])
      warning("W0100", k.buffers[b].span, "allocation '" + k.buffers[b].name + "' is never used");
  }
  for (size_t j = firstSymbol; j < m_program.symbols.size(); ++j)
    if (m_program.symbols[j].kernel == k.name)
      m_program.symbols[j].blockThreads = k.launch.threads();
  m_program.symbols[kernelSymbol].blockThreads = k.launch.threads();
  m_body.reset();
  Binding kb;
  kb.kind = Binding::Kind::Kernel;
  kb.index = static_cast<int>(m_program.kernels.size());
  kb.symbol = kernelSymbol;
  kb.span = s.nameSpan;
  m_moduleScope.names[s.name] = kb;
  m_program.kernels.push_back(std::move(k));
}

void Analyzer::lowerBlock(const ast::Block& block, std::vector<ir::Stmt>& out) {
  for (const auto& s : block)
    if (s) lowerStmt(*s, out);
}

void Analyzer::lowerStmtBody(const ast::Stmt& s, std::vector<ir::Stmt>& out) {
  const bool fn = m_body->inFunction;
  switch (s.kind) {
    case ast::StmtKind::Assign:
      if (s.value)
        for (const auto& t : s.targets) lowerAssignTo(*t, *s.value, nullptr, s.span, out);
      break;
    case ast::StmtKind::Pass:
      break;
    case ast::StmtKind::AnnAssign:
      if (!s.value) {
        error("E0107", s.span, "a declaration needs a value (`x: T.int32 = 0`)");
        break;
      }
      lowerAssignTo(*s.targets[0], *s.value, s.annotation.get(), s.span, out);
      break;
    case ast::StmtKind::AugAssign: {
      // x op= v  →  x = x op v (the same for element stores).
      const ast::Expr& t = *s.targets[0];
      if (t.kind == ast::ExprKind::Subscript) {
        Scalar cur = lowerLoad(t);
        Scalar v = lowerScalar(*s.value);
        if (!cur.ok() || !v.ok()) break;
        Scalar r = lowerBinary(t, s.op, cur, v, s.span);
        if (!r.ok()) break;
        auto ref = lowerTensor(*t.args[0]);
        ir::Stmt st;
        st.kind = ir::StmtKind::Store;
        st.span = s.span;
        st.tensor = ref;
        st.indices = cur.expr->args;
        st.value = r.expr;
        out.push_back(std::move(st));
        break;
      }
      if (t.kind != ast::ExprKind::Name) {
        error("E0107", t.span, "unsupported assignment target '" + text(t.span) + "'");
        break;
      }
      const Binding* b = lookup(t.text);
      if (!b || b->kind != Binding::Kind::Var) {
        if (!b)
          unknownName(t);
        else
          error("E0154", t.span, "'" + t.text + "' is not a scalar variable");
        break;
      }
      if (b->expansion != m_expansion) {  // sema_macro.cpp: the body's names are its own
        error("E0126", t.span,
              "a macro body cannot update its caller's variable '" + t.text +
                  "'; assign a new name, or pass a tile and store into it");
        break;
      }
      Scalar cur = lowerScalar(t);
      Scalar v = lowerScalar(*s.value);
      if (!cur.ok() || !v.ok()) break;
      Scalar r = lowerBinary(t, s.op, cur, v, s.span);
      if (!r.ok()) break;
      const int var = b->index;
      if (threadDependent(*r.expr) || !m_body->divergence.empty()) m_body->varThreadDep[var] = true;
      noteVarValue(var, r.expr.get());
      ir::Stmt st;
      st.kind = ir::StmtKind::Assign;
      st.span = s.span;
      st.var = var;
      st.value = r.expr;
      out.push_back(std::move(st));
      break;
    }
    case ast::StmtKind::ExprStmt:
      lowerExprStmt(s, out);
      break;
    case ast::StmtKind::For:
      if (fn) {
        error("E0201", s.span, "loops are not allowed in a scalar function (decision OPEN-10)");
        break;
      }
      lowerFor(s, out);
      break;
    case ast::StmtKind::While:
      if (fn) {
        error("E0201", s.span, "loops are not allowed in a scalar function (decision OPEN-10)");
        break;
      }
      lowerWhile(s, out);
      break;
    case ast::StmtKind::If:
      lowerIf(s, out);
      break;
    case ast::StmtKind::Return: {
      if (!fn) {
        error("E0115", s.span,
              "a kernel cannot return a value; results are written to output tensors");
        break;
      }
      if (!s.value) {
        error("E0203", s.span,
              "a scalar function must return a " + std::string(ir::dtypeName(m_body->returnType)) +
                  " value");
        break;
      }
      Scalar v = lowerScalar(*s.value);
      if (!v.ok()) break;
      if (v.literal) {
        if (v.expr->kind == ir::ExprKind::FloatImm && !ir::isFloat(m_body->returnType)) {
          error("E0203", s.value->span,
                "return type is " + std::string(ir::dtypeName(m_body->returnType)) +
                    ", found a float literal");
          break;
        }
        v = coerce(v, m_body->returnType, s.value->span, "return value");
      } else if (v.expr->dtype != m_body->returnType) {
        error("E0203", s.value->span,
              "return type is " + std::string(ir::dtypeName(m_body->returnType)) + ", found " +
                  std::string(ir::dtypeName(v.expr->dtype)));
        break;
      }
      if (!v.ok()) break;
      ir::Stmt st;
      st.kind = ir::StmtKind::Return;
      st.span = s.span;
      st.value = v.expr;
      out.push_back(std::move(st));
      break;
    }
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue: {
      const char* what = s.kind == ast::StmtKind::Break ? "break" : "continue";
      if (m_body->loopDepth == 0) {
        error("E0116", s.span, std::string("'") + what + "' outside a loop");
        break;
      }
      ir::Stmt st;
      st.kind = s.kind == ast::StmtKind::Break ? ir::StmtKind::Break : ir::StmtKind::Continue;
      st.span = s.span;
      out.push_back(std::move(st));
      break;
    }
    default: {
      const char* code = fn ? "E0201" : "E0107";
      error(code, s.span,
            std::string("this statement is not supported in ") +
                (fn ? "a scalar function" : "a kernel"));
      break;
    }
  }
  (void)out;
}

void Analyzer::lowerAssignTo(const ast::Expr& target, const ast::Expr& value,
                             const ast::Expr* annotation, SourceSpan span,
                             std::vector<ir::Stmt>& out) {
  if (target.kind == ast::ExprKind::Subscript) {
    lowerStore(target, value, span, out);
    return;
  }
  if (target.kind != ast::ExprKind::Name) {
    error("E0107", target.span,
          "unsupported assignment target '" + text(target.span) + "'; assign one name at a time");
    return;
  }
  const std::string& name = target.text;
  const bool fn = m_body->inFunction;
  // A declaration refused below still binds its name (sema_recovery.cpp).
  struct BindIfRefused {
    Analyzer& a;
    const std::string& name;
    SourceSpan span;
    size_t diags;
    ~BindIfRefused() {
      if (a.m_diags.size() > diags && !a.m_body->locals.names.count(name))
        a.bindRefused(name, span);
    }
  } bindIfRefused{*this, name, target.span, m_diags.size()};
  if (value.kind == ast::ExprKind::Call) {
    const std::string p = builtinPath(*value.args[0]);
    if (p == "T.alloc_local" || p == "T.alloc_shared") {
      if (fn) {
        error("E0201", value.span, "allocations are not allowed in a scalar function");
        return;
      }
      lowerAlloc(value, name, target.span,
                 p == "T.alloc_local" ? ir::MemScope::Local : ir::MemScope::Shared);
      return;
    }
  }
  if (!fn && isTensorExpr(value)) {
    auto ref = lowerTensor(value);
    if (!ref) return;
    ir::Symbol sym;
    sym.kind = ir::Symbol::Kind::View;
    sym.buffer = ref->buffer;
    sym.name = name;
    sym.kernel = m_body->kernel ? m_body->kernel->name : "";
    sym.span = target.span;
    sym.layout = ref->layout;
    sym.shape = ref->shape;
    sym.dtype = ref->dtype;
    sym.scope = ref->scope;
    Binding b;
    b.kind = Binding::Kind::Tensor;
    auto named = std::make_shared<ir::TensorRef>(*ref);
    named->text = name;
    b.tensor = named;
    b.symbol = addSymbol(std::move(sym));
    b.span = target.span;
    m_body->locals.names[name] = b;
    return;
  }
  Scalar v = lowerScalar(value);
  if (!v.ok()) return;
  std::optional<DType> declared;
  if (annotation) {
    declared = dtypeArg(*annotation);
    if (!declared) return;
  }
  const Binding* existing = nullptr;
  if (auto it = m_body->locals.names.find(name); it != m_body->locals.names.end() &&
                                                 it->second.kind == Binding::Kind::Var &&
                                                 it->second.expansion == m_expansion)
    existing = &it->second;  // a macro body never assigns its caller's variables (sema_macro.cpp)
  DType t = declared    ? *declared
            : existing  ? (*m_body->vars)[existing->index].dtype
            : v.literal ? concreteLiteralType(v, v)  // Python int: int32, or int64 when it needs it
                        : v.expr->dtype;
  if (v.literal || v.expr->dtype != t) {
    if (!v.literal) {
      error("E0154", value.span,
            "'" + name + "' is " + std::string(ir::dtypeName(t)) + ", but the value is " +
                std::string(ir::dtypeName(v.expr->dtype)));
      return;
    }
    v = coerce(v, t, value.span, ("assignment to '" + name + "'").c_str());
    if (!v.ok()) return;
  }
  const bool dep = threadDependent(*v.expr) || !m_body->divergence.empty();
  int var;
  if (existing && !declared) {
    var = existing->index;
    if (dep) m_body->varThreadDep[var] = true;
    useSymbol(existing->symbol, target.span);
  } else {
    var = newVar(name, t, target.span, dep);
    Binding b;
    b.kind = Binding::Kind::Var;
    b.index = var;
    b.expansion = m_expansion;
    b.span = target.span;
    ir::Symbol sym;
    sym.kind = ir::Symbol::Kind::Scalar;
    sym.name = name;
    sym.kernel =
        m_body->kernel ? m_body->kernel->name : (m_body->function ? m_body->function->name : "");
    sym.span = target.span;
    sym.dtype = t;
    b.symbol = addSymbol(std::move(sym));
    m_body->locals.names[name] = b;
  }
  noteVarValue(var, v.expr.get());
  noteAffineDef(var, name, *v.expr);
  ir::Stmt st;
  st.kind = ir::StmtKind::Assign;
  st.span = span;
  st.var = var;
  st.value = v.expr;
  out.push_back(std::move(st));
}

void Analyzer::lowerExprStmt(const ast::Stmt& s, std::vector<ir::Stmt>& out) {
  const ast::Expr& e = *s.value;
  if (e.kind == ast::ExprKind::Str) return;  // docstring / comment string
  if (e.kind == ast::ExprKind::FString) {
    // Python evaluates it (a plain string would be a docstring or a comment): refused.
    error("E0107", e.span, "f-strings are not supported in TIRx code");
    return;
  }
  if (e.kind == ast::ExprKind::Call) {
    if (const ast::Expr& callee = *e.args[0]; callee.kind == ast::ExprKind::Name)
      if (const Binding* b = lookup(callee.text); b && b->kind == Binding::Kind::Macro) {
        expandMacro(e, *b, out);  // sema_macro.cpp
        return;
      }
    const std::string p = builtinPath(*e.args[0]);
    const bool fn = m_body->inFunction;
    if (p == "T.cuda.tile.apply" || p == "T.cuda.tile.ewise") {
      if (fn) {
        error("E0201", e.span, "tile operations are not allowed in a scalar function");
        return;
      }
      if (p == "T.cuda.tile.apply")
        lowerApply(e, out);
      else
        lowerEwise(e, out);
      return;
    }
    if (p == "T.cuda.cta_sync" || p == "T.cuda.warp_sync") {
      if (fn) {
        error("E0201", e.span, "barriers are not allowed in a scalar function");
        return;
      }
      lowerBarrier(e, p == "T.cuda.cta_sync" ? "cta_sync" : "warp_sync", out);
      return;
    }
    if (p == "T.ptx.bar.sync" || p == "T.ptx.bar.arrive") {
      if (fn) {
        error("E0201", e.span, p + " is not allowed in a scalar function");
        return;
      }
      lowerNamedBarrier(e, p == "T.ptx.bar.arrive", out);
      return;
    }
    if (p == "T.cuda.warpgroup_sync" || p == "T.ptx.setmaxnreg") {
      if (fn) {
        error("E0201", e.span, p + " is not allowed in a scalar function");
        return;
      }
      if (p == "T.cuda.warpgroup_sync")
        lowerWarpgroupSync(e, out);
      else
        lowerSetMaxNReg(e, out);
      return;
    }
    if (isAsyncStatement(e)) {
      lowerAsyncStatement(e, out);
      return;
    }
    if (p == "T.device_entry") {
      error("E0111", e.span,
            fn ? "T.device_entry belongs in a kernel"
               : "T.device_entry must be the first statement of a kernel body");
      return;
    }
    Scalar v = lowerScalar(e);
    if (v.ok()) error("E0107", e.span, "the value of this expression is unused");
    return;
  }
  Scalar v = lowerScalar(e);
  if (v.ok()) error("E0107", e.span, "the value of this expression is unused");
}

void Analyzer::lowerBarrier(const ast::Expr& call, const std::string& kind,
                            std::vector<ir::Stmt>& out) {
  if (!checkCallShape(call, "T.cuda." + kind, 0, 0, {})) return;
  if (kind == "cta_sync" && !m_body->divergence.empty()) {
    auto& d = error("E0210", call.span,
                    "T.cuda.cta_sync() inside thread-dependent control flow; every thread of the "
                    "block must reach the barrier");
    note(d, m_body->divergence.back(),
         "this condition depends on the thread index, so threads of one block may take different "
         "paths");
  }
  ir::Stmt st;
  st.kind = ir::StmtKind::Barrier;
  st.span = call.span;
  st.barrier = kind;
  out.push_back(std::move(st));
}

void Analyzer::lowerFor(const ast::Stmt& s, std::vector<ir::Stmt>& out) {
  const ast::Expr& target = *s.targets[0];
  const ast::Expr& iter = *s.value;
  if (!s.orelse.empty()) error("E0107", s.span, "for-else is not supported");
  if (iter.kind != ast::ExprKind::Call) {
    error("E0107", iter.span,
          "loops iterate over range(...), T.serial(...) or T.unroll(...), found '" +
              text(iter.span) + "'");
    return;
  }
  const ast::Expr& callee = *iter.args[0];
  std::string kind;
  if (callee.kind == ast::ExprKind::Name && callee.text == "range" && !lookup("range"))
    kind = "range";
  else {
    const std::string p = builtinPath(callee);
    if (p == "T.serial" || p == "T.unroll")
      kind = p;
    else if (p == "T.grid" || p == "T.vectorized" || p == "T.parallel") {
      error("E0107", callee.span,
            p + " loops are not supported by this checker; use range or T.serial");
      return;
    } else {
      error("E0107", iter.span,
            "loops iterate over range(...), T.serial(...) or T.unroll(...), found '" +
                text(callee.span) + "'");
      return;
    }
  }
  if (target.kind != ast::ExprKind::Name) {
    error("E0107", target.span,
          "a loop variable must be a single name, found '" + text(target.span) + "'");
    return;
  }
  const std::vector<std::string> kws =
      kind == "range" ? std::vector<std::string>{}
                      : std::vector<std::string>{"step", "unroll", "annotations"};
  if (!checkCallShape(iter, kind, 1, 3, kws)) return;
  std::vector<ir::ExprPtr> b;
  for (size_t i = 1; i < iter.args.size(); ++i) {
    auto x = lowerIndex(*iter.args[i]);
    if (!x) return;
    b.push_back(x);
  }
  ir::ExprPtr start = b.size() >= 2 ? b[0] : mkInt(0, iter.span);
  ir::ExprPtr stop = b.size() >= 2 ? b[1] : b[0];
  ir::ExprPtr step = b.size() == 3 ? b[2] : mkInt(1, iter.span);
  if (const ast::Expr* st = keyword(iter, "step")) {
    step = lowerIndex(*st);
    if (!step) return;
  }
  if (auto c = constValue(*step); c && *c == 0) {
    error("E0105", step->span, "a loop step must not be zero");
    return;
  }
  bool unroll = kind == "T.unroll";
  if (const ast::Expr* u = keyword(iter, "unroll"))
    unroll = u->kind == ast::ExprKind::Bool ? u->boolValue : unroll;
  const bool dep = threadDependent(*start) || threadDependent(*stop) || threadDependent(*step);
  if (dep) m_body->divergence.push_back(iter.span);
  const bool laneDep = !warpUniform(*start) || !warpUniform(*stop) || !warpUniform(*step);
  if (laneDep) m_body->laneDivergence.push_back(iter.span);
  const bool outerDivergent = !m_body->divergence.empty();
  ir::Stmt st;
  st.kind = ir::StmtKind::For;
  st.span = s.span;
  st.start = start;
  st.stop = stop;
  st.step = step;
  st.unroll = unroll;
  // The loop variable is int32 (spec §4.7) unless a bound needs 64 bits (an int64 value or a
  // literal beyond int32, or an unsigned 32-bit bound): then every value of the range fits.
  DType varType = DType::Int32;
  for (const ir::ExprPtr& x : {start, stop, step})
    if (x->dtype == DType::Int64 || x->dtype == DType::UInt64 || x->dtype == DType::UInt32)
      varType = DType::Int64;
  st.var = newVar(target.text, varType, target.span, dep || outerDivergent);
  for (const ir::ExprPtr& x : {start, stop, step}) noteVarValue(st.var, x.get());
  Binding vb;
  vb.kind = Binding::Kind::Var;
  vb.expansion = m_expansion;
  vb.index = st.var;
  vb.span = target.span;
  ir::Symbol sym;
  sym.kind = ir::Symbol::Kind::Scalar;
  sym.name = target.text;
  sym.kernel = m_body->kernel ? m_body->kernel->name : "";
  sym.span = target.span;
  sym.dtype = varType;
  vb.symbol = addSymbol(std::move(sym));
  m_body->locals.names[target.text] = vb;
  ++m_body->loopDepth;
  lowerBlock(s.body, st.body);
  --m_body->loopDepth;
  if (dep) m_body->divergence.pop_back();
  if (laneDep) m_body->laneDivergence.pop_back();
  out.push_back(std::move(st));
}

void Analyzer::lowerWhile(const ast::Stmt& s, std::vector<ir::Stmt>& out) {
  if (!s.orelse.empty()) error("E0107", s.span, "while-else is not supported");
  auto c = asBool(lowerScalar(*s.value), s.value->span);
  if (!c) return;
  // A while loop's trip count may change in the body; treat any loop whose condition reads a
  // thread-dependent value as divergent.
  const bool dep = threadDependent(*c);
  if (dep) m_body->divergence.push_back(s.value->span);
  const bool laneDep = !warpUniform(*c);
  if (laneDep) m_body->laneDivergence.push_back(s.value->span);
  ir::Stmt st;
  st.kind = ir::StmtKind::While;
  st.span = s.span;
  st.value = c;
  ++m_body->loopDepth;
  lowerBlock(s.body, st.body);
  --m_body->loopDepth;
  if (dep) m_body->divergence.pop_back();
  if (laneDep) m_body->laneDivergence.pop_back();
  out.push_back(std::move(st));
}

void Analyzer::lowerIf(const ast::Stmt& s, std::vector<ir::Stmt>& out) {
  // A condition on Python values alone (`if POLY == 0:` on module constants or a macro's integer
  // arguments) is decided while the script is read, as TVMScript's parser does: only the branch
  // taken is analysed and emitted; the other may hold code that is illegal for these constants
  // (an empty slice when POLY is 0), exactly as Python never evaluates it (decision STATIC-IF-1).
  if (const std::optional<bool> taken = staticCondition(*s.value)) {
    lowerBlock(*taken ? s.body : s.orelse, out);
    return;
  }
  auto c = asBool(lowerScalar(*s.value), s.value->span);
  const bool dep = c && threadDependent(*c);
  if (dep) m_body->divergence.push_back(s.value->span);
  const bool laneDep = c && !warpUniform(*c);
  if (laneDep) m_body->laneDivergence.push_back(s.value->span);
  ir::Stmt st;
  st.kind = ir::StmtKind::If;
  st.span = s.span;
  st.value = c ? c : mkInt(1, s.value->span, DType::Bool);
  lowerBlock(s.body, st.body);
  lowerBlock(s.orelse, st.orelse);
  if (dep) m_body->divergence.pop_back();
  if (laneDep) m_body->laneDivergence.pop_back();
  if (c) out.push_back(std::move(st));
}

}  // namespace tirx::sema
