// wgmma matrix descriptors (wgmma_descriptor.h): bit fields, the canonical-layout address model
// of PTX "Shared Memory Matrix Layout" / "Canonical Layouts", and derive-then-verify: LBO and SBO
// are read off the tensor's unswizzled layout at the distances the canonical layout names, then
// every element of the operand is compared with the address the descriptor makes the hardware
// read, so that a layout the descriptor cannot express is refused with the first element that
// would be read from the wrong place.
#include "core/layout/wgmma_descriptor.h"

#include "core/layout/compiled_layout.h"

namespace tirx {

namespace {

constexpr int64_t kAddressLimit = int64_t{1} << 18;  // 14-bit fields of 16-byte units

std::string describe(const SmemDescriptor& d) {
  return "start " + std::to_string(d.startAddress) + ", LBO " +
         std::to_string(d.leadingByteOffset) + ", SBO " + std::to_string(d.strideByteOffset) +
         ", " +
         (d.swizzle == SwizzleMode::None ? std::string("no swizzle")
                                         : std::string(swizzleModeName(d.swizzle)) + " swizzle");
}

}  // namespace

std::string checkDescriptor(const SmemDescriptor& d) {
  const std::pair<const char*, int64_t> fields[] = {{"start address", d.startAddress},
                                                    {"leading byte offset", d.leadingByteOffset},
                                                    {"stride byte offset", d.strideByteOffset}};
  for (const auto& [name, v] : fields) {
    if (v < 0 || v >= kAddressLimit)
      return std::string(name) + " " + std::to_string(v) + " does not fit the descriptor (0.." +
             std::to_string(kAddressLimit - 16) + ")";
    if (v % 16 != 0)
      return std::string(name) + " " + std::to_string(v) + " is not a multiple of 16 bytes";
  }
  if (d.baseOffset < 0 || d.baseOffset > 7)
    return "base offset " + std::to_string(d.baseOffset) + " does not fit 3 bits";
  return {};
}

uint64_t encodeDescriptor(const SmemDescriptor& d) {
  auto field = [](int64_t bytes) { return static_cast<uint64_t>((bytes & 0x3FFFF) >> 4); };
  uint64_t bits = field(d.startAddress);
  bits |= field(d.leadingByteOffset) << 16;
  bits |= field(d.strideByteOffset) << 32;
  bits |= static_cast<uint64_t>(d.baseOffset & 7) << 49;
  bits |= static_cast<uint64_t>(swizzleModeDescriptor(d.swizzle)) << 62;
  return bits;
}

SmemDescriptor decodeDescriptor(uint64_t bits) {
  SmemDescriptor d;
  d.startAddress = static_cast<int64_t>(bits & 0x3FFF) << 4;
  d.leadingByteOffset = static_cast<int64_t>((bits >> 16) & 0x3FFF) << 4;
  d.strideByteOffset = static_cast<int64_t>((bits >> 32) & 0x3FFF) << 4;
  d.baseOffset = static_cast<int>((bits >> 49) & 7);
  d.swizzle = *swizzleModeFromDescriptor(static_cast<int>((bits >> 62) & 3));
  return d;
}

std::optional<int64_t> descriptorAddress(const SmemDescriptor& d, MatrixMajor major, int elemBytes,
                                         int64_t row, int64_t k) {
  if (d.baseOffset != 0 || elemBytes <= 0 || 16 % elemBytes != 0) return std::nullopt;
  const int64_t e = elemBytes, T = 16 / elemBytes;
  const int64_t W = swizzleModeBytes(d.swizzle), c = W / 16;
  const int64_t lbo = d.leadingByteOffset, sbo = d.strideByteOffset;
  int64_t off = 0;
  if (major == MatrixMajor::K) {
    if (W == 0)
      off = (row % 8) * 16 + (row / 8) * sbo + (k % T) * e + (k / T) * lbo;
    else
      off = (row % 8) * W + (row / 8) * sbo + k * e;
  } else {
    if (W == 0)
      off = (row % T) * e + (row / T) * sbo + (k % 8) * 16 + (k / 8) * lbo;
    else
      off = (row % T) * e + ((row / T) % c) * 16 + (row / (T * c)) * lbo + (k % 8) * W +
            (k / 8) * sbo;
  }
  const int64_t addr = d.startAddress + off;
  const int B = static_cast<int>(d.swizzle);  // None 0, 32B 1, 64B 2, 128B 3
  if (B == 0) return addr;
  const int64_t mask = (int64_t{1} << B) - 1;
  return addr ^ (((addr >> 7) & mask) << 4);
}

DerivedDescriptor deriveWgmmaDescriptor(const LayoutValue& tensor, std::span<const int64_t> shape,
                                        int64_t baseAlignBytes, const WgmmaOperand& op) {
  const TileLayout& tile = tileOf(tensor);
  if (shape.size() != 2 || !tile.admits(shape)) {
    DerivedDescriptor out;
    out.why = "a wgmma operand needs a 2-D shared tensor whose layout admits its shape";
    return out;
  }
  const bool kMajor = op.major == MatrixMajor::K;
  const int64_t rowDim = kMajor ? shape[0] : shape[1], kDim = kMajor ? shape[1] : shape[0];
  if (op.rows > 0 && op.k > 0 && op.row0 >= 0 && op.k0 >= 0 && op.rows <= 256 && op.k <= 256 &&
      (op.row0 + op.rows > rowDim || op.k0 + op.k > kDim)) {
    DerivedDescriptor out;
    out.why = "the operand region (" + std::to_string(op.rows) + " x " + std::to_string(op.k) +
              " at " + std::to_string(op.row0) + ", " + std::to_string(op.k0) +
              ") does not fit the tensor";
    return out;
  }
  const CompiledLayout full(tensor), pre(tile);
  const int64_t e = op.elemBytes;
  auto bytesOf = [&](int64_t r, int64_t k) {
    const int64_t flat = kMajor ? r * shape[1] + k : k * shape[1] + r;
    return OperandBytes{pre.applyFlat(flat).m * e, full.applyFlat(flat).m * e};
  };
  return deriveWgmmaDescriptor(bytesOf, swizzleOf(tensor), baseAlignBytes, op);
}

DerivedDescriptor deriveWgmmaDescriptor(
    const std::function<OperandBytes(int64_t, int64_t)>& bytesOf, const Swizzle& sw,
    int64_t baseAlignBytes, const WgmmaOperand& op) {
  DerivedDescriptor out;
  auto fail = [&](std::string why) {
    out.why = std::move(why);
    return out;
  };
  const int e = op.elemBytes;
  if (e <= 0 || e > 16 || 16 % e != 0)
    return fail("a wgmma operand needs 1-, 2-, 4- or 8-byte elements, found " + std::to_string(e));
  if (op.rows <= 0 || op.k <= 0 || op.row0 < 0 || op.k0 < 0)
    return fail("the operand region must be non-empty and start inside the tensor");
  if (op.rows > 256 || op.k > 256)
    return fail("a wgmma operand has at most 256 rows and 256 K elements, found " +
                std::to_string(op.rows) + " x " + std::to_string(op.k));
  const bool kMajor = op.major == MatrixMajor::K;
  std::string why;
  const std::optional<SwizzleMode> mode = hardwareSwizzleMode(sw, e, &why);
  if (!mode) return fail(why);
  if (const std::string w = checkSwizzleBaseAlignment(sw, e, baseAlignBytes); !w.empty())
    return fail(w);
  if (baseAlignBytes <= 0 || baseAlignBytes % 16 != 0)
    return fail("a wgmma operand tensor must be 16-byte aligned, its start is only known to be " +
                std::to_string(baseAlignBytes) + "-byte aligned");

  auto preBytes = [&](int64_t r, int64_t k) { return bytesOf(op.row0 + r, op.k0 + k).pre; };
  const int64_t start = preBytes(0, 0);
  auto dist = [&](int64_t r, int64_t k, int64_t extentR, int64_t extentK) -> int64_t {
    return r < extentR && k < extentK ? preBytes(r, k) - start : 0;
  };
  const int64_t T = 16 / e, W = swizzleModeBytes(*mode), c = W / 16;
  SmemDescriptor d;
  d.startAddress = start;
  d.swizzle = *mode;
  if (kMajor && W == 0) {
    d.strideByteOffset = dist(8, 0, op.rows, op.k);
    d.leadingByteOffset = dist(0, T, op.rows, op.k);
  } else if (kMajor) {
    d.strideByteOffset = dist(8, 0, op.rows, op.k);
    d.leadingByteOffset = 16;  // unused in swizzled K-major mode; 1 (16 bytes) by convention
  } else if (W == 0) {
    d.strideByteOffset = dist(T, 0, op.rows, op.k);
    d.leadingByteOffset = dist(0, 8, op.rows, op.k);
  } else {
    d.leadingByteOffset = dist(T * c, 0, op.rows, op.k);
    d.strideByteOffset = dist(0, 8, op.rows, op.k);
  }
  if (const std::string w = checkDescriptor(d); !w.empty())
    return fail("the layout needs a descriptor whose " + w);
  if (W > 0) {
    const int64_t period = swizzlePatternBytes(sw, e);
    if ((start % period) >= 128)
      return fail("the operand starts " + std::to_string(start % period) + " bytes into a " +
                  std::to_string(period) + "-byte swizzle pattern; a start past its first 128 " +
                  "bytes needs a descriptor base offset, which is not supported");
  }
  for (int64_t r = 0; r < op.rows; ++r)
    for (int64_t k = 0; k < op.k; ++k) {
      const int64_t want = bytesOf(op.row0 + r, op.k0 + k).phys;
      const std::optional<int64_t> got = descriptorAddress(d, op.major, e, r, k);
      if (!got || *got != want) {
        const int64_t a = kMajor ? op.row0 + r : op.k0 + k, b = kMajor ? op.k0 + k : op.row0 + r;
        return fail("element (" + std::to_string(a) + ", " + std::to_string(b) + ") is at byte " +
                    std::to_string(want) + " of the tensor, the descriptor (" + describe(d) +
                    ") reads byte " + (got ? std::to_string(*got) : std::string("?")));
      }
    }
  out.descriptor = d;
  return out;
}

}  // namespace tirx
