// The GPU-free parts of bench_gpu_attention (see attention_bench.h).
#include "attention_bench.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace tirx::bench {

namespace {

bool parseInt(const std::string& s, int64_t lo, int64_t hi, int64_t& out) {
  const char* b = s.data();
  const char* e = b + s.size();
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e && out >= lo && out <= hi;
}

}  // namespace

std::optional<AttentionArgs> parseAttentionArgs(const std::vector<std::string>& argv,
                                                std::string& error) {
  AttentionArgs a;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& x = argv[i];
    auto value = [&](int64_t lo, int64_t hi, int64_t& out) {
      if (i + 1 >= argv.size()) {
        error = x + " needs a value";
        return false;
      }
      const std::string& v = argv[++i];
      if (!parseInt(v, lo, hi, out)) {
        error = x + " " + v + ": expected an integer in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]";
        return false;
      }
      return true;
    };
    int64_t n = 0;
    if (x == "--batch") {
      if (!value(1, 1 << 16, a.batch)) return std::nullopt;
    } else if (x == "--heads") {
      if (!value(1, 1 << 16, a.heads)) return std::nullopt;
    } else if (x == "--seq") {
      if (!value(1, 1 << 20, a.seq)) return std::nullopt;
    } else if (x == "--rounds") {
      if (!value(1, 1000, n)) return std::nullopt;
      a.rounds = int(n);
    } else if (x == "--iters") {
      if (!value(1, 1000, n)) return std::nullopt;
      a.iters = int(n);
    } else if (x == "--causal") {
      a.causal = true;
    } else if (x == "--no-torch") {
      a.noTorch = true;
    } else if (x == "--unchecked") {
      a.unchecked = true;
    } else if (x == "--python") {
      if (i + 1 >= argv.size()) {
        error = "--python needs a value";
        return std::nullopt;
      }
      a.python = argv[++i];
    } else if (x.size() > 1 && x[0] == '-') {
      error = "unknown option " + x;
      return std::nullopt;
    } else if (a.kernel.empty()) {
      a.kernel = x;
    } else {
      error = "more than one kernel file: " + a.kernel + " and " + x;
      return std::nullopt;
    }
  }
  return a;
}

double attentionFlops(int64_t batch, int64_t heads, int64_t seq, int64_t headDim, bool causal) {
  const double f =
      4.0 * double(batch) * double(heads) * double(seq) * double(seq) * double(headDim);
  return causal ? f / 2 : f;
}

float inputValue(int tensor, uint64_t index) {
  const uint64_t m = 0xFFFFFFFFull;
  uint64_t x = (index * 2654435761ull + uint64_t(tensor) * 40503ull + 1) & m;
  x ^= x >> 15;
  x = (x * 2146121005ull) & m;
  x ^= x >> 13;
  x = (x * 739982445ull) & m;
  x ^= x >> 16;
  return float(int((x >> 8) & 255) - 128) / 64.0f;
}

CloseReport compareClose(const float* got, const float* ref, int64_t n, double atol, double rtol) {
  CloseReport r;
  r.count = n;
  for (int64_t i = 0; i < n; ++i) {
    const double g = got[i], f = ref[i];
    bool pass = std::isfinite(g) && std::isfinite(f);
    if (pass) {
      const double d = std::abs(g - f);
      r.maxAbs = std::max(r.maxAbs, d);
      r.sumAbs += d;
      r.sumRef += std::abs(f);
      pass = d <= atol + rtol * std::abs(f);
    }
    if (!pass) {
      if (r.bad == 0) r.firstBad = i;
      ++r.bad;
    }
  }
  return r;
}

std::optional<std::vector<double>> parseTimings(const std::string& line) {
  std::istringstream in(line);
  std::string head;
  if (!(in >> head) || head != "ms") return std::nullopt;
  std::vector<double> v;
  std::string tok;
  while (in >> tok) {
    double x = 0;
    auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), x);
    if (ec != std::errc() || p != tok.data() + tok.size() || !(x > 0) || !std::isfinite(x))
      return std::nullopt;
    v.push_back(x);
  }
  if (v.empty()) return std::nullopt;
  return v;
}

bool isHelperReply(const std::string& line) {
  for (const char* p : {"ready ", "ok ", "ms ", "unavailable ", "error "})
    if (line.rfind(p, 0) == 0) return true;
  return false;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string percent(double a, double b) {
  if (!(b > 0)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * a / b);
  return buf;
}

}  // namespace tirx::bench
