// The device comparison of device_compare.h: per tensor argument the kernel writes, every element
// classified by who defines it, the values of those both define compared with the tolerances of
// kDeviceRtol/kDeviceAtol (NaN equal to NaN) plus one 16-bit ulp where the kernel uses inexact
// operations, one-sided elements counted as mismatches, and the worst elements with the
// simulator's owner of each.
#include "core/verify/device_compare.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "core/driver/cuda_executor.h"
#include "core/ir/buffer_access.h"
#include "core/sim/sim_numerics.h"
#include "core/verify/array.h"

namespace tirx::verify {

namespace {

struct Bad {
  int64_t flat;
  double excess;
};

std::vector<int64_t> coordOf(int64_t f, const std::vector<int64_t>& shape) {
  std::vector<int64_t> c(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    c[d] = shape[d] ? f % shape[d] : 0;
    f = shape[d] ? f / shape[d] : 0;
  }
  return c;
}

OwnerInfo ownerOf(const ir::Provenance& prov, const std::string& kernel, size_t arg, int64_t flat) {
  if (arg >= prov.args.size() || flat < 0 || flat >= static_cast<int64_t>(prov.args[arg].size()))
    return {};
  return ownerInfo(prov.args[arg][size_t(flat)], kernel, prov.bufferNames);
}

std::string plural(int64_t n, const char* one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

/// Adds `what (line N)` to `out` unless `what` is there already.
void noteOnce(std::vector<std::string>& out, std::vector<std::string>& seen,
              const std::string& what, const SourceSpan& span) {
  if (std::find(seen.begin(), seen.end(), what) != seen.end()) return;
  seen.push_back(what);
  out.push_back(what + (span.line > 0 ? " (line " + std::to_string(span.line) + ")" : ""));
}

}  // namespace

double ulp16(ir::DType dtype, double v) {
  if (!std::isfinite(v)) return 0;
  int mantissa = 0, minExp = 0;
  if (dtype == ir::DType::BFloat16) {
    mantissa = 7;
    minExp = -126;
  } else if (dtype == ir::DType::Float16) {
    mantissa = 10;
    minExp = -14;
  } else {
    return 0;
  }
  const int e = v == 0 ? minExp : std::max(minExp, std::ilogb(v));
  return std::ldexp(1.0, e - mantissa);
}

std::vector<std::string> inexactOps(const ir::Program& program, const ir::Kernel& k) {
  std::vector<std::string> out, seen;
  std::vector<bool> visited(program.functions.size(), false);
  std::function<void(const std::vector<ir::Stmt>&)> walkBody;
  auto walkExpr = [&](const ir::Expr& e) {
    if (e.kind == ir::ExprKind::Intrinsic && sim::scalarApproxUlps(e.name, e.dtype) > 0)
      noteOnce(out, seen, "T." + e.name, e.span);
    if (e.kind == ir::ExprKind::Call && e.func >= 0 && size_t(e.func) < visited.size() &&
        !visited[size_t(e.func)]) {
      visited[size_t(e.func)] = true;
      walkBody(program.functions[size_t(e.func)].body);
    }
  };
  walkBody = [&](const std::vector<ir::Stmt>& body) {
    ir::forEachStmt(body, [&](const ir::Stmt& s) {
      if (s.apply && sim::isApproximate(s.apply->instr))
        noteOnce(out, seen, s.apply->instr.opcode, s.span);
      if (s.ewise && s.ewise->func >= 0 && size_t(s.ewise->func) < visited.size() &&
          !visited[size_t(s.ewise->func)]) {
        visited[size_t(s.ewise->func)] = true;
        walkBody(program.functions[size_t(s.ewise->func)].body);
      }
      ir::forEachExpr(s, [&](const ir::Expr& e) { walkExpr(e); });
    });
  };
  walkBody(k.body);
  return out;
}

void compareDevices(Report& rep, const std::string& kernel, SourceSpan span,
                    const std::vector<ir::KernelArg>& simArgs,
                    const std::vector<ir::KernelArg>& gpuArgs, const ir::Provenance& prov,
                    const ir::Program& program, const ir::Kernel& k) {
  const std::vector<bool> written = ir::writtenParams(k);
  const std::vector<std::string> inexact = inexactOps(program, k);
  for (size_t i = 0; i < simArgs.size() && i < gpuArgs.size() && i < k.params.size(); ++i) {
    if (!simArgs[i].isTensor || !gpuArgs[i].isTensor) continue;
    bool simWrote = false;
    if (i < prov.args.size())
      for (const auto& o : prov.args[i]) simWrote = simWrote || o.cta >= 0;
    if (!simWrote && !written[i]) continue;
    const ir::HostTensor& gt = gpuArgs[i].tensor;
    const ir::HostTensor& st = simArgs[i].tensor;
    const Array g = Array::fromHost(gt), s = Array::fromHost(st);
    Check ch;
    ch.kind = "device-compare";
    ch.name = kernel + "." + k.params[i].name + ": cuda vs simulator";
    ch.span = span;
    ch.kernel = kernel;
    ch.device = "both";
    ch.rtol = kDeviceRtol;
    ch.atol = kDeviceAtol;
    ch.shape = g.shape;
    if (g.shape != s.shape || g.dtype != s.dtype || g.size() != s.size()) {
      ch.message = "the devices returned " + describe(g) + " and " + describe(s);
      rep.checks.push_back(std::move(ch));
      continue;
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // One ulp of the 16-bit output at the tensor's largest magnitude, where inexact operations
    // feed it: their few-ulp float32 differences may flip a 16-bit rounding inside the kernel (P
    // of attention, rounded to bf16 before P V), and a sum of such terms then differs by an
    // amount set by the terms, not by the (possibly much smaller) result.
    const bool widen = !inexact.empty() && ulp16(g.dtype, 1.0) > 0;
    double scale = 0;
    if (widen)
      for (int64_t e = 0; e < s.size(); ++e)
        if (st.isDefined(e) && std::isfinite(s.get(e)))
          scale = std::max(scale, std::fabs(s.get(e)));
    auto slack = [&](double x, double y) {
      return widen ? ulp16(g.dtype, std::max({scale, std::fabs(x), std::fabs(y)})) : 0.0;
    };
    int64_t neither = 0, cudaOnly = 0, simOnly = 0, valueBad = 0;
    std::vector<Bad> bad, close;
    ch.output.resize(size_t(g.size()));
    ch.reference.resize(size_t(g.size()));
    for (int64_t e = 0; e < g.size(); ++e) {
      const bool gd = gt.isDefined(e), sd = st.isDefined(e);
      const double x = gd ? g.get(e) : nan, y = sd ? s.get(e) : nan;
      ch.output[size_t(e)] = x;
      ch.reference[size_t(e)] = y;
      if (!gd && !sd) {
        ++neither;
        continue;
      }
      if (gd != sd) {
        ++(gd ? cudaOnly : simOnly);
        bad.push_back({e, std::numeric_limits<double>::infinity()});
        continue;
      }
      double diff = std::fabs(x - y);
      bool ok;
      if (std::isnan(x) || std::isnan(y)) {
        ok = std::isnan(x) && std::isnan(y);
        diff = ok ? 0 : INFINITY;
      } else if (std::isinf(x) || std::isinf(y)) {
        ok = x == y;
        diff = ok ? 0 : INFINITY;
      } else {
        ok = diff <= kDeviceAtol + kDeviceRtol * std::fabs(y) + slack(x, y);
      }
      const double rel =
          y != 0 && std::isfinite(y) ? diff / std::fabs(y) : (diff == 0 ? 0 : INFINITY);
      ch.maxAbs = std::max(ch.maxAbs, diff);
      ch.maxRel = std::max(ch.maxRel, rel);
      const double excess = diff - (kDeviceAtol + kDeviceRtol * std::fabs(y) + slack(x, y));
      if (!ok) {
        ++valueBad;
        bad.push_back({e, std::isnan(excess) ? INFINITY : excess});
      } else if (diff > 0) {
        close.push_back({e, diff});
      }
    }
    ch.total = g.size() - neither;
    ch.mismatches = static_cast<int64_t>(bad.size());
    ch.pass = bad.empty();
    if (!ch.pass) {
      ch.message =
          std::to_string(ch.mismatches) + "/" + std::to_string(ch.total) + " elements differ";
      if (valueBad) ch.message += ", " + plural(valueBad, "value") + " beyond the tolerance";
      if (cudaOnly) ch.message += ", " + plural(cudaOnly, "element") + " defined on cuda only";
      if (simOnly)
        ch.message += ", " + plural(simOnly, "element") +
                      " defined on the simulator only (not written on cuda, or computed from "
                      "undefined memory)";
    }
    if (neither)
      ch.message += std::string(ch.message.empty() ? "" : "; ") + plural(neither, "element") +
                    " defined by neither device (not compared)";
    if (widen) {
      std::string ops;
      for (const auto& op : inexact) ops += (ops.empty() ? "" : ", ") + op;
      ch.message += std::string(ch.message.empty() ? "" : "; ") + "tolerance plus one " +
                    std::string(ir::dtypeName(g.dtype)) +
                    " ulp at the tensor's largest |value|: " + ops +
                    (inexact.size() == 1 ? " is" : " are") +
                    " inexact (the GPU's bits are held to a bound, not reproduced)";
    }
    auto& src = bad.empty() ? close : bad;
    const size_t keep = std::min<size_t>(src.size(), bad.empty() ? 3 : 8);
    std::partial_sort(src.begin(), src.begin() + long(keep), src.end(),
                      [](const Bad& p, const Bad& q) { return p.excess > q.excess; });
    for (size_t n = 0; n < keep; ++n) {
      const int64_t e = src[n].flat;
      WorstElement we;
      we.coord = coordOf(e, g.shape);
      we.actual = ch.output[size_t(e)];
      we.expected = ch.reference[size_t(e)];
      we.absErr = std::fabs(we.actual - we.expected);
      we.relErr =
          we.expected != 0 ? we.absErr / std::fabs(we.expected) : (we.absErr == 0 ? 0 : INFINITY);
      we.owner = ownerOf(prov, kernel, i, e);
      ch.worst.push_back(std::move(we));
    }
    rep.checks.push_back(std::move(ch));
  }
}

}  // namespace tirx::verify
