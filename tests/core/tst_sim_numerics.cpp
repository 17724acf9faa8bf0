// Table tests of the simulator's numeric core: exact operations (add/sub/mul/fma/div/sqrt with
// every rounding mode, cvt to f16/bf16 with RNE ties, overflow and subnormals, packed halves)
// against hand-computed bit patterns, and approximate ones (rcp, ex2, lg2) within 2 ulp.
#include <QtTest>
#include <cmath>

#include "core/ptx/ptx_table.h"
#include "core/sim/sim_numerics.h"

using namespace tirx;
using namespace tirx::sim;

namespace {

uint64_t exec(const char* opcode, std::initializer_list<uint64_t> srcs) {
  PtxParseError err;
  auto in = parsePtxOpcode(opcode, &err);
  if (!in) qFatal("opcode %s does not parse: %s", opcode, err.message.c_str());
  std::vector<uint64_t> v(srcs);
  uint64_t d = 0;
  std::string why;
  if (!execPtx(*in, v, d, &why)) qFatal("%s not executed: %s", opcode, why.c_str());
  return d;
}
uint64_t fb(float f) {
  return floatBits(f);
}

}  // namespace

class TestSimNumerics : public QObject {
  Q_OBJECT
 private slots:
  void exactF32_data() {
    QTest::addColumn<QString>("opcode");
    QTest::addColumn<quint32>("a");
    QTest::addColumn<quint32>("b");
    QTest::addColumn<quint32>("c");
    QTest::addColumn<quint32>("expected");
    // 1 + 1.5 ulp: a tie between 1+1ulp and 1+2ulp in RN (even: +2ulp).
    const quint32 one = 0x3f800000, ulp15 = 0x34400000;  // 1.5 * 2^-23
    QTest::newRow("add.rn tie-to-even") << "add.rn.f32" << one << ulp15 << 0u << 0x3f800002u;
    QTest::newRow("add.rz") << "add.rz.f32" << one << ulp15 << 0u << 0x3f800001u;
    QTest::newRow("add.rm") << "add.rm.f32" << one << ulp15 << 0u << 0x3f800001u;
    QTest::newRow("add.rp") << "add.rp.f32" << one << ulp15 << 0u << 0x3f800002u;
    QTest::newRow("sub.rn") << "sub.rn.f32" << 0x40400000u << one << 0u << 0x40000000u;  // 3-1=2
    // 3 * f32(1/3) = 1 + 2^-25 exactly: RN -> 1, RP -> 1 + 2^-23.
    QTest::newRow("mul.rn") << "mul.rn.f32" << 0x40400000u << 0x3eaaaaabu << 0u << 0x3f800000u;
    QTest::newRow("mul.rp") << "mul.rp.f32" << 0x40400000u << 0x3eaaaaabu << 0u << 0x3f800001u;
    // (1+2^-23)(1-2^-24) - 1 = 2^-24 - 2^-47 (0x337ffffe) with one rounding; mul then add
    // would round the product to 1 and give 0.
    QTest::newRow("fma.rn single rounding")
        << "fma.rn.f32" << 0x3f800001u << 0x3f7fffffu << 0xbf800000u << 0x337ffffeu;
    QTest::newRow("div.rn 1/3") << "div.rn.f32" << one << 0x40400000u << 0u << 0x3eaaaaabu;
    QTest::newRow("div.rn 2/3") << "div.rn.f32" << 0x40000000u << 0x40400000u << 0u << 0x3f2aaaabu;
    QTest::newRow("div.rz 2/3") << "div.rz.f32" << 0x40000000u << 0x40400000u << 0u << 0x3f2aaaaau;
    QTest::newRow("sqrt.rn 2") << "sqrt.rn.f32" << 0x40000000u << 0u << 0u << 0x3fb504f3u;
    QTest::newRow("add.sat clamps") << "add.rn.sat.f32" << 0x3f400000u << 0x3f000000u << 0u << one;
    QTest::newRow("add.sat NaN->0") << "add.rn.sat.f32" << 0x7fc00000u << one << 0u << 0u;
    // 2^-130 is subnormal: .ftz flushes the input, the sum is +0.
    QTest::newRow("add.ftz") << "add.rn.ftz.f32" << 0x00080000u << 0u << 0u << 0u;
    QTest::newRow("add no ftz") << "add.rn.f32" << 0x00080000u << 0u << 0u << 0x00080000u;
    QTest::newRow("max one NaN") << "max.f32" << 0x7fc00000u << one << 0u << one;
    QTest::newRow("max.NaN") << "max.NaN.f32" << 0x7fc00000u << one << 0u << 0x7fffffffu;
    QTest::newRow("min signed zero") << "min.f32" << 0u << 0x80000000u << 0u << 0x80000000u;
    QTest::newRow("max signed zero") << "max.f32" << 0x80000000u << 0u << 0u << 0u;
    QTest::newRow("neg") << "neg.f32" << one << 0u << 0u << 0xbf800000u;
    QTest::newRow("abs") << "abs.f32" << 0xbf800000u << 0u << 0u << one;
  }
  void exactF32() {
    QFETCH(QString, opcode);
    QFETCH(quint32, a);
    QFETCH(quint32, b);
    QFETCH(quint32, c);
    QFETCH(quint32, expected);
    PtxParseError err;
    auto in = parsePtxOpcode(opcode.toStdString(), &err);
    QVERIFY2(in.has_value(), err.message.c_str());
    const int n = static_cast<int>(in->operandsFor(in->minArity).size()) - 1;
    std::vector<uint64_t> srcs = {a, b, c};
    srcs.resize(std::max(1, n));
    uint64_t d = 0;
    std::string why;
    QVERIFY2(execPtx(*in, srcs, d, &why), why.c_str());
    QCOMPARE(static_cast<quint32>(d), expected);
  }

