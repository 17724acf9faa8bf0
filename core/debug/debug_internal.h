// Private to core/debug: the recorded trace of one CTA (a flat state image cut into regions, the
// base image at the first recorded step and one delta per later step in 64-byte chunks), the
// recorder that fills it as a sim::StepObserver, value decoding, and the condition language of
// conditional breakpoints.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/debug/debug_session.h"
#include "core/ir/ir.h"
#include "core/sim/simulator.h"

namespace tirx::debug {

/// One recorded step's description.
struct StepRec {
  sim::StepKind kind = sim::StepKind::TileOp;
  SourceSpan span;
  std::string op;
  int64_t threads = 0;
  bool mixed = false;
  std::vector<double> scalars;  ///< the focus thread's kernel variables
};

/// The flat state image: per local buffer and thread its register bytes and written flags (one
/// byte per register byte), the shared arena and its written flags, per tensor argument its bytes
/// and defined flags (one byte per element). A tensor argument over DebugOptions::imagedArgBytes is
/// `sparse`: not in the image; `arg` is then a virtual offset at or past `size`, its recorded
/// chunks carry such offsets, and its defined flags are the final tensor's.
struct StateLayout {
  int64_t size = 0;
  std::vector<std::vector<int64_t>> regs, regFlags;  ///< [buffer][thread] -> offset, -1 if none
  std::vector<int64_t> regBytes;                     ///< per buffer: bytes per thread
  int64_t shared = -1, sharedFlags = -1, sharedBytes = 0;
  std::vector<int64_t> sharedBuffer;  ///< per buffer: its start in the arena, -1 if not shared
  std::vector<int64_t> arg, argFlags, argBytes, argElems;  ///< per kernel argument, -1 if scalar
  std::vector<bool> sparse;                                ///< per kernel argument
};

/// 64-byte chunks of sparse arguments, keyed by virtual offset.
using SparseChunks = std::unordered_map<int64_t, std::array<uint8_t, sim::GlobalWrite::kChunk>>;

struct Trace {
  StateLayout layout;
  std::vector<uint8_t> base;  ///< the image at step `first`
  struct Chunk {
    int64_t offset = 0;
    int64_t pool = 0;  ///< old bytes at pool, new bytes at pool + len
    int32_t len = 0;
  };
  std::vector<Chunk> chunks;
  std::vector<uint8_t> pool;
  std::vector<int64_t> stepChunks;  ///< per recorded step: first chunk (one extra at the end)
  std::vector<StepRec> steps;       ///< recorded steps
  int64_t first = 0;                ///< index of the first recorded step
  int64_t total = 0;                ///< steps seen in the launch
  bool truncated = false;
  /// Each sparse chunk the focus CTA wrote after the first recorded step, as it was at that step
  /// (also for writes after a truncation, so that the recorded steps never read a later value).
  SparseChunks sparseBase;
  int64_t bytes() const;
};

/// Records the focus CTA's steps of one launch (core/sim/step_observer.h).
class Recorder final : public sim::StepObserver {
 public:
  explicit Recorder(const DebugOptions& o) : m_opt(o) {}
  bool beginLaunch(const ir::Kernel& kernel) override;
  int64_t focusCta() const override { return m_opt.cta; }
  int64_t focusThread() const override { return m_opt.thread; }
  bool focusOnly() const override { return m_focusOnly; }
  void onStep(const sim::StepEvent& e, const sim::StateView& state) override;
  void endLaunch(bool ran, const std::vector<ir::KernelArg>& args,
                 const sim::Provenance& producers) override;

  bool observed = false;    ///< the chosen launch happened
  bool focusAlone = false;  ///< it ran its focus CTA alone (DebugOptions::wholeLaunchCtas)
  bool ran = false;
  std::string kernelName;  ///< the debugged kernel
  int64_t ctas = 0, threads = 0;
  std::vector<ir::Buffer> buffers;  ///< copies (the ir::Program dies with the verify)
  std::vector<std::string> varNames;
  std::vector<int> tileOpLines;
  Trace trace;
  std::vector<ir::KernelArg> finalArgs;
  /// Register (buffer, thread, slot) of the focus CTA -> the (argument, element) it was stored to.
  std::map<std::tuple<int, int64_t, int64_t>, std::pair<int, int64_t>> storedTo;

 private:
  void capture(const sim::StateView& state, std::vector<uint8_t>& image) const;
  /// The sparse arguments' chunks the step wrote: into sparseBase (their first old bytes) and,
  /// with `delta`, into the step's delta.
  void recordSparse(const sim::StateView& state, bool delta);
  void buildLayout(const sim::StateView& state);
  DebugOptions m_opt;
  int m_launches = 0;
  bool m_focusOnly = false;
  std::vector<uint8_t> m_cur, m_next;
};

/// The value of `bytes` (little-endian, `t`'s width) as a double, and its raw bits.
double decodeValue(const uint8_t* bytes, ir::DType t, uint64_t* bits = nullptr);

/// A parsed condition: `NAME[i, ...] OP NUMBER` or `nan(NAME[...])`, `inf(...)`, `uninit(...)`
/// (without an index: any element of the tile).
struct Condition {
  enum class Kind { Compare, Nan, Inf, Uninit } kind = Kind::Compare;
  std::string buffer;
  std::vector<int64_t> index;  ///< empty: any element
  std::string op;              ///< "<", "<=", ">", ">=", "==", "!="
  double number = 0;
};
/// Parses `text`; nullopt with `diag` (E0840, column inside the text) on a syntax error.
std::optional<Condition> parseCondition(const std::string& text, Diagnostic& diag);

}  // namespace tirx::debug
