// The simulator's warp collectives (core/sim/collective_exec.cpp) against oracles it does not
// share code with: the H200-measured ldmatrix words of spec/tc-verify (lane 5 after ldmatrix.x4 of
// M[m][r][c] = 64m + 8r + c), the PTX ISA's ldmatrix/stmatrix tables written out here, a naive
// GEMM for the examples' mma.sync kernels, CUDA's documented shuffle semantics (segments of width
// lanes) for every __shfl_*_sync mode and the shfl/redux tile ops; the faults of spec TC §12.3
// naming both places (divergent collective, partial warp, fragment read before written, a lane
// read outside the mask, a misaligned row address); and the bank counts of tc-verify/bank.cu.
#include <QtTest>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/ir/half.h"
#include "core/sema/sema.h"
#include "core/sim/simulator.h"

using namespace tirx;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
std::string simData(const std::string& name) {
  return readFile(std::string(TIRX_SOURCE_DIR) + "/tests/data/sim/" + name);
}

int lineOf(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find(needle) != std::string::npos) return n;
  return -1;
}

std::vector<ir::KernelArg> zeroArgs(const ir::Kernel& k) {
  std::vector<ir::KernelArg> args;
  for (const auto& p : k.params) {
    ir::KernelArg a;
    const auto& b = k.buffers[p.buffer];
    a.tensor.dtype = b.dtype;
    a.tensor.shape = b.shape;
    a.tensor.data.assign(size_t(a.tensor.numel() * ir::dtypeBytes(b.dtype)), 0);
    args.push_back(a);
  }
  return args;
}

ir::Program compileOk(const std::string& text, const std::string& name) {
  FrontEndResult fe = checkScript(text, name);
  if (!fe.ok()) qFatal("%s", formatGcc(fe.diagnostics, name).c_str());
  return fe.program;
}

ir::RunOutcome run(const ir::Program& p, std::vector<ir::KernelArg>& args) {
  sim::Simulator s;
  auto res = s.run(p, p.kernels.at(0).name, args);
  if (!res.ok()) qFatal("%s", res.error().text().c_str());
  return *res;
}

template <class T>
T* data(ir::KernelArg& a) {
  return reinterpret_cast<T*>(a.tensor.data.data());
}

const ir::Fault* findFault(const ir::RunOutcome& o, const std::string& code) {
  for (const auto& f : o.faults)
    if (f.diag.code == code) return &f;
  return nullptr;
}

/// The stored element ldmatrix puts into (lane, register, half), straight from the PTX ISA's
/// figures for .m8n8 (not core/ptx/fragments.h): row lane/4, columns 2(lane%4), +1; transposed,
/// row 2(lane%4) + half, column lane/4.
int isaElement(bool trans, int lane, int reg, int half) {
  const int r = trans ? 2 * (lane % 4) + half : lane / 4;
  const int c = trans ? lane / 4 : 2 * (lane % 4) + half;
  return 64 * reg + 8 * r + c;
}

/// CUDA's shuffles, from the Programming Guide's description: lanes are split into segments of
/// `width`; idx reads lane srcLane % width of the segment, up/down read lane ∓ delta when that lane
/// is inside the segment (else the caller's own value), xor reads lane ^ laneMask when inside.
int cudaShuffle(const std::vector<int>& v, int base, int lane, int mode, int b, int width) {
  const int segStart = lane / width * width;
  int src = lane;
  switch (mode) {
    case 0:
      src = segStart + (b % 32) % width;
      break;  // idx (b's low 5 bits as PTX takes them)
    case 1:
      src = lane - (b % 32) >= segStart ? lane - (b % 32) : lane;
      break;  // up
    case 2:
      src = lane + (b % 32) < segStart + width ? lane + (b % 32) : lane;
      break;  // down
    case 3:
      src = (lane ^ (b % 32)) < segStart + width ? lane ^ (b % 32) : lane;
      break;  // xor
  }
  return v[size_t(base + src)];
}

}  // namespace

class TestSimCollective : public QObject {
  Q_OBJECT
 private slots:
  void ldmatrixMapsAndH200Words();
  void shufflesMatchCuda();
  void mmaExamplesExact();
  void gemmTiledExact();
  void divergentCollective();
  void partialWarp();
  void fragmentReadBeforeWritten();
  void laneOutsideMask();
  void misalignedRowAddress();
  void bankCountsOfTcVerify();
  void warpScopeInEveryWarp();
  void warpgroupScope();
};

