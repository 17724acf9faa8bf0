// End-to-end tests of `tirx layout` on swizzled layouts (app/cli/layout_swizzle_print.cpp): the
// 128B swizzle image of a 64×64 f16 tile (physical row.chunk and first bank of every logical
// chunk — chunk ^ row%8, banks 4·chunk —, the hardware mode, the ldmatrix phases), the
// conflicted unswizzled tile, --dtype and the element-width refusal, --json, and the usage and
// diagnostic exit codes.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "tirx_process.h"

namespace {

Run tirx(const QStringList& args) {
  return runTirx(QStringList{"layout"} + args);
}

const QString k128 = "ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))";

}  // namespace

class TestCliLayoutSwizzle : public QObject {
  Q_OBJECT

 private slots:
  void image128B() {
    const Run r = tirx({k128});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QString());
    const QStringList lines = r.out.split('\n');
    QCOMPARE(lines[0],
             QString("layout: ComposeLayout(3, 3, 3, TileLayout(S[(64, 64) : (64, 1)]))"));
    QCOMPARE(lines[1],
             QString("shape: (64, 64), 4096 elements of 2 bytes, 8 chunks of 16 bytes per row"));
    QCOMPARE(lines[2],
             QString("swizzle: 128B = TMA CU_TENSOR_MAP_SWIZZLE_128B = wgmma descriptor mode 1; "
                     "repeats every 1024 bytes (align the buffer to 1024)"));
    QCOMPARE(lines[3], QString("storage: 4096 elements"));
    QCOMPARE(
        lines[4],
        QString("ldmatrix phases (8 rows x 16 bytes of one chunk column): 64 of 64 conflict-free"));
    QCOMPARE(lines[6], QString("logical (row, chunk) -> physical row.chunk/first bank"));
    QCOMPARE(lines[7].simplified(), QString("0 1 2 3 4 5 6 7"));
    QCOMPARE(lines.size(), 8 + 64 + 1);
    // Every cell: physical chunk = chunk ^ (row % 8) in the same row, first bank 4 × that.
    for (int row = 0; row < 64; ++row) {
      const QStringList cells = lines[8 + row].simplified().split(' ');
      QCOMPARE(cells.size(), 9);
      QCOMPARE(cells[0], QString("[%1]").arg(row));
      for (int c = 0; c < 8; ++c) {
        const int p = c ^ (row % 8);
        QCOMPARE(cells[1 + c], QString("%1.%2/b%3").arg(row).arg(p).arg(4 * p));
      }
    }
  }

  void unswizzledConflicts() {
    const Run r = tirx({"ComposeLayout(3, 0, 3, S[16, 64])"});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split('\n');
    QCOMPARE(lines[2], QString("swizzle: none (swizzle_len 0)"));
    QCOMPARE(
        lines[4],
        QString("ldmatrix phases (8 rows x 16 bytes of one chunk column): 0 of 16 conflict-free, "
                "worst 8 wavefronts (rows 0-7, chunk 0)"));
  }

  void dtype() {
    // per_element=2 is the 16-byte chunk of float32: the 128B mode.
    Run r = tirx({"ComposeLayout(2, 3, 3, S[8, 32])", "--dtype", "float32"});
    QCOMPARE(r.code, 0);
    QVERIFY(
        r.out.contains("shape: (8, 32), 256 elements of 4 bytes, 8 chunks of 16 bytes per row\n"));
    QVERIFY(r.out.contains("swizzle: 128B = TMA"));
    // per_element=3 with float32 swizzles 32-byte units: no hardware mode, and why.
    r = tirx({"ComposeLayout(3, 3, 3, S[8, 64])", "--dtype", "float32"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(
                 "swizzle: no hardware mode: ComposeLayout per_element=3 swizzles 8-element units "
                 "(32 bytes of float32); a 16-byte chunk of float32 is per_element=2\n"),
             qPrintable(r.out));
    r = tirx({"ComposeLayout(3, 3, 3, S[8, 64])", "--dtype", "foo"});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QString("tirx layout: unknown --dtype 'foo'\n"));
    r = tirx({"S[8, 64]", "--dtype", "float16"});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QString("tirx layout: --dtype applies to a ComposeLayout (swizzle) only\n"));
  }

  void json() {
    const Run r = tirx({"ComposeLayout(3, 2, 3, S[8, 32])", "--json"});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
    QVERIFY(!j.is_discarded());
    QCOMPARE(j["kind"].get<std::string>(), std::string("compose"));
    QCOMPARE(j["mode"].get<std::string>(), std::string("64B"));
    QCOMPARE(j["pattern_bytes"].get<int>(), 512);
    QCOMPARE(j["chunks_per_row"].get<int>(), 4);
    QCOMPARE(
        j["swizzle"],
        nlohmann::json({{"per_element", 3}, {"swizzle_len", 2}, {"atom_len", 3}, {"inner", true}}));
    // 64-byte rows under 64B: chunk ^ ((row / 2) % 4).
    for (int row = 0; row < 8; ++row)
      for (int c = 0; c < 4; ++c) {
        const int p = row * 4 + (c ^ ((row / 2) % 4));
        QCOMPARE(j["rows"][row]["chunks"][c]["physical"].get<int>(), p);
        QCOMPARE(j["rows"][row]["chunks"][c]["first_bank"].get<int>(), (4 * p) % 32);
      }
    QCOMPARE(j["ldmatrix_phases"].size(), size_t{4});
    QCOMPARE(j["ldmatrix_phases"][0]["wavefronts"].get<int>(), 1);
  }

  void errors() {
    Run r = tirx({"ComposeLayout(3, 3, 2, S[8, 64])"});
    QCOMPARE(r.code, 1);
    QCOMPARE(
        r.err,
        QString("<layout>:1:1: error: atom_len (2) must be at least swizzle_len (3) [E0315]\n"));
    r = tirx({"ComposeLayout(3, 3, 3, S[8, 64])", "--shape", "4,4"});
    QCOMPARE(r.code, 2);
    // Too many rows to draw.
    r = tirx({"ComposeLayout(3, 3, 3, S[2048, 8])"});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QString("tirx layout: cannot draw the swizzle image: the layout has 2048 rows, "
                            "more than 1024\n"));
  }
};

QTEST_APPLESS_MAIN(TestCliLayoutSwizzle)
#include "tst_cli_layout_swizzle.moc"
