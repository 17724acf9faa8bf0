// The fragment facts sema publishes for the studio (core/ir/fragment_fact.h): every element of
// every register operand of mma.sync / ldmatrix, in the instruction's frame, with the lane and
// register the fragment map needs and the owner the tensor's layout gives. The expected holders
// are recomputed here from spec/tc-verify/verify.cu's kernel formulas (k_mma16816: a_i at row
// g + 8·((i/2)%2), column 2t + (i&1) + 8·(i≥4); b_i at k 2t + (i&1) + 8·(i≥2), n g; c_i at row
// g + 8·(i≥2), column 2t + (i&1)), not from core/ptx/fragments.h. A deliberately wrong A layout
// must mark exactly the elements whose lane differs, and the script still reports E0263. Last, the
// verify report names the shared allocation of each statement's bank counts (the studio's
// per-tile conflict table).
#include <QFile>
#include <QtTest>
#include <map>

#include "core/sema/fragment_facts.h"
#include "core/verify/verify.h"

using namespace tirx;

namespace {

std::string readExample(const char* name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples/" + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", name);
  return f.readAll().toStdString();
}

const FragmentFact* factOf(const CheckedScript& p, const std::string& role) {
  for (const auto& f : p.fragments)
    if (f.role == role && f.opcode.rfind("mma", 0) == 0) return &f;
  return nullptr;
}

const FragmentCell* cellAt(const FragmentFact& f, int row, int col) {
  for (const auto& c : f.cells)
    if (c.warp == 0 && c.repeat == 0 && c.row == row && c.col == col) return &c;
  return nullptr;
}

}  // namespace

class TestTensorCoreFacts : public QObject {
  Q_OBJECT
 private slots:
  void mmaSingleWarpOperands() {
    const CheckedScript r =
        checkScriptWithFragments(readExample("mma_single_warp.py"), "mma_single_warp.py");
    QVERIFY(r.frontEnd.ok());
    QCOMPARE(int(r.fragments.size()), 4);  // d, a, b, c
    const FragmentFact* a = factOf(r, "a");
    const FragmentFact* b = factOf(r, "b");
    const FragmentFact* d = factOf(r, "d");
    QVERIFY(a && b && d);
    QCOMPARE(a->rows, 16);
    QCOMPARE(a->cols, 16);
    QCOMPARE(b->rows, 16);
    QCOMPARE(b->cols, 8);
    QCOMPARE(d->rows, 16);
    QCOMPARE(d->cols, 8);
    QCOMPARE(a->letter, 'a');
    QCOMPARE(a->halves, 2);
    QCOMPARE(d->halves, 1);
    QCOMPARE(int(a->cells.size()), 256);
    QCOMPARE(a->opSpan.line, 38);
    QCOMPARE(a->tensor, std::string("a"));
    // The golden cells: A (0, 0) is lane 0 register 0, A (8, 0) lane 0 register 1.
    QCOMPARE(cellAt(*a, 0, 0)->needLane, 0);
    QCOMPARE(cellAt(*a, 0, 0)->needReg, 0);
    QCOMPARE(cellAt(*a, 8, 0)->needLane, 0);
    QCOMPARE(cellAt(*a, 8, 0)->needReg, 1);
    QCOMPARE(cellAt(*a, 8, 0)->element, 2);
    for (int l = 0; l < 32; ++l) {
      const int g = l >> 2, t = l & 3;
      for (int i = 0; i < 8; ++i) {
        const FragmentCell* c = cellAt(*a, g + 8 * ((i / 2) % 2), 2 * t + (i & 1) + 8 * (i >= 4));
        QVERIFY(c);
        QCOMPARE(c->needLane, l);
        QCOMPARE(c->element, i);
        QCOMPARE(c->needReg, i / 2);
        QCOMPARE(c->needHalf, i & 1);
        QCOMPARE(c->haveThread, int64_t(l));  // the example's layout is right
        QVERIFY(!c->mismatch);
      }
      for (int i = 0; i < 4; ++i) {
        const FragmentCell* c = cellAt(*b, 2 * t + (i & 1) + 8 * (i >= 2), g);
        QVERIFY(c);
        QCOMPARE(c->needLane, l);
        QCOMPARE(c->element, i);
        const FragmentCell* e = cellAt(*d, g + 8 * (i >= 2), 2 * t + (i & 1));
        QVERIFY(e);
        QCOMPARE(e->needLane, l);
        QCOMPARE(e->needReg, i);
      }
    }
    for (const auto* f : {a, b, d}) QCOMPARE(f->mismatches, int64_t(0));
  }

