// Private to core/sim: the recorder of the asynchronous timeline (ir/async_timeline.h, decision
// PIPE-1). The async executor files call it at each asynchronous event with the acting thread's
// logical clock (Thread::clock); it merges the lanes of a warp into one event per statement
// execution, interns barrier and buffer names, keeps at most SimOptions::timelineMaxEvents events
// (then sets `truncated`) and, at the end of the run, orders them by CTA and start time. When the
// run did not ask for a timeline, `on` is false and no caller touches it.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/async_timeline.h"
#include "core/sim/simulator.h"

namespace tirx::sim {

class TimelineRecorder {
 public:
  bool on = false;
  ir::AsyncTimeline out;

  /// Starts a run: clears everything, `on` from the options.
  void reset(const SimOptions& o);
  /// A new CTA: lane merging starts afresh.
  void beginCta();
  /// The index of `s` in out.names (added on first use).
  int32_t intern(const std::string& s);
  /// The event of kind `k` for thread `thread`'s execution `occurrence` of statement `instr`,
  /// merged with the other lanes of its warp doing the same: start is the earliest, end the
  /// latest time. Returns its index and sets `fresh` when it was created now; -1 once the cap is
  /// reached (the timeline is then marked truncated).
  int32_t lane(ir::AsyncEventKind k, int32_t cta, int64_t thread, int instr, int64_t occurrence,
               int64_t start, int64_t end, const SourceSpan& span, bool& fresh);
  /// An event of its own (not merged): landings, phase completions. -1 once the cap is reached.
  int32_t single(ir::AsyncEventKind k, int32_t cta, int32_t warp, int64_t time,
                 const SourceSpan& span);
  ir::AsyncEvent& at(int32_t index) { return out.events[size_t(index)]; }
  /// Ends the run: events ordered by (CTA, start), stable.
  void finish();

 private:
  struct Key {
    int32_t cta, warp, instr;
    uint8_t kind;
    int64_t occurrence;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const noexcept {
      uint64_t h = (uint64_t(uint32_t(k.warp)) << 32 | uint32_t(k.instr)) * 0x9E3779B97F4A7C15ull;
      h ^= (uint64_t(k.occurrence) << 8 | k.kind) * 0x100000001B3ull;
      return size_t(h ^ (h >> 31) ^ uint64_t(uint32_t(k.cta)));
    }
  };
  bool room();
  std::unordered_map<Key, int32_t, KeyHash> m_open;
  std::vector<uint32_t> m_laneMask;  ///< per event: the lanes merged into it
  std::unordered_map<std::string, int32_t> m_names;
  int64_t m_max = 0;
};

}  // namespace tirx::sim
