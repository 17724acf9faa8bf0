// Swizzled shared-memory layouts (spec/TIRX.md §1.10, spec/TIRX-TENSOR-CORES.md §9): the XOR
// swizzle of TVM's SwizzleLayout, `ComposeLayout` (a TileLayout whose element offset `m` is then
// swizzled), the layout value a script can bind (`LayoutValue`: a TileLayout or a ComposeLayout),
// the hardware swizzle modes the swizzle equals (TMA SWIZZLE_32B/64B/128B, wgmma descriptor
// modes), the front-end constraints of §9.2–§9.3, and the (row, 16-byte chunk) image the layout
// view and `tirx layout` draw. Pure integer code, no Qt.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/layout/tile_layout.h"

namespace tirx {

/// The swizzle of a ComposeLayout: with `x = m >> perElement` (x counts units of 2^M elements),
/// inner: `f(x) = x ^ ((x & ((2^B − 1) << S)) >> S)`, outer: `f(x) = x ^ ((x & (2^B − 1)) << S)`;
/// the result is `f(x)·2^M + (m mod 2^M)`. B = 0 is the identity.
struct Swizzle {
  int perElement =
      0;         ///< M: log2 of the elements in one swizzled unit (16-byte chunk: log2(16/bytes))
  int len = 0;   ///< B: bits XORed (1, 2, 3 = 32, 64, 128-byte swizzle with S = 3)
  int atom = 0;  ///< S: distance in units between the XORed bits and their source
  bool inner = true;  ///< swizzle_inner (the only form the hardware implements)

  bool isIdentity() const { return len == 0; }
  /// The swizzled offset of element offset `m` (m ≥ 0; negative offsets are returned unchanged).
  int64_t apply(int64_t m) const noexcept;
  /// The pattern repeats every 2^(M+B+S) elements (1 when B = 0).
  int64_t periodElements() const;
  bool operator==(const Swizzle&) const = default;
};

/// "" when the swizzle is well formed (TVM SwizzleLayout::VerifyWellFormed: M ≥ 0, B ≥ 0, S ≥ B;
/// and here M + B + S ≤ 40 so that offsets stay in range), else a message such as
/// `atom_len (2) must be at least swizzle_len (3)`.
std::string checkSwizzle(const Swizzle& s);

/// `ComposeLayout(per_element, swizzle_len, atom_len, tile_layout, swizzle_inner)`: the tile
/// layout gives `m` (it must name only the memory axis `m`), then the swizzle permutes it.
struct ComposeLayout {
  Swizzle swizzle;
  TileLayout tile;

