// The one buffer-access analysis of core/ir (buffer_access.h): which buffers each kind of
// statement reads and writes, on real scripts, and that the simulator and the GPU executor's
// writtenParams agree through it. Regression: the simulator's own walk missed TMA stores, so the
// outputs a TMA store wrote had no producer (no owner for a failed element).
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>

#include "core/ir/buffer_access.h"
#include "core/ir/element_access.h"
#include "core/sema/sema.h"
#include "core/sim/simulator.h"

using namespace tirx;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int bufferId(const ir::Kernel& k, const std::string& name) {
  for (const auto& b : k.buffers)
    if (b.name == name) return b.id;
  return -1;
}

std::vector<ir::KernelArg> zeroArgs(const ir::Kernel& k) {
  std::vector<ir::KernelArg> args;
  for (const auto& p : k.params) {
    ir::KernelArg a;
    const auto& b = k.buffers[size_t(p.buffer)];
    a.tensor.dtype = b.dtype;
    a.tensor.shape = b.shape;
    a.tensor.data.assign(size_t(a.tensor.numel() * ir::dtypeBytes(b.dtype)), 0);
    args.push_back(a);
  }
  return args;
}

}  // namespace

class TestBufferAccess : public QObject {
  Q_OBJECT

  FrontEndResult check(const std::string& rel) {
    const std::string text = readFile(std::string(TIRX_SOURCE_DIR) + "/" + rel);
    FrontEndResult fe = checkScript(text, rel);
    for (const auto& d : fe.diagnostics)
      if (d.severity == Severity::Error) qWarning("%s", d.message.c_str());
    return fe;
  }

 private slots:
  // TMA load: global read, shared box written; TMA store: the reverse; element stores; mbarrier.
  void tmaCopyScript() {
    FrontEndResult fe = check("resources/examples/tma_copy_128b.py");
    QVERIFY(fe.ok());
    const ir::Kernel& k = fe.program.kernels.at(0);
    const ir::BufferAccess a = ir::bufferAccess(k);
    const int A = bufferId(k, "A"), B = bufferId(k, "B"), C = bufferId(k, "C"),
              As = bufferId(k, "As"), bar = bufferId(k, "bar");
    QVERIFY(A >= 0 && B >= 0 && C >= 0 && As >= 0 && bar >= 0);
    QVERIFY(a.isRead(A) && !a.isWritten(A));
    QVERIFY(a.isWritten(B) && !a.isRead(B));   // only the TMA store touches B
    QVERIFY(a.isWritten(C) && !a.isRead(C));   // element stores
    QVERIFY(a.isWritten(As) && a.isRead(As));  // TMA load lands, element loads and TMA store read
    QVERIFY(a.isWritten(bar) && a.isRead(bar));
    QCOMPARE(ir::writtenParams(k), (std::vector<bool>{false, true, true}));
    QCOMPARE(ir::writeOnlyParams(k), (std::vector<bool>{false, true, true}));
  }

  // tile.apply: ld registers from global, ewise on registers, st to global.
  void tileOpsScript() {
    FrontEndResult fe = check("resources/examples/shared_affine.py");
    QVERIFY(fe.ok());
    const ir::Kernel& k = fe.program.kernels.at(0);
    const ir::BufferAccess a = ir::bufferAccess(k);
    const std::vector<bool> written = ir::writtenParams(k);
    int outputs = 0;
    for (size_t i = 0; i < k.params.size(); ++i) {
      const int b = k.params[i].buffer;
      QCOMPARE(bool(written[i]), a.isWritten(b));
      outputs += written[i];
    }
    QVERIFY(outputs >= 1);
    QVERIFY(a.isRead(bufferId(k, "A")));
    QVERIFY(!a.isWritten(bufferId(k, "A")));
    const int S = bufferId(k, "S");
    QVERIFY(a.isWritten(S) && a.isRead(S));
  }

  // forEachStmt reaches nested bodies; forEachExpr reaches the loads inside region starts
  // (a region start through an element load is a read of that tensor).
  void walkerReachesNestedStatementsAndExpressions() {
    FrontEndResult fe = check("resources/examples/tma_copy_128b.py");
    QVERIFY(fe.ok());
    const ir::Kernel& k = fe.program.kernels.at(0);
    int stores = 0, tmas = 0, loads = 0;
    ir::forEachStmt(k.body, [&](const ir::Stmt& s) {
      stores += s.kind == ir::StmtKind::Store;
      tmas += s.kind == ir::StmtKind::Tma;
      ir::forEachExpr(s, [&](const ir::Expr& e) { loads += e.kind == ir::ExprKind::Load; });
    });
    QCOMPARE(stores, 1);  // C[...] = As[...] inside the loop
    QCOMPARE(tmas, 2);    // inside the two `if tid == 0` bodies
    QCOMPARE(loads, 1);   // the As[...] element load
  }