  void threeInputMax() {
    QCOMPARE(exec("max.f32", {fb(1), fb(-3), fb(2)}), fb(2));
    QCOMPARE(exec("max.f32", {fb(-1), fb(-3), fb(0)}), fb(0));
  }

  void cvtF16_data() {
    QTest::addColumn<float>("x");
    QTest::addColumn<quint32>("expected");
    QTest::newRow("1") << 1.0f << 0x3c00u;
    QTest::newRow("-2.5") << -2.5f << 0xc100u;
    QTest::newRow("max finite") << 65504.0f << 0x7bffu;
    QTest::newRow("below overflow midpoint") << 65519.0f << 0x7bffu;
    QTest::newRow("overflow midpoint -> inf") << 65520.0f << 0x7c00u;
    QTest::newRow("-overflow") << -1e6f << 0xfc00u;
    QTest::newRow("tie to even down") << 1.00048828125f << 0x3c00u;  // 1 + 2^-11
    QTest::newRow("tie to even up") << 1.00146484375f << 0x3c02u;    // 1 + 3*2^-11
    QTest::newRow("above tie") << 1.000489f << 0x3c01u;
    QTest::newRow("smallest subnormal") << 5.9604644775390625e-08f << 0x0001u;   // 2^-24
    QTest::newRow("subnormal tie -> 0") << 2.98023223876953125e-08f << 0x0000u;  // 2^-25
    QTest::newRow("subnormal 0.75ulp") << 4.470348358154297e-08f << 0x0001u;     // 1.5*2^-25
    QTest::newRow("largest subnormal") << 6.097555160522461e-05f << 0x03ffu;
    QTest::newRow("-0") << -0.0f << 0x8000u;
    QTest::newRow("inf") << INFINITY << 0x7c00u;
    QTest::newRow("nan") << NAN << 0x7fffu;
  }
  void cvtF16() {
    QFETCH(float, x);
    QFETCH(quint32, expected);
    QCOMPARE(static_cast<quint32>(exec("cvt.rn.f16.f32", {fb(x)})), expected);
    if (!std::isnan(x)) QCOMPARE(static_cast<quint32>(f32ToF16(x)), expected);
  }

