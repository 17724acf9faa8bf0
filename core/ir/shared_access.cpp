// Per-line sums of the simulator's shared-memory counts (shared_access.h).
#include "core/ir/shared_access.h"

#include <algorithm>

namespace tirx::ir {

std::vector<SharedLineCount> sharedAccessesByLine(const std::vector<SharedAccessCount>& ops) {
  std::vector<SharedLineCount> out;
  for (const SharedAccessCount& o : ops) {
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const SharedLineCount& l) { return l.line == o.span.line; });
    if (it == out.end()) {
      out.push_back({o.span.line, 0, 0, 0, 0});
      it = out.end() - 1;
    }
    it->instructions += o.instructions;
    it->wavefronts += o.wavefronts;
    it->idealWavefronts += o.idealWavefronts;
    it->maxWays = std::max(it->maxWays, o.maxWays);
  }
  std::sort(out.begin(), out.end(),
            [](const SharedLineCount& a, const SharedLineCount& b) { return a.line < b.line; });
  return out;
}

}  // namespace tirx::ir
