// The tirx version: printed by `tirx --version`, written into kernel bundles, and compared by the
// two ends of a remote run (docs/runner.md, "Stream mode"): a mismatch is refused.
#pragma once

namespace tirx {

inline constexpr const char* kTirxVersion = "0.1.0";

}  // namespace tirx
