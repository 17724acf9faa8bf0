// The wgmma facts sema publishes for the studio (core/sema/fragment_facts.h): the D accumulator
// and RS-form A fragments of every wgmma statement, cell by cell, and the descriptors of every
// shared sub-operand with the bytes and elements they read. The expected values are recomputed
// from spec/tc-verify/verify.cu (k_wgmma: D register i of thread 32w + 4g + t at row 16w + g +
// 8·((i>>1)&1), column 8·(i>>2) + 2t + (i&1); A element i at row 16w + g + 8·((i/2)%2), column
// 2t + (i&1) + 8·(i≥4); make_desc's bitfields; off_sw128's 128B-swizzled placement; mode 2's
// LBO 16, SBO 1024, start +32 B per k-step), not from core/ptx/fragments.h or wgmma_descriptor.
#include <QFile>
#include <QtTest>

#include "core/sema/fragment_facts.h"

using namespace tirx;

namespace {

std::string readExample(const char* name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples/" + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", name);
  return f.readAll().toStdString();
}

const FragmentFact* factOf(const CheckedScript& p, const std::string& role) {
  for (const auto& f : p.fragments)
    if (f.role == role && f.opcode.rfind("wgmma", 0) == 0) return &f;
  return nullptr;
}

const FragmentCell* cellAt(const FragmentFact& f, int repeat, int row, int col) {
  for (const auto& c : f.cells)
    if (c.repeat == repeat && c.row == row && c.col == col) return &c;
  return nullptr;
}

// tc-verify/verify.cu make_desc, plus nothing: the base offset is 0 in every test there.
uint64_t makeDesc(uint32_t saddr, uint32_t lbo, uint32_t sbo, uint32_t layout) {
  uint64_t d = 0;
  d |= uint64_t((saddr & 0x3FFFF) >> 4);
  d |= uint64_t((lbo & 0x3FFFF) >> 4) << 16;
  d |= uint64_t((sbo & 0x3FFFF) >> 4) << 32;
  d |= uint64_t(layout) << 62;
  return d;
}

// tc-verify/verify.cu off_sw128, in bytes (K = 64: 128-byte rows).
int64_t offSw128(int64_t row, int64_t k) {
  return (row / 8) * 1024 + (row % 8) * 128 + (((k / 8) ^ (row % 8)) * 16) + (k % 8) * 2;
}

}  // namespace

class TestWgmmaFacts : public QObject {
  Q_OBJECT
 private slots:
  void accumulatorCellsFollowTheVerifiedMap() {
    const CheckedScript r = checkScriptWithFragments(readExample("wgmma_m64n64k16.py"),
                                                     "wgmma_m64n64k16.py", {.sm = 90});
    QVERIFY(r.frontEnd.ok());
    const FragmentFact* d = factOf(r, "d");
    QVERIFY(d);
    QVERIFY(!factOf(r, "a"));  // the SS form has no register A
    QCOMPARE(d->rows, 64);
    QCOMPARE(d->cols, 64);
    QCOMPARE(d->frameThreads, 128);
    QCOMPARE(d->warps, 1);
    QCOMPARE(d->letter, 'd');
    QCOMPARE(int(d->cells.size()), 64 * 64);
    QCOMPARE(d->mismatches, int64_t(0));
    QCOMPARE(d->opSpan.line, 40);
    for (int th = 0; th < 128; ++th) {
      const int w = th / 32, l = th % 32, g = l >> 2, t = l & 3;
      for (int i = 0; i < 32; ++i) {
        const FragmentCell* c =
            cellAt(*d, 0, 16 * w + g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * t + (i & 1));
        QVERIFY(c);
        QCOMPARE(c->warp, w);
        QCOMPARE(c->needLane, l);
        QCOMPARE(c->needReg, i);
        QCOMPARE(c->element, i);
        QCOMPARE(c->haveThread, int64_t(th));
      }
    }
  }

  void registerACellsFollowTheVerifiedMap() {
    const CheckedScript r =
        checkScriptWithFragments(readExample("wgmma_rs_n256.py"), "wgmma_rs_n256.py", {.sm = 90});
    QVERIFY(r.frontEnd.ok());
    const FragmentFact* a = factOf(r, "a");
    const FragmentFact* d = factOf(r, "d");
    QVERIFY(a && d);
    QCOMPARE(d->cols, 256);
    QCOMPARE(int(d->cells.size()), 64 * 256);
    QCOMPARE(a->rows, 64);
    QCOMPARE(a->cols, 16);
    QCOMPARE(a->halves, 2);
    QCOMPARE(a->repeat, (std::vector<int64_t>{1, 4}));  // one M repeat, four k-steps
    QCOMPARE(int(a->cells.size()), 4 * 64 * 16);
    QCOMPARE(a->mismatches, int64_t(0));
    for (int ks = 0; ks < 4; ++ks)
      for (int th = 0; th < 128; ++th) {
        const int w = th / 32, l = th % 32, g = l >> 2, t = l & 3;
        for (int i = 0; i < 8; ++i) {
          const FragmentCell* c =
              cellAt(*a, ks, 16 * w + g + 8 * ((i / 2) % 2), 2 * t + (i & 1) + 8 * (i >= 4));
          QVERIFY(c);
          QCOMPARE(c->warp, w);
          QCOMPARE(c->needLane, l);
          QCOMPARE(c->element, i);
          QCOMPARE(c->needReg, i / 2);
          QCOMPARE(c->needHalf, i & 1);
        }
      }
  }

