// The occupancy calculator (core/toolchain/occupancy.h) against cases computed by hand with the
// sm_90 limits (65536 registers/SM allocated per warp in units of 256, 255 registers/thread, 228
// KiB shared/SM with 227 KiB per block, 1 KiB reserved per block and 128-byte units, 2048 threads,
// 64 warps and 32 blocks per SM), and the per-kernel figures a compile gives
// (core/driver/kernel_occupancy.h: the launch's block size, ptxas' registers or the estimate).
#include <QtTest>

#include "core/driver/kernel_occupancy.h"
#include "core/toolchain/occupancy.h"

using namespace tirx;
using toolchain::OccupancyLimiter;

namespace {

toolchain::Occupancy occ(int threads, int registers, int64_t shared) {
  toolchain::OccupancyInput in;
  in.threadsPerBlock = threads;
  in.registersPerThread = registers;
  in.sharedBytesPerBlock = shared;
  return toolchain::computeOccupancy(in, toolchain::smLimits(90));
}

}  // namespace

class TestOccupancy : public QObject {
  Q_OBJECT
 private slots:
  // 256 threads × 32 registers: 1024 registers a warp, 64 warps by registers = 8 blocks, and 8 by
  // threads (2048 / 256): both limit; 100 %; 32 registers is also the most that keeps 8 blocks.
  void registersAndThreadsTie() {
    const auto o = occ(256, 32, 0);
    QVERIFY(o.valid);
    QCOMPARE(o.warpsPerBlock, 8);
    QCOMPARE(o.registersPerWarp, 1024);
    QCOMPARE(o.byRegisters, 8);
    QCOMPARE(o.byThreads, 8);
    QCOMPARE(o.bySharedMemory, 228);  // 1 KiB reserved each
    QCOMPARE(o.blocksPerSm, 8);
    QCOMPARE(o.limiter, OccupancyLimiter::Registers);
    QCOMPARE(o.limiters, (std::vector<OccupancyLimiter>{OccupancyLimiter::Registers,
                                                        OccupancyLimiter::Threads}));
    QCOMPARE(o.occupancy, 1.0);
    QCOMPARE(o.registerBudget, 32);
  }
  // A warp-specialised wgmma GEMM: 128 threads × 168 registers = 5376 a warp (21 units), 12 warps
  // of 65536 = 3 blocks, 12 warps, 18.75 %; 168 is exactly the budget for 3 blocks.
  void registersLimitAGemm() {
    const auto o = occ(128, 168, 0);
    QCOMPARE(o.registersPerWarp, 5376);
    QCOMPARE(o.byRegisters, 3);
    QCOMPARE(o.blocksPerSm, 3);
    QCOMPARE(o.warpsPerSm, 12);
    QCOMPARE(o.limiter, OccupancyLimiter::Registers);
    QCOMPARE(o.occupancy, 0.1875);
    QCOMPARE(o.registerBudget, 168);
    // One register more takes a 22nd unit: 5632 a warp, 11 warps, 2 blocks.
    QCOMPARE(occ(128, 169, 0).blocksPerSm, 2);
  }
  // 384 threads, 40 registers (1280 a warp: 51 warps = 4 blocks), 100000 bytes of shared memory:
  // 100096 allocated + 1024 reserved = 101120 a block, 233472 / 101120 = 2 blocks: the limiter.
  // 2 blocks = 24 warps need at most 2730 registers a warp: 2560 (10 units) = 80 a thread.
  void sharedMemoryLimits() {
    const auto o = occ(384, 40, 100000);
    QCOMPARE(o.sharedPerBlock, int64_t(101120));
    QCOMPARE(o.byRegisters, 4);
    QCOMPARE(o.bySharedMemory, 2);
    QCOMPARE(o.byThreads, 5);
    QCOMPARE(o.blocksPerSm, 2);
    QCOMPARE(o.limiter, OccupancyLimiter::SharedMemory);
    QCOMPARE(o.limiters.size(), size_t(1));
    QCOMPARE(o.occupancy, 0.375);
    QCOMPARE(o.registerBudget, 80);
    QVERIFY(toolchain::occupancyText(o).find("limited by shared memory") != std::string::npos);
  }
  // 64 threads: 32 blocks by threads and the 32-block cap tie; 16 registers leave 64 blocks.
  void smallBlocksHitTheBlockCap() {
    const auto o = occ(64, 16, 0);
    QCOMPARE(o.byRegisters, 64);
    QCOMPARE(o.blocksPerSm, 32);
    QCOMPARE(o.limiter, OccupancyLimiter::Threads);
    QCOMPARE(o.limiters,
             (std::vector<OccupancyLimiter>{OccupancyLimiter::Threads, OccupancyLimiter::Blocks}));
    QCOMPARE(o.occupancy, 1.0);
    // One warp a block: 64 by threads, 32 by the cap: half the warps.
    const auto one = occ(32, 0, 0);
    QCOMPARE(one.limiter, OccupancyLimiter::Blocks);
    QCOMPARE(one.occupancy, 0.5);
  }
  // The per-block maxima: 227 KiB fits once (232448 + 1024 = 228 KiB), a byte more does not;
  // 1025 threads and 256 registers never fit.
  void limitsOfOneBlock() {
    const auto full = occ(128, 32, 227 * 1024);
    QVERIFY(full.valid);
    QCOMPARE(full.blocksPerSm, 1);
    QCOMPARE(full.limiter, OccupancyLimiter::SharedMemory);
    QVERIFY(!occ(128, 32, 227 * 1024 + 1).valid);
    QVERIFY(!occ(1025, 32, 0).valid);
    QVERIFY(!occ(128, 256, 0).valid);
    QVERIFY(toolchain::occupancyText(occ(1025, 32, 0)).find("1025 threads") != std::string::npos);
  }
  // The compile's figures: an estimate (no resource report) is marked as such and uses the block
  // size of the kernel's launch.
  void kernelOccupancyOfAnEstimate() {
    driver::CompileProducts p;
    ir::Kernel k;
    k.name = "k";
    k.launch.block = {256, 1, 1};
    p.program.kernels.push_back(k);
    toolchain::LineRegisters l;
    l.line = 5;
    l.kernel = "k";
    l.maxLive = 40;
    p.registers.lines.push_back(l);
    auto rows = driver::kernelOccupancy(p, 90);
    QCOMPARE(rows.size(), size_t(1));
    QCOMPARE(rows[0].registerSource, std::string("estimate"));
    QVERIFY(rows[0].occupancy.registersEstimated);
    QCOMPARE(rows[0].input.registersPerThread, 40);
    QCOMPARE(rows[0].occupancy.blocksPerSm, 6);  // 40 × 32 = 1280 a warp: 51 warps / 8
    QVERIFY(toolchain::occupancyText(rows[0].occupancy).rfind("~6 blocks/SM", 0) == 0);
    // With ptxas' report the allocation is used and nothing is marked.
    p.resources.push_back({"k", 32, 0, 0, 0, 4096, 0, 1});
    rows = driver::kernelOccupancy(p, 90);
    QCOMPARE(rows[0].registerSource, std::string("ptxas"));
    QCOMPARE(rows[0].input.sharedBytesPerBlock, int64_t(4096));
    QCOMPARE(rows[0].occupancy.blocksPerSm, 8);
  }
};

QTEST_APPLESS_MAIN(TestOccupancy)
#include "tst_occupancy.moc"