  // forEachTensor names every tensor of a statement with its written position and direction (a
  // TMA load: shared box 0 written, global view 1 read, mbar= 2 read and written); forEachExpr on
  // one expression reaches its arguments and the region starts of a tensor it loads.
  void tensorAndExpressionWalkers() {
    FrontEndResult fe = check("resources/examples/tma_copy_128b.py");
    QVERIFY(fe.ok());
    const ir::Kernel& k = fe.program.kernels.at(0);
    const int A = bufferId(k, "A"), As = bufferId(k, "As"), bar = bufferId(k, "bar");
    std::vector<std::tuple<int, int, bool, bool>> load;  // (buffer, operand, write, read)
    int storeTensors = 0;
    ir::forEachStmt(k.body, [&](const ir::Stmt& s) {
      if (s.kind != ir::StmtKind::Tma) return;
      ir::forEachTensor(s, [&](const ir::TensorRef& r, int operand, bool write, bool read) {
        if (s.tma->store)
          ++storeTensors;
        else
          load.emplace_back(r.buffer, operand, write, read);
      });
    });
    std::sort(load.begin(), load.end(),
              [](const auto& x, const auto& y) { return std::get<1>(x) < std::get<1>(y); });
    QCOMPARE(load, (std::vector<std::tuple<int, int, bool, bool>>{
                       {As, 0, true, false}, {A, 1, false, true}, {bar, 2, true, true}}));
    QCOMPARE(storeTensors, 2);  // global destination and shared source, no mbar=

    auto node = [](ir::ExprKind kind) {
      auto e = std::make_shared<ir::Expr>();
      e->kind = kind;
      return e;
    };
    auto ref = std::make_shared<ir::TensorRef>();
    ref->lo = {node(ir::ExprKind::Var), nullptr};  // a runtime start and a static one
    auto load1 = node(ir::ExprKind::Load);
    load1->tensor = ref;
    load1->args = {node(ir::ExprKind::ThreadIdx)};
    auto sum = node(ir::ExprKind::Binary);
    sum->args = {load1, node(ir::ExprKind::IntImm)};
    std::vector<ir::ExprKind> seen;
    ir::forEachExpr(*sum, [&](const ir::Expr& e) { seen.push_back(e.kind); });
    QCOMPARE(seen,
             (std::vector<ir::ExprKind>{ir::ExprKind::Binary, ir::ExprKind::Load, ir::ExprKind::Var,
                                        ir::ExprKind::ThreadIdx, ir::ExprKind::IntImm}));
  }

  // Symbols carry their buffer id (a view names the buffer it views), and tileOpUses finds every
  // tile-op operand of that buffer by id, with its operand position, direction and atom.
  void symbolsAndTileOpUses() {
    const std::string text =
        readFile(std::string(TIRX_SOURCE_DIR) + "/tests/data/kernels/affine_relu.py");
    FrontEndResult fe = checkScript(text, "affine_relu.py");
    QVERIFY(fe.ok());
    const ir::Kernel& k = fe.program.kernels.at(0);
    auto symbolNamed = [&](const std::string& n) -> const ir::Symbol* {
      for (const auto& s : fe.program.symbols)
        if (s.name == n) return &s;
      return nullptr;
    };
    const ir::Symbol* regs = symbolNamed("registers");
    const ir::Symbol* scalars = symbolNamed("scalars");
    const ir::Symbol* A = symbolNamed("A");
    const ir::Symbol* layout = symbolNamed("register_layout");
    QVERIFY(regs && scalars && A && layout);
    QCOMPARE(regs->buffer, bufferId(k, "registers"));
    QCOMPARE(scalars->buffer, regs->buffer);  // a view of registers
    QCOMPARE(A->buffer, bufferId(k, "A"));
    QCOMPARE(layout->buffer, -1);
    const auto uses = ir::tileOpUses(k, regs->buffer);
    QCOMPARE(uses.size(), size_t(6));  // ld (dst), fma (dst, src), max (dst, src), st (src)
    QCOMPARE(uses[0].opcode, std::string("ld.global.v4.b32"));
    QVERIFY(uses[0].write);
    QCOMPARE(uses[0].operand, 0);
    QCOMPARE(uses[0].atom, int64_t(4));
    QCOMPARE(uses[0].stmt->span.line, 15);
    QCOMPARE(uses[2].opcode, std::string("fma.rn.f32"));
    QVERIFY(!uses[2].write);
    QCOMPARE(uses[2].operand, 1);
    QCOMPARE(uses[5].opcode, std::string("st.global.v4.b32"));
    QCOMPARE(uses[5].operand, 1);
    QVERIFY(!uses[5].write);
    QCOMPARE(uses[5].stmt->span.line, 21);
    const auto aUses = ir::tileOpUses(k, A->buffer);
    QCOMPARE(aUses.size(), size_t(1));
    QCOMPARE(aUses[0].operand, 1);
    QVERIFY(ir::tileOpUses(k, -1).empty());
  }

