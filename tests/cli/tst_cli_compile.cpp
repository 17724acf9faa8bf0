// End-to-end tests of `tirx compile`, `tirx run` and `tirx bench` through the real binary
// (TIRX_BIN): every --emit product (regs through a stand-in nvdisasm), usage errors (exit 2),
// script errors (exit 1), the simulator run writing .npy files, and exit 3 with a clear message for
// --device cuda without a driver.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cstring>

#include "core/device/cuda_driver.h"
#include "core/toolchain/occupancy.h"
#include "tirx_process.h"

namespace {

const QString kKernels = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/kernels/");

/// The environment with a stand-in `nvdisasm` (written into `dir`) first on PATH: it replays
/// tests/data/sass/<fixture>.g.txt for -g and <fixture>.count.txt for -plr (or fails that pass).
QProcessEnvironment fakeNvdisasmEnv(const QTemporaryDir& dir, const QString& fixture,
                                    bool failLive) {
  const QString data = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/") + fixture;
  QFile f(dir.filePath("nvdisasm"));
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write the fake nvdisasm");
  const QString live =
      failLive ? "echo 'nvdisasm fatal : boom' >&2; exit 1" : "cat '" + data + ".count.txt'";
  f.write(("#!/bin/sh\ncase \"$*\" in\n  *-plr*) " + live + " ;;\n  *-g*) cat '" + data +
           ".g.txt' ;;\n  *) exit 2 ;;\nesac\n")
              .toUtf8());
  f.close();
  f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("PATH", dir.path() + ":" + env.value("PATH"));
  return env;
}

}  // namespace

class TestCliCompile : public QObject {
  Q_OBJECT

