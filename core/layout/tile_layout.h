// TileLayout, exactly as spec/TIRX.md §1: shard iters, replica iters and per-axis offsets over
// named axes (memory axis `m`, thread axes laneid/warpid/tx/wgid/tid_in_wg/wid_in_wg/..., and
// unattributed names). Pure integer code; no Qt, no allocation in apply's hot path beyond the
// result.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tirx {

enum class AxisKind { Memory, Thread, Unknown };

/// The registry of spec §1.1. Unknown names are `Unknown` (auto-registered, no attributes).
AxisKind axisKind(const std::string& name);
/// The extent a thread axis has by definition (laneid 32, wid_in_wg 4, tid_in_wg 128), or 0
/// when the axis has no fixed extent (warpid, tx, wgid depend on the launch).
int64_t axisFixedExtent(const std::string& name);
/// One line on a registered axis (spec §1.1: kind, meaning, extent, weight in the linear thread
/// id) for the editor's hover: "laneid — thread axis: lane inside a warp (0–31), weight 1 in the
/// linear thread id". Empty for an unregistered name.
std::string axisDescription(const std::string& name);

struct Iter {
  int64_t extent = 1;
  int64_t stride = 1;
  std::string axis = "m";
  bool operator==(const Iter&) const = default;
};

/// Physical coordinate: axis name -> value. Absent axes are 0.
using AxisCoord = std::map<std::string, int64_t>;

class TileLayout {
 public:
  std::vector<Iter> shard;
  std::vector<Iter> replica;
  AxisCoord offset;

  /// `TileLayout(S[shape])`: row-major contiguous on `m` (the "default" layout).
  static TileLayout rowMajor(std::span<const int64_t> shape);

  /// Π shard extents (logical element count).
  int64_t size() const;
  /// Π extents of shard iters on `axis`.
  int64_t size(const std::string& axis) const;
  /// 1 + Σ (e−1)·s over shard iters on `axis` (spec §1.4; offsets not included).
  int64_t span(const std::string& axis = "m") const;
  /// Per-thread physical array length for a local tensor (spec §1.6): 1 + Σ over memory iters in
  /// shard and replica of (e−1)·s + Σ memory offsets.
  int64_t storageSlots() const;
  /// The same layout with every thread-axis iter and thread-axis offset removed.
  TileLayout storage() const;
  bool hasThreadAxes() const;
  bool hasReplica() const { return !replica.empty(); }

  /// Forward map of the base coordinate (no replicas): flatten `coord` row-major over `shape`,
  /// split over shard extents (outermost not reduced), accumulate per axis, add offsets.
  /// Requires coord.size() == shape.size(); a shape is admitted iff Π shape == size().
  AxisCoord apply(std::span<const int64_t> coord, std::span<const int64_t> shape) const;
  /// apply() from an already-flattened logical index.
  AxisCoord applyFlat(int64_t flat) const;
  /// Every physical copy of the element (base + each replica combination), spec §1.4 step 4.
  std::vector<AxisCoord> applyAll(int64_t flat) const;

  bool admits(std::span<const int64_t> shape) const;

  /// Text in the script's surface syntax, e.g. `S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]`.
  std::string toString() const;
  bool operator==(const TileLayout&) const = default;
};

/// Width-changing and same-width dtype views (spec §1.8): `bitsOld` -> `bitsNew`. Only memory-axis
/// strides (and memory offsets) are scaled (decision OPEN-6, docs/layout.md). Returns nullopt when
/// the view is illegal (packing needs an innermost stride-1 memory iter whose extent divides by the
/// ratio) and sets `why` to a message.
std::optional<TileLayout> dtypeView(const TileLayout& layout, int bitsOld, int bitsNew,
                                    std::string* why = nullptr);

/// The weight of a thread axis in the linear thread id (tx, laneid, tid_in_wg: 1; warpid,
/// wid_in_wg: 32; wgid: 128), 0 for every other axis (block/cluster axes, memory, unknown).
int64_t threadAxisWeight(const std::string& axis);

/// Checks that every thread axis with a fixed extent (laneid 32, wid_in_wg 4, tid_in_wg 128) stays
/// below it over all elements and replicas. Returns "" when it does, else a message such as
/// `laneid reaches 39, beyond its extent 32` (the value would spill into the next warp).
std::string checkThreadExtents(const TileLayout& layout);

/// Normalise a physical coordinate's thread axes to a linear thread index inside a CTA using the
/// equivalences of spec §1.1 (tx = 32·warpid + laneid, warpid = 4·wgid + wid_in_wg, ...).
/// Memory and unknown axes are ignored. Returns the linear thread id.
int64_t linearThread(const AxisCoord& c);

/// One owner of a logical element of a register (local) tile: the thread and its register slot.
struct Owner {
  int64_t thread = 0;  ///< linear thread id in the CTA (warp = thread/32, lane = thread%32)
  int64_t slot = 0;    ///< index into that thread's private array (the `m` component)
  bool operator==(const Owner&) const = default;
};

/// The most owner entries (elements × owners per element) one ownership table holds: the one
/// memory cap of every table the engine and the studio build (about 40 MiB: an Owner and an
/// Entry per owner). A larger tile is tabulated a window at a time (ownershipWindow) and
/// summarised without a table (ownershipSummary); decision LIVE-1 in docs/decisions.md.
inline constexpr int64_t kMaxOwnershipEntries = int64_t(1) << 20;