  // Which threads touch one element of a memory tile in which ld/st tile op: shared_affine.py's
  // S row 33, column 2 is read into thread 33's R slot 2 (line 28) and written back from it
  // (line 30), through the view sv and reg_layout (1@warpid, 1@laneid, 1).
  void elementTouchesOfASharedTile() {
    FrontEndResult fe = check("resources/examples/shared_affine.py");
    QVERIFY(fe.ok());
    const ir::Kernel& k = fe.program.kernels.at(0);
    const int S = bufferId(k, "S"), R = bufferId(k, "R"), A = bufferId(k, "A");
    ir::ElementTouches t = ir::elementTouches(k, S, 33 * 4 + 2);
    QVERIFY(t.unresolved.empty());
    QCOMPARE(t.touches.size(), size_t(2));
    QCOMPARE(t.touches[0].stmt->span.line, 28);
    QCOMPARE(t.touches[0].opcode, std::string("ld.shared.v4.b32"));
    QVERIFY(!t.touches[0].write);
    QCOMPARE(t.touches[0].thread, int64_t(33));
    QCOMPARE(t.touches[0].regBuffer, R);
    QCOMPARE(t.touches[0].slot, int64_t(2));
    QCOMPARE(t.touches[1].stmt->span.line, 30);
    QVERIFY(t.touches[1].write);
    QCOMPARE(t.touches[1].thread, int64_t(33));
    // every element is touched by exactly its own thread: row r, column c → thread r, slot c
    for (int64_t e = 0; e < 256; e += 37) {
      t = ir::elementTouches(k, S, e);
      QCOMPARE(t.touches.size(), size_t(2));
      QCOMPARE(t.touches[0].thread, e / 4);
      QCOMPARE(t.touches[0].slot, e % 4);
    }
    // A is read by element loads only (no tile op), an element outside S by nothing
    QVERIFY(ir::elementTouches(k, A, 5).touches.empty());
    QVERIFY(ir::elementTouches(k, S, 256).touches.empty());
    QVERIFY(ir::elementTouches(k, -1, 0).touches.empty());
    QVERIFY(ir::elementTouches(k, S, 134, 1).truncated);
  }

  // A region start through the block index is only known at run time: listed, not guessed.
  void elementTouchesLeaveRuntimeStartsUnresolved() {
    FrontEndResult fe = check("resources/examples/relu_grid.py");
    QVERIFY(fe.ok());
    const ir::Kernel& k = fe.program.kernels.at(0);
    const ir::ElementTouches a = ir::elementTouches(k, bufferId(k, "A"), 300);
    QVERIFY(a.touches.empty());
    QCOMPARE(a.unresolved.size(), size_t(1));  // ld.global of A.view(...).sub[bx]
    QCOMPARE(a.unresolved[0]->span.line, 17);
    const ir::ElementTouches b = ir::elementTouches(k, bufferId(k, "B"), 300);
    QCOMPARE(b.unresolved.size(), size_t(1));
    QCOMPARE(b.unresolved[0]->span.line, 20);
  }

  // The simulator records the producer of every element a TMA store wrote (it used to keep B's
  // owner list empty: its own walk saw only element and tile-op stores).
  void simulatorKnowsTheProducerOfTmaStoredElements() {
    FrontEndResult fe = check("resources/examples/tma_copy_128b.py");
    QVERIFY(fe.ok());
    const ir::Kernel& k = fe.program.kernels.at(0);
    std::vector<ir::KernelArg> args = zeroArgs(k);
    sim::Simulator s;
    auto out = s.run(fe.program, k.name, args);
    QVERIFY(out);
    QVERIFY(out->ran);
    const ir::Provenance& p = out->provenance;
    QCOMPARE(p.args.size(), size_t(3));
    QCOMPARE(p.args[1].size(), size_t(64 * 64));  // B
    int storeLine = 0;
    for (const auto& o : p.args[1]) {
      QVERIFY(o.cta >= 0);
      QCOMPARE(o.thread, 0);  // the elected thread issued the store
      storeLine = o.storeLine;
    }
    QCOMPARE(storeLine, 33);
    QCOMPARE(p.args[1][64 * 40].cta, 1);  // row 40 came from CTA 1's box
    QVERIFY(p.args[0].empty());           // A is never written
  }
};

QTEST_MAIN(TestBufferAccess)
#include "tst_buffer_access.moc"
