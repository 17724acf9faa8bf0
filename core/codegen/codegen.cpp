// The CUDA generator's driver: names, the prelude, scalar functions, kernels (signature, thread
// coordinates, allocations) and statements, each preceded by `#line`, plus the source map.
#include <algorithm>

#include "core/codegen/codegen_internal.h"
#include "core/ir/buffer_access.h"
#include "core/ir/shared_memory.h"
#include "core/ptx/ptx_loc.h"

namespace tirx::codegen {

namespace {

const std::set<std::string>& reservedNames() {
  static const std::set<std::string> r = {
      "auto",    "bool",      "break",    "case",     "char",      "const",    "continue",
      "default", "do",        "double",   "else",     "enum",      "extern",   "float",
      "for",     "goto",      "if",       "int",      "long",      "register", "return",
      "short",   "signed",    "sizeof",   "static",   "struct",    "switch",   "typedef",
      "union",   "unsigned",  "void",     "volatile", "while",     "class",    "delete",
      "new",     "namespace", "operator", "private",  "protected", "public",   "template",
      "this",    "throw",     "try",      "catch",    "typename",  "using",    "virtual",
      "asm",     "inline",    "friend",   "mutable",  "explicit",  "export",   "true",
      "false",   "threadIdx", "blockIdx", "blockDim", "gridDim",   "warpSize", "min",
      "max",     "exp",       "expf",     "log",      "sqrt",      "abs",      "floor",
      "ceil",    "round",     "sin",      "cos",      "tanh",      "pow",      "main",
      "half",    "float4",    "int4",     "char4",    "float2",    "int2",     "uint"};
  return r;
}

std::string sanitize(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
  if (reservedNames().count(s) || s.rfind("tirx_", 0) == 0 || s.rfind("__", 0) == 0) s += "_";
  return s;
}

std::string escapeFile(const std::string& f) {
  std::string s;
  for (char c : f) {
    if (c == '\\' || c == '"') s += '\\';
    s += c;
  }
  return s;
}

const char* kHelpers =
    // Integer semantics of the simulator (DEC-SCALAR-1, docs/simulator.md "Scalar math"): signed
    // int32/int64 + - * and negation wrap (computed unsigned: C++ overflow is undefined, and
    // NVRTC may fold `x + 1 > x`), INT_MIN / -1 wraps, shifts clamp their amount as PTX shl/shr.
    "__device__ __forceinline__ int tirx_wadd(int a, int b) { return (int)((unsigned)a + "
    "(unsigned)b); }\n"
    "__device__ __forceinline__ long long tirx_wadd(long long a, long long b) { return (long "
    "long)((unsigned long long)a + (unsigned long long)b); }\n"
    "__device__ __forceinline__ int tirx_wsub(int a, int b) { return (int)((unsigned)a - "
    "(unsigned)b); }\n"
    "__device__ __forceinline__ long long tirx_wsub(long long a, long long b) { return (long "
    "long)((unsigned long long)a - (unsigned long long)b); }\n"
    "__device__ __forceinline__ int tirx_wmul(int a, int b) { return (int)((unsigned)a * "
    "(unsigned)b); }\n"
    "__device__ __forceinline__ long long tirx_wmul(long long a, long long b) { return (long "
    "long)((unsigned long long)a * (unsigned long long)b); }\n"
    "__device__ __forceinline__ int tirx_wneg(int a) { return (int)(0u - (unsigned)a); }\n"
    "__device__ __forceinline__ long long tirx_wneg(long long a) { return (long long)(0ull - "
    "(unsigned long long)a); }\n"
    "__device__ __forceinline__ int tirx_iabs(int a) { return a < 0 ? tirx_wneg(a) : a; }\n"
    "__device__ __forceinline__ long long tirx_iabs(long long a) { return a < 0 ? tirx_wneg(a) : "
    "a; }\n"
    "__device__ __forceinline__ int tirx_div(int a, int b) { return b == -1 ? tirx_wneg(a) : a / "
    "b; }\n"
    "__device__ __forceinline__ long long tirx_div(long long a, long long b) { return b == -1 ? "
    "tirx_wneg(a) : a / b; }\n"
    "__device__ __forceinline__ int tirx_mod(int a, int b) { return b == -1 ? 0 : a % b; }\n"
    "__device__ __forceinline__ long long tirx_mod(long long a, long long b) { return b == -1 ? 0 "
    ": a % b; }\n"
    "template <class A, class B> __device__ __forceinline__ auto tirx_floordiv(A a, B b) -> "
    "decltype(a / b) {\n"
    "  auto q = a / b;\n"
    "  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;\n"
    "}\n"
    "template <class A, class B> __device__ __forceinline__ auto tirx_floormod(A a, B b) -> "
    "decltype(a % b) {\n"
    "  auto r = a % b;\n"
    "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n"
    "}\n"
    "__device__ __forceinline__ int tirx_floordiv(int a, int b) {\n"
    "  if (b == -1) return tirx_wneg(a);\n"
    "  int q = a / b;\n"
    "  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;\n"
    "}\n"
    "__device__ __forceinline__ long long tirx_floordiv(long long a, long long b) {\n"
    "  if (b == -1) return tirx_wneg(a);\n"
    "  long long q = a / b;\n"
    "  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;\n"
    "}\n"
    "__device__ __forceinline__ int tirx_floormod(int a, int b) {\n"
    "  if (b == -1) return 0;\n"
    "  int r = a % b;\n"
    "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n"
    "}\n"
    "__device__ __forceinline__ long long tirx_floormod(long long a, long long b) {\n"
    "  if (b == -1) return 0;\n"
    "  long long r = a % b;\n"
    "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n"
    "}\n"
    "template <class T, class S> __device__ __forceinline__ T tirx_shl(T a, S b) {\n"
    "  return (unsigned long long)b >= 8 * sizeof(T) ? (T)0 : (T)((unsigned long long)a << "
    "(unsigned)b);\n"
    "}\n"
    "template <class T, class S> __device__ __forceinline__ T tirx_shr(T a, S b) {\n"
    "  return (T)((unsigned long long)b >= 8 * sizeof(T) ? a >> (8 * sizeof(T) - 1) >> 1 : a >> "
    "(unsigned)b);\n"
    "}\n"
    // 8/16-bit integers are computed in 32 bits and brought back to their type by an opaque
    // cvt (DEC-SCALAR-6): NVRTC cannot narrow the arithmetic to .s16/.b16 instructions, which
    // the H100's code got wrong at the wrap-around (-(-32768) sign-extended to +32768).
    "__device__ __forceinline__ int tirx_s8(unsigned v) { int r; asm(\"cvt.s32.s8 %0, %1;\" : "
    "\"=r\"(r) : \"r\"(v)); return r; }\n"
    "__device__ __forceinline__ int tirx_s16(unsigned v) { int r; asm(\"cvt.s32.s16 %0, %1;\" : "
    "\"=r\"(r) : \"r\"(v)); return r; }\n"
    "__device__ __forceinline__ unsigned tirx_u8(unsigned v) { unsigned r; asm(\"cvt.u32.u8 %0, "
    "%1;\" : \"=r\"(r) : \"r\"(v)); return r; }\n"
    "__device__ __forceinline__ unsigned tirx_u16(unsigned v) { unsigned r; asm(\"cvt.u32.u16 "
    "%0, %1;\" : \"=r\"(r) : \"r\"(v)); return r; }\n"
    // Shifts of an 8/16-bit value `a` (promoted to 32 bits) by `b`: an amount of the width `w` or
    // more, or negative, gives 0 (<<) or the sign (>>), as the simulator's 64-bit shift.
    "template <class S> __device__ __forceinline__ unsigned tirx_nshl(unsigned a, S b, unsigned w) "
    "{\n"
    "  return (unsigned long long)b >= w ? 0u : a << (unsigned)b;\n"
    "}\n"
    "template <class S> __device__ __forceinline__ int tirx_nshr(int a, S b, unsigned w) {\n"
    "  return (unsigned long long)b >= w ? a >> 31 : a >> (unsigned)b;\n"
    "}\n"
    // Float → integer as the PTX instruction, opaque to the compiler: LLVM's instcombine turns
    // __float2int_rz & co. into fptosi/fptoui, whose out-of-range and NaN results are poison
    // (the likely cause of the H100's float → integer disagreements of issue 22, DEC-SCALAR-5).
    "__device__ __forceinline__ int tirx_f2i_rz(float x) { int r; asm(\"cvt.rzi.s32.f32 %0, "
    "%1;\" : \"=r\"(r) : \"f\"(x)); return r; }\n"
    "__device__ __forceinline__ unsigned tirx_f2ui_rz(float x) { unsigned r; asm(\"cvt.rzi.u32.f32 "
    "%0, "
    "%1;\" : \"=r\"(r) : \"f\"(x)); return r; }\n"
    "__device__ __forceinline__ long long tirx_f2ll_rz(float x) { long long r; "
    "asm(\"cvt.rzi.s64.f32 %0, "
    "%1;\" : \"=l\"(r) : \"f\"(x)); return r; }\n"
    "__device__ __forceinline__ unsigned long long tirx_f2ull_rz(float x) { unsigned long long r; "
    "asm(\"cvt.rzi.u64.f32 %0, "
    "%1;\" : \"=l\"(r) : \"f\"(x)); return r; }\n"
    "__device__ __forceinline__ int tirx_d2i_rz(double x) { int r; asm(\"cvt.rzi.s32.f64 %0, "
    "%1;\" : \"=r\"(r) : \"d\"(x)); return r; }\n"
    "__device__ __forceinline__ unsigned tirx_d2ui_rz(double x) { unsigned r; "
    "asm(\"cvt.rzi.u32.f64 %0, "
    "%1;\" : \"=r\"(r) : \"d\"(x)); return r; }\n"
    "__device__ __forceinline__ long long tirx_d2ll_rz(double x) { long long r; "
    "asm(\"cvt.rzi.s64.f64 %0, "
    "%1;\" : \"=l\"(r) : \"d\"(x)); return r; }\n"
    "__device__ __forceinline__ unsigned long long tirx_d2ull_rz(double x) { unsigned long long r; "
    "asm(\"cvt.rzi.u64.f64 %0, "
    "%1;\" : \"=l\"(r) : \"d\"(x)); return r; }\n"
    // PTX min/max (one NaN operand gives the other, -0 < +0), the simulator's minF32/maxF32.
    "__device__ __forceinline__ float tirx_fminf(float a, float b) { float r; asm(\"min.f32 %0, "
    "%1, %2;\" : \"=f\"(r) : \"f\"(a), \"f\"(b)); return r; }\n"
    "__device__ __forceinline__ float tirx_fmaxf(float a, float b) { float r; asm(\"max.f32 %0, "
    "%1, %2;\" : \"=f\"(r) : \"f\"(a), \"f\"(b)); return r; }\n"
    "__device__ __forceinline__ double tirx_fmin(double a, double b) { double r; asm(\"min.f64 %0, "
    "%1, %2;\" : \"=d\"(r) : \"d\"(a), \"d\"(b)); return r; }\n"
    "__device__ __forceinline__ double tirx_fmax(double a, double b) { double r; asm(\"max.f64 %0, "
    "%1, %2;\" : \"=d\"(r) : \"d\"(a), \"d\"(b)); return r; }\n"
    "__device__ __forceinline__ float tirx_floormodf(float a, float b) { return a - floorf(a / b) "
    "* b; }\n"
    // The XOR swizzle of a ComposeLayout tile, on an offset in units of 2^m elements (TC §9.1).
    "__device__ __forceinline__ int tirx_swizzle(int o, int m, int b, int s) {\n"
    "  return o ^ (((o >> (m + s)) & ((1 << b) - 1)) << m);\n"
    "}\n";

/// Walk statements: record each var's first assignment depth and the loop variables.
void scanDecls(const std::vector<ir::Stmt>& body, int depth, std::map<int, int>& firstDepth,
               std::set<int>& loopVars) {
  for (const auto& s : body) {
    if (s.kind == ir::StmtKind::Assign && !firstDepth.count(s.var)) firstDepth[s.var] = depth;
    if (s.kind == ir::StmtKind::For) loopVars.insert(s.var);
    scanDecls(s.body, depth + 1, firstDepth, loopVars);
    scanDecls(s.orelse, depth + 1, firstDepth, loopVars);
  }
}

/// Every wgmma statement of `body`, nested ones included.
template <class F>
void collectWgmmas(const std::vector<ir::Stmt>& body, F&& f) {
  for (const auto& s : body) {
    if (s.kind == ir::StmtKind::Wgmma && s.wgmma) f(*s.wgmma);
    collectWgmmas(s.body, f);
    collectWgmmas(s.orelse, f);
  }
}

}  // namespace

std::vector<int> SourceMap::cudaLinesOf(int scriptLine) const {
  std::vector<int> out;
  for (size_t i = 1; i < cudaToScript.size(); ++i)
    if (cudaToScript[i] == scriptLine) out.push_back(int(i));
  return out;
}

std::vector<int> SourceMap::ptxLinesOf(int scriptLine) const {
  std::vector<int> out;
  for (size_t i = 1; i < ptxToScript.size(); ++i)
    if (ptxToScript[i] == scriptLine) out.push_back(int(i));
  return out;
}

std::vector<int> SourceMap::sassLinesOf(int scriptLine) const {
  std::vector<int> out;
  for (size_t i = 1; i < sassToScript.size(); ++i)
    if (sassToScript[i] == scriptLine) out.push_back(int(i));
  return out;
}

void SourceMap::attachPtx(const std::string& ptx, const std::string& file) {
  ptxToScript = ptxScriptLines(ptx, file);  // the one `.loc` reader (core/ptx/ptx_loc.h)
}

namespace detail {

void Emitter::line(const std::string& text) {
  // Inside a recorded statement every line gets its own #line, so that a statement spanning
  // several lines (the repeats of a tile op) is attributed to one script line throughout.
  if (m_openScriptLine > 0 && m_opt.lineDirectives) {
    m_out << "#line " << m_openScriptLine << " \"" << escapeFile(m_opt.scriptFile) << "\"\n";
    ++m_lineNo;
  }
  m_out << text << '\n';
  ++m_lineNo;
}

void Emitter::begin(const SourceSpan& span) {
  m_openScriptLine = span.valid() ? span.line : 0;
  m_openFirst = m_lineNo + 1;
}

void Emitter::end() {
  if (m_openScriptLine > 0 && m_lineNo >= m_openFirst)
    m_res.map.statements.push_back({m_openScriptLine, m_openFirst, m_lineNo});
  m_openScriptLine = 0;
}

void Emitter::stmt(const SourceSpan& span, const std::string& text) {
  begin(span);
  line(indent() + text);
  end();
}

void Emitter::internalError(const SourceSpan& span, const std::string& what) {
  // Sema accepts only what the generator lowers, so reaching here is a tirx bug, not a script
  // error: its own code, and words that say so (decision FRONT-4).
  m_res.diagnostics.push_back(makeError(
      std::string(kInternalErrorCode), span,
      "internal error: " + what + " (this is a tirx bug, please report it with the script)"));
}

void Emitter::emitStmts(const std::vector<ir::Stmt>& body) {
  for (const auto& s : body) emitStmt(s);
}

void Emitter::emitStmt(const ir::Stmt& s) {
  using K = ir::StmtKind;
  auto varType = [&](int id) {
    if (m_vars)
      for (const auto& v : *m_vars)
        if (v.id == id) return v.dtype;
    return ir::DType::Int32;
  };
  switch (s.kind) {
    case K::Assign: {
      const ir::DType t = varType(s.var);
      std::string text = varName(s.var) + " = " + exprAs(s.value, t) + ";";
      if (!m_declared.count(s.var) && m_inlineDecl.count(s.var)) {
        // A launch index can lose every use to constant folding (a grid or block extent of 1
        // makes it 0): NVRTC's "declared but never referenced" would then name a variable the
        // script does use.
        const bool launchIndex = s.value && (s.value->kind == ir::ExprKind::ThreadIdx ||
                                             s.value->kind == ir::ExprKind::BlockIdx);
        text = (launchIndex ? "[[maybe_unused]] " : "") + valueType(t) + " " + text;
        m_declared.insert(s.var);
      }
      stmt(s.span, text);
      return;
    }
    case K::Store: {
      if (!s.tensor) return;
      std::vector<std::string> idx;
      for (const auto& e : s.indices) idx.push_back(expr(e));
      const std::string v = exprAs(s.value, s.tensor->dtype);
      stmt(s.span, element(*s.tensor, offsetExpr(*s.tensor, idx)) + " = " +
                       toStorage(v, s.tensor->dtype, s.tensor->dtype) + ";");
      return;
    }
    case K::Apply:
      if (s.apply) emitApply(s);
      return;
    case K::Ewise:
      if (s.ewise) emitEwise(s);
      return;
    case K::Tma:
      if (s.tma) emitTma(s);
      return;
    case K::For: {
      const ir::DType t = varType(s.var);
      const std::string v = varName(s.var);
      bool down = s.step && s.step->kind == ir::ExprKind::IntImm && s.step->intValue < 0;
      const std::string step = s.step ? exprAs(s.step, t) : "1";
      begin(s.span);
      if (s.unroll) line(indent() + "#pragma unroll");
      line(indent() + "for (" + valueType(t) + " " + v + " = " + exprAs(s.start, t) + "; " + v +
           (down ? " > " : " < ") + exprAs(s.stop, t) + "; " + v + " += " + step + ") {");
      end();
      m_declared.insert(s.var);
      noteLoopAccumulators(s.body);
      ++m_depth;
      emitStmts(s.body);
      --m_depth;
      stmt(s.span, "}");
      return;
    }
    case K::While:
      stmt(s.span, "while (" + expr(s.value) + ") {");
      noteLoopAccumulators(s.body);
      ++m_depth;
      emitStmts(s.body);
      --m_depth;
      stmt(s.span, "}");
      return;
    case K::If:
      stmt(s.span, "if (" + expr(s.value) + ") {");
      ++m_depth;
      emitStmts(s.body);
      --m_depth;
      if (!s.orelse.empty()) {
        stmt(s.span, "} else {");
        ++m_depth;
        emitStmts(s.orelse);
        --m_depth;
      }
      stmt(s.span, "}");
      return;
    case K::Barrier:
      if (s.barrier == "warpgroup_sync") {
        stmt(s.span, "asm volatile(\"bar.sync %0, 128;\" :: \"r\"((int)(" + expr(s.value) +
                         ")) : \"memory\");");
        return;
      }
      if (s.barrier == "bar_sync" && !s.barrierCount) {
        stmt(s.span,
             "asm volatile(\"bar.sync %0;\" :: \"r\"((int)(" + expr(s.value) + ")) : \"memory\");");
        return;
      }
      if (s.barrier == "bar_sync" || s.barrier == "bar_arrive") {
        stmt(s.span, "asm volatile(\"" +
                         std::string(s.barrier == "bar_sync" ? "bar.sync" : "bar.arrive") +
                         " %0, %1;\" :: \"r\"((int)(" + expr(s.value) + ")), \"r\"((int)(" +
                         expr(s.barrierCount) + ")) : \"memory\");");
        return;
      }
      stmt(s.span, s.barrier == "warp_sync" ? "__syncwarp();" : "__syncthreads();");
      return;
    case K::Wgmma:
      if (s.wgmma) emitWgmma(s);
      return;
    case K::Async:
      if (s.async) emitAsync(s);
      return;
    case K::Break:
      stmt(s.span, "break;");
      return;
    case K::Continue:
      stmt(s.span, "continue;");
      return;
    case K::Return:
      stmt(s.span, "return " + (s.value ? expr(s.value) : std::string()) + ";");
      return;
  }
}

void Emitter::noteAccumulators(const std::vector<std::string>& operands) {
  for (const std::string& op : operands)
    if (m_pinnedSet.insert(op).second) m_wgmmaAccumulators.push_back(op);
}

void Emitter::noteLoopAccumulators(const std::vector<ir::Stmt>& body) {
  collectWgmmas(body,
                [&](const ir::Wgmma& w) { noteAccumulators(wgmmaRegisterOperands(w, false)); });
}

void Emitter::emitProgram() {
  // Scalar functions (all of them; the compiler drops unused ones).
  for (const auto& f : m_prog.functions) {
    m_kernel = nullptr;
    m_vars = &f.vars;
    m_names = {};
    std::set<std::string> used;
    int maxId = -1;
    for (const auto& v : f.vars) maxId = std::max(maxId, v.id);
    m_names.var.assign(size_t(maxId + 1), "");
    for (const auto& v : f.vars) {
      std::string n = sanitize(v.name);
      if (used.count(n)) n += "_" + std::to_string(v.id);
      used.insert(n);
      m_names.var[size_t(v.id)] = n;
    }
    std::map<int, int> firstDepth;
    std::set<int> loops;
    scanDecls(f.body, 0, firstDepth, loops);
    m_declared = std::set<int>(f.params.begin(), f.params.end());
    m_inlineDecl.clear();
    std::string sig = "__device__ __forceinline__ " + valueType(f.ret) + " " + f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i) {
      ir::DType t = ir::DType::Float32;
      for (const auto& v : f.vars)
        if (v.id == f.params[i]) t = v.dtype;
      sig += (i ? ", " : "") + valueType(t) + " " + varName(f.params[i]);
    }
    stmt(f.span, sig + ") {");
    ++m_depth;
    for (const auto& [id, depth] : firstDepth) {
      if (m_declared.count(id)) continue;
      if (depth == 0)
        m_inlineDecl.insert(id);
      else {
        stmt(f.span, valueType(varType(f.vars, id)) + " " + varName(id) + "{};");
        m_declared.insert(id);
      }
    }
    emitStmts(f.body);
    --m_depth;
    stmt(f.span, "}");
    line("");
  }
  for (const auto& k : m_prog.kernels) {
    if (!m_opt.kernel.empty() && k.name != m_opt.kernel) continue;
    m_kernel = &k;
    m_vars = &k.vars;
    m_res.kernels.push_back(k.name);
    // Names: buffers first, then scalar variables.
    m_names = {};
    std::set<std::string> used;
    m_names.buffer.resize(k.buffers.size());
    for (size_t i = 0; i < k.buffers.size(); ++i) {
      std::string n = sanitize(k.buffers[i].name);
      if (used.count(n)) n += "_" + std::to_string(i);
      used.insert(n);
      m_names.buffer[i] = n;
    }
    int maxId = -1;
    for (const auto& v : k.vars) maxId = std::max(maxId, v.id);
    m_names.var.assign(size_t(maxId + 1), "");
    for (const auto& v : k.vars) {
      std::string n = sanitize(v.name);
      if (used.count(n)) n += "_" + std::to_string(v.id);
      used.insert(n);
      m_names.var[size_t(v.id)] = n;
    }
    // setmaxnreg needs the register count at entry fixed: without a minimum of one block per SM
    // ptxas drops every setmaxnreg of the kernel ("(C7508) 'setmaxnreg' ignored; unable to
    // determine register count at entry"), for 128 or 256 threads and even for 384 (ptxas 13.0).
    bool setsMaxNReg = false;
    ir::forEachStmt(k.body, [&](const ir::Stmt& s) {
      if (s.kind == ir::StmtKind::Async && s.async && s.async->kind == ir::AsyncKind::SetMaxNReg)
        setsMaxNReg = true;
    });
    std::string sig = "extern \"C\" __global__ void __launch_bounds__(" +
                      std::to_string(k.launch.threads()) + (setsMaxNReg ? ", 1" : "") + ") " +
                      k.name + "(";
    m_declared.clear();
    for (size_t i = 0; i < k.params.size(); ++i) {
      const ir::KernelParam& p = k.params[i];
      sig += i ? ", " : "";
      if (p.isTensor && p.buffer >= 0 && p.buffer < int(k.buffers.size())) {
        const ir::Buffer& b = k.buffers[size_t(p.buffer)];
        sig += storageType(b.dtype) + "* __restrict__ " + bufferName(p.buffer);
      } else {
        sig += valueType(p.dtype) + " " + varName(p.var);
        m_declared.insert(p.var);
      }
    }
    for (size_t i = 0; i < k.tensorMaps.size(); ++i) {
      sig += std::string(k.params.empty() && i == 0 ? "" : ", ") +
             "const __grid_constant__ CUtensorMap tirx_tmap" + std::to_string(i);
      m_usesTensorMaps = true;
    }
    stmt(k.span, sig + ") {");
    ++m_depth;
    const auto& bd = k.launch.block;
    std::string tid = "(int)threadIdx.x";
    if (bd[1] > 1) tid += " + (int)threadIdx.y * " + std::to_string(bd[0]);
    if (bd[2] > 1) tid += " + (int)threadIdx.z * " + std::to_string(bd[0] * bd[1]);
    stmt(k.span, "const int tirx_tid = " + tid +
                     "; const int tirx_warp = tirx_tid >> 5; const int tirx_lane = tirx_tid & 31;"
                     " (void)tirx_warp; (void)tirx_lane;");
    // Shared tiles: static arrays up to 48 KiB; beyond, one dynamic array (the runner passes its
    // size at launch and opts in to more than 48 KiB), each tile a pointer at its planned offset.
    const ir::SharedMemoryPlan smem = ir::planSharedMemory(k);
    if (smem.dynamic)
      stmt(k.span, "extern __shared__ __align__(" + std::to_string(smem.alignment) +
                       ") unsigned char tirx_smem[];");
    for (size_t i = 0; i < k.buffers.size(); ++i) {
      const ir::Buffer& b = k.buffers[i];
      if (b.scope == ir::MemScope::Global) continue;
      int64_t n = b.storageElems > 0 ? b.storageElems : b.layout.storageSlots();
      if (n <= 0) n = 1;
      const std::string t = storageType(b.dtype);
      if (b.scope == ir::MemScope::Shared && smem.dynamic) {
        stmt(b.span, t + "* const " + bufferName(int(i)) + " = reinterpret_cast<" + t +
                         "*>(tirx_smem + " + std::to_string(smem.offset[i]) + ");");
      } else if (b.scope == ir::MemScope::Shared) {
        stmt(b.span, "__shared__ alignas(" + std::to_string(std::max<int64_t>(b.alignBytes, 16)) +
                         ") " + t + " " + bufferName(int(i)) + "[" + std::to_string(n) + "];");
      } else {
        const int bits = ir::dtypeBits(b.dtype);
        const std::string al = bits < 32 ? "alignas(8) " : "";
        stmt(b.span, al + t + " " + bufferName(int(i)) + "[" + std::to_string(n) + "];");
      }
    }
    std::map<int, int> firstDepth;
    std::set<int> loops;
    scanDecls(k.body, 0, firstDepth, loops);
    m_inlineDecl.clear();
    for (const auto& [id, depth] : firstDepth) {
      if (m_declared.count(id)) continue;
      if (depth == 0)
        m_inlineDecl.insert(id);
      else {
        stmt(k.span, valueType(varType(k.vars, id)) + " " + varName(id) + "{};");
        m_declared.insert(id);
      }
    }
    m_wgmmaAccumulators.clear();
    m_pinnedSet.clear();
    emitStmts(k.body);
    --m_depth;
    stmt(k.span, "}");
    line("");
  }
}

ir::DType varType(const std::vector<ir::Var>& vars, int id) {
  for (const auto& v : vars)
    if (v.id == id) return v.dtype;
  return ir::DType::Int32;
}

}  // namespace detail

