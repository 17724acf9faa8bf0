// Codegen's memory offsets against the layout algebra: for every tensor reference sema builds from
// the codegen, guide, simulator and benchmark scripts (row-major and strided tensors, regions with
// runtime starts, reshape and dtype views, sub-regions of views, swizzled ComposeLayout tiles,
// register tiles with thread and repeat axes) plus a few references written here for the layout
// forms no script uses (a shard that does not refine the shape, extent-1 and zero-stride iters),
// the C expression Emitter::offsetExpr emits is parsed and evaluated for every coordinate (sampled
// past 512) and compared with TensorRef::resolve (TileLayout::apply) followed by the buffer's
// byte swizzle (ir::swizzledByte). Coordinates are passed three ways: as names (the symbolic
// per-dimension split of perDimensionOffset, the row-major scale, or the general mixed-radix
// chain), as integer literals, and half and half; runtime region starts are replaced by named
// variables that take every valid start of a few. A wrong split of the offset into dimensions
// (a digit taken from the wrong dimension, a missing `%`, a constant folded twice) changes some
// element's offset and fails here.
#include <QtTest>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "core/codegen/codegen_internal.h"
#include "core/sema/sema.h"

using namespace tirx;

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The integer C subset codegen's offsets use: literals (with LL/u suffixes), names (`c0`,
/// `tirx_v12`, `threadIdx.x`), `(int)` casts, unary `-`, `* / %`, `+ -`, `<< >>`, `&`, `^`, `|`,
/// parentheses and `tirx_swizzle(o, m, b, s)` (the device helper of codegen.cpp, transcribed).
/// Division and modulo truncate as C's; every value stays far inside int64 here.
class CExpr {
 public:
  using Env = std::map<std::string, int64_t>;
  /// False when the text uses anything outside the subset (`why` says what).
  bool parse(const std::string& text, std::string& why) {
    m_s = text;
    m_p = 0;
    m_nodes.clear();
    m_root = binary(0);
    skip();
    if (m_root < 0 || m_p != m_s.size()) {
      why = "cannot parse '" + text + "' at " + std::to_string(m_p);
      return false;
    }
    return true;
  }
  int64_t eval(const Env& env) const { return evalNode(m_root, env); }

 private:
  struct Node {
    char kind = 'i';  ///< i literal, n name, u negation, b binary, s tirx_swizzle
    std::string op, name;
    int64_t value = 0;
    std::vector<int> kids;
  };
  std::string m_s;
  size_t m_p = 0;
  std::vector<Node> m_nodes;
  int m_root = -1;