 private slots:
  void emitCuda() {
    const Run r = runTirx({"compile", kKernels + "affine_relu.py", "--emit", "cuda"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("extern \"C\" __global__ void __launch_bounds__(64) affine_relu("));
    QVERIFY(r.out.contains("asm(\"fma.rn.f32 %0, %1, %2, %3;\""));
    QVERIFY(r.out.contains("#line 15 \""));
  }

  void emitPtxToFile() {
    QTemporaryDir dir;
    const QString out = dir.filePath("k.ptx");
    const Run r = runTirx({"compile", kKernels + "two_kernels.py", "--kernel", "shared_affine",
                           "--emit", "ptx", "-o", out});
    QCOMPARE(r.code, 0);
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString ptx = QString::fromUtf8(f.readAll());
    QVERIFY(ptx.contains(".visible .entry shared_affine"));
    QVERIFY(!ptx.contains(".visible .entry activation"));
    QCOMPARE(ptx.count("ld.shared.v4.b32"), 1);
  }

  void emitResources() {
    const Run r = runTirx({"compile", kKernels + "to_float16.py", "--emit", "resources"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("target sm_90"));
    QVERIFY(r.out.contains("registers"));
    QVERIFY(r.out.contains("to_float16"));
    QVERIFY(r.out.contains("nvrtc"));
  }

  // The occupancy rows: the launch's block size, ptxas' registers and the shared bytes through the
  // calculator (core/toolchain/occupancy.h); the warp-specialised GEMM's 384 threads and 196672
  // shared bytes leave one block per SM.
  void emitResourcesShowsOccupancy() {
    const QString ex = QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/gemm_wgmma_ws.py");
    const Run r = runTirx({"compile", ex, "--emit", "resources"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("occupancy on sm_90 (per SM: 65536 registers, 228 KiB shared"),
             qPrintable(r.out));
    const auto res = QRegularExpression(QStringLiteral("\ngemm_ws +(\\d+) +0 +0 ")).match(r.out);
    QVERIFY2(res.hasMatch(), qPrintable(r.out));
    const auto occ = QRegularExpression(QStringLiteral("\ngemm_ws +384 +(\\d+) +196672 +(\\d+) +"
                                                       "(\\d+) +[0-9.]+% +([a-z ]+);"))
                         .match(r.out);
    QVERIFY2(occ.hasMatch(), qPrintable(r.out));
    QCOMPARE(occ.captured(1), res.captured(1));
    tirx::toolchain::OccupancyInput in{384, res.captured(1).toInt(), 196672, false};
    const auto o = tirx::toolchain::computeOccupancy(in, tirx::toolchain::smLimits(90));
    QCOMPARE(occ.captured(2).toInt(), o.blocksPerSm);
    QCOMPARE(occ.captured(2).toInt(), 1);
    QCOMPARE(occ.captured(3).toInt(), 12);
    QVERIFY(occ.captured(4).contains("shared memory"));
  }

  // A wgmma kernel is built for sm_90a as one whole program; its resource row comes from that
  // pass's ptxas log, on every compile (NVRTC's and nvJitLink's disk caches are off: a cached
  // compile runs no ptxas and printed no row on the H200).
  void emitResourcesOfAnSm90aKernelEveryTime() {
    const QString ex = QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/wgmma_m64n64k16.py");
    for (int i = 0; i < 2; ++i) {
      const Run r = runTirx({"compile", ex, "--emit", "resources"});
      QCOMPARE(r.code, 0);
      QVERIFY2(r.out.contains("target sm_90a"), qPrintable(r.out));
      QRegularExpression row(QStringLiteral("\\nwgmma_m64n64k16 +(\\d+) +0 +0 "));
      const auto m = row.match(r.out);
      QVERIFY2(m.hasMatch(), qPrintable(r.out));
      QVERIFY(m.captured(1).toInt() >= 32);  // 32 f32 accumulators per thread at least
    }
  }

  void emitIrAndMap() {
    Run r = runTirx({"compile", kKernels + "silu.py", "--emit", "map"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("script line -> CUDA lines | PTX lines"));
    QVERIFY(r.out.contains("   19 -> "));
    r = runTirx({"compile", kKernels + "silu.py", "--emit", "ir"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("affine_relu"));
  }

  void emitSassWithoutDisassembler() {
    const Run r = runTirx({"compile", kKernels + "silu.py", "--emit", "sass"});
    if (r.code == 0) {
      QVERIFY(r.out.contains("affine_relu"));
    } else {
      QCOMPARE(r.code, 3);
      QVERIFY(r.err.contains("no disassembler found"));
    }
  }

  // --emit regs through a stand-in nvdisasm (first on PATH, so also on a machine with the real
  // one) that replays the H200 listings of gemm_wgmma_ws.py recorded in tests/data/sass.
  void emitRegsMeasured() {
    QTemporaryDir dir;
    const QString script = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/gemm_wgmma_ws.py");
    const Run r = runTirx({"compile", script, "--arch", "sm_90a", "--emit", "regs"}, 180000,
                          fakeNvdisasmEnv(dir, "gemm", false));
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("registers per script line: measured (nvdisasm)"), qPrintable(r.out));
    QVERIFY(!r.out.contains('~'));
    QVERIFY(r.out.contains(QRegularExpression(
        R"(\n +87 +135 +232 +67 +0  /\*0710\*/ LEA \| wgmma 135 135 134 132\n)")));
    QVERIFY(
        r.out.contains(QRegularExpression(R"(\n +72 +4 +40 )")));  // producer: setmaxnreg.dec 40
  }

  // Without life ranges (the second nvdisasm pass fails) the table is the IR estimate, every
  // figure marked `~`, and the header says why.
  void emitRegsEstimate() {
    QTemporaryDir dir;
    const QString script = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/gemm_wgmma_ws.py");
    const Run r = runTirx({"compile", script, "--arch", "sm_90a", "--emit", "regs"}, 180000,
                          fakeNvdisasmEnv(dir, "gemm", true));
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("registers per script line: estimate"), qPrintable(r.out));
    QVERIFY(r.out.contains("nvdisasm -plr failed"));
    QVERIFY(r.out.contains(QRegularExpression(
        R"(\n +87 +~136 +232 +- +- +acc 128 \+ 8 \(scalars\) \| wgmma ~136\n)")));
    QVERIFY(!r.out.contains(QRegularExpression(R"(\n +\d+ +\d)")));  // no unmarked figure
  }

  void usageErrors() {
    QCOMPARE(runTirx({"compile", kKernels + "silu.py", "--emit", "bogus"}).code, 2);
    QCOMPARE(runTirx({"compile", kKernels + "silu.py"}).code, 2);
    QCOMPARE(runTirx({"compile", "/nonexistent.py", "--emit", "cuda"}).code, 2);
    QCOMPARE(runTirx({"run", kKernels + "silu.py", "--device", "tpu"}).code, 2);
    QCOMPARE(runTirx({"run", kKernels + "silu.py", "--input", "nonsense"}).code, 2);
    QCOMPARE(runTirx({"run", kKernels + "silu.py", "--input", "Z=zeros"}).code, 2);
    QCOMPARE(runTirx({"run", kKernels + "silu.py", "--input", "A=lnspace(1,2)"}).code, 2);
  }

  void scriptErrorExit1() {
    QTemporaryDir dir;
    QFile f(dir.filePath("bad.py"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "from tvm.script import tirx as T\n@T.function\ndef k(A: T.Tensor((4,), \"float32\")):\n"
        "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))\n    A[0] = "
        "undefined_name\n");
    f.close();
    const Run r = runTirx({"compile", f.fileName(), "--emit", "ptx"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("bad.py:5:"));
  }

  void runOnSimulatorWritesNpy() {
    QTemporaryDir dir;
    const Run r = runTirx({"run", kKernels + "affine_relu.py", "--device", "sim", "--out",
                           dir.path(), "--input", "A=linspace(-4, 4)"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("affine_relu on simulator: ran"));
    QFile f(dir.filePath("B.npy"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(bytes.startsWith("\x93NUMPY"));
    QVERIFY(bytes.contains("'descr': '<f4'"));
    QVERIFY(bytes.contains("'shape': (2, 32, 4)"));
    QCOMPARE(bytes.size() % 64, 1024 % 64);
    // Last element: clamp(4 * 2 + 1, 0) = 9.
    float last = 0;
    std::memcpy(&last, bytes.constData() + bytes.size() - 4, 4);
    QCOMPARE(last, 9.0f);
    float first = -1;
    std::memcpy(&first, bytes.constData() + bytes.size() - 1024, 4);
    QCOMPARE(first, 0.0f);
  }

  void runJson() {
    const Run r = runTirx({"run", kKernels + "to_float16.py", "--json"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("\"kernel\": \"to_float16\""));
    QVERIFY(r.out.contains("\"dtype\": \"float16\""));
  }

  void runCudaWithoutDriverExits3() {
    if (tirx::device::driverLibraryPresent()) QSKIP("a CUDA driver is present on this machine");
    const Run r = runTirx({"run", kKernels + "affine_relu.py", "--device", "cuda"});
    QCOMPARE(r.code, 3);
    QVERIFY(r.err.contains("no CUDA driver found"));
    const Run b =
        runTirx({"bench", kKernels + "affine_relu.py", "--device", "cuda", "--repeat", "2"});
    QCOMPARE(b.code, 3);
    QVERIFY(b.out.contains("compile "));
    QVERIFY(b.out.contains("gpu: skipped (no CUDA driver found)"));
  }
};

QTEST_APPLESS_MAIN(TestCliCompile)
#include "tst_cli_compile.moc"