CodegenResult generateCuda(const ir::Program& program, const CodegenOptions& options) {
  CodegenResult res;
  detail::Emitter em(program, options, res);
  em.emitProgram();
  if (!options.kernel.empty() && res.kernels.empty())
    res.diagnostics.push_back(makeError("E0900", {}, "no kernel named '" + options.kernel + "'"));
  res.needsFp16Header = em.m_usesFp16;
  res.needsSm90a = em.m_usesSm90a;
  // Prelude (known only now: whether half types were used), then shift the map.
  std::ostringstream pre;
  pre << "// Generated by TIRx Studio from " << options.scriptFile
      << ". Regenerate from the script; do not edit.\n";
  if (res.needsFp16Header) pre << "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n";
  pre << kHelpers;
  // elect.sync (sm_90): one lane of the (fully active) warp, its predicate as a bool.
  if (em.m_usesElect)
    pre << "__device__ __forceinline__ bool tirx_elect_sync() {\n"
           "  unsigned p;\n"
           "  asm volatile(\"{\\n.reg .pred P;\\nelect.sync _|P, 0xffffffff;\\nselp.u32 %0, 1, 0, "
           "P;\\n}\\n\" : \"=r\"(p));\n"
           "  return p != 0;\n"
           "}\n";
  pre << "\n";
  // NVRTC has no <cuda.h>: the tensor map type as the driver declares it (128 bytes, 64-aligned).
  if (em.m_usesTensorMaps)
    pre << "typedef struct alignas(64) CUtensorMap_st { unsigned long long opaque[16]; } "
           "CUtensorMap;\n";
  const std::string prelude = pre.str();
  const int shift = int(std::count(prelude.begin(), prelude.end(), '\n'));
  res.cuda = prelude + em.m_out.str();
  for (auto& s : res.map.statements) {
    s.cudaFirst += shift;
    s.cudaLast += shift;
  }
  res.map.cudaToScript.assign(size_t(shift + em.m_lineNo + 1), 0);
  for (const auto& s : res.map.statements)
    for (int l = s.cudaFirst; l <= s.cudaLast; ++l) res.map.cudaToScript[size_t(l)] = s.scriptLine;
  return res;
}

}  // namespace tirx::codegen