  void skip() {
    while (m_p < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_p]))) ++m_p;
  }
  bool eat(const std::string& t) {
    skip();
    if (m_s.compare(m_p, t.size(), t) != 0) return false;
    m_p += t.size();
    return true;
  }
  int add(Node n) {
    m_nodes.push_back(std::move(n));
    return static_cast<int>(m_nodes.size()) - 1;
  }
  static int prec(const std::string& op) {
    if (op == "|") return 1;
    if (op == "^") return 2;
    if (op == "&") return 3;
    if (op == "<<" || op == ">>") return 4;
    if (op == "+" || op == "-") return 5;
    if (op == "*" || op == "/" || op == "%") return 6;
    return -1;
  }
  std::string peekOp() {
    skip();
    for (const char* op : {"<<", ">>", "|", "^", "&", "+", "-", "*", "/", "%"})
      if (m_s.compare(m_p, std::strlen(op), op) == 0) {
        // `&&`, `||` are not part of the subset
        if ((std::string(op) == "&" || std::string(op) == "|") && m_p + 1 < m_s.size() &&
            m_s[m_p + 1] == op[0])
          return {};
        return op;
      }
    return {};
  }
  int binary(int minPrec) {
    int lhs = unary();
    while (lhs >= 0) {
      const std::string op = peekOp();
      const int p = op.empty() ? -1 : prec(op);
      if (p < 0 || p < minPrec) break;
      m_p += op.size();
      const int rhs = binary(p + 1);
      if (rhs < 0) return -1;
      Node n;
      n.kind = 'b';
      n.op = op;
      n.kids = {lhs, rhs};
      lhs = add(std::move(n));
    }
    return lhs;
  }
  int unary() {
    skip();
    if (eat("-")) {
      const int k = unary();
      if (k < 0) return -1;
      Node n;
      n.kind = 'u';
      n.kids = {k};
      return add(std::move(n));
    }
    if (eat("(int)") || eat("(long long)")) return unary();
    if (eat("(")) {
      const int k = binary(0);
      if (k < 0 || !eat(")")) return -1;
      return k;
    }
    if (m_p < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_p]))) {
      int64_t v = 0;
      while (m_p < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_p])))
        v = v * 10 + (m_s[m_p++] - '0');
      while (m_p < m_s.size() && (m_s[m_p] == 'L' || m_s[m_p] == 'u' || m_s[m_p] == 'U')) ++m_p;
      Node n;
      n.value = v;
      return add(std::move(n));
    }
    if (m_p < m_s.size() &&
        (std::isalpha(static_cast<unsigned char>(m_s[m_p])) || m_s[m_p] == '_')) {
      std::string id;
      while (m_p < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_p])) ||
                                  m_s[m_p] == '_' || m_s[m_p] == '.'))
        id += m_s[m_p++];
      if (id == "tirx_swizzle") {
        Node n;
        n.kind = 's';
        if (!eat("(")) return -1;
        for (int i = 0; i < 4; ++i) {
          const int k = binary(0);
          if (k < 0 || !eat(i < 3 ? "," : ")")) return -1;
          n.kids.push_back(k);
        }
        return add(std::move(n));
      }
      Node n;
      n.kind = 'n';
      n.name = id;
      return add(std::move(n));
    }
    return -1;
  }
  int64_t evalNode(int i, const Env& env) const {
    const Node& n = m_nodes[size_t(i)];
    switch (n.kind) {
      case 'i':
        return n.value;
      case 'n': {
        const auto it = env.find(n.name);
        if (it == env.end()) throw std::runtime_error("unbound name " + n.name);
        return it->second;
      }
      case 'u':
        return -evalNode(n.kids[0], env);
      case 's': {  // codegen.cpp: o ^ (((o >> (m + s)) & ((1 << b) - 1)) << m)
        const int64_t o = evalNode(n.kids[0], env), m = evalNode(n.kids[1], env),
                      b = evalNode(n.kids[2], env), s = evalNode(n.kids[3], env);
        return o ^ (((o >> (m + s)) & ((int64_t{1} << b) - 1)) << m);
      }
      default:
        break;
    }
    const int64_t a = evalNode(n.kids[0], env), b = evalNode(n.kids[1], env);
    if (n.op == "+") return a + b;
    if (n.op == "-") return a - b;
    if (n.op == "*") return a * b;
    if (n.op == "/" || n.op == "%") {
      if (b == 0) throw std::runtime_error("division by zero");
      return n.op == "/" ? a / b : a % b;
    }
    if (n.op == "<<") return a << b;
    if (n.op == ">>") return a >> b;
    if (n.op == "&") return a & b;
    if (n.op == "^") return a ^ b;
    return a | b;
  }
};

/// Every tensor reference of a kernel body: element loads and stores, tile-op operands, TMA boxes.
void collectRefs(const std::vector<ir::Stmt>& body, std::vector<const ir::TensorRef*>& out) {
  std::function<void(const ir::ExprPtr&)> ex = [&](const ir::ExprPtr& e) {
    if (!e) return;
    if (e->kind == ir::ExprKind::Load && e->tensor) out.push_back(e->tensor.get());
    for (const auto& a : e->args) ex(a);
  };
  for (const auto& s : body) {
    ex(s.value);
    ex(s.start);
    ex(s.stop);
    if (s.tensor) out.push_back(s.tensor.get());
    for (const auto& i : s.indices) ex(i);
    if (s.apply)
      for (const auto& o : s.apply->operands)
        if (!o.isScalar) out.push_back(&o.tensor);
    if (s.ewise) {
      out.push_back(&s.ewise->dst);
      for (const auto& o : s.ewise->inputs)
        if (!o.isScalar) out.push_back(&o.tensor);
    }
    if (s.tma) out.push_back(&s.tma->shared);
    collectRefs(s.body, out);
    collectRefs(s.orelse, out);
  }
}

struct Tally {
  int refs = 0, symbolic = 0, swizzled = 0, dynamicStarts = 0, views = 0;
  int64_t elements = 0;
};

std::string checkAgainst(codegen::detail::Emitter& em, const ir::Buffer& buf,
                         const ir::TensorRef& emitted, const ir::TensorRef& oracle0,
                         const CExpr::Env& sizes, Tally& tally);