void TestSimCollective::ldmatrixMapsAndH200Words() {
  const std::string text = simData("collective_ldmatrix.py");
  ir::Program p = compileOk(text, "collective_ldmatrix.py");
  auto args = zeroArgs(p.kernels[0]);
  for (int i = 0; i < 256; ++i) data<uint16_t>(args[0])[i] = uint16_t(i);
  const ir::RunOutcome o = run(p, args);
  QVERIFY2(o.ran && o.faults.empty(), o.faults.empty() ? "" : o.faults[0].diag.message.c_str());
  const uint32_t* plain = data<uint32_t>(args[1]);
  const uint32_t* trans = data<uint32_t>(args[2]);
  const uint32_t* x2 = data<uint32_t>(args[3]);
  const uint32_t* x1 = data<uint32_t>(args[4]);
  // The H200 (spec TC §6.2, tc-verify verify.cu): lane 5 after ldmatrix.x4.
  QCOMPARE(plain[5 * 4 + 0], 0x000b000au);
  QCOMPARE(plain[5 * 4 + 1], 0x004b004au);
  QCOMPARE(plain[5 * 4 + 2], 0x008b008au);
  QCOMPARE(plain[5 * 4 + 3], 0x00cb00cau);
  for (int lane = 0; lane < 32; ++lane)
    for (int reg = 0; reg < 4; ++reg) {
      auto word = [&](bool t, int m) {
        return uint32_t(isaElement(t, lane, m, 0)) | uint32_t(isaElement(t, lane, m, 1)) << 16;
      };
      QCOMPARE(plain[lane * 4 + reg], word(false, reg));
      QCOMPARE(trans[lane * 4 + reg], word(true, reg));
      if (reg < 2) QCOMPARE(x2[lane * 2 + reg], word(false, reg));
      if (reg == 0) QCOMPARE(x1[lane], word(false, 3));  // .x1 of matrix 3
    }
  // stmatrix.trans of the plain registers writes the transposed matrices.
  const uint16_t* back = data<uint16_t>(args[5]);
  for (int m = 0; m < 4; ++m)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) QCOMPARE(int(back[64 * m + 8 * r + c]), 64 * m + 8 * c + r);
  // Bank counts: each x4 of consecutive 16-byte rows is conflict-free (4 wavefronts).
  int sawX4 = 0;
  for (const auto& s : o.sharedAccesses)
    if (s.op == "ldmatrix.sync.aligned.m8n8.x4.shared.b16") {
      ++sawX4;
      QCOMPARE(s.instructions, int64_t(1));
      QCOMPARE(s.wavefronts, int64_t(4));
    }
  QCOMPARE(sawX4, 2);
}

void TestSimCollective::shufflesMatchCuda() {
  const std::string text = simData("coll_shuffles.py");
  ir::Program p = compileOk(text, "coll_shuffles.py");
  auto args = zeroArgs(p.kernels[0]);
  std::vector<int> v(64);
  for (int i = 0; i < 64; ++i) v[size_t(i)] = data<int32_t>(args[0])[i] = (i * 37 + 11) % 101 - 50;
  const ir::RunOutcome o = run(p, args);
  QVERIFY2(o.ran && o.faults.empty(), o.faults.empty() ? "" : o.faults[0].diag.message.c_str());
  struct Case {
    int mode, b, width;
  };
  const Case cases[12] = {{3, 5, 32},  {3, 3, 4},   {0, 7, 32},  {0, -1, 8},
                          {1, 3, 32},  {1, 2, 8},   {2, 3, 32},  {2, 5, 16},
                          {0, 40, 32}, {3, 37, 32}, {2, 31, 32}, {1, 33, 32}};
  const int32_t* out = data<int32_t>(args[1]);
  for (int c = 0; c < 12; ++c)
    for (int t = 0; t < 64; ++t) {
      const int lane = t % 32, base = t - lane;
      const int b = cases[c].b < 0 ? lane + 3 : cases[c].b;
      QCOMPARE(out[c * 64 + t], cudaShuffle(v, base, lane, cases[c].mode, b, cases[c].width));
    }
  const uint32_t* r = data<uint32_t>(args[2]);
  for (int t = 0; t < 64; ++t) {
    const int lane = t % 32, base = t - lane;
    QCOMPARE(int32_t(r[0 * 64 + t]), cudaShuffle(v, base, lane, 3, 6, 32));
    QCOMPARE(int32_t(r[1 * 64 + t]), cudaShuffle(v, base, lane, 2, 2, 8));  // c = 0x181f: width 8
    uint32_t sum = 0, mn = 0xffffffffu, x = 0;
    int32_t smin = INT32_MAX;
    for (int l = 0; l < 32; ++l) {
      const uint32_t u = uint32_t(v[size_t(base + l)]);
      sum += u;
      mn = std::max(mn == 0xffffffffu ? 0 : mn, u);
      smin = std::min(smin, v[size_t(base + l)]);
      x ^= u;
    }
    QCOMPARE(r[2 * 64 + t], sum);
    QCOMPARE(int32_t(r[3 * 64 + t]), smin);
    QCOMPARE(r[4 * 64 + t], mn);
    QCOMPARE(r[5 * 64 + t], x);
  }
}

