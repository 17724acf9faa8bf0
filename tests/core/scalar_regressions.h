// The eight scalar expressions on which the H100 run of `tirx scalar-conform` (seed 22, 2,400
// expressions; /work/gpu_out/scalar_conform_record.json of 2026-12-07) disagreed with the
// simulator, each reduced to the operation that went wrong, as one kernel with its known results
// (DEC-SCALAR-6, DEC-SCALAR-7). Shared by tst_scalar_conform (the simulator, the CUDA text and
// its PTX) and tst_scalar_host_slow (tirx's CUDA compiled for the host), so that both sides are
// held to the same numbers. Six of them negate the narrow type's minimum (-(-32768) is -32768 in
// int16: compared, sign-extended or used as a shift amount it must not become +32768); four take
// T.ceildiv of -32768, whose exact ceiling the old lowering -((-a) // b) missed when -a wrapped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/values.h"
#include "tests/support/kernel_args.h"

namespace tirx::testing {

inline const char* kIssue22Kernel = R"(from tvm.script import tirx as T


@T.function
def issue22(H: T.Tensor((8,), "int16"), U: T.Tensor((1,), "uint16"), V: T.Tensor((2,), "uint8"),
            D: T.Tensor((1,), "float64"), B: T.Tensor((1,), "int8"), L: T.Tensor((1,), "int64"),
            I: T.Tensor((1,), "int32"), O16: T.Tensor((4,), "int16"), O8: T.Tensor((1,), "int8"),
            OU8: T.Tensor((2,), "uint8"), O32: T.Tensor((1,), "int32"),
            O64: T.Tensor((1,), "int64")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    m = H[0]
    O64[0] = T.if_then_else((T.int16(0) - m) >= H[7], T.int64(0), T.int64(9223372036854775806)) << L[0]
    O8[0] = T.Cast("int8", -T.ceildiv(m, m))
    O16[0] = T.ceildiv(m, T.int16(V[1]))
    O16[1] = T.ceildiv(m, H[1])
    OU8[0] = T.if_then_else(U[0] == -U[0], T.uint8(0), T.uint8(1))
    OU8[1] = T.uint8(D[0]) + V[0]
    O16[2] = m << T.max(-m, H[3] >> H[4])
    O32[0] = T.if_then_else(H[5] > -m, T.int32(-B[0]), I[0])
    O16[3] = H[2] << (T.ceildiv(m, m) >> H[6])
)";

/// The eight expressions as the generator wrote them (seed 22, the default of `tirx
/// scalar-conform`): the whole generated test on the host covers them with every input vector.
inline const std::vector<std::string> kIssue22Expressions = {
    R"(((T.Cast("int64", (T.uint32(1) >= u32_0)) if ((T.int16(0) - i16_1) >= (i16_2 if (T.float16(2.5) >= f16_1) else i16_0)) else T.int64(9223372036854775806)) << T.min(i64_0, ((T.int64(9223372036854775806) - i64_0) & T.min(T.int64(-9223372036854775807), i64_0)))))",
    R"(T.Cast("int8", ((-T.ceildiv(i16_0, (i16_0 if i16_0 != 0 else 1))) >> ((T.int16(16) & i16_0) >> T.Cast("int16", (T.int8(8) != i8_2))))))",
    R"(T.ceildiv(T.if_then_else((u64_2 == (u64_0 / (T.uint64(1) if T.uint64(1) != 0 else 1))), (T.if_then_else((f32_2 > f32_0), T.int16(32766), T.int16(7)) & (i16_0 - i16_2)), i16_2), (T.int16(u8_0) if T.int16(u8_0) != 0 else 1)))",
    R"((T.Cast("int16", f16_0) + (T.Cast("int16", (u8_2 <= u8_1)) - T.max(T.ceildiv(i16_2, (i16_0 if i16_0 != 0 else 1)), T.Cast("int16", (not (f64_1 != f64_2)))))))",
    R"(T.if_then_else((u16_1 == (-u16_1)), (u8_1 * T.min((u8_0 + T.uint8(3)), (u8_2 if (T.float64(1e30) != f64_1) else u8_1))), (T.uint8((f64_2 if (u16_0 == u16_2) else f64_2)) + u8_0)))",
    R"(((-((i16_0 * i16_1) if (T.int64(5) != T.int64(9223372036854775806)) else i16_1)) << (T.max((-i16_1), (i16_2 >> i16_0)) if ((i16_0 - i16_2) < (~i16_1)) else (T.Cast("int16", T.bfloat16(1e30)) * (T.int16(8) * i16_1)))))",
    R"((T.Cast("int32", (T.max(bf16_2, bf16_0) + T.floor(T.bfloat16(2.5)))) & (T.int32((-i8_2)) if (i16_1 > (-i16_2)) else i32_2)))",
    R"((((T.max(i16_1, i16_2) + i16_2) << (T.ceildiv(i16_0, (i16_0 if i16_0 != 0 else 1)) >> T.if_then_else((i32_1 <= i32_0), i16_0, i16_2))) + T.min(T.abs(T.if_then_else(T.Cast("bool", f16_2), T.int16(8), i16_0)), (~(i16_0 // (i16_2 if i16_2 != 0 else 1))))))",
};

/// The kernel's arguments: the record's inputs (int16 -32768, uint16 0x8000, int8 -128, f64 -1.0).
inline std::vector<ir::KernelArg> issue22Args() {
  return {tensorOf(ir::DType::Int16,
                   std::vector<int16_t>{-32768, -32767, 7290, 3, 29065, 1, 64, 32767}),
          tensorOf(ir::DType::UInt16, std::vector<uint16_t>{0x8000}),
          tensorOf(ir::DType::UInt8, std::vector<uint8_t>{0x80, 253}),
          tensorOf(ir::DType::Float64, std::vector<double>{-1.0}),
          tensorOf(ir::DType::Int8, std::vector<int8_t>{-128}),
          tensorOf(ir::DType::Int64, std::vector<int64_t>{0}),
          tensorOf(ir::DType::Int32, std::vector<int32_t>{INT32_MIN}),
          tensorOf(ir::DType::Int16, std::vector<int16_t>(4)),
          tensorOf(ir::DType::Int8, std::vector<int8_t>(1)),
          tensorOf(ir::DType::UInt8, std::vector<uint8_t>(2)),
          tensorOf(ir::DType::Int32, std::vector<int32_t>(1)),
          tensorOf(ir::DType::Int64, std::vector<int64_t>(1))};
}

/// Every result that differs from its known value, one line each ("" when all agree).
inline std::string issue22Mismatches(const std::vector<ir::KernelArg>& a) {
  std::string why;
  auto expect = [&](const char* what, int64_t got, int64_t want) {
    if (got != want)
      why += std::string(what) + ": " + std::to_string(got) + ", expected " + std::to_string(want) +
             "\n";
  };
  // (0 - -32768) wraps to -32768, not >= 32767: the else value, shifted by 0 (not 0 << 0).
  expect("int64 shift of a select on 0 - INT16_MIN", at<int64_t>(a[11], 0),
         int64_t{9223372036854775806});
  expect("int8(-ceildiv(-32768, -32768))", at<int8_t>(a[8], 0), -1);  // the old lowering: 1
  expect("ceildiv(-32768, 253)", at<int16_t>(a[7], 0), -129);         // the old: 130
  expect("ceildiv(-32768, -32767)", at<int16_t>(a[7], 1), 2);         // the old: -1
  expect("uint16 x == -x at 0x8000", at<uint8_t>(a[9], 0), 0);        // the H100: false
  expect("uint8(-1.0) + 0x80", at<uint8_t>(a[9], 1), 0x80);           // cvt.rzi saturates to 0
  // max(-(-32768), 3 >> 29065) = max(-32768, 0) = 0: no shift (the H100: +32768, so 0).
  expect("int16 -32768 << max(-m, 3 >> 29065)", at<int16_t>(a[7], 2), -32768);
  expect("1 > -(-32768) ? int32(-(-128)) : INT32_MIN", at<int32_t>(a[10], 0), -128);
  // ceildiv(-32768, -32768) = 1, 1 >> 64 = 0: 7290 << 0 (the old lowering: -1 >> 64 = -1, so 0).
  expect("7290 << (ceildiv(m, m) >> 64)", at<int16_t>(a[7], 3), 7290);
  return why;
}

}  // namespace tirx::testing
