// wgmma shared-memory matrix descriptors (spec/TIRX-TENSOR-CORES.md §8.5): the 64-bit encoding
// (start address, leading/stride byte offsets, base offset, swizzle mode), the byte address the
// hardware reads for each operand element through a descriptor (PTX "canonical layouts", K-major
// and MN-major, then the Swizzle<B,4,3> of the mode on address bits), and the derivation of a
// descriptor from a shared tensor's layout, checked element by element. The K-major encodings and
// placements are H200-verified (tc-verify/verify.cu); MN-major follows the PTX table (TC-6).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "core/layout/swizzle_layout.h"

namespace tirx {

/// K-major: K is the contiguous direction of each 16-byte core-matrix row (the default, trans 0);
/// MN-major: M (A) or N (B) is (imm-trans 1, f16/bf16 only).
enum class MatrixMajor { K, MN };

/// The fields of a descriptor, in bytes.
struct SmemDescriptor {
  int64_t startAddress = 0;  ///< shared-window byte address (bits 0–13: (addr & 0x3FFFF) >> 4)
  int64_t leadingByteOffset = 0;            ///< LBO (bits 16–29, >> 4)
  int64_t strideByteOffset = 0;             ///< SBO (bits 32–45, >> 4)
  int baseOffset = 0;                       ///< bits 49–51
  SwizzleMode swizzle = SwizzleMode::None;  ///< bits 62–63 (none 0, 128B 1, 64B 2, 32B 3)
  bool operator==(const SmemDescriptor&) const = default;
};

/// "" when every field is encodable (addresses and offsets multiples of 16 below 2^18, base
/// offset 0..7), else the first reason.
std::string checkDescriptor(const SmemDescriptor& d);
/// The 64-bit value, exactly as `make_desc` of tc-verify/verify.cu (plus the base offset bits).
/// Fields are masked as the hardware does ((x & 0x3FFFF) >> 4); check first.
uint64_t encodeDescriptor(const SmemDescriptor& d);
/// The fields of a 64-bit value (byte units; an unknown swizzle field cannot occur: 2 bits).
SmemDescriptor decodeDescriptor(uint64_t bits);

/// The byte address read for element (row, k) of the operand (row = M for A, N for B; k in
/// elements of `elemBytes`) through `d`: the PTX canonical layout of the mode (T = 16/elemBytes
/// elements, W = swizzle bytes): K-major none `(row%8)·16 + (row/8)·SBO + (k%T)·e + (k/T)·LBO`,
/// K-major swizzled `(row%8)·W + (row/8)·SBO + k·e`, MN-major none `(row%T)·e + (row/T)·SBO +
/// (k%8)·16 + (k/8)·LBO`, MN-major swizzled `(row%T)·e + ((row/T)%(W/16))·16 + (row/(T·W/16))·LBO
/// + (k%8)·W + (k/8)·SBO`; added to the start address, then bits [4, 4+B) ^= bits [7, 7+B).
/// nullopt when the base offset is not 0 (its effect is not modelled: docs/decisions.md).
std::optional<int64_t> descriptorAddress(const SmemDescriptor& d, MatrixMajor major, int elemBytes,
                                         int64_t row, int64_t k);

/// One wgmma operand inside a shared tensor: `rows` × `k` elements (A: 64 × K; B: N × K) starting
/// at (row0, k0). K-major tensors are indexed (row, k) — K the last dimension —, MN-major tensors
/// (k, row).
struct WgmmaOperand {
  MatrixMajor major = MatrixMajor::K;
  int elemBytes = 2;
  int64_t rows = 64;
  int64_t k = 16;
  int64_t row0 = 0;
  int64_t k0 = 0;
};

/// The descriptor of an operand relative to the tensor's start address (add the tensor's shared
/// address to `startAddress` at run time), or the reason there is none.
struct DerivedDescriptor {
  std::optional<SmemDescriptor> descriptor;
  std::string why;  ///< e.g. `element (1, 0) is at byte 128 of the tensor, the descriptor (LBO 128,
                    ///< SBO 256, no swizzle) reads byte 16`
};

/// Derives LBO, SBO, the swizzle mode and the start offset of `op` from the tensor's layout
/// (`tensor` over the 2-D logical `shape`), then checks every element of the operand against
/// descriptorAddress. Refuses a swizzle with no hardware mode or the wrong per_element for the
/// element size (§9.3), a tensor start not known to be aligned to the swizzle period
/// (`baseAlignBytes`), a start offset not 16-byte aligned or lying past the first 128-byte row
/// of its swizzle pattern (base offset ≠ 0), offsets too large to encode, and operands beyond
/// 256 × 256 elements (no wgmma operand is larger).
DerivedDescriptor deriveWgmmaDescriptor(const LayoutValue& tensor, std::span<const int64_t> shape,
                                        int64_t baseAlignBytes, const WgmmaOperand& op);

/// Where operand element (row, k) (absolute coordinates of the operand's frame: row in
/// [row0, row0 + rows), k in [k0, k0 + k)) lies: `pre` its byte offset before the memory's
/// swizzle, `phys` after it, both from the swizzle's origin (the buffer start).
struct OperandBytes {
  int64_t pre = 0, phys = 0;
};
/// The same derivation for an operand given by a byte function (a region or view of a shared
/// buffer, sema_wgmma.cpp): `sw` is the buffer's swizzle for elements of `op.elemBytes`.
DerivedDescriptor deriveWgmmaDescriptor(
    const std::function<OperandBytes(int64_t, int64_t)>& bytesOf, const Swizzle& sw,
    int64_t baseAlignBytes, const WgmmaOperand& op);

}  // namespace tirx
