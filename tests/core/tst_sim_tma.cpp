// TMA box images against the H200 (spec TC §5.4, §9.2; tc-verify/verify.cu "Test 5"): a 2-D load
// of 32 rows of 128/64/32 bytes with SWIZZLE_128B/64B/32B put element m of the box at
// (x ^ ((x & ((2^B - 1) << 3)) >> 3)) · 8 + m % 8 with x = m >> 3 (u16 elements); the simulator's
// image must be exactly that. Also out-of-bounds fill (zero and NaN), a 3-d box and the shared
// byte ranges an in-flight copy makes pending.
#include <QtTest>
#include <cstring>

#include "core/layout/swizzle_layout.h"
#include "core/sim/tma_image.h"

using namespace tirx;

namespace {

ir::TensorMap map2d(ir::DType t, int64_t cols, int64_t rows, int64_t boxCols, int64_t boxRows,
                    int swizzle) {
  ir::TensorMap m;
  m.dtype = t;
  m.dims = {cols, rows};
  m.strideBytes = {cols * ir::dtypeBytes(t)};
  m.box = {boxCols, boxRows};
  m.swizzle = swizzle;
  return m;
}

uint16_t u16At(const std::vector<uint8_t>& img, int64_t elem) {
  uint16_t v;
  std::memcpy(&v, img.data() + elem * 2, 2);
  return v;
}

}  // namespace

class TestSimTma : public QObject {
  Q_OBJECT
 private slots:
  void goldenSwizzleImages_data() {
    QTest::addColumn<int>("sw");
    QTest::addColumn<int>("cols");
    QTest::newRow("SWIZZLE_128B, 128-byte rows") << 3 << 64;
    QTest::newRow("SWIZZLE_64B, 64-byte rows") << 2 << 32;
    QTest::newRow("SWIZZLE_32B, 32-byte rows") << 1 << 16;
    QTest::newRow("no swizzle") << 0 << 64;
  }
  void goldenSwizzleImages() {
    QFETCH(int, sw);
    QFETCH(int, cols);
    const int rows = 32, n = rows * cols;
    std::vector<uint16_t> g(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) g[size_t(i)] = uint16_t(i);
    const ir::TensorMap m = map2d(ir::DType::UInt16, cols, rows, cols, rows, sw);
    const Swizzle s = swizzleForMode(static_cast<SwizzleMode>(sw), 2);
    const auto img =
        sim::tmaLoadImage(m, {0, 0}, s, reinterpret_cast<const uint8_t*>(g.data()), n * 2);
    QCOMPARE(img.size(), size_t(n * 2));
    long bad = 0;
    for (int mm = 0; mm < n; ++mm) {  // tc-verify/verify.cu's expected image
      const int x = mm >> 3;
      const int f = x ^ ((x & (((1 << sw) - 1) << 3)) >> 3);
      const int phys = (f << 3) | (mm & 7);
      if (u16At(img, phys) != g[size_t(mm)]) ++bad;
    }
    QCOMPARE(bad, 0L);
  }

  // A box at coords (24, 48) of a 32 x 64 tensor: rows 32.. and columns 64.. are out of bounds.
  void outOfBoundsFill() {
    std::vector<float> g(32 * 64);
    for (size_t i = 0; i < g.size(); ++i) g[i] = float(i);
    for (bool nan : {false, true}) {
      ir::TensorMap m = map2d(ir::DType::Float32, 64, 32, 32, 16, 0);
      m.oobNan = nan;
      const auto img =
          sim::tmaLoadImage(m, {24, 48}, Swizzle{}, reinterpret_cast<const uint8_t*>(g.data()),
                            int64_t(g.size() * 4));
      QCOMPARE(img.size(), size_t(16 * 32 * 4));
      for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 32; ++c) {
          float v;
          std::memcpy(&v, img.data() + (r * 32 + c) * 4, 4);
          const bool in = 24 + r < 32 && 48 + c < 64;
          if (in) {
            QCOMPARE(v, g[size_t((24 + r) * 64 + 48 + c)]);
          } else if (nan) {
            uint32_t bits;
            std::memcpy(&bits, &v, 4);
            QCOMPARE(bits, 0x7fffffffu);
          } else {
            QCOMPARE(v, 0.0f);
          }
        }
    }
    // Negative coordinates are out of bounds too (a halo above the tensor).
    ir::TensorMap m = map2d(ir::DType::Float32, 64, 32, 4, 2, 0);
    const auto img = sim::tmaLoadImage(
        m, {-1, 0}, Swizzle{}, reinterpret_cast<const uint8_t*>(g.data()), int64_t(g.size() * 4));
    float v0, v1;
    std::memcpy(&v0, img.data(), 4);
    std::memcpy(&v1, img.data() + 16, 4);
    QCOMPARE(v0, 0.0f);
    QCOMPARE(v1, g[0]);
  }

  // A 3-d box of a (4, 8, 16) int32 tensor: coordinates outer to inner, row-major image.
  void threeDimensionalBox() {
    std::vector<int32_t> g(4 * 8 * 16);
    for (size_t i = 0; i < g.size(); ++i) g[i] = int32_t(i);
    ir::TensorMap m;
    m.dtype = ir::DType::Int32;
    m.dims = {16, 8, 4};
    m.strideBytes = {64, 512};
    m.box = {4, 2, 2};
    const auto img = sim::tmaLoadImage(
        m, {1, 3, 8}, Swizzle{}, reinterpret_cast<const uint8_t*>(g.data()), int64_t(g.size() * 4));
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        for (int c = 0; c < 4; ++c) {
          int32_t v;
          std::memcpy(&v, img.data() + ((a * 2 + b) * 4 + c) * 4, 4);
          QCOMPARE(v, g[size_t((1 + a) * 128 + (3 + b) * 16 + 8 + c)]);
        }
  }

  void sharedRanges() {
    // 128B swizzle, one 32-byte row: the swizzle moves nothing in row 0.
    const Swizzle s = swizzleForMode(SwizzleMode::B128, 2);
    auto r = sim::tmaSharedRanges(map2d(ir::DType::UInt16, 16, 1, 16, 1, 3), s);
    QCOMPARE(r.size(), size_t(1));
    QCOMPARE(r[0], (std::pair<int64_t, int64_t>{0, 32}));
    // Two rows of 32 bytes at a 128B swizzle: row 1 (chunks 2, 3) is XORed with 0 (row 1 >> 3 = 0
    // in units of 16 bytes: x = 2, 3 → x ^ 0): contiguous 0..64.
    r = sim::tmaSharedRanges(map2d(ir::DType::UInt16, 16, 2, 16, 2, 3), s);
    QCOMPARE(r.size(), size_t(1));
    QCOMPARE(r[0].second, int64_t(64));
    // 17 chunks of 16 bytes: chunk 16 (x = 16, x >> 3 = 2) lands on chunk 18: a gap at 16..17.
    r = sim::tmaSharedRanges(map2d(ir::DType::UInt16, 8, 17, 8, 17, 3), s);
    QCOMPARE(r.size(), size_t(2));
    QCOMPARE(r[0], (std::pair<int64_t, int64_t>{0, 256}));
    QCOMPARE(r[1], (std::pair<int64_t, int64_t>{288, 304}));
  }
};

QTEST_APPLESS_MAIN(TestSimTma)
#include "tst_sim_tma.moc"
