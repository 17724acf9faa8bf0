// opcodeFragmentTables: the engine's element-unit fragment maps turned into labelled tables.
#include "views/engine/opcode_fragments.h"

#include <algorithm>

#include "core/ptx/fragments.h"

namespace tirx::views {

namespace {

FragmentTable mmaTable(frag::MmaShape shape, frag::MmaOperand op, const std::string& title) {
  const frag::FragmentMap m = frag::mmaFragment(shape, op, frag::Units::Elements);
  const char letter = op == frag::MmaOperand::A ? 'a' : op == frag::MmaOperand::B ? 'b' : 'c';
  FragmentTable t;
  t.title = title;
  t.rows = m.rows;
  t.cols = m.cols;
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) {
      const frag::Holder& h = m.at(r, c);
      // element units: A/B registers hold two 16-bit elements, C/D one f32
      const int element = op == frag::MmaOperand::C ? h.reg : 2 * h.reg + h.half;
      t.lanes.push_back(h.thread);
      t.labels.push_back(std::string(1, letter) + std::to_string(element));
    }
  return t;
}

}  // namespace

std::vector<FragmentTable> opcodeFragmentTables(const PtxInstruction& instr) {
  std::vector<FragmentTable> out;
  if (instr.family == PtxFamily::Mma) {
    const frag::MmaShape s = instr.mmaK == 16 ? frag::MmaShape::M16N8K16 : frag::MmaShape::M16N8K8;
    const int k = frag::mmaK(s);
    const int ra = frag::mmaRegisters(s, frag::MmaOperand::A);
    const int rb = frag::mmaRegisters(s, frag::MmaOperand::B);
    out.push_back(mmaTable(s, frag::MmaOperand::A,
                           "A 16×" + std::to_string(k) + " (m×k) · a0..a" +
                               std::to_string(2 * ra - 1) + " in " + std::to_string(ra) +
                               " registers"));
    out.push_back(mmaTable(s, frag::MmaOperand::B,
                           "B " + std::to_string(k) + "×8 (k×n) · b0..b" +
                               std::to_string(2 * rb - 1) + " in " + std::to_string(rb) +
                               (rb == 1 ? " register" : " registers")));
    out.push_back(mmaTable(s, frag::MmaOperand::C, "C/D 16×8 (m×n) · c0..c3, one f32 each"));
  } else if (instr.family == PtxFamily::Wgmma && frag::wgmmaValidN(instr.wgmmaN)) {
    // The warpgroup's frame is 64 rows; rows 16w..16w+15 belong to warp w with the same lanes and
    // registers as warp 0's (thread +32w), so warp 0's 16 rows are drawn. D's column block 8j
    // holds d4j..d4j+3: the first 16 columns show the pattern.
    const int n = instr.wgmmaN;
    const frag::FragmentMap d = frag::wgmmaAccumulatorFragment(n);
    FragmentTable dt;
    dt.title = "D rows 0–15 (warp 0; +16w rows: thread +32w) × columns 0–" +
               std::to_string(std::min(n, 16) - 1) + " of 64×" + std::to_string(n) + " · d0..d" +
               std::to_string(n / 2 - 1) + ", one f32 each";
    dt.rows = 16;
    dt.cols = std::min(n, 16);
    for (int r = 0; r < dt.rows; ++r)
      for (int c = 0; c < dt.cols; ++c) {
        const frag::Holder& h = d.at(r, c);
        dt.lanes.push_back(h.thread);
        dt.labels.push_back("d" + std::to_string(h.reg));
      }
    const frag::FragmentMap a = frag::wgmmaAFragment(frag::Units::Elements);
    FragmentTable at;
    at.title = "A in registers (rs form) rows 0–15 of 64×16 · a0..a7 in 4 registers";
    at.rows = 16;
    at.cols = 16;
    for (int r = 0; r < at.rows; ++r)
      for (int c = 0; c < at.cols; ++c) {
        const frag::Holder& h = a.at(r, c);
        at.lanes.push_back(h.thread);
        at.labels.push_back("a" + std::to_string(2 * h.reg + h.half));
      }
    out.push_back(std::move(dt));
    out.push_back(std::move(at));
  } else if (instr.family == PtxFamily::Ldmatrix || instr.family == PtxFamily::Stmatrix) {
    const frag::MatrixShape s{instr.matrices, instr.trans};
    for (int m = 0; m < s.count; ++m) {
      FragmentTable t;
      t.title = "matrix " + std::to_string(m) + " → r" + std::to_string(m) + " (rows from lanes " +
                std::to_string(8 * m) + "–" + std::to_string(8 * m + 7) + ")";
      t.rows = t.cols = 8;
      for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) {
          const frag::Holder h = frag::ldmatrixHolder(s, {m, r, c});
          t.lanes.push_back(h.thread);
          t.labels.push_back("r" + std::to_string(h.reg) + (h.half ? ".hi" : ".lo"));
        }
      out.push_back(std::move(t));
    }
  }
  return out;
}

}  // namespace tirx::views
