// runVerdict and isStopDiagnostic: the one place that decides what a run's outcome is called.
#include "views/engine/run_verdict.h"

#include <QObject>

namespace tirx::views {

RunVerdict runVerdict(const VerifyProducts* r) {
  if (!r) return RunVerdict::NotRun;
  if (r->cancelled) return RunVerdict::Cancelled;  // before ran(): a Stop may come before any run
  if (!r->ran()) return RunVerdict::DidNotRun;
  return r->engine.passed() ? RunVerdict::Pass : RunVerdict::Fail;
}

QString verdictWord(RunVerdict v) {
  switch (v) {
    case RunVerdict::Pass:
      return QObject::tr("PASS");
    case RunVerdict::Fail:
      return QObject::tr("FAIL");
    case RunVerdict::Cancelled:
      return QObject::tr("CANCELLED");
    case RunVerdict::DidNotRun:
      return QObject::tr("DID NOT RUN");
    case RunVerdict::NotRun:
      break;
  }
  return QObject::tr("NOT RUN");
}

bool isStopDiagnostic(const VerifyProducts& r, const Diagnostic& d) {
  return r.cancelled && (d.code == "E0740" || d.code == "E0807" || d.code == "E0953");
}

}  // namespace tirx::views
