// The verdict of a verify as every dock states it: PASS, FAIL, CANCELLED (a Stop: neither a
// failure nor a fault), did not run, not run yet. A cancelled run keeps the diagnostic the engine
// wrote where it stopped (the work budget's "the run was cancelled"); isStopDiagnostic() tells it
// apart from the run's real faults, so Results, Problems, the editor's fault markers and the status
// bar show a Stop as a Stop.
#pragma once

#include <QString>

#include "views/engine/engine_products.h"

namespace tirx::views {

enum class RunVerdict { NotRun, DidNotRun, Pass, Fail, Cancelled };

/// The verdict of `report` (null: not run yet).
RunVerdict runVerdict(const VerifyProducts* report);
/// "PASS", "FAIL", "CANCELLED", "DID NOT RUN", "NOT RUN".
QString verdictWord(RunVerdict verdict);
/// True for the diagnostic a Stop left in a cancelled run: the budget stop of the simulator
/// (E0740), of the harness (E0807) or of a GPU run (E0953). Always false for a run that was not
/// cancelled (there a budget stop is a real limit the run hit).
bool isStopDiagnostic(const VerifyProducts& report, const Diagnostic& d);

}  // namespace tirx::views