  void wrongLayoutMarksExactlyTheWrongElements() {
    std::string src = readExample("mma_single_warp.py");
    // Swap the two lane factors of A: word (r, c) goes to lane r % 8 + 8 (c % 4), the map needs
    // 4 (r % 8) + c % 4.
    const std::string good = "S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)]";
    const auto at = src.find(good);
    QVERIFY(at != std::string::npos);
    src.replace(at, good.size(), "S[(2, 8, 2, 4) : (1, 1 @ laneid, 2, 8 @ laneid)]");
    const CheckedScript r = checkScriptWithFragments(src, "wrong.py");
    QVERIFY(!r.frontEnd.ok());
    bool e0263 = false;
    for (const auto& d : r.frontEnd.diagnostics) e0263 |= d.code == "E0263" && d.span.line == 38;
    QVERIFY(e0263);
    const FragmentFact* a = factOf(r, "a");
    QVERIFY(a);
    int64_t expected = 0;
    for (const auto& c : a->cells) {
      const int wr = c.row, wc = c.col / 2;  // the tensor's word coordinate
      const int have = wr % 8 + 8 * (wc % 4), need = 4 * (wr % 8) + wc % 4;
      QCOMPARE(c.haveThread, int64_t(have));
      QCOMPARE(c.mismatch, have != need);
      expected += have != need;
    }
    QCOMPARE(a->mismatches, expected);
    QCOMPARE(a->mismatches, int64_t(256 - 4 * 2 * 2));  // (g, t) = (0, 0) and (7, 3) agree
    QVERIFY(!cellAt(*a, 0, 0)->mismatch);
    QVERIFY(cellAt(*a, 1, 0)->mismatch);
    QCOMPARE(factOf(r, "b")->mismatches, int64_t(0));
  }

  void ldmatrixAtCtaScope() {
    const CheckedScript r = checkScriptWithFragments(readExample("gemm_ldmatrix_swizzled.py"),
                                                     "gemm_ldmatrix_swizzled.py");
    QVERIFY(r.frontEnd.ok());
    int ld = 0;
    for (const auto& f : r.fragments) {
      QCOMPARE(f.mismatches, int64_t(0));
      QCOMPARE(f.warps, 4);
      if (f.opcode.rfind("ldmatrix", 0) != 0) continue;
      ++ld;
      QCOMPARE(f.rows, 32);
      QCOMPARE(f.cols, 8);
      QCOMPARE(f.letter, 'r');
      // x4, not transposed: lane l holds M_reg[l / 4][2 (l % 4) + half] (spec TC §6.2)
      for (const auto& c : f.cells)
        if (c.warp == 1 && c.repeat == 0) {
          QCOMPARE(c.row, 8 * c.needReg + c.needLane / 4);
          QCOMPARE(c.col, 2 * (c.needLane % 4) + c.needHalf);
          QCOMPARE(c.haveThread, int64_t(32 + c.needLane));
        }
    }
    QCOMPARE(ld, 2);
    // plain checkScript does not pay for the facts, and gives the same diagnostics
    QCOMPARE(checkScript(readExample("gemm_ldmatrix_swizzled.py"), "g.py").diagnostics.size(),
             r.frontEnd.diagnostics.size());
  }

  // Each count names the buffer it addresses by id (SharedAccessCount::buffer); the one analysis
  // of the script is shared by the verify (VerifyOptions::analysed) and gives the names.
  void sharedCountsNameTheirAllocation() {
    const std::string text = readExample("gemm_ldmatrix_swizzled.py");
    const FrontEndResult fe = checkScript(text, "gemm_ldmatrix_swizzled.py");
    QVERIFY(fe.ok());
    verify::VerifyOptions o;
    o.fileName = "gemm_ldmatrix_swizzled.py";
    o.device = driver::DeviceSpec::simulator();
    o.analysed = &fe;
    const verify::Report rep = verify::verifyScript(text, o);
    QVERIFY(rep.passed());
    QCOMPARE(int(rep.runs.size()), 1);
    std::map<std::string, int> ldmatrix, stores;
    const verify::KernelRun& run = rep.runs[0];
    const ir::Kernel* k = fe.program.findKernel(run.kernel);
    QVERIFY(k);
    for (const ir::SharedAccessCount& a : run.sharedAccesses) {
      QVERIFY(a.buffer >= 0 && size_t(a.buffer) < k->buffers.size());
      const std::string& name = k->buffers[size_t(a.buffer)].name;
      if (a.op.rfind("ldmatrix", 0) == 0) {
        ++ldmatrix[name];
        QCOMPARE(a.wavefronts, 4 * a.instructions);  // the swizzle: conflict-free
      }
      if (a.op == "st.shared.v4.b32") ++stores[name];
    }
    // lines 39/41 store A and B, the ldmatrix of As_rows and of Bs_rows read them
    QCOMPARE(ldmatrix, (std::map<std::string, int>{{"As", 1}, {"Bs", 1}}));
    QCOMPARE(stores, (std::map<std::string, int>{{"As", 1}, {"Bs", 1}}));
  }
};

QTEST_APPLESS_MAIN(TestTensorCoreFacts)
#include "tst_tensor_core_facts.moc"