/// Compares offsetExpr with resolve for every coordinate of `ref0` (sampled past 512), in the
/// three coordinate spellings and for a few values of each runtime region start. Empty when they
/// agree, else the first difference.
std::string checkRef(const ir::Kernel& k, const ir::TensorRef& ref0, Tally& tally) {
  ir::Program prog;
  codegen::CodegenOptions opt;
  codegen::CodegenResult res;
  codegen::detail::Emitter em(prog, opt, res);
  em.m_kernel = &k;
  const ir::Buffer& buf = k.buffers.at(size_t(ref0.buffer));
  if (!buf.shapeVars.empty()) {
    // Symbolic extents: emitted once, evaluated for two sizes (an odd one and an even one, both
    // holding the reference's static regions) against the layout of the bound tensor.
    int64_t need = 1;
    for (int64_t e : ref0.shape)
      if (!ir::isSymbolicExtent(e)) need = std::max(need, e);
    for (const int64_t scale : {1, 2}) {
      CExpr::Env sizes;
      ir::TensorRef bound = ref0;
      for (size_t d = 0; d < buf.shapeVars.size(); ++d) {
        if (buf.shapeVars[d] < 0) continue;
        const int64_t v = scale == 1 ? need + 3 + int64_t(d) : 2 * need + 6;
        sizes[em.varName(buf.shapeVars[d])] = v;
        bound.layoutShape[d] = v;
        for (size_t s = 0; s < bound.shape.size(); ++s)
          if (ir::isSymbolicExtent(bound.shape[s]) && d < bound.dimMap.size() &&
              bound.dimMap[d] == static_cast<int>(s))
            bound.shape[s] = v;
      }
      bound.layout = TileLayout::rowMajor(bound.layoutShape);
      if (std::string why = checkAgainst(em, buf, ref0, bound, sizes, tally); !why.empty())
        return why;
    }
    ++tally.symbolic;
    ++tally.refs;
    return {};
  }
  if (std::string why = checkAgainst(em, buf, ref0, ref0, {}, tally); !why.empty()) return why;
  ++tally.refs;
  return {};
}

