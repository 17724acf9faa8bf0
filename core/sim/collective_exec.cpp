// Warp collectives in the simulator (spec/TIRX-TENSOR-CORES.md §6.5, §7.5, §10, §12.3). A thread
// that reaches a collective statement stops there, like at a barrier; once every thread of the CTA
// has stopped, releaseCollectives() looks at each warp:
//   - ldmatrix, stmatrix, mma.sync and the shfl/redux tile ops need all 32 lanes of the warp at
//     the same statement; the warp then executes it once: every source of every lane is gathered
//     first (shared rows from the address-provider lanes, fragment registers by the maps of
//     core/ptx/fragments.h), computed, then scattered — so D may alias C, and a source may be a
//     destination;
//   - the `__shfl_*_sync` intrinsics wait for the lanes their membermask names (lanes that have
//     finished do not count, as in PTX); lanes with different masks form separate groups;
//   - a warp whose waiting collective cannot complete is a fault naming both places: a divergent
//     collective (E0780, lanes at different statements), a partial warp (E0781, lanes that finished
//     or were never launched), a lane outside its own membermask or reading a lane that does not
//     take part (E0784). Row addresses of ldmatrix/stmatrix must be 16-byte aligned (E0782); a
//     fragment register read before anything wrote it is E0783, with the tensor's declaration.
// mma.sync multiplies f16/bf16 inputs exactly in f32 and accumulates in f32 in K order, starting
// from C (docs/simulator.md, "Warp collectives": the tolerance against the GPU).
#include <algorithm>
#include <array>
#include <cstring>

#include "core/ir/half.h"
#include "core/layout/bank_model.h"
#include "core/ptx/fragments.h"
#include "core/sim/sim_internal.h"

