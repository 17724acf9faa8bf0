// Golden tests of wgmma shared-memory matrix descriptors (core/layout/wgmma_descriptor.h) against
// the encodings and placements the H200 verified (spec/tc-verify/verify.cu test_wgmma, 0/4096
// mismatches each): the bit layout of `make_desc`, the three SS placements (no swizzle with
// LBO 128 / SBO 256, TVM's packed atom with LBO 1024 / SBO 128, 128B swizzle K = 64 with the start
// advanced 32 bytes per k16 step and SBO 1024) — both as the address model reproducing
// verify.cu's placement functions, and as the descriptors derived from TileLayout/ComposeLayout
// tensors — then the refusals (wrong per_element, unaligned base, a layout no descriptor can
// express, base offset) and the MN-major canonical layouts (PTX table; not run on the GPU).
#include <QFile>
#include <QtTest>

#include "../shared_corpus.h"
#include "core/layout/layout_parse.h"
#include "core/layout/wgmma_descriptor.h"

using namespace tirx;

namespace {

// tc-verify/verify.cu make_desc, verbatim in arithmetic.
uint64_t makeDesc(uint32_t saddr, uint32_t lbo, uint32_t sbo, uint32_t layout) {
  uint64_t d = 0;
  d |= (uint64_t)((saddr & 0x3FFFF) >> 4);
  d |= (uint64_t)((lbo & 0x3FFFF) >> 4) << 16;
  d |= (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;
  d |= (uint64_t)layout << 62;
  return d;
}

// verify.cu placements, in elements of f16.
int offP1(int row, int k) {
  return (row % 8) * 8 + (k % 8) + (k / 8) * 64 + (row / 8) * 128;
}
int offP2(int row, int k) {
  return (row % 8) * 8 + (row / 8) * 64 + (k / 8) * 512 + (k % 8);
}
int offSw128(int row, int k) {
  const int byte = (row / 8) * 1024 + (row % 8) * 128 + (((k / 8) ^ (row % 8)) * 16) + (k % 8) * 2;
  return byte / 2;
}

LayoutValue value(const std::string& text) {
  Diagnostics d;
  auto v = parseLayoutValueText(text, d);
  if (!v) qFatal("cannot parse %s", text.c_str());
  return *v;
}

bool logSays(const char* line) {
  QFile f(QStringLiteral(TIRX_SHARED_DIR) + "/spec/tc-verify/h200_verify_and_perf.log");
  return f.open(QIODevice::ReadOnly) && QString::fromUtf8(f.readAll()).contains(line);
}

}  // namespace

class TestWgmmaDescriptor : public QObject {
  Q_OBJECT

 private slots:
  void encodingMatchesMakeDesc() {
    const SmemDescriptor a{0x400, 128, 256, 0, SwizzleMode::None};
    QCOMPARE(encodeDescriptor(a), makeDesc(0x400, 128, 256, 0));
    QCOMPARE(encodeDescriptor(a), uint64_t{0x0000001000080040});
    const SmemDescriptor b{0x8020, 16, 1024, 0, SwizzleMode::B128};
    QCOMPARE(encodeDescriptor(b), makeDesc(0x8020, 16, 1024, 1));
    QCOMPARE(encodeDescriptor(b), uint64_t{0x4000004000010802});
    for (SwizzleMode m :
         {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128}) {
      const SmemDescriptor d{0x3FFF0, 0x1230, 0x40, 5, m};
      QCOMPARE(checkDescriptor(d), std::string());
      QCOMPARE(decodeDescriptor(encodeDescriptor(d)), d);
    }
    QCOMPARE(encodeDescriptor({0, 0, 0, 5, SwizzleMode::None}), uint64_t{5} << 49);
    QCOMPARE(encodeDescriptor({0, 0, 0, 0, SwizzleMode::B32}), uint64_t{3} << 62);
    QCOMPARE(checkDescriptor({0x40000, 0, 0, 0, SwizzleMode::None}),
             std::string("start address 262144 does not fit the descriptor (0..262128)"));
    QCOMPARE(checkDescriptor({0, 24, 0, 0, SwizzleMode::None}),
             std::string("leading byte offset 24 is not a multiple of 16 bytes"));
    QCOMPARE(checkDescriptor({0, 0, 0, 8, SwizzleMode::None}),
             std::string("base offset 8 does not fit 3 bits"));
  }