/// A rectangle of a tile's elements in a 2-D fold of its row-major index: element flat = r ·
/// foldCols + c sits at row r, column c (the layout view folds the last axis into columns).
struct TableWindow {
  int64_t foldCols = 0;        ///< columns of the fold
  int64_t row0 = 0, col0 = 0;  ///< the window's first row and column
  int64_t rows = 0, cols = 0;  ///< its size in rows and columns
  /// The row-major logical index of the window's cell `cell` (row-major in the window).
  int64_t flatOf(int64_t cell) const {
    return (row0 + cell / cols) * foldCols + col0 + cell % cols;
  }
  int64_t cells() const { return rows * cols; }
  bool operator==(const TableWindow&) const = default;
};

/// The ownership table of a layout over a logical shape, both ways, in flat vectors (no per-element
/// allocation): element -> owners (`ownerList`, a fixed number per element) and thread -> (slot,
/// element) entries sorted by (thread, slot, flat). Thread ids are linear in the CTA
/// (linearThread); the slot is the sum of the memory-axis components. A layout without thread axes
/// puts every element on thread 0 (every thread holds its own copy of the whole tile).
/// A windowed table (ownershipWindow) holds the window's cells only: its "flat" indices are cells
/// of the window, elementOf() gives their logical index.
struct OwnershipTable {
  struct Entry {
    int64_t thread = 0;
    int64_t slot = 0;
    int64_t flat = 0;  ///< row-major logical index (a windowed table: the window's cell)
    bool operator==(const Entry&) const = default;
  };
  std::vector<int64_t> shape;
  int64_t elementCount = 0;      ///< elements tabulated (a windowed table: the window's cells)
  int64_t ownersPerElement = 0;  ///< 1 + distinct replica displacements (same for every element)
  std::vector<Owner> ownerList;  ///< owners of f: [f·ownersPerElement, (f+1)·ownersPerElement)
  std::vector<Entry> byThread;   ///< every (thread, slot, flat), sorted by thread, slot, flat
  std::vector<int64_t> threads;  ///< distinct owning threads, ascending
  int64_t threadCount = 0;       ///< 1 + max thread used (0 when empty)
  int64_t slotsPerThread = 0;    ///< storageSlots() of the layout
  int64_t maxSlotsUsed = 0;      ///< the most distinct slots any one thread uses
  /// The layout admits the shape but its elements × owners exceed the cap: no table
  /// (elementCount 0); `totalEntries` says how many it would have held.
  bool tooLarge = false;
  int64_t totalEntries = 0;  ///< elements × owners per element of the whole tile
  bool windowed = false;     ///< the table covers `window` only
  TableWindow window;        ///< the cells tabulated, when windowed

  /// Owners of the element at row-major index `flat` (base owner first, then replicas).
  std::span<const Owner> ownersOf(int64_t flat) const;
  /// The entries of one thread, sorted by slot then element; empty when it owns nothing.
  std::span<const Entry> entriesOf(int64_t thread) const;
  int64_t threadsUsed() const { return static_cast<int64_t>(threads.size()); }
  /// The logical (row-major) index of tabulated element `i`: `i` itself, or the window's cell.
  int64_t elementOf(int64_t i) const { return windowed ? window.flatOf(i) : i; }
};

/// Tabulate ownership of a layout over `shape`. Returns an empty table (elementCount 0) when the
/// shape is not admitted, and an empty one with `tooLarge` when elements × owners exceed
/// `maxEntries` (nothing is allocated). Linear in the element count times the replica count.
OwnershipTable ownership(const TileLayout& layout, std::span<const int64_t> shape,
                         int64_t maxEntries = kMaxOwnershipEntries);

/// Tabulate the cells of `window` only (clamped to the fold of the shape's element count into
/// `window.foldCols` columns, then cut to at most `maxEntries` owner entries: rows first, then
/// columns). The table is windowed (ownersOf/entriesOf speak of the window's cells, elementOf()
/// maps them back); `window` holds the clamped rectangle. Empty when the shape is not admitted or
/// the fold does not divide the element count.
OwnershipTable ownershipWindow(const TileLayout& layout, std::span<const int64_t> shape,
                               TableWindow window, int64_t maxEntries = kMaxOwnershipEntries);

/// What a hover says about a layout over a shape, at any size: counted without a table except
/// what needs one, which is left at −1 past the cap.
struct OwnershipSummary {
  int64_t elements = 0;          ///< logical elements (0 when the shape is not admitted)
  int64_t ownersPerElement = 1;  ///< 1 + distinct replica displacements
  int64_t slotsPerThread = 0;    ///< storageSlots() of the layout
  /// Distinct owning threads: from the thread axes alone (their digits and the replicas), −1 when
  /// those alone span more than kMaxOwnershipEntries combinations.
  int64_t threadsUsed = -1;
  int64_t maxSlotsUsed = -1;  ///< the most distinct slots on one thread, −1 past the cap
  bool tabulated = false;     ///< every field counted from a whole table (under the cap)
};
OwnershipSummary ownershipSummary(const TileLayout& layout, std::span<const int64_t> shape);

/// Row-major flatten / unflatten helpers shared by the engine.
int64_t flatten(std::span<const int64_t> coord, std::span<const int64_t> shape);
std::vector<int64_t> unflatten(int64_t flat, std::span<const int64_t> shape);
int64_t product(std::span<const int64_t> v);

}  // namespace tirx
