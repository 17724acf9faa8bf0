// The bank model of bank_model.h. Each phase is a small set of (lane, byte address, width)
// accesses; every access covers the 4-byte words it overlaps; per bank, the number of distinct
// words is the wavefronts that bank needs; the phase costs the maximum over banks. A phase touches
// at most 64 words (32 lanes × 2 words of a misaligned ≤ 4-byte access, 8 rows × 5 words of a
// misaligned 16-byte row), so the counting works on a fixed array sorted by (bank, word) and
// allocates only to describe conflicts.
#include "core/layout/bank_model.h"

#include <algorithm>
#include <array>

namespace tirx {

namespace {

struct Touch {
  int bank = 0;
  int64_t word = 0;
  int lane = 0;
};

struct Phase {
  std::array<Touch, 64> touches;
  int count = 0;
  void add(int64_t word, int lane) {
    if (count < static_cast<int>(touches.size()))
      touches[count++] = Touch{bankOfWord(word), word, lane};
  }
};

// Cost of one phase: the distinct words of each bank.
void addPhase(Phase& p, int phase, BankReport& r) {
  if (p.count == 0) return;
  auto* begin = p.touches.data();
  auto* end = begin + p.count;
  std::sort(begin, end, [](const Touch& a, const Touch& b) {
    return a.bank != b.bank ? a.bank < b.bank
                            : (a.word != b.word ? a.word < b.word : a.lane < b.lane);
  });
  int worst = 0;
  for (auto* i = begin; i != end;) {
    auto* j = i;
    int ways = 0;
    for (; j != end && j->bank == i->bank; ++j)
      if (j == i || j->word != (j - 1)->word) ++ways;
    worst = std::max(worst, ways);
    if (ways > 1) {
      BankConflict c;
      c.phase = phase;
      c.bank = i->bank;
      for (auto* k = i; k != j; ++k) {
        if (c.words.empty() || c.words.back() != k->word) c.words.push_back(k->word);
        c.lanes.push_back(k->lane);
      }
      std::sort(c.lanes.begin(), c.lanes.end());
      c.lanes.erase(std::unique(c.lanes.begin(), c.lanes.end()), c.lanes.end());
      r.conflicts.push_back(std::move(c));
    }
    i = j;
  }
  r.wavefronts += worst;
  r.idealWavefronts += 1;
  r.maxWays = std::max(r.maxWays, worst);
}

int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

void touchBytes(int64_t address, int width, int lane, Phase& p) {
  const int64_t first = floorDiv(address, kBankBytes);
  const int64_t last = floorDiv(address + std::max(width, 1) - 1, kBankBytes);
  for (int64_t w = first; w <= last; ++w) p.add(w, lane);
}

}  // namespace

BankReport sharedAccessWavefronts(std::span<const std::optional<int64_t>> addresses,
                                  int widthBytes) {
  BankReport r;
  const int lanes = static_cast<int>(std::min<size_t>(addresses.size(), 32));
  const int width = std::clamp(widthBytes, 1, 16);
  // 128 bytes per wavefront: 32 lanes of ≤ 4 bytes, 16 lanes of 8, 8 lanes of 16.
  const int perPhase = lanesPerPhase(width);
  for (int start = 0, phase = 0; start < lanes; start += perPhase, ++phase) {
    Phase p;
    for (int l = start; l < std::min(lanes, start + perPhase); ++l)
      if (addresses[l]) touchBytes(*addresses[l], width, l, p);
    addPhase(p, phase, r);
  }
  return r;
}

BankReport matrixAccessWavefronts(std::span<const int64_t> rowAddresses) {
  BankReport r;
  const int rows = static_cast<int>(std::min<size_t>(rowAddresses.size(), 32));
  for (int start = 0, phase = 0; start < rows; start += 8, ++phase) {
    Phase p;
    for (int l = start; l < std::min(rows, start + 8); ++l) touchBytes(rowAddresses[l], 16, l, p);
    addPhase(p, phase, r);
  }
  return r;
}

}  // namespace tirx
