// Every kernel `tirx ptx-conform` generates compiles with NVRTC and links with nvJitLink (ptxas)
// here, for sm_90 (the H200) and for sm_100 (which adds the f32x2, three-input min/max and
// 256-bit forms), so the GPU run will not stop at a compile error. No GPU is needed; the runs
// use the simulator as the device. Skips visibly when the CUDA toolkit cannot compile.
#include <QtTest>

#include "tirx_process.h"

class TestCliPtxConformSlow : public QObject {
  Q_OBJECT

 private slots:
  void everyGeneratedKernelCompiles_data() {
    QTest::addColumn<QString>("arch");
    QTest::newRow("sm_90") << "sm_90";
    QTest::newRow("sm_100") << "sm_100";
  }
  void everyGeneratedKernelCompiles() {
    QFETCH(QString, arch);
    const Run r = runTirx({"ptx-conform", "--device", "sim", "--compile", "--arch", arch}, 1800000);
    if (r.err.contains("NVRTC") && r.err.contains("not found")) QSKIP("NVRTC is not installed");
    QVERIFY2(r.code == 0, qPrintable(r.out.left(4000) + r.err.left(2000)));
    QVERIFY(r.out.contains(QRegularExpression(R"(failed\s+0\n)")));
  }
};

QTEST_MAIN(TestCliPtxConformSlow)
#include "tst_cli_ptx_conform_slow.moc"