  void cvtOther() {
    QCOMPARE(exec("cvt.rn.bf16.f32", {fb(1.0f)}), 0x3f80u);
    QCOMPARE(exec("cvt.rn.bf16.f32", {fb(1.00390625f)}), 0x3f80u);  // 1 + 2^-8: tie -> even
    QCOMPARE(exec("cvt.rn.bf16.f32", {fb(1.01171875f)}), 0x3f82u);  // 1 + 3*2^-8: tie -> even
    QCOMPARE(exec("cvt.rz.f16.f32", {fb(65520.0f)}), 0x7bffu);      // rz never overflows to inf
    // cvt.rn.f16x2.f32 d, hi, lo: d = f16(hi) << 16 | f16(lo).
    QCOMPARE(exec("cvt.rn.f16x2.f32", {fb(1.0f), fb(2.0f)}), 0x3c004000u);
    QCOMPARE(exec("cvt.f32.f16", {0x3555u}), fb(0.333251953125f));
    QCOMPARE(exec("cvt.rzi.s32.f32", {fb(-2.7f)}),
             static_cast<uint64_t>(static_cast<uint32_t>(-2)));
    QCOMPARE(exec("cvt.rni.s32.f32", {fb(2.5f)}), 2u);
    QCOMPARE(exec("cvt.rni.s32.f32", {fb(3e10f)}), 0x7fffffffu);     // saturates
    QCOMPARE(exec("cvt.rn.f32.s32", {16777217u}), fb(16777216.0f));  // 2^24+1 ties to even
    QCOMPARE(exec("cvt.rn.f32.s32", {16777219u}), fb(16777220.0f));
  }

  void packedHalves() {
    // (1, 2) + (1, 1) = (2, 3) per half: hi 1+1, lo 2+1.
    QCOMPARE(exec("add.rn.f16x2", {0x3c004000u, 0x3c003c00u}), 0x40004200u);
    QCOMPARE(exec("mul.rn.f16x2", {0x40004200u, 0x40004000u}), 0x44004600u);  // (2*2, 3*2)
    // fma.rn.f16x2 single rounding: (1+2^-10)(1-2^-11) - 1 = 2^-11 - 2^-21 = 0x0ffe exactly,
    // while rounding the product to f16 first would give 0.
    QCOMPARE(exec("fma.rn.f16x2", {0x3c013c01u, 0x3bff3bffu, 0xbc00bc00u}), 0x0ffe0ffeu);
    QCOMPARE(exec("max.f16x2", {0x3c00c000u, 0x40000000u}), 0x40000000u);  // (max(1,2), max(-2,0))
  }

  void approximate_data() {
    QTest::addColumn<QString>("opcode");
    QTest::addColumn<float>("x");
    QTest::addColumn<double>("exact");
    QTest::newRow("ex2 -1") << "ex2.approx.ftz.f32" << -1.0f << 0.5;
    QTest::newRow("ex2 2") << "ex2.approx.ftz.f32" << 2.0f << 4.0;
    QTest::newRow("ex2 0.3") << "ex2.approx.ftz.f32" << 0.3f << std::exp2(double(0.3f));
    QTest::newRow("lg2 8") << "lg2.approx.ftz.f32" << 8.0f << 3.0;
    QTest::newRow("lg2 10") << "lg2.approx.ftz.f32" << 10.0f << std::log2(10.0);
    QTest::newRow("rcp 3") << "rcp.approx.ftz.f32" << 3.0f << 1.0 / 3.0;
    QTest::newRow("sqrt.approx 2") << "sqrt.approx.f32" << 2.0f << std::sqrt(2.0);
  }
  void approximate() {
    QFETCH(QString, opcode);
    QFETCH(float, x);
    QFETCH(double, exact);
    const float r = bitsFloat(static_cast<uint32_t>(exec(opcode.toStdString().c_str(), {fb(x)})));
    const double ulp = std::ldexp(1.0, std::ilogb(exact) - 23);
    QVERIFY2(std::fabs(r - exact) <= 2 * ulp, qPrintable(QString("%1 vs %2").arg(r).arg(exact)));
  }