  int64_t size() const { return tile.size(); }
  /// The tile layout's span of `m` (as TVM's ComposeLayout::GetSpan).
  int64_t span() const { return tile.span("m"); }
  /// Elements of storage every swizzled offset fits in: the tile's extent of `m` (span plus the
  /// `m` offset) rounded up to a whole 2^(M+B) unit group (the swizzle moves an offset only inside
  /// such a group). Equal to the tile's extent for every hardware-shaped tile.
  int64_t storageSpan() const;
  /// Forward map: `{"m": swizzle(tile.apply(...)["m"])}`.
  AxisCoord apply(std::span<const int64_t> coord, std::span<const int64_t> shape) const;
  AxisCoord applyFlat(int64_t flat) const;
  bool admits(std::span<const int64_t> shape) const { return tile.admits(shape); }
  /// `ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))`, with `, swizzle_inner=False` when outer.
  std::string toString() const;
  bool operator==(const ComposeLayout&) const = default;
};

/// "" when `tile` may be composed with a swizzle (only the memory axis `m` in shard and offset,
/// no replica), else the reason, e.g. `the tile layout of a ComposeLayout must map to the memory
/// axis m only, found laneid`.
std::string checkComposeTile(const TileLayout& tile);

/// A layout value of the script: a TileLayout or a swizzled ComposeLayout.
using LayoutValue = std::variant<TileLayout, ComposeLayout>;

const TileLayout& tileOf(const LayoutValue& v);
/// The identity swizzle for a TileLayout.
Swizzle swizzleOf(const LayoutValue& v);
std::string toString(const LayoutValue& v);

// ---- hardware swizzle modes (§9.2) ------------------------------------------------------------

/// The four swizzle modes of sm_90 TMA and wgmma (the 96B and atomicity variants are sm_100).
enum class SwizzleMode { None, B32, B64, B128 };

/// 0, 32, 64, 128.
int swizzleModeBytes(SwizzleMode m);
/// TIRx `SwizzleMode` and CUtensorMapSwizzle numbering: NONE 0, 32B 1, 64B 2, 128B 3.
int swizzleModeTirx(SwizzleMode m);
/// The wgmma matrix-descriptor field (bits 62–63): none 0, 128B 1, 64B 2, 32B 3.
int swizzleModeDescriptor(SwizzleMode m);
std::optional<SwizzleMode> swizzleModeFromDescriptor(int field);
/// "none", "32B", "64B", "128B".
const char* swizzleModeName(SwizzleMode m);
/// `ComposeLayout(log2(16/elemBytes), B, 3)`: the swizzle a mode denotes for that element size.
Swizzle swizzleForMode(SwizzleMode m, int elemBytes);

/// The hardware mode `s` equals for elements of `elemBytes` bytes, or nullopt with `why` set:
/// B ∈ 0..3, S = 3, inner, and per_element = log2(16/elemBytes) (§9.3). B = 0 is mode None.
std::optional<SwizzleMode> hardwareSwizzleMode(const Swizzle& s, int elemBytes,
                                               std::string* why = nullptr);

/// §9.3 "M matching the element width": "" when 2^per_element elements of `elemBytes` bytes make
/// one 16-byte chunk (or the swizzle is the identity), else e.g. `ComposeLayout per_element=3
/// swizzles 8-element units, 32 bytes of float32; a 16-byte chunk of float32 is per_element=2`.
/// `dtypeName` only words the message.
std::string checkSwizzleElementWidth(const Swizzle& s, int elemBytes, const std::string& dtypeName);

/// Bytes of one swizzle pattern period (2^(M+B+S) elements): 256, 512, 1024 for the 32B, 64B,
/// 128B modes. The shared buffer must start at a multiple of it for the layout's swizzle (on
/// offsets) to equal the hardware's (on address bits) with descriptor base offset 0. 0 for B = 0.
int64_t swizzlePatternBytes(const Swizzle& s, int elemBytes);
/// "" when a buffer whose start address is a multiple of `baseAlignBytes` satisfies the pattern
/// alignment above, else e.g. `a 128B swizzle repeats every 1024 bytes; the buffer is only known
/// to be 128-byte aligned (declare align=1024)`.
std::string checkSwizzleBaseAlignment(const Swizzle& s, int elemBytes, int64_t baseAlignBytes);

// ---- the chunk image (§9.3 visualiser) --------------------------------------------------------

/// Logical (row, 16-byte chunk) → physical 16-byte chunk of a layout over a logical shape whose
/// last dimension is a row (every other dimension is flattened into rows).
struct ChunkImage {
  int elemBytes = 2;
  int64_t rows = 0;
  int64_t chunksPerRow = 0;       ///< ceil(row bytes / 16)
  int64_t physRowChunks = 0;      ///< physical chunks per row used to print (row, chunk) pairs
  std::vector<int64_t> physical;  ///< rows × chunksPerRow: byte offset / 16, −1 when the chunk's
                                  ///< elements are not one contiguous aligned 16-byte chunk
  int64_t at(int64_t row, int64_t chunk) const { return physical[row * chunksPerRow + chunk]; }
  /// The first of the four banks a physical chunk covers: (chunk·4) mod 32.
  static int firstBank(int64_t physChunk) { return static_cast<int>((physChunk * 4) % 32); }
};

/// The chunk image of `v` over `shape` (admitted, at least one dimension) for elements of
/// `elemBytes` (1, 2, 4, 8 or 16) bytes. Returns nullopt with `why` when the shape is not admitted,
/// has more than `maxRows` rows or more than 2^22 chunks.
std::optional<ChunkImage> chunkImage(const LayoutValue& v, std::span<const int64_t> shape,
                                     int elemBytes, int64_t maxRows, std::string* why = nullptr);

}  // namespace tirx
