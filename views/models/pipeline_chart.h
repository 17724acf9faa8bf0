// The Pipeline dock's layout algorithm, separate from painting: one CTA of an engine-recorded
// asynchronous timeline (ir/async_timeline.h) turned into rows and items. Each warp gets a "sync"
// row (its waits as bars, its arrivals, commits, expect_tx and the phase flips it caused as
// markers) and, when it issued copies, a "copies" row whose bars (issue → landing) are packed into
// as many tracks as overlap. Nothing here interprets the script: every label and tooltip comes from
// the event's own facts (ir::describeAsyncEvent).
#pragma once

#include <QString>
#include <cstdint>
#include <vector>

#include "core/ir/async_timeline.h"

namespace tirx::views {

struct PipelineRow {
  QString label;  ///< "warp 1 · sync", "warp 1 · copies"
  int warp = 0;
  bool copies = false;
  int tracks = 1;  ///< bars stacked in this row
};

struct PipelineItem {
  enum class Category { Wait, Copy, Arrive, Phase, Other };
  Category category = Category::Other;
  bool bar = false;  ///< an interval (bar) or an instant (marker)
  int row = 0, track = 0;
  int64_t start = 0, end = 0;
  int event = -1;  ///< index into the timeline's events
  int line = 0;    ///< the statement's script line
  bool unfinished = false;
  QString label;    ///< text drawn inside a bar when it fits ("full[0] p0")
  QString tooltip;  ///< ir::describeAsyncEvent
};

struct PipelineChart {
  std::vector<PipelineRow> rows;
  std::vector<PipelineItem> items;
  int64_t tEnd = 1;  ///< the last time of the CTA (at least 1)
  int cta = 0;
  bool truncated = false;
};

/// The CTAs the timeline has events for, ascending.
std::vector<int> pipelineCtas(const ir::AsyncTimeline& tl);
/// The chart of CTA `cta` (empty rows when it has no events).
PipelineChart buildPipelineChart(const ir::AsyncTimeline& tl, int cta);

}  // namespace tirx::views
