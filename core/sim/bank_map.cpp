// warpBankMap: the simulator's sampled lane addresses of one warp mapped back onto the elements of
// the shared buffer and grouped by the bank model's phases (rules in bank_map.h).
#include "core/sim/bank_map.h"

#include <algorithm>
#include <map>

#include "core/ir/shared_memory.h"
#include "core/layout/bank_model.h"
#include "core/layout/compiled_layout.h"

namespace tirx::sim {
namespace {

constexpr int64_t kMaxElements = int64_t(1) << 20;

int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// Per physical byte of the buffer (after the swizzle): the element that holds it, −1 for padding.
std::vector<int32_t> byteOwners(const ir::Buffer& b, int64_t elements) {
  const int eb = std::max(1, ir::dtypeBytes(b.dtype));
  std::vector<int32_t> owner(size_t(std::max<int64_t>(0, ir::sharedBufferBytes(b))), -1);
  const CompiledLayout layout(b.layout);
  for (int64_t f = 0; f < elements; ++f) {
    const int64_t byte = ir::swizzledByte(b, layout.applyFlat(f).m * eb);
    for (int64_t k = 0; k < eb; ++k)
      if (byte + k >= 0 && byte + k < int64_t(owner.size())) owner[size_t(byte + k)] = int32_t(f);
  }
  return owner;
}

/// One lane's access of an instruction.
struct Access {
  int lane = 0;
  int phase = 0;
  int64_t address = 0;
  int width = 4;
};

}  // namespace

std::vector<int64_t> sampledWarps(const ir::SharedAccessCount& count) {
  std::vector<int64_t> out;
  for (const ir::SharedWarpAccess& s : count.samples) out.push_back(s.warp);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

WarpBankMap warpBankMap(const ir::Kernel& kernel, const ir::SharedAccessCount& count,
                        int64_t warp) {
  WarpBankMap out;
  if (count.buffer < 0 || size_t(count.buffer) >= kernel.buffers.size()) {
    out.why = "the statement's shared buffer is not known";
    return out;
  }
  const ir::Buffer& b = kernel.buffers[size_t(count.buffer)];
  int64_t elements = 1;
  for (int64_t d : b.shape)
    if (d <= 0 || __builtin_mul_overflow(elements, d, &elements) || elements > kMaxElements) {
      out.why = "'" + b.name + "' has more than 2^20 elements";
      return out;
    }
  for (size_t i = 0; i < count.samples.size(); ++i)
    if (count.samples[i].warp == warp) out.samples.push_back(static_cast<int>(i));
  if (out.samples.empty()) {
    out.why = "no instruction of warp " + std::to_string(warp) + " was recorded";
    return out;
  }
  out.truncated = out.samples.size() >= size_t(ir::kSharedSamplesPerWarp);
  const std::vector<int32_t> owner = byteOwners(b, elements);
  auto elementAt = [&](int64_t address) -> int64_t {
    const int64_t rel = address - count.base;
    return rel >= 0 && rel < int64_t(owner.size()) ? owner[size_t(rel)] : -1;
  };

  for (int sample : out.samples) {
    const ir::SharedWarpAccess& s = count.samples[size_t(sample)];
    // the lanes' accesses and their phases, as the bank model groups them
    std::vector<Access> accesses;
    const int perPhase = s.matrix ? 8 : lanesPerPhase(s.width);
    for (size_t l = 0; l < s.addresses.size() && l < 32; ++l)
      if (s.addresses[l] >= 0)
        accesses.push_back({int(l), int(l) / perPhase, s.addresses[l],
                            s.matrix ? 16 : std::clamp(s.width, 1, 16)});
    // the totals, exactly as the simulator counted this instruction
    BankReport report;
    if (s.matrix) {
      report = matrixAccessWavefronts(s.addresses);
    } else {
      std::vector<std::optional<int64_t>> lanes(s.addresses.size());
      for (size_t l = 0; l < s.addresses.size(); ++l)
        if (s.addresses[l] >= 0) lanes[l] = s.addresses[l];
      report = sharedAccessWavefronts(lanes, s.width);
    }
    out.wavefronts += report.wavefronts;
    out.idealWavefronts += report.idealWavefronts;
    out.maxWays = std::max(out.maxWays, report.maxWays);

    // per phase: the distinct words of every bank, and the elements on every word
    const int phases = accesses.empty() ? 0 : accesses.back().phase + 1;
    // bank → its words
    std::vector<std::map<int, std::vector<int64_t>>> bankWords(static_cast<size_t>(phases));
    std::vector<std::map<int64_t, std::vector<int64_t>>> wordElements(static_cast<size_t>(phases));
    for (const Access& a : accesses)
      for (int64_t w = floorDiv(a.address, kBankBytes);
           w <= floorDiv(a.address + a.width - 1, kBankBytes); ++w) {
        std::vector<int64_t>& words = bankWords[size_t(a.phase)][bankOfWord(w)];
        if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
        std::vector<int64_t>& elems = wordElements[size_t(a.phase)][w];
        for (int64_t byte = std::max(a.address, w * kBankBytes);
             byte < std::min(a.address + a.width, (w + 1) * kBankBytes); ++byte) {
          const int64_t e = elementAt(byte);
          if (e >= 0 && std::find(elems.begin(), elems.end(), e) == elems.end()) elems.push_back(e);
        }
      }
    std::vector<int> phaseStart(size_t(phases) + 1, 0);
    for (int p = 0; p < phases; ++p) {
      size_t worst = 0;
      for (auto& [bank, words] : bankWords[size_t(p)]) {
        std::sort(words.begin(), words.end());
        worst = std::max(worst, words.size());
      }
      phaseStart[size_t(p) + 1] = phaseStart[size_t(p)] + static_cast<int>(worst);
    }

    // one cell per element the instruction touches: its first byte's word decides
    std::map<int64_t, BankCell> cells;
    for (const Access& a : accesses)
      for (int64_t byte = a.address; byte < a.address + a.width; ++byte) {
        const int64_t e = elementAt(byte);
        if (e < 0 || cells.count(e)) continue;
        const int64_t word = floorDiv(byte, kBankBytes);
        BankCell c;
        c.element = e;
        c.sample = sample;
        c.lane = a.lane;
        c.byte = byte - count.base;
        c.bank = bankOfWord(word);
        c.phase = a.phase;
        const std::vector<int64_t>& words = bankWords[size_t(a.phase)][c.bank];
        c.ways = static_cast<int>(words.size());
        c.wavefront = phaseStart[size_t(a.phase)] +
                      static_cast<int>(std::find(words.begin(), words.end(), word) - words.begin());
        for (int64_t other : words)
          if (other != word)
            for (int64_t pe : wordElements[size_t(a.phase)][other]) c.partners.push_back(pe);
        std::sort(c.partners.begin(), c.partners.end());
        c.partners.erase(std::unique(c.partners.begin(), c.partners.end()), c.partners.end());
        cells.emplace(e, std::move(c));
      }
    for (auto& [e, c] : cells) out.cells.push_back(std::move(c));
  }
  return out;
}

}  // namespace tirx::sim