  // Regression tests for spellings the table accepted but the simulator did not model (issue 8):
  // each failed before the fix in core/sim/ptx_exec.cpp.
  void mulHiAndWide() {
    QCOMPARE(exec("mul.hi.u32", {0xffffffffu, 0xffffffffu}), 0xfffffffeu);
    QCOMPARE(exec("mul.hi.s32", {static_cast<uint32_t>(-6), 3u}), 0xffffffffu);  // -18 >> 32
    QCOMPARE(exec("mul.hi.u16", {0xffffu, 0xffffu}), 0xfffeu);
    QCOMPARE(exec("mul.hi.s16", {0x8000u, 0x8000u}), 0x4000u);  // (-2^15)^2 = 2^30
    QCOMPARE(exec("mul.hi.u64", {uint64_t{1} << 63, 4u}), 2u);
    QCOMPARE(exec("mul.hi.s64", {~uint64_t{0}, 1u}), ~uint64_t{0});  // -1 * 1: high word all ones
    QCOMPARE(exec("mul.wide.u32", {0xffffffffu, 2u}), 0x1fffffffeu);
    QCOMPARE(exec("mul.wide.s32", {static_cast<uint32_t>(-3), 5u}), static_cast<uint64_t>(-15));
    QCOMPARE(exec("mul.wide.u16", {0xffffu, 0xffffu}), 0xfffe0001u);
    QCOMPARE(exec("mul.wide.s16", {0xfffeu, 3u}), 0xfffffffau);  // -2 * 3 in 32 bits
    QCOMPARE(exec("mul.lo.u32", {0xffffffffu, 0xffffffffu}), 1u);
  }

  void minMaxXorsignAbs() {
    // |min(|a|, |b|)| with the XOR of the input signs; NaN results ignore .xorsign.abs.
    QCOMPARE(exec("min.xorsign.abs.f32", {fb(-3), fb(2)}), fb(-2));
    QCOMPARE(exec("max.xorsign.abs.f32", {fb(-3), fb(2)}), fb(-3));
    QCOMPARE(exec("max.xorsign.abs.f32", {fb(-3), fb(-2)}), fb(3));
    QCOMPARE(exec("min.xorsign.abs.f32", {fb(NAN), fb(-2)}), fb(-2));
    QCOMPARE(exec("min.NaN.xorsign.abs.f32", {fb(NAN), fb(-2)}), 0x7fffffffu);
    // f16x2 lanes (hi, lo): hi max(|-1|, |2|) sign - ^ + = -2; lo max(|3|, |-4|) = -4.
    QCOMPARE(exec("max.xorsign.abs.f16x2", {0xbc004200u, 0x4000c400u}), 0xc000c400u);
    QCOMPARE(exec("min.xorsign.abs.bf16", {0xbf80u, 0xc000u}), 0x3f80u);  // (-1, -2) -> +1
  }

  void cvtReluAndSatfinite() {
    QCOMPARE(exec("cvt.rn.relu.f16.f32", {fb(-1.5f)}), 0u);
    QCOMPARE(exec("cvt.rn.relu.f16.f32", {fb(2.0f)}), 0x4000u);
    QCOMPARE(exec("cvt.rn.relu.f16.f32", {fb(NAN)}), 0x7fffu);
    QCOMPARE(exec("cvt.rn.satfinite.f16.f32", {fb(1e6f)}), 0x7bffu);
    QCOMPARE(exec("cvt.rn.satfinite.f16.f32", {fb(-INFINITY)}), 0xfbffu);
    QCOMPARE(exec("cvt.rz.satfinite.bf16.f32", {fb(INFINITY)}), 0x7f7fu);
    QCOMPARE(exec("cvt.rn.relu.satfinite.f16.f32", {fb(-1e6f)}), 0u);
    // Packed: hi = relu(-1) = 0, lo = relu(3) = 3.
    QCOMPARE(exec("cvt.rn.relu.bf16x2.f32", {fb(-1.0f), fb(3.0f)}), 0x00004040u);
    QCOMPARE(exec("cvt.rn.satfinite.f16x2.f32", {fb(-INFINITY), fb(1e9f)}), 0xfbff7bffu);
  }

  // Further defects found by auditing every family the table accepts.
  void f64DirectedRounding() {
    const uint64_t one = 0x3ff0000000000000u, tiny = 0x3c90000000000000u;  // 1, 2^-54
    QCOMPARE(exec("add.rn.f64", {one, tiny}), one);
    QCOMPARE(exec("add.rp.f64", {one, tiny}), one + 1);
    QCOMPARE(exec("sub.rm.f64", {one, tiny}), 0x3fefffffffffffffu);
    QCOMPARE(exec("div.rz.f64", {0x4000000000000000u, 0x4008000000000000u}), 0x3fe5555555555555u);
    QCOMPARE(exec("div.rp.f64", {0x4000000000000000u, 0x4008000000000000u}), 0x3fe5555555555556u);
    QCOMPARE(exec("sqrt.rz.f64", {0x4000000000000000u}), 0x3ff6a09e667f3bccu);
    QCOMPARE(exec("rcp.rp.f64", {0x4008000000000000u}), 0x3fd5555555555556u);
  }