  void wrongAccumulatorLayoutMarksExactlyTheWrongCells() {
    // lanes numbered g + 8t instead of 4g + t: equal only for (g, t) = (0, 0) and (7, 3)
    std::string src = readExample("wgmma_m64n64k16.py");
    const std::string good =
        "ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, "
        "1)])";
    const size_t at = src.find(good);
    QVERIFY(at != std::string::npos);
    src.replace(at, good.size(),
                "ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 1 @ laneid, 4, 8 @ "
                "laneid, 1)])");
    const CheckedScript r = checkScriptWithFragments(src, "w.py", {.sm = 90});
    bool e0221 = false;
    for (const auto& dg : r.frontEnd.diagnostics) e0221 |= dg.code == "E0221";
    QVERIFY(e0221);
    const FragmentFact* d = factOf(r, "d");
    QVERIFY(d);
    QCOMPARE(d->mismatches, int64_t(128 * 32 - 4 * 2 * 32));
    int64_t marked = 0;
    for (const auto& c : d->cells) {
      const int g = c.needLane >> 2, t = c.needLane & 3;
      QCOMPARE(c.mismatch, !((g == 0 && t == 0) || (g == 7 && t == 3)));
      QCOMPARE(c.haveThread, int64_t(32 * c.warp + g + 8 * t));
      marked += c.mismatch;
    }
    QCOMPARE(marked, d->mismatches);
  }

  void descriptorsMatchTcVerify() {
    const CheckedScript r = checkScriptWithFragments(readExample("wgmma_m64n64k16.py"),
                                                     "wgmma_m64n64k16.py", {.sm = 90});
    QVERIFY(r.frontEnd.ok());
    QCOMPARE(int(r.descriptors.size()), 2);
    for (const DescriptorFact& f : r.descriptors) {
      QVERIFY(f.operand == 'a' || f.operand == 'b');
      QCOMPARE(f.buffer, std::string(f.operand == 'a' ? "As" : "Bs"));
      QCOMPARE(f.opSpan.line, 40);
      QCOMPARE(f.keywordSpan.line, 40);
      QCOMPARE(f.kSteps, int64_t(4));
      QCOMPARE(f.rows, int64_t(64));
      QCOMPARE(int(f.subs.size()), 4);
      for (const DescriptorSubOperand& s : f.subs) {
        // verify.cu mode 2: make_desc(base + 32·kk, 16, 1024, 1)
        QCOMPARE(s.fields.leadingByteOffset, int64_t(16));
        QCOMPARE(s.fields.strideByteOffset, int64_t(1024));
        QCOMPARE(s.fields.swizzle, SwizzleMode::B128);
        QCOMPARE(s.fields.baseOffset, 0);
        QCOMPARE(s.fields.startAddress, int64_t(32 * s.kStep));
        QCOMPARE(s.bits, makeDesc(uint32_t(32 * s.kStep), 16, 1024, 1));
        QCOMPARE(s.unmapped, int64_t(0));
        QCOMPARE(int(s.coreMatrixBytes.size()), 4);
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j)
            for (int q = 0; q < 8; ++q)
              QCOMPARE(s.coreMatrixBytes[size_t(2 * i + j)][size_t(q)],
                       offSw128(8 * i + q, 16 * s.kStep + 8 * j));
        std::vector<int64_t> want;
        for (int row = 0; row < 64; ++row)
          for (int k = 0; k < 16; ++k) want.push_back(row * 64 + 16 * s.kStep + k);
        QCOMPARE(s.elements, want);
      }
    }
  }

  void gemmDescriptorsCoverTheirRegions() {
    const CheckedScript r =
        checkScriptWithFragments(readExample("gemm_wgmma_ws.py"), "gemm_wgmma_ws.py", {.sm = 90});
    QVERIFY(r.frontEnd.ok());
    QVERIFY(!r.descriptors.empty());
    bool sawB = false;
    for (const DescriptorFact& f : r.descriptors) {
      QVERIFY(!f.subs.empty());
      if (f.operand == 'b') {
        sawB = true;
        QCOMPARE(f.rows, int64_t(256));
      }
      for (const auto& s : f.subs) {
        QCOMPARE(int64_t(s.elements.size()), f.rows * 16);
        QCOMPARE(s.unmapped, int64_t(0));
        QVERIFY(std::adjacent_find(s.elements.begin(), s.elements.end()) == s.elements.end());
      }
    }
    QVERIFY(sawB);
  }
};

QTEST_APPLESS_MAIN(TestWgmmaFacts)
#include "tst_wgmma_facts.moc"