  void addressModelReproducesH200Placements() {
    const SmemDescriptor p1{0, 128, 256, 0, SwizzleMode::None},
        p2{0, 1024, 128, 0, SwizzleMode::None};
    for (int row = 0; row < 64; ++row)
      for (int k = 0; k < 16; ++k) {
        QCOMPARE(descriptorAddress(p1, MatrixMajor::K, 2, row, k),
                 std::optional<int64_t>(2 * offP1(row, k)));
        QCOMPARE(descriptorAddress(p2, MatrixMajor::K, 2, row, k),
                 std::optional<int64_t>(2 * offP2(row, k)));
      }
    for (int kk = 0; kk < 4; ++kk) {
      const SmemDescriptor sw{32 * kk, 16, 1024, 0, SwizzleMode::B128};
      for (int row = 0; row < 64; ++row)
        for (int k = 0; k < 16; ++k)
          QCOMPARE(descriptorAddress(sw, MatrixMajor::K, 2, row, k),
                   std::optional<int64_t>(2 * offSw128(row, 16 * kk + k)));
    }
    QCOMPARE(descriptorAddress({0, 128, 256, 1, SwizzleMode::None}, MatrixMajor::K, 2, 0, 0),
             std::optional<int64_t>());
    // The H200 run that placed these (../shared/spec/tc-verify) agrees.
    TIRX_NEED_SHARED("spec/tc-verify/h200_verify_and_perf.log");
    QVERIFY(
        logSays("[PASS] wgmma SS m64n64k16 no-swizzle K-major (LBO=K-dir 128B, SBO=M-dir 256B) + D "
                "map: 0/4096 mismatches"));
    QVERIFY(
        logSays("[PASS] wgmma SS m64n64k16 no-swizzle K-major (TVM packed-16B atom: LBO=1024B, "
                "SBO=128B): 0/4096 mismatches"));
    QVERIFY(
        logSays("[PASS] wgmma SS m64n64k16 x4 (K=64) 128B-swizzle K-major, start+32B per k16, "
                "SBO=1024B: 0/4096 mismatches"));
  }

  void derivedFromLayoutsMatchH200() {
    const std::vector<int64_t> shape{64, 16};
    // P1: core matrix contiguous, K neighbour next, 8-row groups 256 B apart.
    DerivedDescriptor d =
        deriveWgmmaDescriptor(value("S[(8, 8, 2, 8) : (128, 8, 64, 1)]"), shape, 1024, {});
    QVERIFY2(d.descriptor, d.why.c_str());
    QCOMPARE(*d.descriptor, (SmemDescriptor{0, 128, 256, 0, SwizzleMode::None}));
    // P2 (TVM mma_shared_layout SWIZZLE_NONE): LBO 1024, SBO 128.
    d = deriveWgmmaDescriptor(value("S[(8, 8, 2, 8) : (64, 8, 512, 1)]"), shape, 16, {});
    QVERIFY2(d.descriptor, d.why.c_str());
    QCOMPARE(*d.descriptor, (SmemDescriptor{0, 1024, 128, 0, SwizzleMode::None}));
    // 128B swizzle, K = 64: ComposeLayout(3, 3, 3, S[64, 64]) is verify.cu's off_sw128 image; the
    // k16 steps start 32 bytes further each, SBO 1024, LBO 16 (encoded 1).
    const LayoutValue sw = value("ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))");
    const std::vector<int64_t> shape64{64, 64};
    for (int row = 0; row < 64; ++row)
      for (int k = 0; k < 64; ++k) {
        const std::vector<int64_t> c{row, k};
        QCOMPARE(std::get<ComposeLayout>(sw).apply(c, shape64).at("m"), int64_t{offSw128(row, k)});
      }
    for (int kk = 0; kk < 4; ++kk) {
      WgmmaOperand op;
      op.k0 = 16 * kk;
      d = deriveWgmmaDescriptor(sw, shape64, 1024, op);
      QVERIFY2(d.descriptor, d.why.c_str());
      QCOMPARE(*d.descriptor, (SmemDescriptor{32 * kk, 16, 1024, 0, SwizzleMode::B128}));
      QCOMPARE(encodeDescriptor(*d.descriptor), makeDesc(32 * kk, 16, 1024, 1));
    }
    // B of m64n64k16 from the second half of a 128-row tensor: start 64 rows further.
    WgmmaOperand b;
    b.row0 = 64;
    d = deriveWgmmaDescriptor(value("ComposeLayout(3, 3, 3, S[128, 64])"),
                              std::vector<int64_t>{128, 64}, 1024, b);
    QVERIFY2(d.descriptor, d.why.c_str());
    QCOMPARE(d.descriptor->startAddress, int64_t{64 * 128});
  }

