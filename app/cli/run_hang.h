// The hang report of `tirx run` (core/sim/hang_report.cpp's ir::HangReport): printed after a run
// that the simulator found deadlocked or out of budget, and, when a GPU run timed out, made by
// replaying the same launch on the simulator, bounded (the first CTAs, a work budget and a time
// limit), so that a hung GPU kernel still gets "which warps wait at which barrier, at which line".
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/driver/device.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"

namespace tirx::cli {

/// CTAs the replay of a timed-out GPU launch runs, and its work budget and seconds.
inline constexpr int64_t kReplayCtas = 4;
inline constexpr int64_t kReplayWork = 200'000'000;
inline constexpr double kReplaySeconds = 30;

/// The report as JSON (snake_case keys: reason, cta, waits[{kind, barrier, warps, threads, line,
/// col, phase, parity, expected_arrivals, arrived, expected_tx_bytes, delivered_tx_bytes,
/// outstanding_tx_bytes}], finished_warps); null for an empty report.
nlohmann::json hangJson(const ir::HangReport& hang);

/// Replays kernel `k` of `program` on the simulator with the same inputs, at most kReplayCtas CTAs
/// of a static grid, under its own bounded budget; its hang report (empty when the replay
/// finished: the hang is the GPU's alone). `note` says what was replayed.
ir::HangReport replayOnSimulator(const ir::Program& program, const ir::Kernel& k,
                                 const std::vector<std::pair<std::string, std::string>>& inputs,
                                 const driver::ExecutorContext& base, std::string& note);

/// `tirx run`'s part: the outcome's own hang report, or, after a GPU timeout, the replay's;
/// printed as text on `out` (unless `json`) and stored as `run["hang"]`.
void reportHang(const ir::RunOutcome& res, const driver::DeviceSpec& device,
                const ir::Program& program, const ir::Kernel& k,
                const std::vector<std::pair<std::string, std::string>>& inputs,
                const driver::ExecutorContext& context, const std::string& path, bool json,
                nlohmann::json& run, std::ostream& out);

}  // namespace tirx::cli
