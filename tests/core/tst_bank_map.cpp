// The bank picture of one statement and one warp (core/sim/bank_map.h) from the lane addresses the
// simulator counted. shared_affine.py's `S[tid, j] = A[tid, j]` stores one float per lane into
// S (64 × 4 float32, row-major, the only shared tile: base 0), so lane l of warp w stores element
// (32w + l, j) at byte 16·(32w + l) + 4j, word 4·(32w + l) + j, bank (4l + j) % 32: lanes l, l + 8,
// l + 16 and l + 24 share a bank — 4-way, 4 wavefronts instead of 1. The partners below are derived
// by hand from those addresses. Its `st.shared.v4.b32` (one row of 16 bytes per lane, quarter-warp
// phases over 128 contiguous bytes) and gemm_ldmatrix_swizzled.py's ldmatrix from a 128-byte
// swizzled tile show no conflict at all. Last, the map's wavefront sums equal the simulator's
// counts for every statement whose instructions were all kept.
#include <QFile>
#include <QtTest>

#include "core/sema/sema.h"
#include "core/sim/bank_map.h"
#include "core/verify/verify.h"

using namespace tirx;

namespace {

std::string readExample(const char* name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples/" + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", name);
  return f.readAll().toStdString();
}

int lineOf(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) return -1;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

struct Ran {
  FrontEndResult fe;
  verify::Report report;
};

Ran run(const char* example) {
  const std::string text = readExample(example);
  verify::VerifyOptions o;
  o.fileName = example;
  o.device = driver::DeviceSpec::simulator();
  return {checkScript(text, example), verify::verifyScript(text, o)};
}

const ir::SharedAccessCount* countAt(const verify::Report& r, int line,
                                     const std::string& opPrefix) {
  for (const auto& run : r.runs)
    for (const auto& c : run.sharedAccesses)
      if (c.span.line == line && c.op.rfind(opPrefix, 0) == 0) return &c;
  return nullptr;
}

const sim::BankCell* cellOf(const sim::WarpBankMap& m, int64_t element) {
  for (const auto& c : m.cells)
    if (c.element == element) return &c;
  return nullptr;
}

int64_t flat(int64_t row, int64_t col) {
  return row * 4 + col;
}  // S is 64 × 4

}  // namespace

class TestBankMap : public QObject {
  Q_OBJECT
 private slots:
  void elementStoresConflictFourWays() {
    const Ran r = run("shared_affine.py");
    QVERIFY(r.fe.ok());
    QVERIFY(r.report.passed());
    const ir::Kernel* k = r.fe.program.findKernel("shared_affine");
    QVERIFY(k);
    const ir::SharedAccessCount* store = countAt(
        r.report, lineOf(readExample("shared_affine.py"), "S[tid, j] = A[tid, j]"), "store S");
    QVERIFY(store);
    QCOMPARE(store->maxWays, 4);
    QCOMPARE(k->buffers[size_t(store->buffer)].name, std::string("S"));
    QCOMPARE(store->base, int64_t(0));
    QCOMPARE(store->sampledCta, int64_t(0));
    QCOMPARE(sim::sampledWarps(*store), (std::vector<int64_t>{0, 1}));
    QCOMPARE(int(store->samples.size()), 8);  // 2 warps × 4 iterations of j

    const sim::WarpBankMap w0 = sim::warpBankMap(*k, *store, 0);
    QVERIFY2(w0.why.empty(), w0.why.c_str());
    QCOMPARE(int(w0.samples.size()), 4);
    QVERIFY(!w0.truncated);
    QCOMPARE(int(w0.cells.size()), 128);  // rows 0..31, every column once
    QCOMPARE(w0.wavefronts, int64_t(16));
    QCOMPARE(w0.idealWavefronts, int64_t(4));
    QCOMPARE(w0.maxWays, 4);
    for (const auto& c : w0.cells) {
      QVERIFY(c.element < flat(32, 0));  // warp 0 stores rows 0..31 only
      QCOMPARE(c.ways, 4);
      QCOMPARE(int(c.partners.size()), 3);
      QCOMPARE(c.bank, int((c.byte / 4) % 32));
    }
    // (0, 0): byte 0, bank 0, with rows 8, 16, 24 of column 0 (words 32, 64, 96); served first
    const sim::BankCell* c00 = cellOf(w0, flat(0, 0));
    QVERIFY(c00);
    QCOMPARE(c00->bank, 0);
    QCOMPARE(c00->lane, 0);
    QCOMPARE(c00->wavefront, 0);
    QCOMPARE(c00->partners, (std::vector<int64_t>{flat(8, 0), flat(16, 0), flat(24, 0)}));
    // (24, 0): word 96 is bank 0's fourth word
    QCOMPARE(cellOf(w0, flat(24, 0))->wavefront, 3);
    QCOMPARE(cellOf(w0, flat(24, 0))->partners,
             (std::vector<int64_t>{flat(0, 0), flat(8, 0), flat(16, 0)}));
    // (1, 2): byte 24, word 6, bank 6, with (9, 2), (17, 2), (25, 2)
    const sim::BankCell* c12 = cellOf(w0, flat(1, 2));
    QCOMPARE(c12->bank, 6);
    QCOMPARE(c12->lane, 1);
    QCOMPARE(c12->byte, int64_t(24));
    QCOMPARE(c12->partners, (std::vector<int64_t>{flat(9, 2), flat(17, 2), flat(25, 2)}));
    // the column j = 2 instruction is not the j = 0 one: different samples
    QVERIFY(c12->sample != c00->sample);

    // warp 1 stores rows 32..63: (33, 1) is byte 532, word 133, bank 5, with (41, 1), (49, 1), (57,
    // 1)
    const sim::WarpBankMap w1 = sim::warpBankMap(*k, *store, 1);
    const sim::BankCell* c331 = cellOf(w1, flat(33, 1));
    QVERIFY(c331);
    QCOMPARE(c331->bank, 5);
    QCOMPARE(c331->lane, 1);
    QCOMPARE(c331->partners, (std::vector<int64_t>{flat(41, 1), flat(49, 1), flat(57, 1)}));
    QVERIFY(!cellOf(w1, flat(0, 0)));
    QVERIFY(!sim::warpBankMap(*k, *store, 2).why.empty());  // 64 threads: no warp 2
  }

