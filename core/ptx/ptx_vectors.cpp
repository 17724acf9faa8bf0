// Conformance vectors (see ptx_vectors.h). Each source operand type has a pool of edge values
// (bit patterns) and a small core of the most telling ones. Vectors are, in order: hand-crafted
// cases per family (rounding ties, single-rounding fma, results that round up to the smallest
// normal, overflow), the cross product of the cores (binary: 16 × 16, ternary: 6 × 6 × 6), every
// pool value against a random partner, then seeded random vectors — half raw bit patterns, half
// moderate values. Packed x2 types get independent lanes (the high lane is the same scheme
// rotated), so every lane sees every edge value.
#include "core/ptx/ptx_vectors.h"

#include <algorithm>
#include <cstring>

#include "core/ptx/ptx_rows.h"

namespace tirx {
namespace {

struct Rng {
  uint64_t s;
  uint64_t next() {  // splitmix64
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

uint64_t fnv(std::string_view s, uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

/// Lane format of a PTX type: 'h' f16, 'b' bf16, 'f' f32, 'd' f64, 'i' integer/bits; lane width.
struct Lane {
  char kind = 'i';
  int bits = 32;
  int lanes = 1;
  bool isSigned = false;
};

Lane laneOf(std::string_view t) {
  if (t == ".f16") return {'h', 16, 1};
  if (t == ".f16x2") return {'h', 16, 2};
  if (t == ".bf16") return {'b', 16, 1};
  if (t == ".bf16x2") return {'b', 16, 2};
  if (t == ".f32") return {'f', 32, 1};
  if (t == ".f32x2") return {'f', 32, 2};
  if (t == ".f64") return {'d', 64, 1};
  if (t == ".u16x2") return {'i', 16, 2};
  if (t == ".s16x2") return {'i', 16, 2, true};
  Lane l{'i', ptxrows::typeBits(t), 1, t.size() > 1 && t[1] == 's'};
  if (l.bits == 0) l.bits = 32;
  return l;
}

uint64_t maskOf(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

uint64_t f32(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
uint64_t f64(double v) {
  uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

// Edge values shared by every format: signed zeros, subnormal and normal extremes, infinities,
// NaNs with and without payload (quiet and signalling), values around one, rounding ties.
const std::vector<uint64_t> kF32Pool = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x00800000,
    0x80800000, 0x00800001, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0xbf7fffff, 0x3fc00000,
    0xbfc00000, 0x40000000, 0x40400000, 0x3f000000, 0xbf000000, 0x40200000, 0xc0200000, 0x3eaaaaab,
    0x3effffff, 0x3f400000, 0x3f333333, 0xbf333333, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7f800000,
    0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa00000, 0x7fffffff, 0x34000000, 0x33800000,
    0x33000000, 0x33000001, 0x387fc000, 0x38800000, 0x387fe000, 0x3f801000, 0x3f803000, 0x3f801001,
    0x3f808000, 0x3f818000, 0x3f808001, 0x4b800000, 0x4b800001, 0x4b000001, 0x477fe000, 0x477ff000,
    0x477fefff, 0x477fffff, 0xc77ff000, 0x42fe0000, 0x42ff0000, 0x43000000, 0x43008000, 0xc3000000,
    0xc3008000, 0xc3010000, 0x437f0000, 0x437f8000, 0x43800000, 0x46fffe00, 0x47000000, 0xc7000000,
    0xc7000100, 0x477fff00, 0x477fff80, 0x47800000, 0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001,
    0x4f7fffff, 0x4f800000, 0x5effffff, 0x5f000000, 0xdf000000, 0xdf000001, 0x5f7fffff, 0x5f800000,
    0x1e3ce508, 0x7149f2ca, 0x0da24260, 0x3fb504f3, 0x40490fdb, 0xc2c80000, 0x42c80000, 0xc1200000};
const std::vector<uint64_t> kF32Core = {
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x3f800001,
    0x3fc00000, 0x40400000, 0xc0200000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0xffc00001};
const std::vector<uint64_t> kF32Core3 = {0x80000000, 0x3f800000, 0x3f800001,
                                         0xff7fffff, 0x7f800000, 0x7fc00000};

std::vector<uint64_t> f64Pool() {
  std::vector<uint64_t> p = {0,
                             uint64_t{1} << 63,
                             1,
                             (uint64_t{1} << 63) | 1,
                             0x000fffffffffffffull,
                             0x0010000000000000ull,
                             0x8010000000000000ull,
                             0x3ff0000000000000ull,
                             0xbff0000000000000ull,
                             0x3ff0000000000001ull,
                             0x3fefffffffffffffull,
                             0x3ff8000000000000ull,
                             0x4000000000000000ull,
                             0x4008000000000000ull,
                             0x3fe0000000000000ull,
                             0xc004000000000000ull,
                             0x3fd5555555555555ull,
                             0x7fefffffffffffffull,
                             0xffefffffffffffffull,
                             0x7ff0000000000000ull,
                             0xfff0000000000000ull,
                             0x7ff8000000000000ull,
                             0xfff8000000000001ull,
                             0x7ff0000000000001ull,
                             0x7fffffffffffffffull,
                             0x3ca0000000000000ull,
                             0x3c90000000000000ull,
                             0x36a0000000000000ull,
                             0x3690000000000000ull,
                             0x3810000000000000ull,
                             0x380fffffe0000000ull,
                             0x380ffffff0000000ull,
                             0x47efffffe0000000ull,
                             0x47efffffffffffffull,
                             0x47effffff0000000ull,
                             0x3ff0000010000000ull,
                             0x3ff0000030000000ull,
                             0x3ff0000010000001ull,
                             0x3ff0020000000000ull,
                             0x3ff0010000000000ull,
                             0x40effc0000000000ull,
                             0x40effe0000000000ull,
                             0x40effdffffffffffull,
                             0x4340000000000001ull,
                             0x4340000000000000ull};
  // Integer boundaries (±2^(n-1), 2^n and their neighbours, ± halves) for every width.
  for (int w : {8, 16, 32, 64}) {
    for (double v : {0.5, -0.5}) {
      const double lim = static_cast<double>(uint64_t{1} << (w - 1));
      p.push_back(f64(lim - 1 + v));
      p.push_back(f64(-lim + v));
      p.push_back(f64(-lim - 1 + v));
    }
    const double top = w == 64 ? 18446744073709551616.0 : static_cast<double>(uint64_t{1} << w);
    p.push_back(f64(top));
    p.push_back(f64(top - 0.5));
    p.push_back(f64(-static_cast<double>(uint64_t{1} << (w - 1))));
  }
  for (double v : {1.5, 2.5, -1.5, -2.5, 0.49999999999999994, 1e300, -1e-300, 3.141592653589793})
    p.push_back(f64(v));
  return p;
}
const std::vector<uint64_t> kF64Core = {0,
                                        uint64_t{1} << 63,
                                        1,
                                        0x800fffffffffffffull,
                                        0x0010000000000000ull,
                                        0x3ff0000000000000ull,
                                        0xbff0000000000000ull,
                                        0x3ff0000000000001ull,
                                        0x3ff8000000000000ull,
                                        0x4008000000000000ull,
                                        0xc004000000000000ull,
                                        0x7fefffffffffffffull,
                                        0xffefffffffffffffull,
                                        0x7ff0000000000000ull,
                                        0xfff0000000000000ull,
                                        0xfff8000000000001ull};
const std::vector<uint64_t> kF64Core3 = {uint64_t{1} << 63,     0x3ff0000000000000ull,
                                         0x3ff0000000000001ull, 0xffefffffffffffffull,
                                         0x7ff0000000000000ull, 0x7ff8000000000000ull};

const std::vector<uint64_t> kF16Pool = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x8400, 0x0401, 0x3c00, 0xbc00,
    0x3c01, 0x3bff, 0xbbff, 0x3e00, 0xbe00, 0x4000, 0x4200, 0x3800, 0xb800, 0x4100, 0xc100, 0x3555,
    0x37ff, 0x3a00, 0x7bff, 0xfbff, 0x7800, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x7d00, 0x7fff,
    0x1400, 0x0c00, 0x57f0, 0x57f8, 0x5800, 0x5804, 0xd800, 0xd804, 0xd808, 0x5bf8, 0x5bfc, 0x5c00,
    0x77ff, 0xf800, 0x4c00, 0x4b00, 0xcb00, 0x4a00, 0x2e66, 0x4248, 0x5640, 0xd640, 0x4900};
const std::vector<uint64_t> kF16Core = {0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00,
                                        0xbc00, 0x3c01, 0x3e00, 0x4200, 0xc100, 0x7bff,
                                        0xfbff, 0x7c00, 0xfc00, 0xfe01};
const std::vector<uint64_t> kF16Core3 = {0x8000, 0x3c00, 0x3c01, 0xfbff, 0x7c00, 0x7e00};

const std::vector<uint64_t> kBF16Pool = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x807f, 0x0040, 0x0080, 0x8080, 0x0081, 0x3f80,
    0xbf80, 0x3f81, 0x3f7f, 0xbf7f, 0x3fc0, 0xbfc0, 0x4000, 0x4040, 0x3f00, 0xbf00, 0x4020,
    0xc020, 0x3eab, 0x3eff, 0x3f40, 0x7f7f, 0xff7f, 0x7f00, 0x7f80, 0xff80, 0x7fc0, 0xffc1,
    0x7f81, 0x7fa0, 0x7fff, 0x42fe, 0x42ff, 0x4300, 0x4301, 0xc300, 0xc301, 0x437f, 0x4380,
    0x46ff, 0x4700, 0xc700, 0x477f, 0x4780, 0x4eff, 0x4f00, 0xcf00, 0x4f7f, 0x4f80, 0x5eff,
    0x5f00, 0xdf00, 0x5f7f, 0x5f80, 0x3fb5, 0x4049, 0xc2c8};
const std::vector<uint64_t> kBF16Core = {0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80,
                                         0xbf80, 0x3f81, 0x3fc0, 0x4040, 0xc020, 0x7f7f,
                                         0xff7f, 0x7f80, 0xff80, 0xffc1};
const std::vector<uint64_t> kBF16Core3 = {0x8000, 0x3f80, 0x3f81, 0xff7f, 0x7f80, 0x7fc0};

std::vector<uint64_t> intPool(int bits) {
  const uint64_t m = maskOf(bits), smax = m >> 1, smin = smax + 1;
  std::vector<uint64_t> p = {0,
                             1,
                             2,
                             3,
                             7,
                             m,
                             m - 1,
                             m - 2,
                             smax,
                             smin,
                             smax - 1,
                             smin + 1,
                             0x5555555555555555ull & m,
                             0xaaaaaaaaaaaaaaaaull & m,
                             100,
                             static_cast<uint64_t>(-100) & m,
                             1000,
                             uint64_t{1} << (bits / 2),
                             (uint64_t{1} << (bits / 2)) + 1,
                             (uint64_t{1} << (bits / 2)) - 1};
  static const int64_t kBoundaries[] = {127,
                                        128,
                                        255,
                                        256,
                                        300,
                                        -129,
                                        -300,
                                        32767,
                                        32768,
                                        65535,
                                        65536,
                                        -32769,
                                        16777217,
                                        16777219,
                                        2147483647,
                                        2147483648LL,
                                        4294967295LL,
                                        4294967296LL,
                                        65505,
                                        65519,
                                        65520,
                                        9007199254740993LL,
                                        9223372036854775807LL};
  for (int64_t v : kBoundaries) p.push_back(static_cast<uint64_t>(v) & m);
  p.push_back(0x8000000000000401ull & m);
  p.push_back(0x7ffffffffffffdffull & m);
  std::sort(p.begin(), p.end());
  p.erase(std::unique(p.begin(), p.end()), p.end());
  return p;
}
std::vector<uint64_t> intCore(int bits) {
  const uint64_t m = maskOf(bits), smax = m >> 1, smin = smax + 1;
  return {0,
          1,
          2,
          m,
          m - 1,
          3,
          7,
          smax,
          smin,
          smax - 1,
          smin + 1,
          0x5555555555555555ull & m,
          0xaaaaaaaaaaaaaaaaull & m,
          uint64_t{1} << (bits / 2),
          (uint64_t{1} << (bits / 2)) + 1,
          1000 & m};
}

/// A moderate random value of the lane format: a float of exponent in [-12, 12], or a small
/// integer.
uint64_t moderate(const Lane& l, Rng& r) {
  const uint64_t x = r.next();
  const int e = static_cast<int>(x % 25) - 12;
  const double v = (1.0 + static_cast<double>((x >> 8) & 0xfffff) / 1048576.0) *
                   (e >= 0 ? static_cast<double>(1u << e) : 1.0 / static_cast<double>(1u << -e)) *
                   ((x >> 40) & 1 ? -1.0 : 1.0);
  switch (l.kind) {
    case 'h': {  // keep 11 significant bits so the value is exact in f16
      const uint64_t b = f32(static_cast<float>(v));
      return ((b >> 16) & 0x8000) | ((((b >> 23) & 0xff) - 112) << 10) | ((b >> 13) & 0x3ff);
    }
    case 'b':
      return f32(static_cast<float>(v)) >> 16;
    case 'f':
      return f32(static_cast<float>(v));
    case 'd':
      return f64(v);
    default:
      return static_cast<uint64_t>(static_cast<int64_t>(v * 64)) & maskOf(l.bits);
  }
}

struct Pools {
  std::vector<uint64_t> pool, core, core3;
};

Pools poolsOf(const Lane& l) {
  switch (l.kind) {
    case 'h':
      return {kF16Pool, kF16Core, kF16Core3};
    case 'b':
      return {kBF16Pool, kBF16Core, kBF16Core3};
    case 'f':
      return {kF32Pool, kF32Core, kF32Core3};
    case 'd':
      return {f64Pool(), kF64Core, kF64Core3};
    default: {
      std::vector<uint64_t> c = intCore(l.bits);
      return {intPool(l.bits), c, {c[0], c[1], c[3], c[7], c[8], c[11]}};
    }
  }
}

/// Hand-crafted f32 vectors per family: a rounding tie of add, the single rounding of fma, a
/// product that rounds up to the smallest normal (.ftz after rounding), overflow, underflow.
std::vector<PtxVector> craftedF32(PtxFamily f) {
  switch (f) {
    case PtxFamily::Add:
    case PtxFamily::Sub:
      return {{0x3f800000, 0x34400000}, {0x3f800000, 0xb3800000}, {0x00800000, 0x80400000},
              {0x7f7fffff, 0x73800000}, {0x7f7fffff, 0x73400000}, {0x3f800000, 0x33800001}};
    case PtxFamily::Mul:
      return {{0x40400000, 0x3eaaaaab}, {0x3f7fffff, 0x00800000}, {0x3f7ffffe, 0x00800000},
              {0x1e3ce508, 0x1e3ce508}, {0x5f800000, 0x5f800000}, {0x3f800001, 0x3f7fffff}};
    case PtxFamily::Fma:
      return {{0x3f800001, 0x3f7fffff, 0xbf800000}, {0x3f800000, 0x3f800000, 0x33800000},
              {0x3f800000, 0x3f800000, 0x34400000}, {0x3f7fffff, 0x00800000, 0x00000000},
              {0x7f7fffff, 0x40000000, 0xff7fffff}, {0x20000000, 0x20000000, 0x80000000}};
    case PtxFamily::Div:
      return {{0x3f800000, 0x40400000}, {0x40000000, 0x40400000}, {0x00800000, 0x40000000},
              {0x7f7fffff, 0x3f000000}, {0x3f800000, 0x7f000001}, {0x7f800000, 0x7f000001}};
    default:
      return {};
  }
}

std::vector<PtxVector> crafted(const PtxConformCase& c, const Lane& l) {
  if (l.kind != 'f' || c.instr.family == PtxFamily::Cvt) return {};
  return craftedF32(c.instr.family);
}

/// Vectors for one lane position; `rotate` permutes the fixed part for the high lane.
std::vector<PtxVector> laneVectors(const PtxConformCase& c, const std::vector<Lane>& lanes,
                                   int count, int rotate, Rng& rng) {
  const int n = static_cast<int>(lanes.size());
  std::vector<PtxVector> out;
  auto push = [&](PtxVector v) {
    if (static_cast<int>(out.size()) < count) out.push_back(v);
  };
  for (const PtxVector& v : crafted(c, lanes[0])) push(v);
  std::vector<Pools> pools;
  for (const Lane& l : lanes) pools.push_back(poolsOf(l));
  const bool perOperand = c.instr.family == PtxFamily::Cvt || n == 1;
  if (perOperand) {
    // Each source sweeps its whole pool (cvt's two sources are converted independently).
    size_t longest = 0;
    for (const Pools& p : pools) longest = std::max(longest, p.pool.size());
    for (size_t i = 0; i < longest; ++i) {
      PtxVector v{};
      for (int k = 0; k < n; ++k) {
        const auto& p = pools[k].pool;
        v[k] = p[(i + static_cast<size_t>(k * 7 + rotate)) % p.size()];
      }
      push(v);
    }
  } else if (n == 2) {
    const auto &a = pools[0].core, &b = pools[1].core;
    for (size_t i = 0; i < a.size(); ++i)
      for (size_t j = 0; j < b.size(); ++j)
        push({a[(i + rotate) % a.size()], b[(j + 3 * rotate) % b.size()], 0});
  } else {
    const auto &a = pools[0].core3, &b = pools[1].core3, &d = pools[2].core3;
    for (size_t i = 0; i < a.size(); ++i)
      for (size_t j = 0; j < b.size(); ++j)
        for (size_t k = 0; k < d.size(); ++k)
          push({a[(i + rotate) % a.size()], b[j], d[(k + rotate) % d.size()]});
  }
  if (!perOperand) {
    // Every pool value of every operand at least once, against random partners.
    for (int k = 0; k < n; ++k)
      for (uint64_t x : pools[k].pool) {
        PtxVector v{};
        for (int j = 0; j < n; ++j) v[j] = j == k ? x : moderate(lanes[j], rng);
        push(v);
      }
  }
  for (int i = 0; static_cast<int>(out.size()) < count; ++i) {
    PtxVector v{};
    for (int k = 0; k < n; ++k)
      v[k] = (i % 2 == 0 ? rng.next() : moderate(lanes[k], rng)) & maskOf(lanes[k].bits);
    out.push_back(v);
  }
  return out;
}

}  // namespace

std::vector<PtxConformCase> ptxConformCases(std::string_view prefix) {
  std::vector<PtxConformCase> out;
  for (const std::string& op : ptxrows::enumerateSpellings()) {
    if (!prefix.empty() && op.compare(0, prefix.size(), prefix) != 0) continue;
    std::optional<PtxInstruction> in = parsePtxOpcode(op);
    if (!in) continue;
    for (int arity = in->minArity; arity <= in->maxArity; ++arity) {
      PtxConformCase c;
      c.opcode = op;
      c.arity = arity;
      c.instr = *in;
      const std::vector<PtxOperandSpec> ops = in->operandsFor(arity);
      if (in->isMemory()) {
        c.srcTypes = {in->type};
      } else {
        for (size_t i = 1; i < ops.size(); ++i) c.srcTypes.push_back(ops[i].ptxType);
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<PtxVector> ptxConformVectors(const PtxConformCase& c, int count) {
  Rng rng{fnv(c.opcode, static_cast<uint64_t>(c.arity) * 0x9e3779b97f4a7c15ull)};
  std::vector<Lane> lanes;
  for (const std::string& t : c.srcTypes) lanes.push_back(laneOf(t));
  if (lanes.empty()) return {};
  const int nl = lanes[0].lanes;
  std::vector<PtxVector> out = laneVectors(c, lanes, count, 0, rng);
  for (int lane = 1; lane < nl; ++lane) {
    std::vector<PtxVector> hi = laneVectors(c, lanes, count, 5 * lane, rng);
    // The high lane runs the same scheme in reverse so that its edge values meet different ones.
    std::reverse(hi.begin(), hi.end());
    const int w = lanes[0].bits;
    for (size_t i = 0; i < out.size(); ++i)
      for (size_t k = 0; k < lanes.size(); ++k) out[i][k] |= (hi[i][k] & maskOf(w)) << (lane * w);
  }
  return out;
}

uint64_t ptxVectorsDigest(const std::vector<PtxVector>& vectors, int sources) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const PtxVector& v : vectors)
    for (int k = 0; k < sources && k < 3; ++k)
      for (int b = 0; b < 8; ++b) h = (h ^ ((v[k] >> (8 * b)) & 0xff)) * 0x100000001b3ull;
  return h;
}

}  // namespace tirx