  void integerEdges() {
    QCOMPARE(exec("min.relu.s32", {static_cast<uint32_t>(-5), 3u}), 0u);
    QCOMPARE(exec("max.relu.s32", {static_cast<uint32_t>(-5), static_cast<uint32_t>(-3)}), 0u);
    QCOMPARE(exec("max.relu.s32", {static_cast<uint32_t>(-5), 7u}), 7u);
    // INT64_MIN / -1 overflows (the host traps on it); PTX wraps.
    QCOMPARE(exec("div.s64", {uint64_t{1} << 63, ~uint64_t{0}}), uint64_t{1} << 63);
    QCOMPARE(exec("abs.s64", {uint64_t{1} << 63}), uint64_t{1} << 63);
    QCOMPARE(exec("neg.s64", {uint64_t{1} << 63}), uint64_t{1} << 63);
  }

  void cvtFloatToIntNaNAndFtz() {
    // NaN -> 0, except from .f64 or into a 64-bit integer: 1 << (width - 1).
    QCOMPARE(exec("cvt.rzi.s32.f32", {fb(NAN)}), 0u);
    QCOMPARE(exec("cvt.rzi.s64.f32", {fb(NAN)}), uint64_t{1} << 63);
    QCOMPARE(exec("cvt.rzi.u64.f16", {0x7e00u}), uint64_t{1} << 63);
    QCOMPARE(exec("cvt.rzi.s32.f64", {0x7ff8000000000000u}), 0x80000000u);
    QCOMPARE(exec("cvt.rzi.u8.f64", {0x7ff8000000000000u}), 0x80u);
    // .ftz flushes the subnormal input before the integer rounding.
    QCOMPARE(exec("cvt.rpi.s32.f32", {0x00000001u}), 1u);
    QCOMPARE(exec("cvt.rpi.ftz.s32.f32", {0x00000001u}), 0u);
    QCOMPARE(exec("cvt.rmi.ftz.s32.f32", {0x80000001u}), 0u);
    QCOMPARE(exec("cvt.rmi.s32.f32", {0x80000001u}), 0xffffffffu);
    // Out of range saturates; small widths too.
    QCOMPARE(exec("cvt.rzi.s8.f32", {fb(300.0f)}), 0x7fu);
    QCOMPARE(exec("cvt.rzi.u16.f32", {fb(-3.0f)}), 0u);
    QCOMPARE(exec("cvt.rzi.u64.f32", {fb(3e19f)}), ~uint64_t{0});
  }

  void cvtIntToIntExtension() {
    QCOMPARE(exec("cvt.u32.s8", {0x80u}), 0xffffff80u);  // sign of the source decides
    QCOMPARE(exec("cvt.s32.u8", {0x80u}), 0x80u);
    QCOMPARE(exec("cvt.sat.u8.s8", {0x80u}), 0u);
    QCOMPARE(exec("cvt.sat.s8.u8", {0xc8u}), 0x7fu);
    QCOMPARE(exec("cvt.sat.s32.u64", {~uint64_t{0}}), 0x7fffffffu);
    QCOMPARE(exec("cvt.sat.u32.s64", {uint64_t{1} << 40}), 0xffffffffu);
  }

  void nanCanonicalisation() {
    // f32 arithmetic returns the canonical NaN whatever the input payload; .sat flushes it to +0.
    QCOMPARE(exec("add.rn.f32", {0xffc00001u, fb(1)}), 0x7fffffffu);
    QCOMPARE(exec("mul.rn.f16x2", {0x7e013c00u, 0x3c003c00u}), 0x7fff3c00u);
    QCOMPARE(exec("cvt.f32.f16", {0xfe01u}), 0x7fffffffu);
    QCOMPARE(exec("cvt.rn.f16.f32", {0xffc00001u}), 0x7fffu);
    QCOMPARE(exec("fma.rn.sat.f32", {fb(INFINITY), fb(0), fb(1)}), 0u);
  }

