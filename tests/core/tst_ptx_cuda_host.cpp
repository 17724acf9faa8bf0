// A second independent oracle for the simulator's conversions and NaN results: the host
// emulations NVIDIA ships in cuda_fp16.hpp / cuda_bf16.hpp, which reproduce on the CPU what the
// device functions compute with the same PTX (__float2half_rn is cvt.rn.f16.f32 on the device,
// __half2int_rz is cvt.rzi.s32.f16, __hmax is max.f16, ...). Compared over every f16 bit pattern
// and the f32 conformance vectors: f32→f16/bf16 in the four rounding modes (NaN → 0x7fff),
// f16→f32 (NaN → 0x7fffffff), f16→integers (saturation, NaN → 0 or 1 << 63), integers→f16/bf16,
// f16 min/max (±0 order, both-NaN canonical) and abs. Where NVIDIA's emulation itself departs
// from the ISA (max.NaN of ±0) the case is left out and said so.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <QtTest>
#include <cstring>
#include <map>

#include "core/ptx/ptx_table.h"
#include "core/ptx/ptx_vectors.h"
#include "core/sim/sim_numerics.h"

using namespace tirx;

namespace {

uint64_t run(const char* op, std::initializer_list<uint64_t> srcs) {
  static std::map<std::string, PtxInstruction> cache;
  auto it = cache.find(op);
  if (it == cache.end()) {
    auto in = parsePtxOpcode(op);
    if (!in) qFatal("%s does not parse", op);
    it = cache.emplace(op, *in).first;
  }
  const std::vector<uint64_t> v(srcs);
  uint64_t d = 0;
  std::string why;
  if (!sim::execPtx(it->second, v, d, &why)) qFatal("%s: %s", op, why.c_str());
  return d;
}

uint16_t bits(__half h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
uint16_t bits(__nv_bfloat16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
__half toHalf(uint16_t b) {
  __half h;
  std::memcpy(&h, &b, 2);
  return h;
}
uint32_t fbits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float flt(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// f32 inputs: the conformance vectors of cvt.rn.f16.f32 and cvt.rn.bf16.f32 (edge values of
/// both formats), and a sweep of every 2^-8 step of the f16 and bf16 mantissa boundaries.
std::vector<uint32_t> f32Inputs() {
  std::vector<uint32_t> out;
  for (const char* op : {"cvt.rn.f16.f32", "cvt.rn.bf16.f32"})
    for (const PtxConformCase& c : ptxConformCases(op))
      if (c.opcode == op)
        for (const PtxVector& v : ptxConformVectors(c, 384))
          out.push_back(static_cast<uint32_t>(v[0]));
  for (uint32_t e = 90; e < 160; ++e)  // around the f16 range: 13 (f16) and 16 (bf16) dropped bits
    for (uint32_t low = 0; low < 0x10000; low += 0x101)
      for (uint32_t s : {0u, 0x80000000u}) out.push_back(s | (e << 23) | (low << 7) | (low & 0x7f));
  return out;
}

}  // namespace

class TstPtxCudaHost : public QObject {
  Q_OBJECT
 private slots:
  void f32ToHalfAndBfloat16() {
    int n = 0;
    for (uint32_t b : f32Inputs()) {
      const float x = flt(b);
      QCOMPARE(run("cvt.rn.f16.f32", {b}), uint64_t{bits(__float2half_rn(x))});
      QCOMPARE(run("cvt.rz.f16.f32", {b}), uint64_t{bits(__float2half_rz(x))});
      QCOMPARE(run("cvt.rm.f16.f32", {b}), uint64_t{bits(__float2half_rd(x))});
      QCOMPARE(run("cvt.rp.f16.f32", {b}), uint64_t{bits(__float2half_ru(x))});
      QCOMPARE(run("cvt.rn.bf16.f32", {b}), uint64_t{bits(__float2bfloat16_rn(x))});
      QCOMPARE(run("cvt.rz.bf16.f32", {b}), uint64_t{bits(__float2bfloat16_rz(x))});
      QCOMPARE(run("cvt.rm.bf16.f32", {b}), uint64_t{bits(__float2bfloat16_rd(x))});
      QCOMPARE(run("cvt.rp.bf16.f32", {b}), uint64_t{bits(__float2bfloat16_ru(x))});
      ++n;
    }
    QVERIFY(n > 10000);
  }

  void everyHalfToFloatAndIntegers() {
    for (uint32_t b = 0; b < 0x10000; ++b) {
      const __half h = toHalf(static_cast<uint16_t>(b));
      QCOMPARE(run("cvt.f32.f16", {b}), uint64_t{fbits(__half2float(h))});
      QCOMPARE(run("cvt.rzi.s8.f16", {b}), uint64_t{static_cast<uint8_t>(__half2char_rz(h))});
      QCOMPARE(run("cvt.rzi.u8.f16", {b}), uint64_t{__half2uchar_rz(h)});
      QCOMPARE(run("cvt.rzi.s16.f16", {b}), uint64_t{static_cast<uint16_t>(__half2short_rz(h))});
      QCOMPARE(run("cvt.rzi.u16.f16", {b}), uint64_t{__half2ushort_rz(h)});
      QCOMPARE(run("cvt.rzi.s32.f16", {b}), uint64_t{static_cast<uint32_t>(__half2int_rz(h))});
      QCOMPARE(run("cvt.rzi.u32.f16", {b}), uint64_t{__half2uint_rz(h)});
      QCOMPARE(run("cvt.rzi.s64.f16", {b}), static_cast<uint64_t>(__half2ll_rz(h)));
      QCOMPARE(run("cvt.rzi.u64.f16", {b}), static_cast<uint64_t>(__half2ull_rz(h)));
      QCOMPARE(run("abs.f16", {b}), uint64_t{bits(__habs(h))});
    }
  }

  void integersToHalf() {
    std::vector<int64_t> ints = {0,         1,         -1,        2047,          2049,
                                 4097,      65504,     65505,     65519,         65520,
                                 65535,     -65520,    1 << 24,   (1 << 24) + 1, INT32_MAX,
                                 INT32_MIN, INT64_MAX, INT64_MIN, 123456789,     -987654321};
    for (int64_t k = -3000; k <= 3000; k += 7) ints.push_back(k * 37);
    for (int64_t i : ints) {
      const auto i32 = static_cast<int32_t>(i);
      const auto u64 = static_cast<uint64_t>(i);
      const uint64_t b32 = static_cast<uint32_t>(i32);
      QCOMPARE(run("cvt.rn.f16.s32", {b32}), uint64_t{bits(__int2half_rn(i32))});
      QCOMPARE(run("cvt.rz.f16.s32", {b32}), uint64_t{bits(__int2half_rz(i32))});
      QCOMPARE(run("cvt.rm.f16.s32", {b32}), uint64_t{bits(__int2half_rd(i32))});
      QCOMPARE(run("cvt.rp.f16.s32", {b32}), uint64_t{bits(__int2half_ru(i32))});
      QCOMPARE(run("cvt.rn.f16.u32", {b32}),
               uint64_t{bits(__uint2half_rn(static_cast<uint32_t>(i32)))});
      QCOMPARE(run("cvt.rn.f16.s64", {u64}), uint64_t{bits(__ll2half_rn(i))});
      QCOMPARE(run("cvt.rz.f16.u64", {u64}), uint64_t{bits(__ull2half_rz(u64))});
      QCOMPARE(run("cvt.rp.f16.u64", {u64}), uint64_t{bits(__ull2half_ru(u64))});
      QCOMPARE(run("cvt.rn.bf16.s32", {b32}), uint64_t{bits(__int2bfloat16_rn(i32))});
    }
  }

  void halfMinMax() {
    const std::vector<uint16_t> pool = {0x0000, 0x8000, 0x0001, 0x83ff, 0x3c00, 0xbc00, 0x3c01,
                                        0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01};
    for (uint16_t a : pool)
      for (uint16_t b : pool) {
        QCOMPARE(run("max.f16", {a, b}), uint64_t{bits(__hmax(toHalf(a), toHalf(b)))});
        QCOMPARE(run("min.f16", {a, b}), uint64_t{bits(__hmin(toHalf(a), toHalf(b)))});
        // NVIDIA's emulation of max.NaN/min.NaN ignores the ±0 order the ISA states
        // (`__hge(a, b) ? a : b`): those pairs are left out.
        if ((a & 0x7fff) == 0 && (b & 0x7fff) == 0) continue;
        QCOMPARE(run("max.NaN.f16", {a, b}), uint64_t{bits(__hmax_nan(toHalf(a), toHalf(b)))});
        QCOMPARE(run("min.NaN.f16", {a, b}), uint64_t{bits(__hmin_nan(toHalf(a), toHalf(b)))});
      }
  }
};

QTEST_APPLESS_MAIN(TstPtxCudaHost)
#include "tst_ptx_cuda_host.moc"