namespace tirx::sim {

namespace {

std::string laneList(uint32_t mask) {
  std::string out;
  int i = 0;
  while (i < 32) {
    if (!(mask >> i & 1)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < 32 && (mask >> (j + 1) & 1)) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(i) + (j > i ? "-" + std::to_string(j) : "");
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

float halfToFloat(uint16_t h, bool bf16) {
  if (!bf16) return ir::halfBitsToFloat(h);
  const uint32_t b = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

bool isShuffleIntrinsic(const ir::Stmt& s) {
  return s.kind == ir::StmtKind::Assign && s.value && s.value->kind == ir::ExprKind::Intrinsic &&
         s.value->name.rfind("__shfl", 0) == 0;
}

}  // namespace

bool isCollectiveStmt(const ir::Stmt& s) {
  if (s.kind == ir::StmtKind::Apply && s.apply) return s.apply->instr.isCollective();
  return isShuffleIntrinsic(s);
}

std::string Runner::opName(int pc) const {
  const ir::Stmt* s = code[pc].stmt;
  if (s && s->apply) return s->apply->instr.opcode;
  if (s && s->wgmma) return s->wgmma->instr.opcode;
  if (s && s->kind == ir::StmtKind::Barrier)
    return s->barrier == "bar_sync"     ? "T.ptx.bar.sync"
           : s->barrier == "bar_arrive" ? "T.ptx.bar.arrive"
                                        : "T.cuda." + s->barrier;
  if (s && s->value && s->value->kind == ir::ExprKind::Intrinsic) return s->value->name;
  return "the collective";
}

// ---- readiness -------------------------------------------------------------------------------

bool Runner::releaseCollectives(std::vector<Thread>& threads) {
  const int64_t n = static_cast<int64_t>(threads.size());
  bool released = false;
  for (int64_t w = 0; w * 32 < n && !fatal; ++w) {
    Thread* lanes[32] = {};
    uint32_t exists = 0, done = 0, atColl = 0;
    for (int l = 0; l < 32; ++l) {
      const int64_t tid = w * 32 + l;
      if (tid >= n) continue;
      lanes[l] = &threads[tid];
      exists |= 1u << l;
      const Thread& t = *lanes[l];
      if (t.state == ThreadState::Done)
        done |= 1u << l;
      else if (t.state == ThreadState::Waiting && code[t.pc].op == Op::Collective)
        atColl |= 1u << l;
    }
    if (!atColl) continue;
    // Mask-driven shuffles: group the waiting lanes by (statement, membermask).
    bool ranHere = false;
    uint32_t pending = atColl;
    while (pending && !fatal) {
      const int first = __builtin_ctz(pending);
      const int pc = lanes[first]->pc;
      const ir::Stmt& st = *code[pc].stmt;
      uint32_t group = 0;
      for (int l = 0; l < 32; ++l)
        if ((atColl >> l & 1) && lanes[l]->pc == pc) group |= 1u << l;
      pending &= ~group;
      if (isShuffleIntrinsic(st)) {
        // Every lane states its own mask; lanes with equal masks form one instruction.
        std::array<uint32_t, 32> mask{};
        for (int l = 0; l < 32; ++l)
          if (group >> l & 1)
            mask[l] =
                static_cast<uint32_t>(eval(*st.value->args[0], *lanes[l], lanes[l]->vars, pc).i);
        uint32_t left = group;
        while (left && !fatal) {
          const int a = __builtin_ctz(left);
          uint32_t same = 0;
          for (int l = 0; l < 32; ++l)
            if ((left >> l & 1) && mask[l] == mask[a]) same |= 1u << l;
          left &= ~same;
          const uint32_t need = mask[a] & exists & ~done;  // finished lanes do not count (PTX)
          if ((need & ~same) == 0) {
            if (!(mask[a] >> a & 1) || (same & ~mask[a])) {
              const int bad = __builtin_ctz(same & ~mask[a]);
              fault("collective", "E0784", pc,
                    "lane " + std::to_string(bad) + " of warp " + std::to_string(w) + " executes " +
                        opName(pc) + " with membermask 0x" + hex32(mask[a]) +
                        ", which does not include it (cta " + std::to_string(cta) + ")",
                    true);
              return released;
            }
            execShuffleIntrinsic(st, pc, lanes, same, w);
            if (releasedPc < 0) releasedPc = pc;
            releasedLanes += __builtin_popcount(same);
            syncClocks(lanes, same);
            for (int l = 0; l < 32; ++l)
              if (same >> l & 1) {
                lanes[l]->state = ThreadState::Running;
                ++lanes[l]->pc;
              }
            ranHere = released = true;
          }
        }
        continue;
      }
      // ldmatrix, stmatrix, mma.sync, shfl/redux tile ops: the whole warp.
      if (group == 0xffffffffu) {
        const ir::TileApply& a = *st.apply;
        if (!a.atomRank.empty())
          execMatrix(a, pc, lanes, w);
        else
          execLaneCollective(a, pc, lanes, w);
        if (releasedPc < 0) releasedPc = pc;
        releasedLanes += 32;
        syncClocks(lanes, group);
        for (int l = 0; l < 32; ++l) {
          lanes[l]->state = ThreadState::Running;
          ++lanes[l]->pc;
        }
        ranHere = released = true;
      }
    }
    if (ranHere || fatal) continue;
    // Nothing of this warp can run: every lane has stopped, and the lanes at a collective wait for
    // lanes that are elsewhere, finished, or were never launched.
    const int first = __builtin_ctz(atColl);
    const int pc = lanes[first]->pc;
    const uint32_t here = [&] {
      uint32_t m = 0;
      for (int l = 0; l < 32; ++l)
        if ((atColl >> l & 1) && lanes[l]->pc == pc) m |= 1u << l;
      return m;
    }();
    uint32_t elsewhere = exists & ~done & ~here;
    // A lane stopped at an mbarrier wait may still come: the scheduler decides (deadlock E0732).
    bool laterLane = false;
    for (int l = 0; l < 32; ++l)
      if ((elsewhere >> l & 1) && waitsOnBarrier(*lanes[l])) laterLane = true;
    if (laterLane) continue;
    std::vector<DiagNote> notes;
    if (elsewhere) {
      const int o = __builtin_ctz(elsewhere);
      const int opc = lanes[o]->pc;
      uint32_t same = 0;
      for (int l = 0; l < 32; ++l)
        if ((elsewhere >> l & 1) && lanes[l]->pc == opc) same |= 1u << l;
      notes.push_back({span(opc), "lanes " + laneList(same) + " wait here instead"});
      fault("collective", "E0780", pc,
            "divergent warp collective: lanes " + laneList(here) + " of warp " + std::to_string(w) +
                " (cta " + std::to_string(cta) + ") wait at " + opName(pc) + " but lanes " +
                laneList(elsewhere) + " are elsewhere",
            true, notes);
    } else {
      const uint32_t missing = ~exists;
      std::string why =
          (done & ~here) ? "lanes " + laneList(done & ~here) + " have finished" : std::string();
      if (missing)
        why += (why.empty() ? "" : " and ") + std::string("lanes ") + laneList(missing) +
               " are not launched (block of " + std::to_string(n) + " threads)";
      if (isShuffleIntrinsic(*code[pc].stmt))
        why = "the lanes named by the membermask never arrive: " + why;
      notes.push_back({kernel.launchSpan, "the launch is here"});
      fault("collective", "E0781", pc,
            opName(pc) + " executed by a partial warp: lanes " + laneList(here) + " of warp " +
                std::to_string(w) + " (cta " + std::to_string(cta) + ") arrived, but " + why,
            true, notes);
    }
    return released;
  }
  return released;
}

// ---- ldmatrix / stmatrix / mma.sync -----------------------------------------------------------

bool Runner::collectiveElem(const ir::TileApply& a, int i, const int64_t* own, const int64_t* atom,
                            Thread& t, int pc, Resolved& out) {
  const ir::TileOperand& op = a.operands[size_t(i)];
  int64_t c[ir::kMaxTensorRank];
  int k = 0;
  if (!a.group.empty())
    c[k++] = a.scope == ir::ExecScope::Warpgroup ? (t.tid / 32) % 4 : t.tid / 32;
  for (size_t d = 0; d < a.repeatAxes[size_t(i)].size(); ++d) c[k++] = own[d];
  for (int d = 0; d < a.atomRank[size_t(i)]; ++d) c[k++] = atom[d];
  const FastRef& f = fast(op.tensor);
  if (!resolve(f, c, k, t, pc, out)) return false;
  if (op.tensor.scope == ir::MemScope::Local && f.hasThread &&
      out.thread != scopeOwner(a.scope, t.tid)) {
    fault("ownership", "E0752", pc,
          "fragment '" + op.tensor.text + "' of " + a.instr.opcode +
              ": an element the instruction gives " + threadName(cta, t.tid) +
              " belongs to thread " + std::to_string(out.thread),
          true);
    return false;
  }
  return true;
}

bool Runner::readFragment(const ir::TileApply& a, int i, int64_t m, Thread& t, int pc, int reg,
                          uint32_t& word) {
  const ir::TensorRef& ref = a.operands[size_t(i)].tensor;
  const size_t b = size_t(ref.buffer);
  const int64_t off = m * ir::dtypeBytes(ref.dtype);
  const auto& bytes = t.regs[b];
  if (off < 0 || off + 4 > static_cast<int64_t>(bytes.size())) {
    fault("oob", "E0712", pc,
          "register slot " + std::to_string(m) + " of '" + ref.text + "' is outside its array in " +
              threadName(cta, t.tid),
          true);
    return false;
  }
  if (wgmmaUsed) wgmmaRegisterAccess(t, int(b), off, 4, pc, false);
  const auto& w = t.regWriter[b];
  if (w[size_t(off)] == 0 || w[size_t(off + 1)] == 0 || w[size_t(off + 2)] == 0 ||
      w[size_t(off + 3)] == 0) {
    const ir::Buffer& buf = kernel.buffers[b];
    const std::string name =
        a.instr.family == PtxFamily::Mma ? std::string(1, "dabc"[i]) : std::string("register");
    fault("uninit", "E0783", pc,
          a.instr.opcode + " reads fragment '" + ref.text + "' (" + name + " register " +
              std::to_string(reg) + ", slot " + std::to_string(m) + ") of " +
              threadName(cta, t.tid) + " before anything wrote it",
          false,
          {{buf.span, "'" + buf.name +
                          "' is declared here; no statement before this one wrote that register"}});
  }
  std::memcpy(&word, bytes.data() + off, 4);
  return true;
}

bool Runner::writeFragment(const ir::TileApply& a, int i, int64_t m, Thread& t, int pc,
                           const void* word) {
  const ir::TensorRef& ref = a.operands[size_t(i)].tensor;
  const size_t b = size_t(ref.buffer);
  const int64_t off = m * ir::dtypeBytes(ref.dtype);
  auto& bytes = t.regs[b];
  if (off < 0 || off + 4 > static_cast<int64_t>(bytes.size())) {
    fault("oob", "E0712", pc,
          "register slot " + std::to_string(m) + " of '" + ref.text + "' is outside its array in " +
              threadName(cta, t.tid),
          true);
    return false;
  }
  if (wgmmaUsed) wgmmaRegisterAccess(t, int(b), off, 4, pc, true);
  std::memcpy(bytes.data() + off, word, 4);
  auto& w = t.regWriter[b];
  for (int k = 0; k < 4; ++k) w[size_t(off + k)] = pc + 1;
  return true;
}

namespace {
/// The atom coordinate of register `reg` of `lane` (ldmatrix/stmatrix: (matrix, row, word)).
void fragAtom(const PtxInstruction& in, int i, int lane, int reg, int64_t* at) {
  if (in.family == PtxFamily::Mma) {
    const frag::MmaShape shape = in.mmaK == 16 ? frag::MmaShape::M16N8K16 : frag::MmaShape::M16N8K8;
    const frag::MmaOperand which = i == 1   ? frag::MmaOperand::A
                                   : i == 2 ? frag::MmaOperand::B
                                            : frag::MmaOperand::C;
    const frag::Coord c = frag::mmaWord(shape, which, lane, reg);
    at[0] = c.row;
    at[1] = c.col;
  } else {
    at[0] = reg;
    at[1] = lane / 4;
    at[2] = lane % 4;
  }
}
int fragRegs(const PtxInstruction& in, int i) {
  if (in.family != PtxFamily::Mma) return in.matrices;
  return i == 1 ? in.mmaK / 4 : i == 2 ? in.mmaK / 8 : 4;
}
}  // namespace

bool Runner::planCollective(const ir::TileApply& a, int pc, Thread& ctx, CollectivePlan& plan) {
  // Static operands are resolved once for every warp, repeat, lane and register: the slot (or
  // shared offset) of each, with the fragment ownership checked for every lane.
  const int n = static_cast<int>(a.operands.size());
  plan.warps = a.group.empty() ? 1 : a.group[0];
  plan.reps.assign(size_t(n), 1);
  plan.per.assign(size_t(n), 0);
  plan.m.assign(size_t(n), {});
  for (int i = 0; i < n; ++i) {
    const ir::TileOperand& op = a.operands[size_t(i)];
    for (int ax : a.repeatAxes[size_t(i)]) plan.reps[size_t(i)] *= a.repeat[size_t(ax)];
    const bool shared = op.tensor.scope == ir::MemScope::Shared;
    plan.per[size_t(i)] = shared ? 8 * a.instr.matrices : 32 * fragRegs(a.instr, i);
    if (op.tensor.hasDynamicOffset()) continue;  // resolved per use, in the providing lane
    const FastRef& f = fast(op.tensor);
    std::vector<int64_t>& out = plan.m[size_t(i)];
    out.resize(size_t(plan.warps * plan.reps[size_t(i)] * plan.per[size_t(i)]));
    const std::vector<int>& axes = a.repeatAxes[size_t(i)];
    std::vector<int64_t> ownExt;
    for (int ax : axes) ownExt.push_back(a.repeat[size_t(ax)]);
    size_t e = 0;
    for (int64_t w = 0; w < plan.warps; ++w)
      for (int64_t r = 0; r < plan.reps[size_t(i)]; ++r) {
        const std::vector<int64_t> own = unflatten(r, ownExt);
        for (int64_t k = 0; k < plan.per[size_t(i)]; ++k, ++e) {
          int64_t c[ir::kMaxTensorRank];
          int d = 0;
          if (!a.group.empty()) c[d++] = w;
          for (int64_t x : own) c[d++] = x;
          int64_t at[3] = {0, 0, 0};
          const int lane = shared ? 0 : int(k / fragRegs(a.instr, i)),
                    reg = shared ? 0 : int(k % fragRegs(a.instr, i));
          if (shared) {
            at[0] = k / 8;
            at[1] = k % 8;
          } else {
            fragAtom(a.instr, i, lane, reg, at);
          }
          for (int x = 0; x < a.atomRank[size_t(i)]; ++x) c[d++] = at[x];
          Resolved res;
          if (!resolve(f, c, d, ctx, pc, res)) return false;
          const int64_t tid = w * 32 + lane;
          if (!shared && f.hasThread && res.thread != scopeOwner(a.scope, tid)) {
            fault("ownership", "E0752", pc,
                  "fragment '" + op.tensor.text + "' of " + a.instr.opcode + ": register " +
                      std::to_string(reg) + " of lane " + std::to_string(lane) +
                      (a.group.empty() ? std::string() : " of warp " + std::to_string(w)) +
                      " belongs to thread " + std::to_string(res.thread),
                  true);
            return false;
          }
          out[e] = res.m;
        }
      }
  }
  plan.built = true;
  return true;
}

namespace {
/// Word j of an mma fragment into the f32 matrices: A and B hold two 16-bit halves per word
/// (B as (n, k-word)), C one f32.
void unpackMmaWord(int operand, frag::Coord c, uint32_t wv, bool bf16, float (&A)[16][16],
                   float (&B)[16][8], float (&C)[16][8]) {
  if (operand == 1) {
    A[c.row][2 * c.col] = halfToFloat(uint16_t(wv), bf16);
    A[c.row][2 * c.col + 1] = halfToFloat(uint16_t(wv >> 16), bf16);
  } else if (operand == 2) {
    B[2 * c.col][c.row] = halfToFloat(uint16_t(wv), bf16);
    B[2 * c.col + 1][c.row] = halfToFloat(uint16_t(wv >> 16), bf16);
  } else {
    std::memcpy(&C[c.row][c.col], &wv, 4);
  }
}

/// The (row, col) of 16-bit half `half` of lane `l`'s word in an 8x8 matrix of ldmatrix /
/// stmatrix (the ISA's map): plain M[l/4][2(l%4) + half], .trans M[2(l%4) + half][l/4].
std::pair<int, int> matrixCell(int l, int half, bool trans) {
  const int r = l / 4, c = 2 * (l % 4) + half;
  return trans ? std::pair{c, r} : std::pair{r, c};
}

/// D = A·B + C: products of two f16/bf16 values are exact in f32; the sum runs in f32 in K
/// order starting from C (the simulator is compiled without FP contraction).
void mmaAccumulate(const float (&A)[16][16], const float (&B)[16][8], float (&C)[16][8], int k) {
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      float acc = C[i][j];
      for (int kk = 0; kk < k; ++kk) {
        const float p = A[i][kk] * B[kk][j];
        acc = acc + p;
      }
      C[i][j] = acc;
    }
}
}  // namespace

void Runner::execMatrix(const ir::TileApply& a, int pc, Thread* const* lanes, int64_t warp) {
  const PtxInstruction& in = a.instr;
  CollectivePlan& plan = collectivePlans[&a];
  if (!plan.built && !planCollective(a, pc, *lanes[0], plan)) return;
  const int64_t w = a.group.empty() ? 0 : a.scope == ir::ExecScope::Warpgroup ? warp % 4 : warp;
  const int64_t nRep = product(a.repeat);
  std::vector<int64_t> rc(a.repeat.size(), 0);
  // The offset of entry k of operand i at this repeat, in lane `t`: planned, or resolved now.
  auto offsetOf = [&](int i, int64_t k, Thread& t, int64_t& m) -> bool {
    int64_t ownFlat = 0;
    for (int ax : a.repeatAxes[size_t(i)])
      ownFlat = ownFlat * a.repeat[size_t(ax)] + rc[size_t(ax)];
    const auto& tab = plan.m[size_t(i)];
    if (!tab.empty()) {
      m = tab[size_t((w * plan.reps[size_t(i)] + ownFlat) * plan.per[size_t(i)] + k)];
      return true;
    }
    int64_t own[ir::kMaxTensorRank], at[3] = {0, 0, 0};
    for (size_t d = 0; d < a.repeatAxes[size_t(i)].size(); ++d)
      own[d] = rc[size_t(a.repeatAxes[size_t(i)][d])];
    if (a.operands[size_t(i)].tensor.scope == ir::MemScope::Shared) {
      at[0] = k / 8;
      at[1] = k % 8;
    } else {
      const int regs = fragRegs(in, i);
      fragAtom(in, i, int(k / regs), int(k % regs), at);
    }
    Resolved res;
    if (!collectiveElem(a, i, own, at, t, pc, res)) return false;
    m = res.m;
    return true;
  };
  for (int64_t r = 0; r < nRep && !fatal; ++r) {
    int64_t x = r;
    for (size_t d = a.repeat.size(); d-- > 0;) {
      rc[d] = x % a.repeat[d];
      x /= a.repeat[d];
    }
    if (in.family == PtxFamily::Mma) {
      const int k = in.mmaK;
      if (!charge(16 * 8 * k, *lanes[0], pc)) return;
      const bool bf16 = in.abType == ".bf16";
      const frag::MmaShape shape = k == 16 ? frag::MmaShape::M16N8K16 : frag::MmaShape::M16N8K8;
      float A[16][16], B[16][8], C[16][8];
      for (int l = 0; l < 32 && !fatal; ++l) {
        Thread& t = *lanes[l];
        for (int i = 1; i <= 3; ++i) {
          const int regs = fragRegs(in, i);
          for (int j = 0; j < regs; ++j) {
            int64_t m = 0;
            uint32_t wv = 0;
            if (!offsetOf(i, l * regs + j, t, m) || !readFragment(a, i, m, t, pc, j, wv)) return;
            const frag::Coord c = frag::mmaWord(shape,
                                                i == 1   ? frag::MmaOperand::A
                                                : i == 2 ? frag::MmaOperand::B
                                                         : frag::MmaOperand::C,
                                                l, j);
            unpackMmaWord(i, c, wv, bf16, A, B, C);
          }
        }
      }
      if (fatal) return;
      mmaAccumulate(A, B, C, k);
      for (int l = 0; l < 32 && !fatal; ++l)
        for (int j = 0; j < 4; ++j) {
          const frag::Coord c = frag::mmaWord(shape, frag::MmaOperand::C, l, j);
          int64_t m = 0;
          if (!offsetOf(0, l * 4 + j, *lanes[l], m) ||
              !writeFragment(a, 0, m, *lanes[l], pc, &C[c.row][c.col]))
            return;
        }
      elementOps += 16 * 8 * k;
      continue;
    }
    // ldmatrix / stmatrix
    const bool load = in.family == PtxFamily::Ldmatrix;
    const int memI = load ? 1 : 0, regI = load ? 0 : 1;
    const int count = in.matrices;
    if (!charge(32 * count, *lanes[0], pc)) return;
    const ir::TensorRef& mem = a.operands[size_t(memI)].tensor;
    const ir::Buffer& mbuf = kernel.buffers[size_t(mem.buffer)];
    uint8_t rows[4][8][16];
    int64_t rowM[4][8];
    int64_t rowAddr[32];
    // Row addresses from the provider lanes (8·matrix + row), checked before any access.
    for (int i = 0; i < count && !fatal; ++i)
      for (int rr = 0; rr < 8; ++rr) {
        const int provider = frag::addressLane(i, rr);
        int64_t m = 0;
        if (!offsetOf(memI, 8 * i + rr, *lanes[provider], m)) return;
        const int64_t byte = m * ir::dtypeBytes(mem.dtype);
        if (byte % 16 != 0) {
          fault("misaligned", "E0782", pc,
                "misaligned " + in.opcode + " row address: lane " + std::to_string(provider) +
                    " of warp " + std::to_string(warp) + " (cta " + std::to_string(cta) +
                    ") provides row " + std::to_string(rr) + " of matrix " + std::to_string(i) +
                    " at byte offset " + std::to_string(byte) + " of '" + mbuf.name +
                    "', which is not a multiple of 16",
                true, {{mbuf.span, "'" + mbuf.name + "' is declared here"}});
          return;
        }
        rowM[i][rr] = m;
        rowAddr[8 * i + rr] = sharedOffset[size_t(mem.buffer)] + ir::swizzledByte(mbuf, byte);
      }
    recordMatrixAccess(pc, warp, lanes[0]->execCount.empty() ? 0 : lanes[0]->execCount[size_t(pc)],
                       r, mem.buffer, std::span<const int64_t>(rowAddr, size_t(8 * count)));
    const int regs = count;
    if (load) {
      for (int i = 0; i < count; ++i)
        for (int rr = 0; rr < 8; ++rr)
          if (!loadElem(*lanes[frag::addressLane(i, rr)], mem, rowM[i][rr], 16, rows[i][rr], pc,
                        16))
            return;
      for (int l = 0; l < 32 && !fatal; ++l)
        for (int j = 0; j < count; ++j) {
          uint16_t h[2];
          for (int half = 0; half < 2; ++half) {
            const auto [row, col] = matrixCell(l, half, in.trans);
            std::memcpy(&h[half], &rows[j][row][2 * col], 2);
          }
          const uint32_t wv = uint32_t(h[0]) | uint32_t(h[1]) << 16;
          int64_t m = 0;
          if (!offsetOf(regI, l * regs + j, *lanes[l], m) ||
              !writeFragment(a, regI, m, *lanes[l], pc, &wv))
            return;
        }
    } else {
      for (int l = 0; l < 32 && !fatal; ++l)
        for (int j = 0; j < count; ++j) {
          int64_t m = 0;
          uint32_t wv = 0;
          if (!offsetOf(regI, l * regs + j, *lanes[l], m) ||
              !readFragment(a, regI, m, *lanes[l], pc, j, wv))
            return;
          for (int half = 0; half < 2; ++half) {
            const auto [row, col] = matrixCell(l, half, in.trans);
            const uint16_t hv = uint16_t(wv >> (16 * half));
            std::memcpy(&rows[j][row][2 * col], &hv, 2);
          }
        }
      for (int i = 0; i < count && !fatal; ++i)
        for (int rr = 0; rr < 8; ++rr)
          if (!storeElem(*lanes[frag::addressLane(i, rr)], mem, rowM[i][rr], 16, rows[i][rr], pc,
                         16))
            return;
    }
    elementOps += 32 * count;
  }
}

// ---- shfl.sync / redux.sync tile ops ---------------------------------------------------------

namespace {
/// PTX shfl.sync source lane and predicate (ISA "shfl.sync" semantics).
int shuffleSource(const std::string& mode, int lane, uint32_t b, uint32_t c, bool& inRange) {
  const int bval = int(b & 31), cval = int(c & 31), segMask = int((c >> 8) & 31);
  const int maxLane = (lane & segMask) | (cval & ~segMask);
  const int minLane = lane & segMask;
  int j = lane;
  if (mode == ".up" || mode == "__shfl_up_sync") {
    j = lane - bval;
    inRange = j >= maxLane;
  } else if (mode == ".down" || mode == "__shfl_down_sync") {
    j = lane + bval;
    inRange = j <= maxLane;
  } else if (mode == ".bfly" || mode == "__shfl_xor_sync") {
    j = lane ^ bval;
    inRange = j <= maxLane;
  } else {
    j = minLane | (bval & ~segMask);
    inRange = j <= maxLane;
  }
  return inRange ? j : lane;
}
}  // namespace

std::string hex32(uint32_t v) {
  static const char* d = "0123456789abcdef";
  std::string s(8, '0');
  for (int i = 7; i >= 0; --i, v >>= 4) s[size_t(i)] = d[v & 15];
  return s;
}

void Runner::execLaneCollective(const ir::TileApply& a, int pc, Thread* const* lanes,
                                int64_t warp) {
  const PtxInstruction& in = a.instr;
  const bool shfl = in.family == PtxFamily::Shfl;
  const int64_t nRep = product(a.repeat);
  const int maskI = shfl ? 4 : 2;
  for (int64_t r = 0; r < nRep && !fatal; ++r) {
    if (!charge(32, *lanes[0], pc)) return;
    uint32_t src[32], b[32] = {}, c[32] = {}, mask[32];
    Resolved dst[32];
    for (int l = 0; l < 32; ++l) {
      Thread& t = *lanes[l];
      const std::vector<int64_t> g = ir::groupCoord(a.scope, t.tid);
      int64_t co[ir::kMaxTensorRank];
      auto value = [&](int i, uint32_t& out, Resolved* where) -> bool {
        const ir::TileOperand& op = a.operands[size_t(i)];
        if (op.isScalar) {
          out =
              static_cast<uint32_t>(valueToBits(eval(*op.scalar, t, t.vars, pc), op.scalar->dtype));
          return true;
        }
        int k = 0;
        for (int64_t x : g) co[k++] = x;
        int64_t rr = r;
        const int nr = static_cast<int>(a.repeat.size());
        for (int d = nr; d-- > 0;) {
          co[k + d] = rr % a.repeat[size_t(d)];
          rr /= a.repeat[size_t(d)];
        }
        k += nr;
        while (k < static_cast<int>(op.tensor.shape.size())) co[k++] = 0;
        const FastRef& f = fast(op.tensor);
        Resolved res;
        if (!resolve(f, co, k, t, pc, res)) return false;
        if (f.hasThread && res.thread != scopeOwner(a.scope, t.tid)) {
          fault("ownership", "E0752", pc,
                "register operand '" + op.tensor.text + "' element belongs to thread " +
                    std::to_string(res.thread) + ", not to the executing " + threadName(cta, t.tid),
                true);
          return false;
        }
        if (where) {
          *where = res;
          return true;
        }
        out = 0;
        return loadElem(t, op.tensor, res.m, 4, reinterpret_cast<uint8_t*>(&out), pc, 1);
      };
      uint32_t unused = 0;
      if (!value(1, src[l], nullptr) || !value(maskI, mask[l], nullptr) ||
          !value(0, unused, &dst[l]))
        return;
      if (shfl && (!value(2, b[l], nullptr) || !value(3, c[l], nullptr))) return;
    }
    for (int l = 0; l < 32; ++l) {
      if (!(mask[l] >> l & 1) || mask[l] != mask[0]) {
        fault("collective", "E0784", pc,
              "lane " + std::to_string(l) + " of warp " + std::to_string(warp) + " (cta " +
                  std::to_string(cta) + ") executes " + in.opcode + " with membermask 0x" +
                  hex32(mask[l]) +
                  (mask[l] >> l & 1 ? ", unlike lane 0 (0x" + hex32(mask[0]) + ")"
                                    : ", which does not include it"),
              true);
        return;
      }
    }
    uint32_t res[32];
    if (shfl) {
      for (int l = 0; l < 32; ++l) {
        bool inRange = false;
        const int j = shuffleSource(in.mode, l, b[l], c[l], inRange);
        if (!(mask[l] >> j & 1)) {
          fault("collective", "E0784", pc,
                "lane " + std::to_string(l) + " of warp " + std::to_string(warp) + " reads lane " +
                    std::to_string(j) + " in " + in.opcode + ", which is not in the membermask 0x" +
                    hex32(mask[l]) + " (the value is undefined)",
                true);
          return;
        }
        res[l] = src[j];
      }
    } else {
      uint32_t acc = 0;
      bool first = true;
      for (int l = 0; l < 32; ++l) {
        if (!(mask[0] >> l & 1)) continue;
        const uint32_t v = src[l];
        if (first) {
          acc = v;
          first = false;
          continue;
        }
        if (in.mode == ".add")
          acc += v;
        else if (in.mode == ".and")
          acc &= v;
        else if (in.mode == ".or")
          acc |= v;
        else if (in.mode == ".xor")
          acc ^= v;
        else if (in.type == ".s32") {
          const int32_t x = int32_t(acc), y = int32_t(v);
          acc = uint32_t(in.mode == ".min" ? std::min(x, y) : std::max(x, y));
        } else {
          acc = in.mode == ".min" ? std::min(acc, v) : std::max(acc, v);
        }
      }
      for (int l = 0; l < 32; ++l) res[l] = acc;
    }
    for (int l = 0; l < 32; ++l)
      if (!storeElem(*lanes[l], a.operands[0].tensor, dst[l].m, 4,
                     reinterpret_cast<const uint8_t*>(&res[l]), pc, 1))
        return;
    elementOps += 32;
  }
}

void Runner::execShuffleIntrinsic(const ir::Stmt& st, int pc, Thread* const* lanes, uint32_t group,
                                  int64_t warp) {
  const ir::Expr& e = *st.value;
  const int64_t width =
      e.args.size() > 3 && e.args[3]->kind == ir::ExprKind::IntImm ? e.args[3]->intValue : 32;
  const uint32_t c = uint32_t((32 - width) << 8) | (e.name == "__shfl_up_sync" ? 0u : 0x1fu);
  Value val[32];
  int64_t lane[32] = {};
  for (int l = 0; l < 32; ++l) {
    if (!(group >> l & 1)) continue;
    Thread& t = *lanes[l];
    if (!charge(4, t, pc)) return;
    val[l] = eval(*e.args[1], t, t.vars, pc);
    lane[l] = eval(*e.args[2], t, t.vars, pc).i;
  }
  const ir::DType vt = kernel.vars[size_t(st.var)].dtype;
  Value out[32];
  for (int l = 0; l < 32; ++l) {
    if (!(group >> l & 1)) continue;
    bool inRange = false;
    const int j = shuffleSource(e.name, l, uint32_t(lane[l]), c, inRange);
    if (!(group >> j & 1)) {
      fault("collective", "E0784", pc,
            "lane " + std::to_string(l) + " of warp " + std::to_string(warp) + " (cta " +
                std::to_string(cta) + ") reads lane " + std::to_string(j) + " in " + e.name +
                ", which does not take part (membermask lanes " + laneList(group) +
                "); the value is undefined",
            true);
      return;
    }
    out[l] = val[j];
  }
  for (int l = 0; l < 32; ++l)
    if (group >> l & 1) lanes[l]->vars[size_t(st.var)] = castTo(out[l], e.dtype, vt);
  elementOps += __builtin_popcount(group);
}

}  // namespace tirx::sim
