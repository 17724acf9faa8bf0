// The tensor-core kernels through the real binary: every new example and benchmark kernel compiles
// with NVRTC + nvJitLink for sm_90 and sm_80 (registers, no spills), the 4096³ GEMM of the GPU
// benchmark passes the front end and compiles, and `tirx run --json` reports the simulator's
// shared-memory bank counts per statement and per line (the tc-verify cases: ldmatrix.x4 32 / 4 / 4
// wavefronts, a column load 32 / 4 / 4 for row-major / swizzled / padded tiles).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include "tirx_process.h"

namespace {

QString src(const QString& rel) {
  return QStringLiteral(TIRX_SOURCE_DIR "/") + rel;
}

}  // namespace

class TestCliCollective : public QObject {
  Q_OBJECT

 private slots:
  void compilesForSm90AndSm80_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("arch");
    for (const char* f :
         {"resources/examples/mma_single_warp.py", "resources/examples/gemm_ldmatrix_swizzled.py",
          "resources/examples/gemm_bf16_tiled.py", "resources/examples/warp_reduce_rows.py",
          "bench/kernels/bank_conflicts.py", "bench/kernels/gemm_bf16_4096.py"})
      for (const char* a : {"sm_90", "sm_80"})
        QTest::newRow(qPrintable(QString(f).section('/', -1) + " " + a)) << f << a;
  }
  void compilesForSm90AndSm80() {
    QFETCH(QString, file);
    QFETCH(QString, arch);
    const Run r = runTirx({"compile", src(file), "--arch", arch, "--emit", "resources"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    // kernel  registers  spill stores  spill loads  shared  stack  barriers
    static const QRegularExpression row(R"(^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s*$)",
                                        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = row.match(r.out);
    QVERIFY2(m.hasMatch(), qPrintable(r.out));
    QVERIFY(m.captured(2).toInt() > 0);
    QCOMPARE(m.captured(3).toInt(), 0);  // no spills
    QCOMPARE(m.captured(4).toInt(), 0);
  }

  void ptxHasOneInstructionPerRepeat() {
    const Run r =
        runTirx({"compile", src("resources/examples/gemm_ldmatrix_swizzled.py"), "--emit", "ptx"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    // 4 warps x (1 x 8 x 4) repeats = 32 mma per warp; ldmatrix: 4 (A) + 16 (B) per warp.
    QCOMPARE(int(r.out.count("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")), 32);
    QCOMPARE(int(r.out.count("ldmatrix.sync.aligned.m8n8.x4.shared.b16")), 20);
  }

  void runJsonReportsBankCounts() {
    const Run r =
        runTirx({"run", src("bench/kernels/bank_conflicts.py"), "--device", "sim", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    const QJsonArray runs = QJsonDocument::fromJson(r.out.toUtf8()).object()["runs"].toArray();
    QCOMPARE(runs.size(), 3);
    for (const auto& rv : runs) {
      const QJsonObject run = rv.toObject();
      const int want = run["kernel"].toString() == "bank_plain" ? 32 : 4;
      int loads = 0;
      for (const auto& v : run["shared_memory"].toObject()["per_op"].toArray()) {
        const QJsonObject o = v.toObject();
        const QString op = o["op"].toString();
        if (op.startsWith("store")) {
          QVERIFY(o["instructions"].toInt() == 128);  // 64 rows x 2 columns of 16-bit stores
          continue;
        }
        QCOMPARE(o["instructions"].toInt(), 1);
        QVERIFY2(o["wavefronts"].toInt() == want, qPrintable(run["kernel"].toString() + " " + op));
        QCOMPARE(o["ideal_wavefronts"].toInt(),
                 op.startsWith("ldmatrix") ? 4 : 1);  // 4 matrices / 1 phase
        ++loads;
      }
      QCOMPARE(loads, 2);
      int lastLine = 0;
      for (const auto& v : run["shared_memory"].toObject()["per_line"].toArray()) {
        QVERIFY(v.toObject()["line"].toInt() > lastLine);  // ascending
        lastLine = v.toObject()["line"].toInt();
      }
    }
    const Run text = runTirx({"run", src("bench/kernels/bank_conflicts.py"), "--kernel",
                              "bank_plain", "--device", "sim"});
    QVERIFY2(
        text.out.contains(QRegularExpression(
            R"(shared memory line \d+: 1 warp instructions, 32 wavefronts \(4 without bank conflicts\))")),
        qPrintable(text.out));
  }
};

QTEST_APPLESS_MAIN(TestCliCollective)
#include "tst_cli_collective.moc"