void TestSimCollective::mmaExamplesExact() {
  for (const char* name : {"mma_single_warp.py", "gemm_ldmatrix_swizzled.py"}) {
    const std::string text = readFile(std::string(TIRX_SOURCE_DIR) + "/resources/examples/" + name);
    ir::Program p = compileOk(text, name);
    auto args = zeroArgs(p.kernels[0]);
    const int64_t M = args[0].tensor.shape[0], K = args[0].tensor.shape[1],
                  N = args[1].tensor.shape[0];
    for (int64_t i = 0; i < M * K; ++i)
      data<uint16_t>(args[0])[i] = ir::floatToBf16Bits(float(int(i * 13 % 9) - 4));
    for (int64_t i = 0; i < N * K; ++i)
      data<uint16_t>(args[1])[i] = ir::floatToBf16Bits(float(int(i * 7 % 5) - 2));
    const ir::RunOutcome o = run(p, args);
    QVERIFY2(o.ran && o.faults.empty(), o.faults.empty() ? name : o.faults[0].diag.message.c_str());
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        int64_t ref = 0;
        for (int64_t k = 0; k < K; ++k)
          ref += (int(((i * K + k) * 13) % 9) - 4) * (int(((j * K + k) * 7) % 5) - 2);
        QCOMPARE(data<float>(args[2])[i * N + j], float(ref));
      }
  }
}

void TestSimCollective::gemmTiledExact() {
  const std::string text =
      readFile(std::string(TIRX_SOURCE_DIR) + "/resources/examples/gemm_bf16_tiled.py");
  ir::Program p = compileOk(text, "gemm_bf16_tiled.py");
  auto args = zeroArgs(p.kernels[0]);
  const int64_t M = 128, N = 128, K = 256;
  for (int64_t i = 0; i < M * K; ++i)
    data<uint16_t>(args[0])[i] = ir::floatToBf16Bits(float(int(i % 7) - 3));
  for (int64_t i = 0; i < N * K; ++i)
    data<uint16_t>(args[1])[i] = ir::floatToBf16Bits(float(int(i % 5) - 2));
  const ir::RunOutcome o = run(p, args);
  QVERIFY2(o.ran && o.faults.empty(), o.faults.empty() ? "" : o.faults[0].diag.message.c_str());
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t ref = 0;
      for (int64_t k = 0; k < K; ++k)
        ref += (int((i * K + k) % 7) - 3) * (int((j * K + k) % 5) - 2);
      QCOMPARE(data<float>(args[2])[i * N + j], float(ref));
    }
  // The swizzle keeps every ldmatrix.x4 conflict-free: 4 wavefronts per instruction.
  int ld = 0;
  for (const auto& s : o.sharedAccesses)
    if (s.op.rfind("ldmatrix", 0) == 0) {
      ++ld;
      QCOMPARE(s.wavefronts, 4 * s.instructions);
      QCOMPARE(s.idealWavefronts, s.wavefronts);
    }
  QCOMPARE(ld, 2);
}