  void otherSwizzleModes() {
    // 64B and 32B K-major: rows of 64 / 32 bytes, SBO = 8 rows.
    for (int B : {1, 2}) {
      const int rowElems = (16 << B) / 2;
      const std::string text =
          "ComposeLayout(3, " + std::to_string(B) + ", 3, S[64, " + std::to_string(rowElems) + "])";
      const DerivedDescriptor d =
          deriveWgmmaDescriptor(value(text), std::vector<int64_t>{64, rowElems}, 1024, {});
      QVERIFY2(d.descriptor, (text + ": " + d.why).c_str());
      QCOMPARE(d.descriptor->swizzle, static_cast<SwizzleMode>(B));
      QCOMPARE(d.descriptor->strideByteOffset, int64_t{8 * (16 << B)});
    }
  }

  void gpuCheckConfigurations() {
    // tests/gpu/tc_foundation_check.cu runs these four on the H200 (not yet run): the descriptors
    // derived here and the placements written out there must agree element by element.
    struct Cfg {
      const char* layout;
      std::vector<int64_t> shape;
      MatrixMajor major;
      int K;
      SmemDescriptor step0;
      int64_t kstep;
    } cfgs[] = {{"S[(2, 8, 8, 8) : (512, 8, 64, 1)]",
                 {16, 64},
                 MatrixMajor::MN,
                 16,
                 {0, 1024, 128, 0, SwizzleMode::None},
                 0},
                {"ComposeLayout(3, 3, 3, S[16, 64])",
                 {16, 64},
                 MatrixMajor::MN,
                 16,
                 {0, 0, 1024, 0, SwizzleMode::B128},
                 0},
                {"ComposeLayout(3, 2, 3, S[64, 32])",
                 {64, 32},
                 MatrixMajor::K,
                 32,
                 {0, 16, 512, 0, SwizzleMode::B64},
                 32},
                {"ComposeLayout(3, 1, 3, S[64, 16])",
                 {64, 16},
                 MatrixMajor::K,
                 16,
                 {0, 16, 256, 0, SwizzleMode::B32},
                 32}};
    for (const Cfg& c : cfgs) {
      const LayoutValue v = value(c.layout);
      for (int kk = 0; kk < c.K / 16; ++kk) {
        WgmmaOperand op;
        op.major = c.major;
        op.k0 = 16 * kk;
        const DerivedDescriptor d = deriveWgmmaDescriptor(v, c.shape, 1024, op);
        QVERIFY2(d.descriptor, (std::string(c.layout) + ": " + d.why).c_str());
        SmemDescriptor want = c.step0;
        want.startAddress = c.kstep * kk;
        QCOMPARE(*d.descriptor, want);
      }
    }
  }