  void vectorStoreAndSwizzledLdmatrixHaveNone() {
    // st.shared.v4.b32: lane l of warp w stores row 32w + l (16 bytes); 8 lanes per phase cover 128
    // contiguous bytes, one word per bank
    {
      const Ran r = run("shared_affine.py");
      const ir::Kernel* k = r.fe.program.findKernel("shared_affine");
      const ir::SharedAccessCount* st =
          countAt(r.report, lineOf(readExample("shared_affine.py"), "T.ptx[\"st.shared.v4.b32\"]"),
                  "st.shared.v4.b32");
      QVERIFY(k && st);
      const sim::WarpBankMap m = sim::warpBankMap(*k, *st, 1);
      QCOMPARE(int(m.cells.size()), 128);
      QCOMPARE(m.maxWays, 1);
      QCOMPARE(m.wavefronts, m.idealWavefronts);
      for (const auto& c : m.cells) {
        QCOMPARE(c.ways, 1);
        QVERIFY(c.partners.empty());
        QCOMPARE(c.phase, c.lane / 8);  // quarter-warp phases
      }
      QCOMPARE(cellOf(m, flat(33, 3))->lane, 1);
      QCOMPARE(cellOf(m, flat(33, 3))->bank, int((33 * 16 + 12) / 4 % 32));
    }
    const Ran r = run("gemm_ldmatrix_swizzled.py");
    QVERIFY(r.report.passed());
    int ldmatrix = 0;
    for (const auto& run : r.report.runs) {
      const ir::Kernel* k = r.fe.program.findKernel(run.kernel);
      QVERIFY(k);
      for (const auto& c : run.sharedAccesses) {
        if (c.op.rfind("ldmatrix", 0) != 0) continue;
        ++ldmatrix;
        for (int64_t warp : sim::sampledWarps(c)) {
          const sim::WarpBankMap m = sim::warpBankMap(*k, c, warp);
          QVERIFY2(m.why.empty(), m.why.c_str());
          QVERIFY(!m.cells.empty());
          QCOMPARE(m.maxWays, 1);
          for (const auto& cell : m.cells) {
            QCOMPARE(cell.ways, 1);
            QVERIFY(cell.partners.empty());
            QCOMPARE(cell.bank, int(((c.base + cell.byte) / 4) % 32));
          }
        }
      }
    }
    QVERIFY(ldmatrix >= 2);
  }

  // The picture and the numbers agree: where every instruction was kept, the maps' wavefronts
  // over all warps are the simulator's counts.
  void mapsSumToTheSimulatorsCounts() {
    for (const char* example :
         {"shared_affine.py", "gemm_ldmatrix_swizzled.py", "gemm_bf16_tiled.py"}) {
      const Ran r = run(example);
      QVERIFY2(r.report.passed(), example);
      int compared = 0;
      for (const auto& run : r.report.runs) {
        const ir::Kernel* k = r.fe.program.findKernel(run.kernel);
        for (const auto& c : run.sharedAccesses) {
          if (int64_t(c.samples.size()) != c.instructions)
            continue;  // more CTAs or instructions than kept
          int64_t waves = 0, ideal = 0;
          int ways = 0;
          for (int64_t warp : sim::sampledWarps(c)) {
            const sim::WarpBankMap m = sim::warpBankMap(*k, c, warp);
            waves += m.wavefronts;
            ideal += m.idealWavefronts;
            ways = std::max(ways, m.maxWays);
            for (const auto& cell : m.cells) QVERIFY(cell.ways <= m.maxWays);
          }
          QCOMPARE(waves, c.wavefronts);
          QCOMPARE(ideal, c.idealWavefronts);
          QCOMPARE(ways, c.maxWays);
          ++compared;
        }
      }
      QVERIFY2(compared > 0 || std::string(example) != "shared_affine.py", example);
    }
  }
};

QTEST_GUILESS_MAIN(TestBankMap)
#include "tst_bank_map.moc"
