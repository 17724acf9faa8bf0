// Float-to-integer casts in ewise bodies run on the simulator as on the GPU: CUDA C++ casts from
// float compile to cvt.rzi.{s,u}32/64.{f32,f64} (narrower integers keep the low bits of the
// 32-bit result), which saturate out-of-range values and turn NaN into 0 (32-bit from f32) or
// 1 << (N-1) (64-bit, or from f64); a cast to bool is `x != 0`, true for NaN. Before the fix the
// simulator wrapped out-of-range values around (int32(1e10) = 1410065408) and gave NaN → 0.
#include <QtTest>
#include <cmath>
#include <cstring>

#include "core/sema/sema.h"
#include "core/sim/simulator.h"

using namespace tirx;

namespace {

const char* kScript = R"(from tvm.script import tirx as T


@T.function(private=True)
def to_i32(x: T.float32) -> T.int32:
    return T.int32(x)


@T.function(private=True)
def to_u32(x: T.float32) -> T.uint32:
    return T.uint32(x)


@T.function(private=True)
def to_i8(x: T.float32) -> T.int8:
    return T.int8(x)


@T.function(private=True)
def to_u8(x: T.float32) -> T.uint8:
    return T.uint8(x)


@T.function(private=True)
def to_i64(x: T.float32) -> T.int64:
    return T.int64(x)


@T.function(private=True)
def to_u64(x: T.float32) -> T.uint64:
    return T.uint64(x)


@T.function(private=True)
def d_to_i32(x: T.float64) -> T.int32:
    return T.int32(x)


@T.function
def casts(
    A: T.Tensor((9, 1), "float32"),
    D: T.Tensor((9, 1), "float64"),
    I32: T.Tensor((9, 1), "int32"),
    U32: T.Tensor((9, 1), "uint32"),
    I8: T.Tensor((9, 1), "int8"),
    U8: T.Tensor((9, 1), "uint8"),
    I64: T.Tensor((9, 1), "int64"),
    U64: T.Tensor((9, 1), "uint64"),
    DI32: T.Tensor((9, 1), "int32"),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((9, 1), "float32", layout="default")
    d = T.alloc_local((9, 1), "float64", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], a, A)
    T.cuda.tile.apply(T.ptx["ld.global.f64"], d, D)
    i32 = T.alloc_local((9, 1), "int32", layout="default")
    T.cuda.tile.ewise(to_i32, i32, a)
    T.cuda.tile.apply(T.ptx["st.global.s32"], I32, i32)
    u32 = T.alloc_local((9, 1), "uint32", layout="default")
    T.cuda.tile.ewise(to_u32, u32, a)
    T.cuda.tile.apply(T.ptx["st.global.u32"], U32, u32)
    i8 = T.alloc_local((9, 1), "int8", layout="default")
    T.cuda.tile.ewise(to_i8, i8, a)
    T.cuda.tile.apply(T.ptx["st.global.s8"], I8, i8)
    u8 = T.alloc_local((9, 1), "uint8", layout="default")
    T.cuda.tile.ewise(to_u8, u8, a)
    T.cuda.tile.apply(T.ptx["st.global.u8"], U8, u8)
    i64 = T.alloc_local((9, 1), "int64", layout="default")
    T.cuda.tile.ewise(to_i64, i64, a)
    T.cuda.tile.apply(T.ptx["st.global.s64"], I64, i64)
    u64 = T.alloc_local((9, 1), "uint64", layout="default")
    T.cuda.tile.ewise(to_u64, u64, a)
    T.cuda.tile.apply(T.ptx["st.global.u64"], U64, u64)
    di32 = T.alloc_local((9, 1), "int32", layout="default")
    T.cuda.tile.ewise(d_to_i32, di32, d)
    T.cuda.tile.apply(T.ptx["st.global.s32"], DI32, di32)
)";

template <class T>
ir::KernelArg tensor(ir::DType dt, const std::vector<T>& v) {
  ir::KernelArg a;
  a.tensor.dtype = dt;
  a.tensor.shape = {static_cast<int64_t>(v.size()), 1};
  a.tensor.data.resize(v.size() * sizeof(T));
  std::memcpy(a.tensor.data.data(), v.data(), a.tensor.data.size());
  return a;
}

template <class T>
std::vector<T> values(const ir::KernelArg& a) {
  std::vector<T> v(a.tensor.data.size() / sizeof(T));
  std::memcpy(v.data(), a.tensor.data.data(), a.tensor.data.size());
  return v;
}

}  // namespace

class TstSimCasts : public QObject {
  Q_OBJECT
 private slots:
  void floatToIntSaturatesLikeTheGpu() {
    const FrontEndResult fe = checkScript(kScript, "casts.py");
    QVERIFY2(fe.ok(), formatGcc(fe.diagnostics, "casts.py").c_str());
    const std::vector<float> x = {300.0f, -1.5f, NAN, 1e10f, -1e10f, 2.5f, -0.7f, 0.0f, 3e9f};
    const std::vector<double> xd = {300.0, -1.5, NAN, 1e10, -1e10, 2.5, -0.7, 0.0, 3e9};
    std::vector<ir::KernelArg> args = {tensor(ir::DType::Float32, x),
                                       tensor(ir::DType::Float64, xd),
                                       tensor(ir::DType::Int32, std::vector<int32_t>(9)),
                                       tensor(ir::DType::UInt32, std::vector<uint32_t>(9)),
                                       tensor(ir::DType::Int8, std::vector<int8_t>(9)),
                                       tensor(ir::DType::UInt8, std::vector<uint8_t>(9)),
                                       tensor(ir::DType::Int64, std::vector<int64_t>(9)),
                                       tensor(ir::DType::UInt64, std::vector<uint64_t>(9)),
                                       tensor(ir::DType::Int32, std::vector<int32_t>(9))};
    sim::Simulator s;
    auto r = s.run(fe.program, "casts", args);
    QVERIFY(r.ok());
    QVERIFY(r->ran && r->faults.empty());
    const int32_t imax = INT32_MAX, imin = INT32_MIN;
    QCOMPARE(values<int32_t>(args[2]),
             (std::vector<int32_t>{300, -1, 0, imax, imin, 2, 0, 0, imax}));
    QCOMPARE(values<uint32_t>(args[3]),
             (std::vector<uint32_t>{300, 0, 0, UINT32_MAX, 0, 2, 0, 0, 3000000000u}));
    // int8/uint8: the low byte of the saturated 32-bit conversion.
    QCOMPARE(values<int8_t>(args[4]), (std::vector<int8_t>{44, -1, 0, -1, 0, 2, 0, 0, -1}));
    QCOMPARE(values<uint8_t>(args[5]), (std::vector<uint8_t>{44, 0, 0, 255, 0, 2, 0, 0, 0}));
    QCOMPARE(values<int64_t>(args[6]), (std::vector<int64_t>{300, -1, INT64_MIN, 10000000000,
                                                             -10000000000, 2, 0, 0, 3000000000}));
    QCOMPARE(
        values<uint64_t>(args[7]),
        (std::vector<uint64_t>{300, 0, uint64_t{1} << 63, 10000000000u, 0, 2, 0, 0, 3000000000u}));
    // From float64, NaN converts to 1 << 31 (PTX cvt: source .f64).
    QCOMPARE(values<int32_t>(args[8]),
             (std::vector<int32_t>{300, -1, imin, imax, imin, 2, 0, 0, imax}));
  }
};

QTEST_APPLESS_MAIN(TstSimCasts)
#include "tst_sim_casts.moc"
