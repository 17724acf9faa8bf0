// Private to core/debug: the session's state (the recording, the current image, the armed
// breakpoints, the references of the checked outputs) and the element access shared by the tile
// facts and the conditions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/debug/debug_internal.h"

namespace tirx::debug {

struct DebugSession::Impl {
  explicit Impl(const DebugOptions& o) : opt(o), rec(o) {}
  DebugOptions opt;
  Recorder rec;
  std::vector<uint8_t> image;  ///< the state at step `cur`
  SparseChunks sparse;         ///< the sparse arguments' written chunks at step `cur`
  int64_t cur = 0;
  struct Armed {
    int line = 0;
    std::optional<Condition> condition;
  };
  std::vector<Armed> breakpoints;
  std::vector<std::vector<double>> reference;  ///< per argument: the checked reference, or empty

  void applyStep(int64_t index, bool forward);
  /// Byte `off` of tensor argument `a` at step `cur` (from the image, or for a sparse argument
  /// from its chunks or the final tensor); the element must not cross a 64-byte chunk.
  const uint8_t* argBytes(int a, int64_t off) const;
  /// Whether element `element` of argument `a` is defined at step `cur` (sparse: at the end).
  bool argWritten(int a, int64_t element) const;
  bool hits(int64_t index) const;
  /// Index of buffer `name`, -1 when the kernel has none.
  int bufferIndex(const std::string& name) const;
  /// Why `c` cannot be evaluated (unknown buffer, wrong rank, index outside), empty when it can.
  std::string checkCondition(const Condition& c) const;
  bool evalCondition(const Condition& c) const;
  /// The ownership table of `buf`: whole, or past kMaxOwnershipEntries a window of its first rows
  /// (`flat` < 0) or of the one element `flat` (its cell 0).
  OwnershipTable tableOf(const ir::Buffer& buf, int64_t flat) const;
  /// The facts of buffer `b` at the current image.
  TileFacts facts(int b) const;
  /// One element (row-major `flat`) of buffer `b`: value, flags, owner, byte.
  ElementFact element(int b, int64_t flat, const OwnershipTable& table) const;
};

}  // namespace tirx::debug