/// offsetExpr of `emitted` against resolve of `oracle` (the same reference, with concrete extents
/// when the tensor's are symbolic; `sizes` binds their names in the expression).
std::string checkAgainst(codegen::detail::Emitter& em, const ir::Buffer& buf,
                         const ir::TensorRef& emitted, const ir::TensorRef& oracle0,
                         const CExpr::Env& sizes, Tally& tally) {
  // Runtime starts become variables lo<d> (var ids past the kernel's) with chosen values.
  ir::TensorRef ref = emitted;
  ir::TensorRef oracle = oracle0;
  std::vector<int> dynDims;
  std::vector<std::vector<int64_t>> dynValues;
  for (size_t d = 0; d < ref.lo.size(); ++d) {
    if (!ref.lo[d] || ref.lo[d]->kind == ir::ExprKind::IntImm) continue;
    auto v = std::make_shared<ir::Expr>();
    v->kind = ir::ExprKind::Var;
    v->var = static_cast<int>(em.m_kernel->vars.size() + 1000 + d);
    ref.lo[d] = v;
    oracle.lo[d] = v;
    dynDims.push_back(static_cast<int>(d));
    // The extent this layout dimension covers from the start: the ref dimension mapped onto it.
    int64_t covered = 1;
    for (size_t s = 0; s < oracle.shape.size(); ++s)
      if (d < oracle.dimMap.size() && oracle.dimMap[d] == static_cast<int>(s))
        covered = oracle.shape[s];
    const int64_t maxStart = oracle.layoutShape[d] - covered;
    const int64_t step = std::max<int64_t>(1, d < ref.loMultiple.size() ? ref.loMultiple[d] : 1);
    std::vector<int64_t> vals{0};
    for (int64_t x = step; x <= maxStart && vals.size() < 3;
         x += std::max<int64_t>(step, maxStart / 3))
      vals.push_back(x);
    if (maxStart > 0 && vals.back() != maxStart / step * step)
      vals.push_back(maxStart / step * step);
    dynValues.push_back(vals);
  }
  if (!dynDims.empty()) ++tally.dynamicStarts;
  if (!buf.swizzle.isIdentity()) ++tally.swizzled;
  if (ref.layoutShape != buf.shape || !(ref.layout == buf.layout) || ref.shape != buf.shape)
    ++tally.views;
  const size_t rank = oracle.shape.size();
  const int64_t total = tirx::product(oracle.shape);
  // Every element up to 512 (an odd stride through larger ones); literal spellings re-emit the
  // expression per element, so they take every element up to 64.
  auto strideFor = [&](int64_t cap) { return total > cap ? (total / cap) | 1 : int64_t{1}; };
  const int eb = ir::dtypeBytes(ref.dtype);
  for (int mode = 0; mode < 3; ++mode) {
    // mode 0: names; 1: literals; 2: even dimensions named, odd ones literal
    std::vector<std::string> names(rank);
    for (size_t d = 0; d < rank; ++d) names[d] = "c" + std::to_string(d);
    CExpr symbolic;
    std::string why;
    if (mode == 0 && !symbolic.parse(em.offsetExpr(ref, names), why)) return why;
    // Every combination of the runtime starts' values.
    size_t combos = 1;
    for (const auto& v : dynValues) combos *= v.size();
    for (size_t combo = 0; combo < combos; ++combo) {
      CExpr::Env env = sizes;
      std::vector<int64_t> loValues(ref.layoutShape.size(), 0);
      for (size_t d = 0; d < ref.lo.size(); ++d)
        if (ref.lo[d] && ref.lo[d]->kind == ir::ExprKind::IntImm) loValues[d] = ref.lo[d]->intValue;
      size_t c = combo;
      for (size_t j = 0; j < dynDims.size(); ++j) {
        const int64_t v = dynValues[j][c % dynValues[j].size()];
        c /= dynValues[j].size();
        loValues[size_t(dynDims[j])] = v;
        env[em.varName(ref.lo[size_t(dynDims[j])]->var)] = v;
      }
      const int64_t step = strideFor(mode == 0 ? 512 : 64);
      for (int64_t flat = 0; flat < total; flat += step) {
        const std::vector<int64_t> coord = tirx::unflatten(flat, oracle.shape);
        std::string text;
        int64_t got = 0;
        try {
          if (mode == 0) {
            for (size_t d = 0; d < rank; ++d) env[names[d]] = coord[d];
            got = symbolic.eval(env);
          } else {
            std::vector<std::string> cs(rank);
            for (size_t d = 0; d < rank; ++d)
              cs[d] = mode == 1 || d % 2 == 1 ? std::to_string(coord[d]) : names[d];
            for (size_t d = 0; d < rank; ++d) env[names[d]] = coord[d];
            CExpr e;
            text = em.offsetExpr(ref, cs);
            if (!e.parse(text, why)) return why;
            got = e.eval(env);
          }
        } catch (const std::exception& ex) {
          return std::string("evaluating the offset of '") + ref.text + "': " + ex.what();
        }
        const int64_t m = oracle.resolve(coord, loValues)["m"];
        const int64_t want = buf.swizzle.isIdentity() ? m : ir::swizzledByte(buf, m * eb) / eb;
        if (got != want) {
          std::string cs;
          for (size_t d = 0; d < rank; ++d) cs += (d ? ", " : "") + std::to_string(coord[d]);
          std::string los;
          for (int64_t v : loValues) los += " " + std::to_string(v);
          return "'" + ref.text + "' (layout " + ref.layout.toString() + ") at (" + cs +
                 ") with starts" + los + ", mode " + std::to_string(mode) + ": codegen gives " +
                 std::to_string(got) + ", the layout " + std::to_string(want) +
                 (text.empty() ? "" : " [" + text + "]");
        }
        ++tally.elements;
      }
    }
  }
  return {};
}

/// Checks every reference of every kernel of `source`; sema must accept it.
std::string checkOffsets(const std::string& source, const std::string& label, Tally& tally) {
  FrontEndResult fe = tirx::checkScript(source, label);
  if (!fe.ok())
    return label +
           ": sema refused it: " + (fe.diagnostics.empty() ? "" : fe.diagnostics[0].message);
  for (const auto& k : fe.program.kernels) {
    std::vector<const ir::TensorRef*> refs;
    collectRefs(k.body, refs);
    std::set<std::string> seen;  // a reference repeated by the script is checked once
    for (const ir::TensorRef* r : refs) {
      std::string key = std::to_string(r->buffer) + "|" + r->text + "|" + r->layout.toString();
      for (const auto& l : r->lo)
        key += "|" + (l ? std::to_string(int(l->kind)) + ":" + std::to_string(l->intValue) : "-");
      if (!seen.insert(key).second) continue;
      if (std::string why = checkRef(k, *r, tally); !why.empty()) return label + ": " + why;
    }
  }
  return {};
}

/// Layout forms no script above uses, as element loads through explicit views.
const char* kForms = R"(from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, ComposeLayout