  // Measured on the H200 (tests/data/ptx/h200_sm90.json, docs/decisions.md "OPEN-12"): f64
  // propagates a NaN operand quieted, with its sign and payload, and gives the negative default
  // NaN for an invalid operation.
  void f64NaNsAsTheH200() {
    const uint64_t negNaN1 = 0xfff8000000000001u, sNaN = 0x7ff0000000000001u,
                   one = 0x3ff0000000000000u;
    QCOMPARE(exec("add.rn.f64", {0, negNaN1}), negNaN1);
    QCOMPARE(exec("sub.rn.f64", {one, negNaN1}), negNaN1);  // the NaN's sign is not flipped
    QCOMPARE(exec("mul.rz.f64", {sNaN, one}), 0x7ff8000000000001u);
    QCOMPARE(exec("fma.rn.f64", {0, 0x7ff0000000000000u, 0x7ff8000000000000u}),
             0x7ff8000000000000u);
    QCOMPARE(exec("div.rn.f64", {0, 0}), 0xfff8000000000000u);
    QCOMPARE(exec("mul.rn.f64", {0, 0xfff0000000000000u}), 0xfff8000000000000u);
    QCOMPARE(exec("add.rn.f64", {0x7ff0000000000000u, 0xfff0000000000000u}), 0xfff8000000000000u);
    QCOMPARE(exec("sqrt.rn.f64", {0xbff0000000000000u}), 0xfff8000000000000u);
    QCOMPARE(exec("sqrt.rn.f64", {0x8000000000000000u}), 0x8000000000000000u);  // sqrt(-0) = -0
    QCOMPARE(exec("rcp.rm.f64", {sNaN}), 0x7ff8000000000001u);
    QCOMPARE(exec("abs.f64", {negNaN1}), negNaN1);  // abs and neg leave a NaN's sign alone
    QCOMPARE(exec("abs.f64", {sNaN}), 0x7ff8000000000001u);
    QCOMPARE(exec("neg.f64", {0x7ff8000000000000u}), 0x7ff8000000000000u);
    QCOMPARE(exec("abs.f64", {0xbff0000000000000u}), one);
    QCOMPARE(exec("min.f64", {negNaN1, negNaN1}), negNaN1);
    QCOMPARE(exec("max.f64", {negNaN1, one}), one);
    // Not measured (no vector has two different NaNs): the first NaN in operand order.
    QCOMPARE(exec("add.rn.f64", {0x7ff8000000000000u, negNaN1}), 0x7ff8000000000000u);
    QCOMPARE(exec("max.f64", {sNaN, negNaN1}), 0x7ff8000000000001u);
  }

  // The NaN of a float -> float cvt on the H200: copies keep the bits, conversions to or from f64
  // carry the sign and the top payload bits over, quieted; the rest is canonical.
  void cvtNaNsAsTheH200() {
    QCOMPARE(exec("cvt.f64.f32", {0xffc00001u}), 0xfff8000020000000u);
    QCOMPARE(exec("cvt.f64.f32", {0x7f800001u}), 0x7ff8000020000000u);
    QCOMPARE(exec("cvt.ftz.f64.f32", {0xffc00001u}), 0x7fffffffe0000000u);
    QCOMPARE(exec("cvt.sat.f64.f32", {0x7fc00000u}), 0u);
    QCOMPARE(exec("cvt.f64.f16", {0xfe01u}), 0xfff8040000000000u);
    QCOMPARE(exec("cvt.f64.bf16", {0x7fffu}), 0x7fffe00000000000u);
    QCOMPARE(exec("cvt.rn.f32.f64", {0xfff8000000000001u}), 0xffc00000u);
    QCOMPARE(exec("cvt.rm.ftz.f32.f64", {0x7fffffffffffffffu}), 0x7fffffffu);
    QCOMPARE(exec("cvt.rz.f16.f64", {0xfff8000000000001u}), 0xfe00u);
    QCOMPARE(exec("cvt.rp.bf16.f64", {0x7ff0000000000001u}), 0x7fc0u);
    QCOMPARE(exec("cvt.rni.f64.f64", {0x7ff0000000000001u}), 0x7ff8000000000001u);
    QCOMPARE(exec("cvt.f64.f64", {0x7ff0000000000001u}), 0x7ff0000000000001u);
    QCOMPARE(exec("cvt.f32.f32", {0x7f800001u}), 0x7f800001u);
    QCOMPARE(exec("cvt.ftz.f32.f32", {0x7f800001u}), 0x7fffffffu);
    QCOMPARE(exec("cvt.rni.f32.f32", {0xffc00001u}), 0x7fffffffu);
    QCOMPARE(exec("cvt.f32.bf16", {0x7f81u}), 0x7f810000u);
    QCOMPARE(exec("cvt.ftz.f32.bf16", {0x7f81u}), 0x7fffffffu);
    QCOMPARE(exec("cvt.f32.f16", {0x7e00u}), 0x7fffffffu);
    QCOMPARE(exec("cvt.f16.f16", {0xfe01u}), 0x7fffu);
  }

