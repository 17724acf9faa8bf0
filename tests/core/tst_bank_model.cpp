// Golden tests of the shared-memory bank model (core/layout/bank_model.h) against ncu on the H200:
// every kernel of spec/tc-verify/bank.cu, with the addresses derived here from bank.cu's own
// `off(r, c, mode)` and lane formulas, must give the wavefronts (and bank-conflict wavefronts)
// recorded in tc-verify/h200_bank_wavefronts.log, which the test reads and parses. ptxas split
// bank.cu's 16-byte loads into two 4-byte LDS (the log's SASS: `LDS R5, [R4]` and
// `LDS R6, [R4+0xc]`), so those kernels are modelled as the two 4-byte instructions they ran as.
// Further cases pin the model's rules: broadcast, inactive lanes, 8/16-byte phases, ldmatrix
// phases per matrix, misaligned accesses and the conflict descriptions.
#include <QFile>
#include <QRegularExpression>
#include <QtTest>
#include <functional>
#include <map>

#include "../shared_corpus.h"
#include "core/layout/bank_model.h"

using namespace tirx;

namespace {

// bank.cu: byte offset of 16-byte chunk c of row r (64 rows × 128 B of f16) under a layout.
int64_t off(int r, int c, int mode) {
  if (mode == 0) return r * 128 + c * 16;                // row-major, 128 B rows
  if (mode == 1) return r * 128 + ((c ^ (r % 8)) * 16);  // 128B swizzle
  return r * 144 + c * 16;                               // padded rows (144 B)
}

struct Measured {
  int wavefronts = -1, conflicts = -1;
};

// "k_ldsm<0>" -> {wavefronts, conflicts} from the ncu section of the log.
std::map<std::string, Measured> parseNcuLog() {
  std::map<std::string, Measured> out;
  QFile f(QStringLiteral(TIRX_SHARED_DIR) + "/spec/tc-verify/h200_bank_wavefronts.log");
  if (!f.open(QIODevice::ReadOnly)) return out;
  const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
  const QRegularExpression kernel(R"(^\s+void (k_\w+<\d>)\(unsigned int \*\))");
  const QRegularExpression metric(R"(^\s+(l1tex__\S+)\s+(\d+)\s*$)");
  std::string current;
  for (const QString& line : lines) {
    if (auto m = kernel.match(line); m.hasMatch()) {
      current = m.captured(1).toStdString();
    } else if (auto m = metric.match(line); m.hasMatch() && !current.empty()) {
      if (m.captured(1) == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
        out[current].wavefronts = m.captured(2).toInt();
      else if (m.captured(1) == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
        out[current].conflicts = m.captured(2).toInt();
    }
  }
  return out;
}

// One 4-byte LDS per lane at addr(lane) (+ extra bytes).
BankReport lds32(const std::function<int64_t(int)>& addr, int64_t extra = 0) {
  std::vector<std::optional<int64_t>> a(32);
  for (int l = 0; l < 32; ++l) a[l] = addr(l) + extra;
  return sharedAccessWavefronts(a, 4);
}

}  // namespace

class TestBankModel : public QObject {
  Q_OBJECT

 private slots:
  void ncuOnH200() {
    TIRX_NEED_SHARED("spec/tc-verify/h200_bank_wavefronts.log");
    const auto ncu = parseNcuLog();
    QCOMPARE(ncu.size(), size_t{11});
    for (const auto& [name, m] : ncu) QVERIFY2(m.wavefronts >= 0 && m.conflicts >= 0, name.c_str());
    for (int mode = 0; mode < 3; ++mode) {
      // k_ldsm: ldmatrix.x4 of a 16x16 f16 block; lane l: j = l/8, r = l%8 + 8(j%2), c = j/2.
      std::vector<int64_t> rows(32);
      for (int l = 0; l < 32; ++l) {
        const int j = l / 8, r = (l % 8) + 8 * (j % 2), c = j / 2;
        rows[l] = off(r, c, mode);
      }
      const BankReport ldsm = matrixAccessWavefronts(rows);
      const Measured want = ncu.at("k_ldsm<" + std::to_string(mode) + ">");
      QCOMPARE(ldsm.wavefronts, want.wavefronts);
      QCOMPARE(ldsm.conflictWavefronts(), want.conflicts);

      // k_ld32_col: lane l reads word 0 of row l.
      const BankReport col = lds32([&](int l) { return off(l, 0, mode); });
      const Measured wc = ncu.at("k_ld32_col<" + std::to_string(mode) + ">");
      QCOMPARE(col.wavefronts, wc.wavefronts);
      QCOMPARE(col.conflictWavefronts(), wc.conflicts);

      // k_ldv4_col: 16 bytes of chunk 0 of row l, run as LDS [a] and LDS [a+12].
      const BankReport v0 = lds32([&](int l) { return off(l, 0, mode); });
      const BankReport v1 = lds32([&](int l) { return off(l, 0, mode); }, 12);
      const Measured wv = ncu.at("k_ldv4_col<" + std::to_string(mode) + ">");
      QCOMPARE(v0.wavefronts + v1.wavefronts, wv.wavefronts);
      QCOMPARE(v0.conflictWavefronts() + v1.conflictWavefronts(), wv.conflicts);

      // k_ldv4_rows (modes 0 and 1): chunk l%8 of row l/8, the same two LDS.
      if (mode < 2) {
        const BankReport r0 = lds32([&](int l) { return off(l / 8, l % 8, mode); });
        const BankReport r1 = lds32([&](int l) { return off(l / 8, l % 8, mode); }, 12);
        const Measured wr = ncu.at("k_ldv4_rows<" + std::to_string(mode) + ">");
        QCOMPARE(r0.wavefronts + r1.wavefronts, wr.wavefronts);
        QCOMPARE(r0.conflictWavefronts() + r1.conflictWavefronts(), wr.conflicts);
      }
    }
  }

  void specTable() {
    // §6.5 in numbers: ldmatrix.x4 32 / 4 / 4; 32-bit column 32 / 4 / 4.
    std::vector<int64_t> rowMajor(32);
    for (int l = 0; l < 32; ++l) rowMajor[l] = off((l % 8) + 8 * ((l / 8) % 2), l / 16, 0);
    const BankReport r = matrixAccessWavefronts(rowMajor);
    QCOMPARE(r.wavefronts, 32);
    QCOMPARE(r.idealWavefronts, 4);
    QCOMPARE(r.maxWays, 8);
    // Each matrix's eight rows hit the same 4 banks: 4 conflicting banks per phase, 8 words each.
    QCOMPARE(r.conflicts.size(), size_t{16});
    QCOMPARE(r.conflicts[0].phase, 0);
    QCOMPARE(r.conflicts[0].bank, 0);
    QCOMPARE(r.conflicts[0].words.size(), size_t{8});
    QCOMPARE(r.conflicts[0].lanes, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    QCOMPARE(r.conflicts[4].phase, 1);
  }

  void broadcastAndInactiveLanes() {
    std::vector<std::optional<int64_t>> same(32, int64_t{256});
    BankReport r = sharedAccessWavefronts(same, 4);
    QCOMPARE(r.wavefronts, 1);  // one word, broadcast
    QVERIFY(r.conflicts.empty());
    std::vector<std::optional<int64_t>> none(32);
    r = sharedAccessWavefronts(none, 4);
    QCOMPARE(r.wavefronts, 0);
    QCOMPARE(r.idealWavefronts, 0);
    // Two lanes on bank 0 with different words: 2-way; the other lanes inactive.
    std::vector<std::optional<int64_t>> two(32);
    two[3] = 0;
    two[9] = 128;
    r = sharedAccessWavefronts(two, 4);
    QCOMPARE(r.wavefronts, 2);
    QCOMPARE(r.conflicts.size(), size_t{1});
    QCOMPARE(r.conflicts[0].words, (std::vector<int64_t>{0, 32}));
    QCOMPARE(r.conflicts[0].lanes, (std::vector<int>{3, 9}));
    // Byte and half-word accesses to one word share it.
    std::vector<std::optional<int64_t>> bytes(32);
    for (int l = 0; l < 32; ++l) bytes[l] = l;  // 8 words, banks 0-7
    QCOMPARE(sharedAccessWavefronts(bytes, 1).wavefronts, 1);
  }

  void wideAccessesUsePhases() {
    // 16 bytes per lane, consecutive: four quarter-warp phases of 128 bytes, conflict free.
    std::vector<std::optional<int64_t>> v4(32);
    for (int l = 0; l < 32; ++l) v4[l] = 16 * l;
    BankReport r = sharedAccessWavefronts(v4, 16);
    QCOMPARE(r.wavefronts, 4);
    QCOMPARE(r.idealWavefronts, 4);
    // Lanes 16 bytes apart in a 128-byte stride: within a quarter warp 8 rows on the same banks.
    for (int l = 0; l < 32; ++l) v4[l] = 128 * l;
    r = sharedAccessWavefronts(v4, 16);
    QCOMPARE(r.wavefronts, 32);
    // 8 bytes per lane: two half-warp phases.
    std::vector<std::optional<int64_t>> v2(32);
    for (int l = 0; l < 32; ++l) v2[l] = 8 * l;
    r = sharedAccessWavefronts(v2, 8);
    QCOMPARE(r.wavefronts, 2);
    QCOMPARE(r.idealWavefronts, 2);
  }

  void gpuCheckPredictions() {
    // The wavefronts tests/gpu/tc_foundation_check.cu prints as the model's predictions for its
    // LDS.128 / LDS.64 kernels (to compare with ncu on the H200).
    for (int mode = 0; mode < 3; ++mode) {
      std::vector<std::optional<int64_t>> a(32);
      for (int l = 0; l < 32; ++l) a[l] = off(l, 0, mode);
      QCOMPARE(sharedAccessWavefronts(a, 16).wavefronts, mode == 0 ? 32 : 4);
      QCOMPARE(sharedAccessWavefronts(a, 8).wavefronts, mode == 0 ? 32 : 4);
    }
    std::vector<std::optional<int64_t>> rows(32);
    for (int l = 0; l < 32; ++l) rows[l] = 16 * l;
    QCOMPARE(sharedAccessWavefronts(rows, 16).wavefronts, 4);
  }

  void misalignedAccessCoversBothWords() {
    std::vector<std::optional<int64_t>> a(32);
    a[0] = 2;    // bytes 2-5: words 0 and 1
    a[1] = 128;  // word 32: bank 0 again
    const BankReport r = sharedAccessWavefronts(a, 4);
    QCOMPARE(r.wavefronts, 2);
    QCOMPARE(r.conflicts[0].bank, 0);
  }

  // The one bank function of the engine (the simulator, the layout view, `tirx diff`): word mod
  // 32, floor division for offsets before a tile's start.
  void bankOfAByte() {
    QCOMPARE(bankOfByte(0), 0);
    QCOMPARE(bankOfByte(3), 0);
    QCOMPARE(bankOfByte(4), 1);
    QCOMPARE(bankOfByte(128 + 8), 2);
    QCOMPARE(bankOfByte(-1), 31);
    QCOMPARE(bankOfByte(-4), 31);
    QCOMPARE(bankOfByte(-5), 30);
    QCOMPARE(bankOfWord(33), 1);
  }

  void ldmatrixX1X2() {
    // .x1: one phase; .x2: two; swizzled rows conflict-free.
    std::vector<int64_t> x1(8), x2(16);
    for (int l = 0; l < 8; ++l) x1[l] = off(l, 0, 1);
    for (int l = 0; l < 16; ++l) x2[l] = off(l % 8, l / 8, 1);
    QCOMPARE(matrixAccessWavefronts(x1).wavefronts, 1);
    QCOMPARE(matrixAccessWavefronts(x2).wavefronts, 2);
    for (int l = 0; l < 8; ++l) x1[l] = off(l, 0, 0);
    QCOMPARE(matrixAccessWavefronts(x1).wavefronts, 8);
  }
};

QTEST_APPLESS_MAIN(TestBankModel)
#include "tst_bank_model.moc"
