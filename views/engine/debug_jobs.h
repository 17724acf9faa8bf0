// The Debugger dock's engine work as value jobs for the job runner (never on the GUI thread):
// starting a debug session (the recording: one verify on the simulator, cancellable by Stop) and
// moving it (step, continue to a breakpoint, run to a line), each answering with the stop and the
// selected tile's values already laid out on a LayoutGridModel (prepared on the worker, values
// painted by colour). The session lives in a DebugHandle shared with the jobs; its mutex makes each
// job's use exclusive.
#pragma once

#include <QString>
#include <QStringList>
#include <memory>
#include <mutex>
#include <vector>

#include "core/debug/debug_session.h"
#include "views/models/layout_grid_model.h"

namespace tirx::views {

struct DebugHandle {
  std::mutex mutex;
  std::unique_ptr<debug::DebugSession> session;
  /// The start's warnings (W0844 where the recording stopped): every later view repeats them.
  QString startWarnings;
};

enum class DebugAction { Show, GoTo, Continue, ReverseContinue, RunToLine };

struct DebugRequest {
  DebugAction action = DebugAction::Show;
  int64_t target = 0;  ///< GoTo: the step
  int line = 0;        ///< RunToLine
  std::string buffer;  ///< the tile to show (empty: keep the default)
  std::vector<debug::Breakpoint> breakpoints;
  // The start's choices (debug::DebugOptions): which launch is recorded, the focus, the bounds.
  std::string kernel;  ///< empty: the first kernel the script launches
  int launch = 0;      ///< which launch of it (0: the first)
  int64_t cta = 0, thread = 0;
  int64_t firstStep = 0;  ///< record from this step on
  double traceMib = 256;  ///< the recording's limit in MiB (W0844 past it)
};

/// What the dock shows after a job.
struct DebugView {
  bool ok = false;
  QString message;  ///< errors and warnings of the start or of the breakpoints, one per line
  QString kernel;   ///< the recorded kernel (the script's first launched one when none was chosen)
  int launch = 0;   ///< which launch of it
  debug::Stop stop;
  int64_t steps = 0, first = 0, last = 0;
  bool truncated = false;
  bool hit = false;  ///< Continue / RunToLine found its stop
  QStringList buffers;
  QString buffer;  ///< the tile shown
  QString summary;  ///< "acc (local float32, 4 × 1 × 8 × 16 × 8): min … max …, 0 uninit, …"
  LayoutGridModel grid;
};

struct DebugStartResult {
  std::shared_ptr<DebugHandle> handle;  ///< null when the start failed (view.message says why)
  DebugView view;
};

/// Starts a session on `source` (worker thread) with the start's choices of `request` (kernel,
/// launch, focus, first step, trace limit). `request.buffer` empty picks the first register tile
/// that is stored to a checked output, else the first register tile.
DebugStartResult startDebugSession(const std::string& source, const std::string& fileName, int sm,
                                   const DebugRequest& request, const CancelTokenPtr& cancel);
/// Applies `request` to the session (worker thread).
DebugView runDebugRequest(DebugHandle& handle, const DebugRequest& request,
                          const CancelToken* cancel);

}  // namespace tirx::views