void TestSimCollective::divergentCollective() {
  const std::string text = simData("coll_divergent.py");
  ir::Program p = compileOk(text, "coll_divergent.py");
  auto args = zeroArgs(p.kernels[0]);
  const ir::RunOutcome o = run(p, args);
  QVERIFY(!o.ran);
  const ir::Fault* f = findFault(o, "E0780");
  QVERIFY2(f, o.faults.empty() ? "no fault" : o.faults[0].diag.message.c_str());
  QCOMPARE(f->diag.span.line, lineOf(text, "# FIRST"));
  QVERIFY(QString::fromStdString(f->diag.message)
              .contains("lanes 0-15 of warp 0 (cta 0) wait at __shfl_xor_sync but lanes 16-31 are "
                        "elsewhere"));
  QCOMPARE(int(f->diag.notes.size()), 1);
  QCOMPARE(f->diag.notes[0].span.line, lineOf(text, "# SECOND"));
}

void TestSimCollective::partialWarp() {
  const std::string text = simData("coll_partial.py");
  ir::Program p = compileOk(text, "coll_partial.py");
  p.kernels[0].launch.block = {48, 1, 1};
  auto args = zeroArgs(p.kernels[0]);
  const ir::RunOutcome o = run(p, args);
  const ir::Fault* f = findFault(o, "E0781");
  QVERIFY2(f, o.faults.empty() ? "no fault" : o.faults[0].diag.message.c_str());
  QCOMPARE(f->diag.span.line, lineOf(text, "# MMA"));
  QVERIFY(QString::fromStdString(f->diag.message)
              .contains("executed by a partial warp: lanes 0-15 of warp 1 (cta 0) arrived, but "
                        "lanes 16-31 are not launched (block of 48 threads)"));
  QVERIFY(!f->diag.notes.empty());
}

void TestSimCollective::fragmentReadBeforeWritten() {
  const std::string text = simData("coll_uninit.py");
  ir::Program p = compileOk(text, "coll_uninit.py");
  auto args = zeroArgs(p.kernels[0]);
  const ir::RunOutcome o = run(p, args);
  const ir::Fault* f = findFault(o, "E0783");
  QVERIFY2(f, o.faults.empty() ? "no fault" : o.faults[0].diag.message.c_str());
  QCOMPARE(f->diag.span.line, lineOf(text, "# MMA"));
  QVERIFY(QString::fromStdString(f->diag.message)
              .contains("reads fragment 'b' (b register 0, slot 0) of cta 0 thread 0"));
  QCOMPARE(int(f->diag.notes.size()), 1);
  QCOMPARE(f->diag.notes[0].span.line, lineOf(text, "# DECL"));
}

void TestSimCollective::laneOutsideMask() {
  const std::string text = simData("coll_mask.py");
  ir::Program p = compileOk(text, "coll_mask.py");
  auto args = zeroArgs(p.kernels[0]);
  const ir::RunOutcome o = run(p, args);
  const ir::Fault* f = findFault(o, "E0784");
  QVERIFY2(f, o.faults.empty() ? "no fault" : o.faults[0].diag.message.c_str());
  QCOMPARE(f->diag.span.line, lineOf(text, "# SHFL"));
  QVERIFY(
      QString::fromStdString(f->diag.message).contains("lane 12 of warp 0 (cta 0) reads lane 16"));
}

void TestSimCollective::misalignedRowAddress() {
  // Sema proves row alignment statically; an IR whose region start moved by 8 bytes (what a hand-
  // built program or a future dynamic case could hold) must fault at run time, naming the lane.
  const std::string text = simData("collective_ldmatrix.py");
  ir::Program p = compileOk(text, "collective_ldmatrix.py");
  for (auto& s : p.kernels[0].body)
    if (s.kind == ir::StmtKind::Apply && s.apply->instr.family == PtxFamily::Ldmatrix) {
      auto a = std::make_shared<ir::TileApply>(*s.apply);
      a->operands[1].tensor.elemOffset += 4;  // 8 bytes of uint16
      s.apply = a;
      break;
    }
  auto args = zeroArgs(p.kernels[0]);
  const ir::RunOutcome o = run(p, args);
  const ir::Fault* f = findFault(o, "E0782");
  QVERIFY2(f, o.faults.empty() ? "no fault" : o.faults[0].diag.message.c_str());
  QVERIFY(
      QString::fromStdString(f->diag.message)
          .contains("lane 0 of warp 0 (cta 0) provides row 0 of matrix 0 at byte offset 8 of 's'"));
  QCOMPARE(f->diag.notes.size(), size_t(1));
}

