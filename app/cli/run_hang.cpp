// `tirx run`'s hang report (run_hang.h): the simulator's own report of a deadlocked or
// budget-stopped run, and the bounded replay on the simulator of a GPU launch that timed out.
#include "app/cli/run_hang.h"

#include <algorithm>

#include "core/driver/host_io.h"
#include "core/sim/simulator.h"

namespace tirx::cli {

nlohmann::json hangJson(const ir::HangReport& hang) {
  if (hang.empty()) return nullptr;
  nlohmann::json waits = nlohmann::json::array();
  for (const ir::HangWait& w : hang.waits)
    waits.push_back({{"kind", w.kind},
                     {"barrier", w.barrier},
                     {"cta", w.cta},
                     {"warps", w.warps},
                     {"threads", w.threads},
                     {"line", w.line},
                     {"col", w.col},
                     {"phase", w.phase},
                     {"parity", w.parity},
                     {"expected_arrivals", w.expectedArrivals},
                     {"arrived", w.arrived},
                     {"expected_tx_bytes", w.expectedTxBytes},
                     {"delivered_tx_bytes", w.deliveredTxBytes},
                     {"outstanding_tx_bytes", w.outstandingTxBytes}});
  return {{"reason", hang.reason},
          {"cta", hang.cta},
          {"waits", waits},
          {"finished_warps", hang.finishedWarps}};
}

ir::HangReport replayOnSimulator(const ir::Program& program, const ir::Kernel& k,
                                 const std::vector<std::pair<std::string, std::string>>& inputs,
                                 const driver::ExecutorContext& base, std::string& note) {
  ir::Program bounded = program;
  ir::Kernel* kernel = nullptr;
  for (ir::Kernel& c : bounded.kernels)
    if (c.name == k.name) kernel = &c;
  if (!kernel) return {};
  // The first CTAs of a static grid (a runtime grid keeps its extent: the budget bounds it).
  ir::LaunchConfig& launch = kernel->launch;
  const bool staticGrid = !launch.gridExprs[0] && !launch.gridExprs[1] && !launch.gridExprs[2];
  const int64_t ctas = launch.ctas();
  if (staticGrid && ctas > kReplayCtas) launch.grid = {std::min(launch.grid[0], kReplayCtas), 1, 1};
  auto args = driver::makeArguments(*kernel, inputs);
  if (!args) {
    note = "not replayed on the simulator: " + args.error().message;
    return {};
  }
  WorkBudget budget(BudgetLimits{kReplayWork, kReplaySeconds});
  driver::ExecutorContext context = base;
  context.budget = &budget;
  context.simProvenance = false;
  auto exec = driver::makeExecutor(driver::DeviceSpec::simulator(), context);
  if (!exec) {
    note = "not replayed on the simulator: " + exec.error().message;
    return {};
  }
  auto r = (*exec)->run(bounded, kernel->name, *args);
  note = "replayed on the simulator (" +
         (staticGrid ? std::to_string(launch.ctas()) + " of " + std::to_string(ctas) + " CTAs"
                     : std::string("a runtime grid")) +
         ", budget " + std::to_string(kReplayWork) + " work units)";
  if (!r) {
    note += ": " + r.error().text();
    return {};
  }
  if (r->hang.empty())
    note += ": it finished there, so the hang is not in the first CTAs' barriers";
  return r->hang;
}

void reportHang(const ir::RunOutcome& res, const driver::DeviceSpec& device,
                const ir::Program& program, const ir::Kernel& k,
                const std::vector<std::pair<std::string, std::string>>& inputs,
                const driver::ExecutorContext& context, const std::string& path, bool json,
                nlohmann::json& run, std::ostream& out) {
  ir::HangReport hang = res.hang;
  std::string note;
  const bool timedOut = std::any_of(res.faults.begin(), res.faults.end(),
                                    [](const ir::Fault& f) { return f.kind == "timeout"; });
  if (hang.empty() && timedOut && !device.isSim())
    hang = replayOnSimulator(program, k, inputs, context, note);
  if (hang.empty() && note.empty()) return;
  run["hang"] = hangJson(hang);
  if (!note.empty()) run["hang_replay"] = note;
  if (json) return;
  if (!note.empty()) out << "  " << note << "\n";
  const std::string text = sim::hangReportText(hang, path);
  size_t start = 0;
  while (start < text.size()) {  // indented under the run's line
    const size_t end = text.find('\n', start);
    out << "  " << text.substr(start, end - start) << "\n";
    start = end == std::string::npos ? text.size() : end + 1;
  }
}

}  // namespace tirx::cli