@T.function
def forms(A: T.Tensor((24,), "float32"), B: T.Tensor((4, 6), "float32"), C: T.Tensor((16, 16), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=32))
    bx = T.cuda.block_idx("x")
    tid = T.cuda.thread_idx("x")
    # a shard that does not refine the shape (4 x 6 iters over a (6, 4) view): the general chain
    V = A.view(6, 4, layout=TileLayout(S[(4, 6) : (1, 4)]))
    # extent-1 iters and a permuted, strided split of both dimensions
    W = C.view(4, 4, 16, layout=TileLayout(S[(2, 1, 2, 4, 4, 4) : (8, 99, 128, 1, 32, 2)]))
    Sh = T.alloc_shared((16, 16), "float32", layout=ComposeLayout(2, 2, 2, TileLayout(S[16, 16])), align=256)
    # a swizzled view with a split dimension and an offset
    Sv = Sh.view(4, 4, 8, layout=ComposeLayout(2, 2, 2, TileLayout(S[(2, 2, 4, 8) : (4, 128, 16, 1)] + 8)))
    for i in range(4):
        Sh[tid % 16, i * 4] = T.float32(0)
    T.cuda.cta_sync()
    for i in range(2):
        for j in range(2):
            B[bx * 2 + i, j * 3] = V[i * 3 + j, bx] + W[i, j, tid % 16] + Sv[i, j, tid % 8]
            B[bx * 2 + i, j * 3 + 1] = V[2:6, 1:3][i, j] + W[1:3, :, 4:12][i, j, tid % 8] + Sv[2:4, 1:3, 0:8][i, j, tid % 8]
            B[bx * 2 + i, j * 3 + 2] = C[bx * 8 : bx * 8 + 8, 4:12][i * 3, j * 5]
)";

}  // namespace

class TestCodegenOffsets : public QObject {
  Q_OBJECT
 private slots:
  void offsetsMatchLayoutApply() {
    namespace fs = std::filesystem;
    Tally tally;
    QString why = QString::fromStdString(checkOffsets(kForms, "forms", tally));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY2(tally.refs >= 8, "the written forms give references");
    const std::string root = TIRX_SOURCE_DIR;
    int files = 0;
    for (const char* dir :
         {"tests/data/codegen", "tests/data/guides", "tests/data/sim", "bench/kernels"}) {
      std::vector<fs::path> paths;
      for (const auto& e : fs::directory_iterator(root + "/" + dir))
        if (e.path().extension() == ".py") paths.push_back(e.path());
      std::sort(paths.begin(), paths.end());
      for (const auto& p : paths) {
        const std::string src = readText(p.string());
        if (!tirx::checkScript(src, p.string()).ok()) continue;  // scripts that test refusals
        why = QString::fromStdString(checkOffsets(src, p.filename().string(), tally));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        ++files;
      }
    }
    qInfo(
        "%d scripts, %d references (%d with runtime starts, %d views, %d swizzled, %d of tensors "
        "with symbolic extents), %lld offsets compared",
        files, tally.refs, tally.dynamicStarts, tally.views, tally.swizzled, tally.symbolic,
        static_cast<long long>(tally.elements));
    // The suite must keep exercising each form (a refactor that lost them would pass vacuously).
    QVERIFY(files >= 20);
    QVERIFY(tally.dynamicStarts >= 10);
    QVERIFY(tally.views >= 20);
    QVERIFY(tally.refs >= 100);
    QVERIFY(tally.swizzled >= 5);
    QVERIFY(tally.symbolic >= 10);
  }

  // The evaluator itself, on the C spellings codegen emits.
  void evaluatorSubset() {
    CExpr e;
    std::string why;
    QVERIFY(e.parse("((c0 / 4) % 2) * 8 + (int)blockIdx.x * 16 - 3", why));
    QCOMPARE(e.eval({{"c0", 13}, {"blockIdx.x", 2}}), int64_t((13 / 4) % 2 * 8 + 2 * 16 - 3));
    QVERIFY(e.parse("tirx_swizzle((c0 * 64 + c1), 3, 3, 3)", why));
    // 128-byte swizzle of bf16: row 1, chunk 0 -> chunk 1
    QCOMPARE(e.eval({{"c0", 1}, {"c1", 0}}), int64_t(64 + 8));
    QVERIFY(e.parse("(tirx_lane >> 3) & 3 ^ 1 | 8", why));
    QCOMPARE(e.eval({{"tirx_lane", 29}}), int64_t((((29 >> 3) & 3) ^ 1) | 8));
    QVERIFY(!e.parse("a && b", why));
    QVERIFY(!e.parse("f(x)", why));
  }
};

QTEST_GUILESS_MAIN(TestCodegenOffsets)
#include "tst_codegen_offsets.moc"