void TestSimCollective::bankCountsOfTcVerify() {
  // tc-verify/bank.cu on the H200 (ncu l1tex__data_pipe_lsu_wavefronts_mem_shared): ldmatrix.x4 of
  // a 16x16 block of a 64x64 f16 tile: row-major 32, 128B swizzle 4, rows padded to 144 B 4; a
  // 32-bit load of column 0 by 32 lanes (lane l reads row l): 32 / 4 / 4.
  const std::string text =
      readFile(std::string(TIRX_SOURCE_DIR) + "/bench/kernels/bank_conflicts.py");
  ir::Program p = compileOk(text, "bank_conflicts.py");
  QCOMPARE(int(p.kernels.size()), 3);
  const int want[3] = {32, 4, 4};  // bank_plain, bank_swizzled, bank_padded
  for (int k = 0; k < 3; ++k) {
    auto args = zeroArgs(p.kernels[size_t(k)]);
    sim::Simulator s;
    auto res = s.run(p, p.kernels[size_t(k)].name, args);
    QVERIFY(res.ok());
    QVERIFY2(res->ran && res->faults.empty(),
             res->faults.empty() ? "" : res->faults[0].diag.message.c_str());
    int seen = 0;
    for (const auto& a : res->sharedAccesses) {
      if (a.op.rfind("ldmatrix", 0) != 0 && a.op != "ld.shared.b32") continue;
      ++seen;
      QCOMPARE(a.instructions, int64_t(1));
      QCOMPARE(a.wavefronts, int64_t(want[k]));
      QCOMPARE(a.idealWavefronts, int64_t(a.op == "ld.shared.b32" ? 1 : 4));
    }
    QCOMPARE(seen, 2);
  }
}

void TestSimCollective::warpScopeInEveryWarp() {
  // Regression: a warp-scope operand's layout is lane-relative; warp 1 used to fault (E0752,
  // "belongs to thread 0, not to ... thread 32") although sema accepts it and the GPU runs it.
  const std::string text = simData("warp_scope_two_warps.py");
  ir::Program p = compileOk(text, "warp_scope_two_warps.py");
  auto args = zeroArgs(p.kernels[0]);
  for (int i = 0; i < 256; ++i) data<float>(args[0])[i] = float(i);
  const ir::RunOutcome o = run(p, args);
  QVERIFY2(o.ran && o.faults.empty(), o.faults.empty() ? "" : o.faults[0].diag.message.c_str());
  for (int i = 0; i < 256; ++i) QCOMPARE(data<float>(args[1])[i], float(2 * i));
}

void TestSimCollective::warpgroupScope() {
  const std::string text = simData("coll_warpgroup.py");
  ir::Program p = compileOk(text, "coll_warpgroup.py");
  auto args = zeroArgs(p.kernels[0]);
  for (int i = 0; i < 256; ++i) data<uint16_t>(args[0])[i] = ir::floatToBf16Bits(float(i % 9 - 4));
  for (int i = 0; i < 128; ++i) data<uint16_t>(args[1])[i] = ir::floatToBf16Bits(float(i % 7 - 3));
  const ir::RunOutcome o = run(p, args);
  QVERIFY2(o.ran && o.faults.empty(), o.faults.empty() ? "" : o.faults[0].diag.message.c_str());
  const float* c = data<float>(args[2]);
  for (int w = 0; w < 8; ++w)
    for (int l = 0; l < 32; ++l)
      for (int h = 0; h < 2; ++h)
        for (int q = 0; q < 2; ++q) {
          const int row = l / 4 + 8 * h, col = 2 * (l % 4) + q;
          int ref = 0;
          for (int k = 0; k < 16; ++k) ref += ((row * 16 + k) % 9 - 4) * ((col * 16 + k) % 7 - 3);
          QCOMPARE(c[((w * 32 + l) * 2 + h) * 2 + q], float(ref));
        }
}

QTEST_APPLESS_MAIN(TestSimCollective)
#include "tst_sim_collective.moc"
