// Shared-memory bank counts of a simulated run (spec TC §6.5; the issue's "bank model per
// instruction"): every lane of a thread-level shared access (ld/st.shared tile ops, element loads
// and stores of a shared tile) is filed under its warp instruction — (statement, access in the
// statement, warp, the lane's execution count, repeat) — and once every thread of the CTA has
// stopped (a barrier, a collective, the end) each collected instruction goes through
// sharedAccessWavefronts(); ldmatrix/stmatrix pass their row addresses directly. The sums per
// statement become RunOutcome::sharedAccesses. The warp instructions of the first CTA that touches
// shared memory are also kept lane by lane (up to kSharedSamplesPerWarp per warp and statement)
// for the studio's bank view (core/sim/bank_map.h).
#include <algorithm>
#include <tuple>

#include "core/layout/bank_model.h"
#include "core/sim/sim_internal.h"

namespace tirx::sim {

namespace {

std::string shortName(const ir::Stmt* s, int site, bool store, const std::string& tensor) {
  if (s && s->apply) return s->apply->instr.opcode;
  return std::string(store && site == 0 ? "store " : "load ") + tensor;
}

}  // namespace

int64_t Runner::sharedByte(const ir::TensorRef& r, int64_t m) const {
  const ir::Buffer& b = kernel.buffers[size_t(r.buffer)];
  return sharedOffset[size_t(r.buffer)] + ir::swizzledByte(b, m * ir::dtypeBytes(r.dtype));
}

void Runner::recordShared(const Thread& t, int instr, int site, int64_t rep, int64_t physByte,
                          int width, const ir::TensorRef& ref, bool store) {
  if (!trackShared) return;
  const SharedKey key{instr, site, t.tid / 32, t.execCount.empty() ? 0 : t.execCount[size_t(instr)],
                      rep};
  PendingSharedAccess& p = pendingShared[key];
  p.addr[size_t(t.tid % 32)] = physByte;
  p.lanes |= 1u << (t.tid % 32);
  p.width = width;
  // The first access of a (statement, site) names it.
  auto it = std::find_if(sharedStats.begin(), sharedStats.end(),
                         [&](const SharedStat& s) { return s.instr == instr && s.site == site; });
  if (it == sharedStats.end()) {
    SharedStat s;
    s.instr = instr;
    s.site = site;
    s.count.span = span(instr);
    s.count.tensor = ref.text;
    s.count.op = shortName(code[size_t(instr)].stmt, site, store, ref.text);
    s.count.buffer = ref.buffer;
    s.count.base = ref.buffer >= 0 && size_t(ref.buffer) < sharedOffset.size()
                       ? sharedOffset[size_t(ref.buffer)]
                       : 0;
    sharedStats.push_back(std::move(s));
  }
}

bool Runner::keepSample(SharedStat& s, int64_t warp) {
  if (sampleCta < 0) sampleCta = cta;
  if (cta != sampleCta) return false;
  int& kept = s.sampledPerWarp[warp];
  if (kept >= ir::kSharedSamplesPerWarp) return false;
  ++kept;
  s.count.sampledCta = cta;
  return true;
}

void Runner::recordMatrixAccess(int instr, int64_t warp, int64_t execution, int64_t rep, int buffer,
                                std::span<const int64_t> rows) {
  if (!trackShared) return;
  const BankReport r = matrixAccessWavefronts(rows);
  auto it = std::find_if(sharedStats.begin(), sharedStats.end(),
                         [&](const SharedStat& s) { return s.instr == instr && s.site == 0; });
  if (it == sharedStats.end()) {
    SharedStat s;
    s.instr = instr;
    s.count.span = span(instr);
    const ir::Stmt* st = code[size_t(instr)].stmt;
    s.count.op = st && st->apply ? st->apply->instr.opcode : "ldmatrix";
    if (st && st->apply) {
      const bool load = st->apply->instr.family == PtxFamily::Ldmatrix;
      s.count.tensor = st->apply->operands[load ? 1 : 0].tensor.text;
    }
    s.count.buffer = buffer;
    s.count.base =
        buffer >= 0 && size_t(buffer) < sharedOffset.size() ? sharedOffset[size_t(buffer)] : 0;
    sharedStats.push_back(std::move(s));
    it = sharedStats.end() - 1;
  }
  if (keepSample(*it, warp))
    it->count.samples.push_back(
        {warp, execution, rep, 16, true, std::vector<int64_t>(rows.begin(), rows.end())});
  it->count.instructions += 1;
  it->count.wavefronts += r.wavefronts;
  it->count.idealWavefronts += r.idealWavefronts;
  it->count.maxWays = std::max(it->count.maxWays, r.maxWays);
}

void Runner::flushShared() {
  if (pendingShared.empty()) return;
  for (const auto& [key, p] : pendingShared) {
    std::optional<int64_t> addrs[32];
    for (int l = 0; l < 32; ++l)
      if (p.lanes >> l & 1) addrs[l] = p.addr[size_t(l)];
    const BankReport r =
        sharedAccessWavefronts(std::span<const std::optional<int64_t>>(addrs, 32), p.width);
    for (SharedStat& s : sharedStats)
      if (s.instr == key.instr && s.site == key.site) {
        if (keepSample(s, key.warp)) {
          std::vector<int64_t> lanes(32, -1);
          for (int l = 0; l < 32; ++l)
            if (p.lanes >> l & 1) lanes[size_t(l)] = p.addr[size_t(l)];
          s.count.samples.push_back(
              {key.warp, key.occurrence, key.rep, p.width, false, std::move(lanes)});
        }
        s.count.instructions += 1;
        s.count.wavefronts += r.wavefronts;
        s.count.idealWavefronts += r.idealWavefronts;
        s.count.maxWays = std::max(s.count.maxWays, r.maxWays);
        break;
      }
  }
  pendingShared.clear();
}

std::vector<ir::SharedAccessCount> Runner::sharedCounts() const {
  std::vector<SharedStat> v = sharedStats;
  std::sort(v.begin(), v.end(), [](const SharedStat& a, const SharedStat& b) {
    return a.instr != b.instr ? a.instr < b.instr : a.site < b.site;
  });
  std::vector<ir::SharedAccessCount> out;
  for (SharedStat& s : v) {
    std::sort(s.count.samples.begin(), s.count.samples.end(),
              [](const ir::SharedWarpAccess& a, const ir::SharedWarpAccess& b) {
                return std::tie(a.warp, a.execution, a.repeat) <
                       std::tie(b.warp, b.execution, b.repeat);
              });
    out.push_back(std::move(s.count));
  }
  return out;
}

}  // namespace tirx::sim
