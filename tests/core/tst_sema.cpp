// Sema on the test kernels of tests/data/kernels (zero diagnostics, exact IR structure) and one
// test per decision of docs/decisions.md (OPEN-2..OPEN-10, D-1) about what sema accepts or
// produces.
#include <QFile>
#include <QtTest>
#include <algorithm>
#include <cctype>
#include <functional>

#include "core/sema/sema.h"

using namespace tirx;

namespace {

std::string readKernel(const char* name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/kernels/") + name);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().toStdString();
}

QString dump(const Diagnostics& ds) {
  return QString::fromStdString(formatGcc(ds, "script"));
}

const char* kHeader = R"(from tvm.script import tirx as T
from tvm.tirx.layout import S, R, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
)";

FrontEndResult checkWithHeader(const std::string& body, int sm = 90) {
  SemaOptions o;
  o.sm = sm;
  return checkScript(std::string(kHeader) + body, "t.py", o);
}

const ir::Stmt* nth(const ir::Kernel& k, ir::StmtKind kind, int n) {
  for (const auto& s : k.body)
    if (s.kind == kind && n-- == 0) return &s;
  return nullptr;
}

}  // namespace

class TestSema : public QObject {
  Q_OBJECT

 private slots:
  void acceptanceHasNoDiagnostics_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"affine_relu.py", "silu.py", "to_float16.py", "two_kernels.py"})
      QTest::newRow(n) << n;
  }
  void acceptanceHasNoDiagnostics() {
    QFETCH(QString, name);
    const std::string src = readKernel(qPrintable(name));
    QVERIFY(!src.empty());
    const FrontEndResult r = checkScript(src, name.toStdString());
    QVERIFY2(r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    QVERIFY(r.ok());
    QVERIFY(!r.program.kernels.empty());
  }

  void activationIr() {
    const FrontEndResult r = checkScript(readKernel("two_kernels.py"), "two_kernels.py");
    QVERIFY(r.ok());
    const ir::Program& p = r.program;
    QCOMPARE(int(p.kernels.size()), 2);
    QCOMPARE(int(p.functions.size()), 2);
    const ir::Kernel* k = p.findKernel("activation");
    QVERIFY(k);
    QCOMPARE(k->launch.threads(), int64_t(64));
    QCOMPARE(k->launch.ctas(), int64_t(1));
    QCOMPARE(int(k->params.size()), 2);
    QCOMPARE(int(k->buffers.size()), 3);
    QCOMPARE(k->buffers[0].alignBytes, int64_t(16));  // OPEN-2 default for parameters
    QCOMPARE(k->buffers[2].scope, ir::MemScope::Local);
    QCOMPARE(k->buffers[2].storageElems, int64_t(4));
    QCOMPARE(int(k->body.size()), 3);
    const ir::TileApply& ld = *k->body[0].apply;
    QCOMPARE(ld.instr.opcode, std::string("ld.global.v4.b32"));
    QCOMPARE(ld.scope, ir::ExecScope::Cta);
    QCOMPARE(ld.group, (std::vector<int64_t>{2, 32}));
    QCOMPARE(ld.repeat, std::vector<int64_t>{});
    QCOMPARE(ld.atom, (std::vector<int64_t>{4, 4}));
    QCOMPARE(ld.operands[0].tensor.scope, ir::MemScope::Local);
    QCOMPARE(ld.operands[1].tensor.scope, ir::MemScope::Global);
    QCOMPARE(k->body[0].span.line, 20);
    const ir::TileEwise& ew = *k->body[1].ewise;
    QCOMPARE(ew.func, p.findFunction("silu_affine"));
    QCOMPARE(ew.group, (std::vector<int64_t>{2, 32}));
    QCOMPARE(ew.repeat, std::vector<int64_t>{4});
    QCOMPARE(int(ew.inputs.size()), 3);
    QVERIFY(!ew.inputs[0].isScalar);
    QVERIFY(ew.inputs[1].isScalar);
    QCOMPARE(ew.inputs[1].scalar->floatValue, 2.0);
    QCOMPARE(ew.inputs[1].scalar->dtype, ir::DType::Float32);
    QCOMPARE(k->body[2].apply->instr.opcode, std::string("st.global.v4.b32"));
    // The function body: y = x / (1 + exp(-x)); return y * scale + bias.
    const ir::ScalarFunction& f = p.functions[p.findFunction("silu_affine")];
    QCOMPARE(int(f.params.size()), 3);
    QCOMPARE(f.ret, ir::DType::Float32);
    QCOMPARE(int(f.body.size()), 2);
    QCOMPARE(f.body[0].kind, ir::StmtKind::Assign);
    QCOMPARE(f.body[1].kind, ir::StmtKind::Return);
    QCOMPARE(f.body[0].value->op, ir::BinOp::Div);
  }

  void affineReluIr() {
    const FrontEndResult r = checkScript(readKernel("affine_relu.py"), "a.py");
    QVERIFY(r.ok());
    const ir::Kernel& k = r.program.kernels.at(0);
    const ir::TileApply& fma = *nth(k, ir::StmtKind::Apply, 1)->apply;
    QCOMPARE(fma.instr.opcode, std::string("fma.rn.f32"));
    QCOMPARE(fma.group, (std::vector<int64_t>{2, 32}));
    QCOMPARE(fma.repeat, std::vector<int64_t>{4});
    QCOMPARE(fma.atom, (std::vector<int64_t>{1, 1, 1, 1}));
    QCOMPARE(fma.operands[0].tensor.shape, (std::vector<int64_t>{2, 32, 4, 1}));
    QVERIFY(fma.operands[2].isScalar);
    QCOMPARE(fma.operands[2].scalar->floatValue, 2.0);
    QCOMPARE(fma.operands[3].scalar->floatValue, 1.0);
    const ir::TileApply& mx = *nth(k, ir::StmtKind::Apply, 2)->apply;
    QCOMPARE(mx.instr.opcode, std::string("max.f32"));
    QCOMPARE(int(mx.operands.size()), 3);
    // The view keeps the register layout: element (1, 5, 3, 0) is lane 5 of warp 1, slot 3.
    const AxisCoord c = fma.operands[0].tensor.resolve(std::vector<int64_t>{1, 5, 3, 0});
    QCOMPARE(linearThread(c), int64_t(37));
    QCOMPARE(c.at("m"), int64_t(3));
  }

  void sharedAffineIr() {
    const FrontEndResult r = checkScript(readKernel("two_kernels.py"), "e.py");
    const ir::Kernel* k = r.program.findKernel("shared_affine");
    QVERIFY(k);
    QCOMPARE(k->buffers[2].name, std::string("S"));
    QCOMPARE(k->buffers[2].scope, ir::MemScope::Shared);
    QCOMPARE(k->buffers[2].shape, (std::vector<int64_t>{64, 4}));
    QVERIFY(k->buffers[2].layout == TileLayout::rowMajor(std::vector<int64_t>{64, 4}));
    std::vector<ir::StmtKind> kinds;
    for (const auto& s : k->body) kinds.push_back(s.kind);
    using K = ir::StmtKind;
    QCOMPARE(kinds, (std::vector<K>{K::Assign, K::For, K::Barrier, K::Apply, K::Ewise, K::Apply,
                                    K::Barrier, K::For}));
    QCOMPARE(k->body[0].value->kind, ir::ExprKind::ThreadIdx);
    const ir::Stmt& loop = k->body[1];
    QCOMPARE(loop.stop->intValue, int64_t(4));
    QCOMPARE(loop.body.at(0).kind, K::Store);
    QCOMPARE(loop.body[0].tensor->scope, ir::MemScope::Shared);
    QCOMPARE(loop.body[0].value->kind, ir::ExprKind::Load);
    QCOMPARE(k->body[2].barrier, std::string("cta_sync"));
    // sv = S.view(2, 32, 4): (w, l, j) -> m = 128 w + 4 l + j.
    const ir::TensorRef& sv = k->body[3].apply->operands[1].tensor;
    QCOMPARE(sv.shape, (std::vector<int64_t>{2, 32, 4}));
    QCOMPARE(sv.resolve(std::vector<int64_t>{1, 2, 3}).at("m"), int64_t(139));
    // Out[tid, j] = S[(tid + 1) % 64, j]: floor modulo.
    const ir::Expr& load = *k->body[7].body.at(0).value;
    QCOMPARE(load.kind, ir::ExprKind::Load);
    QCOMPARE(load.args[0]->op, ir::BinOp::Mod);
  }

  void toFloat16Ir() {
    const FrontEndResult r = checkScript(readKernel("to_float16.py"), "f.py");
    QVERIFY(r.ok());
    const ir::Kernel& k = r.program.kernels.at(0);
    QCOMPARE(k.buffers[1].dtype, ir::DType::Float16);
    QCOMPARE(k.buffers[1].alignBytes, int64_t(8));
    const ir::TileApply& cvt = *nth(k, ir::StmtKind::Apply, 1)->apply;
    QCOMPARE(cvt.instr.opcode, std::string("cvt.rn.f16.f32"));
    QCOMPARE(cvt.operands[0].tensor.dtype, ir::DType::UInt16);
    QCOMPARE(cvt.operands[0].tensor.buffer, 3);
    QCOMPARE(cvt.operands[0].tensor.shape, (std::vector<int64_t>{2, 32, 4, 1}));
    QCOMPARE(cvt.operands[1].tensor.dtype, ir::DType::Float32);
    QCOMPARE(cvt.repeat, std::vector<int64_t>{4});
    const ir::TileApply& st = *nth(k, ir::StmtKind::Apply, 2)->apply;
    QCOMPARE(st.instr.opcode, std::string("st.global.v4.b16"));
    QCOMPARE(st.operands[0].tensor.dtype, ir::DType::UInt16);
    QCOMPARE(st.operands[0].tensor.scope, ir::MemScope::Global);
    QCOMPARE(st.operands[0].tensor.buffer, 1);
    QCOMPARE(st.atom, (std::vector<int64_t>{4, 4}));
  }

  void symbolsForTheStudio() {
    const FrontEndResult r = checkScript(readKernel("two_kernels.py"), "e.py");
    const ir::Symbol* layout = nullptr;
    int tensorsNamedR = 0;
    for (const auto& s : r.program.symbols) {
      if (s.name == "reg_layout") layout = &s;
      if (s.name == "R" && s.kind == ir::Symbol::Kind::Tensor) {
        ++tensorsNamedR;
        QCOMPARE(s.blockThreads, int64_t(64));
        QCOMPARE(s.shape, (std::vector<int64_t>{2, 32, 4}));
        QCOMPARE(s.scope, ir::MemScope::Local);
        QCOMPARE(int(s.uses.size()), 4);
      }
    }
    QVERIFY(layout);
    QCOMPARE(layout->kind, ir::Symbol::Kind::Layout);
    QCOMPARE(layout->span.line, 7);
    QCOMPARE(int(layout->uses.size()), 2);
    QCOMPARE(tensorsNamedR, 2);
  }

  void printerShowsTheSplit() {
    const FrontEndResult r = checkScript(readKernel("two_kernels.py"), "e.py");
    const std::string text = ir::printProgram(r.program);
    QVERIFY(
        text.find("apply ld.global.v4.b32 scope=cta group=(2, 32) repeat=() atom=(4, 4)  ; L20") !=
        std::string::npos);
    QVERIFY(text.find("ewise silu_affine scope=cta group=(2, 32) repeat=(4,)  ; L21") !=
            std::string::npos);
    QVERIFY(text.find("kernel shared_affine(A: tensor float32, Out: tensor float32)") !=
            std::string::npos);
    QVERIFY(text.find("launch grid=(1, 1, 1) block=(64, 1, 1) threads=64") != std::string::npos);
    QVERIFY(text.find("cta_sync()") != std::string::npos);
  }

  void parseArchForms() {
    QCOMPARE(parseArch("sm_90"), 90);
    QCOMPARE(parseArch("sm_100a"), 100);
    QCOMPARE(parseArch("90"), 90);
    QCOMPARE(parseArch("sm_120f"), 120);
    QCOMPARE(parseArch("sm_"), 0);
    QCOMPARE(parseArch("banana"), 0);
    QCOMPARE(parseArch(""), 0);
  }

  void syntaxErrorsSuppressSemaNoise() {
    const FrontEndResult r =
        checkWithHeader("@T.function\ndef k(A: T.Tensor((64,), \"float32\")):\n    x = (1 +\n");
    QVERIFY(!r.ok());
    for (const auto& d : r.diagnostics) QVERIFY2(d.code < "E0100", qPrintable(dump(r.diagnostics)));
  }

  // ---- decisions (docs/decisions.md) ----

  void open2DefaultAlignment() {
    // Global parameters without align= are assumed 16-byte aligned: v4.b32 loads are accepted.
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(A: T.Tensor((2, 32, 4), "float32"), B: T.Tensor((2, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    X = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], X, A, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, X, scope="cta")
)");
    QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    QCOMPARE(r.program.kernels[0].buffers[0].alignBytes, int64_t(16));
  }

  void open3OmittedLayoutIsRowMajor() {
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(A: T.Tensor((8, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=8))
    X = T.alloc_shared((8, 4), "float32")
    tid = T.cuda.thread_idx("x")
    X[tid, 0] = A[tid, 0]
)");
    QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    const ir::Buffer& b = r.program.kernels[0].buffers[1];
    QVERIFY(b.layout == TileLayout::rowMajor(std::vector<int64_t>{8, 4}));
    QCOMPARE(b.alignBytes, int64_t(16));
  }

  void open5ReplicatedSourceIsAccepted() {
    // Both warps hold the same 4 values per lane; each thread stores its own group row.
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    X = T.alloc_local((2, 32, 4), "float32", layout=TileLayout(S[(2, 32, 4) : (0, 1 @ laneid, 1)] + R[2 : 1 @ warpid]))
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, X, scope="cta")
)");
    QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
  }

  void open7BroadcastViewAsEwiseInput() {
    const FrontEndResult r = checkWithHeader(R"(
@T.function(private=True)
def add(x: T.float32, b: T.float32) -> T.float32:
    return x + b

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16), Bias: T.Tensor((4,), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    X = T.alloc_local((2, 32, 4), "float32", layout=reg)
    bias = T.alloc_local((4,), "float32")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], X, A, scope="cta")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], bias, Bias)
    wide = bias.view(2, 32, 4, layout=TileLayout(S[(2, 32, 4) : (0, 0, 1)]))
    T.cuda.tile.ewise(add, X, X, wide, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A, X, scope="cta")
)");
    QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    const ir::TileEwise& ew = *r.program.kernels[0].body.at(2).ewise;
    QCOMPARE(ew.inputs.at(1).tensor.resolve(std::vector<int64_t>{1, 7, 2}).at("m"), int64_t(2));
  }

  void open8SubDropsIntegerDims() {
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(A: T.Tensor((256, 4), "float32", align=16), B: T.Tensor((256, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=64))
    row = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    X = T.alloc_local((4,), "float32")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], X, A.sub[row, :])
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[row : row + 1, 0:4].view(4), X)
)");
    // The reshape of a region is rejected (E0136); the .sub form is the supported spelling.
    QCOMPARE(int(r.diagnostics.size()), 1);
    QCOMPARE(r.diagnostics[0].code, std::string("E0136"));
    const ir::TileApply& ld = *r.program.kernels[0].body.at(1).apply;
    const ir::TensorRef& sub = ld.operands[1].tensor;
    QCOMPARE(sub.shape, std::vector<int64_t>{4});
    QCOMPARE(sub.dimMap, (std::vector<int>{-1, 0}));
    QVERIFY(sub.hasDynamicOffset());
    QCOMPARE(sub.loMultiple[0], int64_t(1));
    QCOMPARE(sub.resolve(std::vector<int64_t>{3}, std::vector<int64_t>{5, 0}).at("m"), int64_t(23));
  }

  void open8RegionsKeepDims() {
    // A[:, :, 4:8] keeps all three dimensions; A.sub[bx] drops the block dimension, and the
    // dynamic start (a multiple of 256 elements) keeps every .v4 atom aligned.
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(A: T.Tensor((2, 32, 8), "float32", align=16), C: T.Tensor((4, 2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=64))
    X = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], X, A[:, :, 4:8], scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], C.sub[T.cuda.block_idx("x")], X, scope="cta")
)");
    QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    const ir::Kernel& k = r.program.kernels[0];
    const ir::TensorRef& region = k.body.at(0).apply->operands[1].tensor;
    QCOMPARE(region.shape, (std::vector<int64_t>{2, 32, 4}));
    QCOMPARE(region.resolve(std::vector<int64_t>{1, 2, 3}).at("m"), int64_t(256 + 16 + 4 + 3));
    const ir::TensorRef& sub = k.body.at(1).apply->operands[0].tensor;
    QCOMPARE(sub.shape, (std::vector<int64_t>{2, 32, 4}));
    QCOMPARE(sub.dimMap, (std::vector<int>{-1, 0, 1, 2}));
    QCOMPARE(sub.lo.at(0)->kind, ir::ExprKind::BlockIdx);
    QCOMPARE(sub.resolve(std::vector<int64_t>{0, 1, 2}, std::vector<int64_t>{3, 0, 0, 0}).at("m"),
             int64_t(3 * 256 + 4 + 2));
  }

  void open10FunctionsCallEarlierFunctions() {
    const FrontEndResult r = checkWithHeader(R"(
@T.function(private=True)
def relu(x: T.float32) -> T.float32:
    if x > T.float32(0):
        return x
    else:
        return T.float32(0)

@T.function(private=True)
def affine_relu(x: T.float32) -> T.float32:
    y = x * T.float32(2) + 1
    return relu(y)
)");
    QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    const ir::ScalarFunction& f = r.program.functions.at(1);
    QCOMPARE(f.body.at(1).value->kind, ir::ExprKind::Call);
    QCOMPARE(f.body.at(1).value->func, 0);
    // `+ 1` adopted float32 from the other operand.
    QCOMPARE(f.body.at(0).value->args[1]->kind, ir::ExprKind::FloatImm);
  }

  // Issue 13: a region start held in a variable is proven aligned exactly as if written inline:
  // `base = bx * 256` (a stable definition, substituted whole; chained through `b2 = base + 4`),
  // `i = tid * 4` for 16-byte vector atoms, and `i = k * 8 + 4` in a loop (only its residue 4 mod 8
  // is known, which is what the atom needs). The known divisors equal the inline spelling's.
  void alignmentThroughAssignedVariables() {
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(A: T.Tensor((8192,), "float32"), B: T.Tensor((8192,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=8, block=64))
    bx = T.cuda.block_idx("x")
    tid = T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    base = bx * 256
    b2 = base + 4
    i = tid * 4
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[base : base + 4])
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[b2 : b2 + 4], R)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[i : i + 4])
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 256 : bx * 256 + 4], R)
    for kk in range(4):
        j = kk * 8 + 4
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[j + 4096 : j + 4100], R)
)");
    QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    std::vector<int64_t> mult;
    std::function<void(const std::vector<ir::Stmt>&)> walk =
        [&](const std::vector<ir::Stmt>& body) {
          for (const auto& s : body) {
            if (s.apply) {
              const ir::TensorRef& t =
                  s.apply->operands[s.apply->instr.opcode.rfind("st.", 0) == 0 ? 0 : 1].tensor;
              mult.push_back(t.loMultiple.at(0));
            }
            walk(s.body);
          }
        };
    walk(r.program.kernels[0].body);
    QCOMPARE(mult, (std::vector<int64_t>{256, 4, 4, 256, 4}));
  }

  void d1StaticLaunchTuples() {
    const FrontEndResult r = checkWithHeader(R"(
N = 4
M: int = 16
@T.function
def k(A: T.Tensor((N * M,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(2, N), block=(32, 2)))
    tid = T.cuda.linear_thread_id()
    A[tid] = T.float32(1)
)");
    QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    const ir::Kernel& k = r.program.kernels[0];
    QCOMPARE(k.launch.grid, (std::array<int64_t, 3>{2, 4, 1}));
    QCOMPARE(k.launch.block, (std::array<int64_t, 3>{32, 2, 1}));
    QCOMPARE(k.buffers[0].shape, std::vector<int64_t>{64});
  }

  void staticIfTakesOneBranch() {
    // Decision STATIC-IF-1: `max`, `min`, `abs` and `a if c else b` fold in module constants, and
    // an `if` on Python values is decided while reading: the branch not taken is not analysed
    // (its out-of-range store and unknown name are no error, as Python never runs them) and
    // leaves no If in the IR. `1 // 0` in the unevaluated arm of PICK is no error either.
    auto script = [](int poly) {
      return "POLY = " + std::to_string(poly) + R"(
SMALL = max(POLY, 8) + min(3, 5, 2) + abs(-4)
PICK = 7 if POLY == 0 and 0 <= SMALL < 20 else 1 // 0
@T.function
def k(A: T.Tensor((SMALL,), "float32"), B: T.Tensor((PICK,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    if POLY == 0:
        A[tid % 8] = T.float32(1)
    else:
        A[99] = not_defined_anywhere
    if not POLY:
        B[0] = T.float32(2)
    if tid == 0:
        B[1] = T.float32(3)
)";
    };
    const FrontEndResult r = checkWithHeader(script(0));
    QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    const ir::Kernel& k = r.program.kernels[0];
    QCOMPARE(k.buffers[0].shape, std::vector<int64_t>{14});
    QCOMPARE(k.buffers[1].shape, std::vector<int64_t>{7});
    // tid, two plain stores, and one runtime If (tid == 0) holding the third.
    QCOMPARE(int(std::count_if(k.body.begin(), k.body.end(),
                               [](const ir::Stmt& s) { return s.kind == ir::StmtKind::If; })),
             1);
    QVERIFY(nth(k, ir::StmtKind::If, 0)->value->kind != ir::ExprKind::IntImm);
    // POLY = 16: the other branch is the one analysed, and its errors are reported there.
    const FrontEndResult bad = checkWithHeader(script(16));
    const QString all = dump(bad.diagnostics);
    QVERIFY2(all.contains("script:16:17: error: unknown name 'not_defined_anywhere' [E0100]"),
             qPrintable(all));
    QVERIFY2(all.contains("script:8:48: error: integer division by zero [E0156]"),
             qPrintable(all));  // PICK's `1 // 0` is evaluated now
  }

  void pythonIntegerSemantics() {
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(A: T.Tensor((64,), "int32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    A[tid] = (tid - 70) // 8 + (-7) % 3 + 7 // -2
)");
    QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    const ir::Expr& v = *r.program.kernels[0].body.at(1).value;
    // ((tid - 70) // 8 + 2) + (-4): literal folds use floor semantics.
    QCOMPARE(v.args[1]->intValue, int64_t(-4));
    QCOMPARE(v.args[0]->args[1]->intValue, int64_t(2));
    QCOMPARE(v.args[0]->args[0]->op, ir::BinOp::FloorDiv);
  }

  void foldMatchesPython() {
    // tests/data/sema/fold_cases.tsv: every operator over edge operands (0, ±1, 2^31, 2^32,
    // INT64_MIN, INT64_MAX, shift counts 62..70, ...) with the value Python computes
    // (gen_fold_cases.py). Both folding paths must agree with it: literal arithmetic in kernel
    // code (`T.int64(expr)`) and module constants (`N = expr`, used as `T.int64(N)`). A value
    // Python gives that leaves int64 is E0240; ZeroDivisionError is E0156; a negative shift count
    // E0244; `int ** -n` (a float in Python) cannot become an int64.
    QFile f(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sema/fold_cases.tsv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 4000);
    int checked = 0;
    for (const QString& line : lines) {
      const QStringList parts = line.split('\t');
      QCOMPARE(parts.size(), 2);
      const std::string expr = parts[0].toStdString(), want = parts[1].toStdString();
      const std::string text = "from tvm.script import tirx as T\nN = " + expr +
                               "\n@T.function\ndef k(B: T.Tensor((2,), \"int64\")):\n"
                               "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))\n"
                               "    B[0] = T.int64(" +
                               expr + ")\n    B[1] = T.int64(N)\n";
      const FrontEndResult r = checkScript(text, "fold.py");
      const std::string where = expr + " -> " + want + ": " + formatGcc(r.diagnostics, "fold.py");
      bool isValue =
          !want.empty() && (std::isdigit(static_cast<unsigned char>(want[0])) || want[0] == '-');
      if (isValue) {
        QVERIFY2(r.diagnostics.empty(), where.c_str());
        const auto& body = r.program.kernels.at(0).body;
        for (int i = 0; i < 2; ++i) {
          QVERIFY2(body.at(i).value && body.at(i).value->kind == ir::ExprKind::IntImm,
                   where.c_str());
          QVERIFY2(std::to_string(body.at(i).value->intValue) == want, where.c_str());
        }
      } else {
        // One error at the expression in the kernel (line 6) and one at the module constant
        // (line 2, reported where the kernel uses N).
        std::vector<std::string> codes = want == "overflow"  ? std::vector<std::string>{"E0240"}
                                         : want == "zerodiv" ? std::vector<std::string>{"E0156"}
                                         : want == "negshift"
                                             ? std::vector<std::string>{"E0244"}
                                             : std::vector<std::string>{"E0150", "E0244"};
        bool line2 = false, line6 = false;
        for (const auto& d : r.diagnostics) {
          QVERIFY2(std::find(codes.begin(), codes.end(), d.code) != codes.end(), where.c_str());
          line2 |= d.span.line == 2;
          line6 |= d.span.line == 6;
        }
        QVERIFY2(line2 && line6 && r.diagnostics.size() == 2, where.c_str());
      }
      ++checked;
    }
    QCOMPARE(checked, int(lines.size()));
  }

  void literalsBeyondInt32KeepTheirValue() {
    // A literal index, a variable and a loop bound beyond int32 are int64 in the IR (the
    // simulator truncated them to int32: an index of 2^32 stored to element 0).
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    i = 4294967296
    for j in range(4294967296, 4294967298):
        A[j - 4294967296] = T.float32(1)
    for q in range(8):
        A[q] = T.float32(2)
)");
    QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    const ir::Kernel& k = r.program.kernels[0];
    QCOMPARE(k.body.at(0).kind, ir::StmtKind::Assign);
    QCOMPARE(k.vars[k.body.at(0).var].dtype, ir::DType::Int64);
    QCOMPARE(k.body.at(0).value->dtype, ir::DType::Int64);
    QCOMPARE(k.body.at(1).kind, ir::StmtKind::For);
    QCOMPARE(k.vars[k.body.at(1).var].dtype, ir::DType::Int64);  // the loop variable j
    QCOMPARE(k.body.at(1).stop->intValue, int64_t(4294967298));
    QCOMPARE(k.vars[k.body.at(2).var].dtype, ir::DType::Int32);  // q stays int32 (spec §4.7)
  }

  void arch100AcceptsThreeInputMax() {
    const std::string body = R"(
@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    X = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], X, A, scope="cta")
    s = X.view(2, 32, 4, 1)
    T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(0), T.float32(1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A, X, scope="cta")
)";
    const FrontEndResult r90 = checkWithHeader(body, 90);
    QCOMPARE(int(r90.diagnostics.size()), 1);
    QCOMPARE(r90.diagnostics[0].code, std::string("E0177"));
    QCOMPARE(r90.diagnostics[0].notes.at(0).message,
             std::string("three-input max.f32 needs sm_100; this check targets sm_90"));
    const FrontEndResult r100 = checkWithHeader(body, 100);
    QVERIFY2(r100.diagnostics.empty(), qPrintable(dump(r100.diagnostics)));
    QCOMPARE(int(r100.program.kernels[0].body.at(1).apply->operands.size()), 4);
  }

  void survivesMutatedScripts() {
    // Delete each line, and cut the text at many points: never a crash, and every diagnostic has
    // a location inside the text.
    int runs = 0;
    for (const char* n : {"affine_relu.py", "to_float16.py", "two_kernels.py"}) {
      const std::string src = readKernel(n);
      std::vector<std::string> lines;
      size_t pos = 0;
      while (pos <= src.size()) {
        const size_t nl = src.find('\n', pos);
        lines.push_back(src.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
        if (nl == std::string::npos) break;
        pos = nl + 1;
      }
      for (size_t skip = 0; skip < lines.size(); ++skip) {
        std::string text;
        for (size_t i = 0; i < lines.size(); ++i)
          if (i != skip) text += lines[i] + "\n";
        const FrontEndResult r = checkScript(text, "m.py");
        for (const auto& d : r.diagnostics) QVERIFY(d.span.offset <= int(text.size()));
        ++runs;
      }
      for (size_t cut = 0; cut < src.size(); cut += 11) {
        checkScript(src.substr(0, cut), "c.py");
        ++runs;
      }
    }
    QVERIFY(runs > 100);
  }

  void ptxErrorSpanPointsIntoTheString() {
    const FrontEndResult r = checkWithHeader(R"(
@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    X = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.glbal.v4.b32"], X, A, scope="cta")
)");
    QCOMPARE(int(r.diagnostics.size()), 1);
    const Diagnostic& d = r.diagnostics[0];
    QCOMPARE(d.code, std::string("E0350"));
    // `    T.cuda.tile.apply(T.ptx["` is 28 characters: the quote is column 29, 'l' 30,
    // ".glbal" 32.
    QCOMPARE(d.span.col, 32);
    QCOMPARE(d.span.length, 6);
  }
};

QTEST_APPLESS_MAIN(TestSema)
#include "tst_sema.moc"
