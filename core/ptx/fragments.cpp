// The fragment maps of fragments.h. Every formula is the one of spec/TIRX-TENSOR-CORES.md that
// the H200 confirmed (tc-verify/verify.cu, 0 mismatches): §6.2 ldmatrix/stmatrix, §7.1/§7.2
// mma.sync (with g = lane >> 2, t = lane & 3), §8.4 wgmma. The tables are built from the forward
// formulas; the TileLayout text beside each is checked against the table in
// tests/core/tst_fragments.cpp through the layout engine's own apply.
#include "core/ptx/fragments.h"

namespace tirx::frag {

int addressLane(int matrix, int row) {
  return 8 * matrix + row;
}

std::optional<Coord> addressRowOfLane(MatrixShape shape, int lane) {
  if (lane < 0 || lane >= 8 * shape.count) return std::nullopt;
  return Coord{lane / 8, lane % 8};
}

MatrixElement ldmatrixSource(MatrixShape shape, int lane, int reg, int half) {
  const int g = lane / 4, t = lane % 4;
  if (shape.trans) return MatrixElement{reg, 2 * t + half, g};
  return MatrixElement{reg, g, 2 * t + half};
}

Holder ldmatrixHolder(MatrixShape shape, MatrixElement e) {
  // Plain: lane 4·row + col/2, half col%2. Transposed: the lane holds a column pair of the
  // stored matrix, lane 4·col + row/2, half row%2.
  if (shape.trans) return Holder{4 * e.col + e.row / 2, e.matrix, e.row % 2};
  return Holder{4 * e.row + e.col / 2, e.matrix, e.col % 2};
}

int mmaK(MmaShape s) {
  return s == MmaShape::M16N8K16 ? 16 : 8;
}

int mmaRegisters(MmaShape s, MmaOperand op) {
  switch (op) {
    case MmaOperand::A:
      return mmaK(s) / 4;
    case MmaOperand::B:
      return mmaK(s) / 8;
    default:
      return 4;
  }
}

Coord mmaElementShape(MmaShape s, MmaOperand op) {
  switch (op) {
    case MmaOperand::A:
      return {16, mmaK(s)};
    case MmaOperand::B:
      return {mmaK(s), 8};
    default:
      return {16, 8};
  }
}

Coord mmaWordShape(MmaShape s, MmaOperand op) {
  switch (op) {
    case MmaOperand::A:
      return {16, mmaK(s) / 2};
    case MmaOperand::B:
      return {8, mmaK(s) / 2};
    default:
      return {16, 8};
  }
}

Coord mmaElement(MmaShape s, MmaOperand op, int lane, int i) {
  const int g = lane >> 2, t = lane & 3;
  const bool k16 = s == MmaShape::M16N8K16;
  switch (op) {
    case MmaOperand::A:
      if (k16) return {g + 8 * ((i / 2) % 2), 2 * t + (i & 1) + 8 * (i >= 4 ? 1 : 0)};
      return {g + 8 * (i >= 2 ? 1 : 0), 2 * t + (i & 1)};
    case MmaOperand::B:  // (k, n)
      if (k16) return {2 * t + (i & 1) + 8 * (i >= 2 ? 1 : 0), g};
      return {2 * t + i, g};
    default:
      return {g + 8 * (i >= 2 ? 1 : 0), 2 * t + (i & 1)};
  }
}

Coord mmaWord(MmaShape, MmaOperand op, int lane, int reg) {
  const int g = lane >> 2, t = lane & 3;
  switch (op) {
    case MmaOperand::A:
      return {g + 8 * (reg % 2), t + 4 * (reg / 2)};
    case MmaOperand::B:
      return {g, t + 4 * reg};
    default:
      return {g + 8 * (reg / 2), 2 * t + reg % 2};
  }
}

bool wgmmaValidN(int n) {
  return n >= 8 && n <= 256 && n % 8 == 0;
}

Coord wgmmaAccumulator(int, int thread, int reg) {
  const int w = thread / 32, l = thread % 32, g = l >> 2, t = l & 3;
  return {16 * w + g + 8 * ((reg >> 1) & 1), 8 * (reg >> 2) + 2 * t + (reg & 1)};
}

Coord wgmmaAElement(int thread, int i) {
  const int w = thread / 32;
  const Coord c = mmaElement(MmaShape::M16N8K16, MmaOperand::A, thread % 32, i);
  return {16 * w + c.row, c.col};
}

int FragmentMap::slotAt(int row, int col) const {
  const Holder& h = at(row, col);
  return units == Units::Words ? h.reg : 2 * h.reg + h.half;
}

namespace {

FragmentMap table(std::string name, Coord shape, int threads, int slots, Units units,
                  std::string layout) {
  FragmentMap f;
  f.name = std::move(name);
  f.rows = shape.row;
  f.cols = shape.col;
  f.threads = threads;
  f.slotCount = slots;
  f.units = units;
  f.layout = std::move(layout);
  f.holders.assign(static_cast<size_t>(shape.row * shape.col), Holder{-1, -1, -1});
  return f;
}

void put(FragmentMap& f, Coord c, Holder h) {
  f.holders[static_cast<size_t>(c.row * f.cols + c.col)] = h;
}

}  // namespace

FragmentMap ldmatrixFragment(int count) {
  const std::string n = std::to_string(count);
  FragmentMap f =
      table("ldmatrix/stmatrix .x" + n + " registers (matrix, row, word)", {8 * count, 4}, 32,
            count, Units::Words, "S[(" + n + ", 8, 4) : (1, 4@laneid, 1@laneid)]");
  for (int lane = 0; lane < 32; ++lane)
    for (int reg = 0; reg < count; ++reg)
      put(f, {8 * reg + lane / 4, lane % 4}, Holder{lane, reg, 0});
  return f;
}

FragmentMap mmaFragment(MmaShape s, MmaOperand op, Units units) {
  const bool k16 = s == MmaShape::M16N8K16;
  const char* opName = op == MmaOperand::A ? "A" : (op == MmaOperand::B ? "B" : "C/D");
  const std::string name = std::string(k16 ? "mma.m16n8k16 " : "mma.m16n8k8 ") + opName +
                           (units == Units::Words ? " (32-bit words)" : " (elements)");
  const std::string cd = "S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]";
  std::string layout;
  if (op == MmaOperand::C) {
    layout = cd;  // f32: words and elements coincide
  } else if (units == Units::Elements) {
    if (op == MmaOperand::A)
      layout = k16 ? "S[(2, 8, 2, 4, 2) : (2, 4@laneid, 4, 1@laneid, 1)]" : cd;
    else
      layout = k16 ? "S[(2, 4, 2, 8) : (2, 1@laneid, 1, 4@laneid)]"
                   : "S[(4, 2, 8) : (1@laneid, 1, 4@laneid)]";
  } else {
    if (op == MmaOperand::A)
      layout = k16 ? "S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]"
                   : "S[(2, 8, 4) : (1, 4@laneid, 1@laneid)]";
    else
      layout = k16 ? "S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]" : "S[(8, 4) : (4@laneid, 1@laneid)]";
  }
  const bool c = op == MmaOperand::C;
  const int regs = mmaRegisters(s, op);
  const Coord shape = units == Units::Words || c ? mmaWordShape(s, op) : mmaElementShape(s, op);
  const int slots = c || units == Units::Words ? regs : 2 * regs;
  FragmentMap f = table(name, shape, 32, slots, c ? Units::Words : units, std::move(layout));
  for (int lane = 0; lane < 32; ++lane) {
    if (c) {
      for (int r = 0; r < 4; ++r) put(f, mmaElement(s, op, lane, r), Holder{lane, r, 0});
    } else if (units == Units::Words) {
      for (int r = 0; r < regs; ++r) put(f, mmaWord(s, op, lane, r), Holder{lane, r, 0});
    } else {
      for (int i = 0; i < 2 * regs; ++i)
        put(f, mmaElement(s, op, lane, i), Holder{lane, i / 2, i % 2});
    }
  }
  return f;
}

FragmentMap wgmmaAccumulatorFragment(int n) {
  if (!wgmmaValidN(n)) return FragmentMap{};
  FragmentMap f =
      table("wgmma.m64n" + std::to_string(n) + "k16 D (f32)", {64, n}, 128, n / 2, Units::Words,
            "S[(4, 2, 8, " + std::to_string(n / 8) +
                ", 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]");
  for (int th = 0; th < 128; ++th)
    for (int r = 0; r < n / 2; ++r) put(f, wgmmaAccumulator(n, th, r), Holder{th, r, 0});
  return f;
}

FragmentMap wgmmaAFragment(Units units) {
  const bool words = units == Units::Words;
  FragmentMap f = table(
      words ? "wgmma A registers m64k16 (32-bit words)" : "wgmma A registers m64k16 (elements)",
      {64, words ? 8 : 16}, 128, words ? 4 : 8, units,
      words ? "S[(4, 2, 8, 2, 4) : (1@wid_in_wg, 1, 4@laneid, 2, 1@laneid)]"
            : "S[(4, 2, 8, 2, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]");
  for (int th = 0; th < 128; ++th)
    for (int i = 0; i < 8; ++i) {
      const Coord e = wgmmaAElement(th, i);
      if (words) {
        if (i % 2 == 0) put(f, {e.row, e.col / 2}, Holder{th, i / 2, 0});
      } else {
        put(f, e, Holder{th, i / 2, i % 2});
      }
    }
  return f;
}

std::optional<FragmentMismatch> firstMismatch(
    const FragmentMap& map, const std::function<std::pair<int64_t, int64_t>(int, int)>& owner) {
  for (int r = 0; r < map.rows; ++r)
    for (int c = 0; c < map.cols; ++c) {
      const auto [thread, slot] = owner(r, c);
      const int needThread = map.at(r, c).thread, needSlot = map.slotAt(r, c);
      if (thread != needThread || slot != needSlot)
        return FragmentMismatch{
            {r, c}, static_cast<int>(thread), static_cast<int>(slot), needThread, needSlot};
    }
  return std::nullopt;
}

std::string describeMismatch(const FragmentMap& map, const FragmentMismatch& m) {
  auto who = [&](int thread) {
    if (map.threads <= 32) return "lane " + std::to_string(thread);
    return "thread " + std::to_string(thread) + " (warp " + std::to_string(thread / 32) +
           ", lane " + std::to_string(thread % 32) + ")";
  };
  const std::string elem =
      "element (" + std::to_string(m.element.row) + ", " + std::to_string(m.element.col) + ")";
  if (m.haveThread != m.needThread)
    return elem + " is in " + who(m.haveThread) + ", the instruction needs " + who(m.needThread);
  auto reg = [&](int slot) {
    if (map.units == Units::Words) return "register " + std::to_string(slot);
    return "register " + std::to_string(slot / 2) + (slot % 2 ? " (high half)" : " (low half)");
  };
  return elem + " is in " + reg(m.haveSlot) + " of " + who(m.haveThread) +
         ", the instruction needs " + reg(m.needSlot);
}

}  // namespace tirx::frag