  // .ftz flushes a result that is below the smallest normal before rounding (IEEE tininess
  // before rounding: rounded to the precision with an unbounded exponent), even when it rounds up
  // to the smallest normal; measured on the H200 for f32.
  void ftzTinyBeforeRounding() {
    const uint64_t below1 = 0x3f7fffffu, fltMin = 0x00800000u;
    QCOMPARE(exec("mul.rn.f32", {below1, fltMin}), fltMin);
    QCOMPARE(exec("mul.rn.ftz.f32", {below1, fltMin}), 0u);
    QCOMPARE(exec("mul.rn.ftz.f32", {0xbf7fffffu, fltMin}), 0x80000000u);
    QCOMPARE(exec("mul.rp.ftz.sat.f32", {below1, fltMin}), 0u);
    QCOMPARE(exec("fma.rn.ftz.f32", {below1, fltMin, 0}), 0u);
    QCOMPARE(exec("div.rp.f32", {fltMin, 0x3f800001u}), fltMin);
    QCOMPARE(exec("div.rp.ftz.f32", {fltMin, 0x3f800001u}), 0u);
    QCOMPARE(exec("mul.rn.ftz.f32", {0x3f800001u, fltMin}), 0x00800001u);  // normal: untouched
    // 2^-126·(1 - 2^-24) is tiny; 2^-126·(1 - 2^-25) rounds to 2^-126 even with an unbounded
    // exponent, so it is not (both on the H200).
    QCOMPARE(exec("cvt.rn.ftz.f32.f64", {0x380fffffe0000000u}), 0u);
    QCOMPARE(exec("cvt.rn.f32.f64", {0x380fffffe0000000u}), fltMin);
    QCOMPARE(exec("cvt.rn.ftz.f32.f64", {0x380ffffff0000000u}), fltMin);
    QCOMPARE(exec("cvt.rz.ftz.f32.f64", {0x380ffffff0000000u}), 0u);
    // f16: the same rule (not measured: the recording has no such f16 vector).
    QCOMPARE(exec("mul.rn.f16", {0x3bffu, 0x0400u}), 0x0400u);
    QCOMPARE(exec("mul.rn.ftz.f16", {0x3bffu, 0x0400u}), 0u);
  }

  // cvt with .ftz toward f16 does not flush a subnormal f32 source on the H200; toward bf16,
  // f32, f64 and integers it does.
  void cvtFtzTowardF16() {
    QCOMPARE(exec("cvt.rp.ftz.f16.f32", {0x00000001u}), 0x0001u);
    QCOMPARE(exec("cvt.rp.ftz.sat.f16.f32", {0x00000001u}), 0x0001u);
    QCOMPARE(exec("cvt.rm.ftz.f16.f32", {0x80000001u}), 0x8001u);
    QCOMPARE(exec("cvt.rp.ftz.bf16.f32", {0x00000001u}), 0u);
    QCOMPARE(exec("cvt.rp.bf16.f32", {0x00000001u}), 0x0001u);
    QCOMPARE(exec("cvt.ftz.f64.f32", {0x80000001u}), 0x8000000000000000u);
  }

  void roundToFormatSticky() {
    // A value exactly at an f16 midpoint with a positive residual rounds up (fma single rounding).
    QCOMPARE(roundToFormat(1.00048828125, 1, 10, 5, Round::Rn), 0x3c01u);
    QCOMPARE(roundToFormat(1.00048828125, -1, 10, 5, Round::Rn), 0x3c00u);
    QCOMPARE(roundToFormat(1.00048828125, 0, 10, 5, Round::Rn), 0x3c00u);
  }
};

QTEST_APPLESS_MAIN(TestSimNumerics)
#include "tst_sim_numerics.moc"