  void refusals() {
    const std::vector<int64_t> shape{64, 64};
    // A plain row-major tile: rows 128 B apart, the core matrix needs 16 B.
    DerivedDescriptor d = deriveWgmmaDescriptor(value("S[64, 64]"), shape, 1024, {});
    QVERIFY(!d.descriptor);
    QCOMPARE(
        d.why,
        std::string("element (1, 0) is at byte 128 of the tensor, the descriptor (start 0, LBO 16, "
                    "SBO 1024, no swizzle) reads byte 16"));
    // per_element for 4-byte elements.
    WgmmaOperand f32;
    f32.elemBytes = 4;
    f32.k = 8;
    d = deriveWgmmaDescriptor(value("ComposeLayout(3, 3, 3, S[64, 64])"), shape, 1024, f32);
    QVERIFY(!d.descriptor);
    QVERIFY2(d.why.find("per_element=2") != std::string::npos, d.why.c_str());
    // Base alignment.
    d = deriveWgmmaDescriptor(value("ComposeLayout(3, 3, 3, S[64, 64])"), shape, 512, {});
    QCOMPARE(d.why,
             std::string("a 128B swizzle repeats every 1024 bytes; the buffer is only known to be "
                         "512-byte aligned (declare align=1024)"));
    // A start past the first 128 bytes of its pattern would need a base offset.
    WgmmaOperand mid;
    mid.row0 = 1;
    mid.rows = 8;
    d = deriveWgmmaDescriptor(value("ComposeLayout(3, 3, 3, S[64, 64])"), shape, 1024, mid);
    QCOMPARE(d.why,
             std::string(
                 "the operand starts 128 bytes into a 1024-byte swizzle pattern; a start past its "
                 "first 128 bytes needs a descriptor base offset, which is not supported"));
    // Outside the tensor; not 2-D.
    WgmmaOperand big;
    big.rows = 128;
    d = deriveWgmmaDescriptor(value("S[64, 64]"), shape, 1024, big);
    QCOMPARE(d.why, std::string("the operand region (128 x 16 at 0, 0) does not fit the tensor"));
    big.rows = 512;
    d = deriveWgmmaDescriptor(value("S[1024, 64]"), std::vector<int64_t>{1024, 64}, 1024, big);
    QCOMPARE(d.why, std::string(
                        "a wgmma operand has at most 256 rows and 256 K elements, found 512 x 16"));
    d = deriveWgmmaDescriptor(value("S[64, 64]"), std::vector<int64_t>{4096}, 1024, {});
    QVERIFY(!d.descriptor);
    // A swizzle without a hardware mode.
    d = deriveWgmmaDescriptor(value("ComposeLayout(3, 3, 4, S[64, 64])"), shape, 4096, {});
    QVERIFY2(d.why.find("atom_len") != std::string::npos, d.why.c_str());
  }

  void mnMajorCanonicalLayouts() {
    // MN-major (imm-trans 1): the PTX canonical layouts, not run on the GPU (TC-6). A tensor laid
    // out exactly as ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)) gives back its SBO and LBO.
    // f16, T = 8: tensor (K = 16, M = 64) indexed (k, row):
    //   byte(row, k) = (row%8)·2 + (row/8)·SBO + (k%8)·16 + (k/8)·LBO with SBO 128, LBO 1024.
    const std::vector<int64_t> shape{16, 64};
    WgmmaOperand op;
    op.major = MatrixMajor::MN;
    DerivedDescriptor d =
        deriveWgmmaDescriptor(value("S[(2, 8, 8, 8) : (512, 8, 64, 1)]"), shape, 16, op);
    QVERIFY2(d.descriptor, d.why.c_str());
    QCOMPARE(*d.descriptor, (SmemDescriptor{0, 1024, 128, 0, SwizzleMode::None}));
    // 128B swizzle MN-major: 64 M-elements = one 128-byte row per k; rows of k 128 B apart,
    // 8-k groups SBO = 1024 apart; (T,8,m) covers 64 rows with one LBO group.
    d = deriveWgmmaDescriptor(value("ComposeLayout(3, 3, 3, S[16, 64])"), shape, 1024, op);
    QVERIFY2(d.descriptor, d.why.c_str());
    QCOMPARE(d.descriptor->swizzle, SwizzleMode::B128);
    QCOMPARE(d.descriptor->strideByteOffset, int64_t{1024});
    for (int row = 0; row < 64; ++row)
      for (int k = 0; k < 16; ++k) {
        const int64_t logical = (int64_t{k} * 64 + row) * 2;
        const int64_t swz = logical ^ (((logical >> 7) & 7) << 4);
        QCOMPARE(descriptorAddress(*d.descriptor, MatrixMajor::MN, 2, row, k),
                 std::optional<int64_t>(swz));
      }
  }
};

QTEST_APPLESS_MAIN(TestWgmmaDescriptor)
#include "tst_wgmma_descriptor.moc"
