// The bodies of the four fuzz targets (docs/testing.md), header-only so that the libFuzzer
// executables of tests/fuzz (clang, ASan + UBSan) and the regression test of the normal build
// (tests/core/tst_fuzz_regressions.cpp, which replays tests/data/fuzz/<target>/*) run exactly the
// same code. Each target takes script text and must return without a signal, an uncaught
// exception, a sanitizer report or a hang; the checks below abort() with a message when an
// engine invariant breaks:
//   check    parse + sema (checkScript): every diagnostic is well formed and its span is in
//            the source.
//   codegen  scripts that check clean → CUDA C++ (not NVRTC) and the IR printer: a kernel that
//            generates without diagnostics has source and a source map inside the CUDA text.
//   sim      scripts that check clean → every kernel on the simulator with default inputs, under
//            a small work budget; two runs must give the same bytes (no uninitialised reads).
//   verify   the whole harness (verifyScript on the simulator) under a small budget, and the
//            Report's JSON form.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/codegen/codegen.h"
#include "core/driver/host_io.h"
#include "core/sema/sema.h"
#include "core/sim/simulator.h"
#include "core/verify/verify.h"
#include "tests/core/ast_checks.h"

namespace tirx::fuzz {

/// Inputs longer than this are skipped: they only make each execution slower.
constexpr size_t kMaxInput = 16 * 1024;
/// Simulator work (statements and element operations) for one kernel launch or one verify.
constexpr int64_t kWorkBudget = 300'000;
/// Host memory the simulator may hold for one launch (its own limit is 4 GiB; the fuzzer's RSS
/// limit is 2.5 GiB).
constexpr int64_t kSimMemory = int64_t{256} << 20;
/// Kernels of one script run by the sim target.
constexpr int kMaxKernels = 4;
/// Kernels whose parameter tensors need more host memory than this are not run (the fuzzer's
/// own memory limit; huge allocations are the engine's to refuse, see tests/data/fuzz/README.md).
constexpr int64_t kMaxArgBytes = 16 << 20;

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "tirx fuzz: invariant broken: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void checkDiagnostics(const std::string& src, const Diagnostics& ds) {
  const testing::SpanChecker spans(src);
  for (const Diagnostic& d : ds) {
    if (d.code.size() != 5 || (d.code[0] != 'E' && d.code[0] != 'W'))
      fail("malformed diagnostic code '" + d.code + "': " + d.message);
    if (d.message.empty()) fail("empty diagnostic message [" + d.code + "]");
    if (d.span.valid()) {
      const std::string err = spans.check(d.span, "diagnostic");
      if (!err.empty()) fail(err + " [" + d.code + " " + d.message + "]");
    }
    for (const DiagNote& n : d.notes) {
      if (!n.span.valid()) continue;
      const std::string err = spans.check(n.span, "note");
      if (!err.empty()) fail(err + " [" + d.code + " note: " + n.message + "]");
    }
  }
}

inline int countLines(std::string_view s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return s.empty() || s.back() == '\n' ? n : n + 1;
}

inline int fuzzCheck(std::string_view input) {
  if (input.size() > kMaxInput) return -1;
  const std::string src(input);
  FrontEndResult r = checkScript(src, "fuzz.py");
  checkDiagnostics(src, r.diagnostics);
  return 0;
}

inline int fuzzCodegen(std::string_view input) {
  if (input.size() > kMaxInput) return -1;
  const std::string src(input);
  FrontEndResult r = checkScript(src, "fuzz.py");
  if (!r.ok()) return 0;
  (void)ir::printProgram(r.program);
  codegen::CodegenResult all = codegen::generateCuda(r.program);
  checkDiagnostics(src, all.diagnostics);
  if (hasErrors(all.diagnostics)) return 0;
  const int cudaLines = countLines(all.cuda);
  // Script lines as the lexer and the editor count them: "\r" alone ends a line too.
  const int srcLines = testing::SpanChecker(src).lineCount();
  for (const codegen::LineSpan& s : all.map.statements) {
    if (s.cudaFirst < 1 || s.cudaFirst > s.cudaLast || s.cudaLast > cudaLines)
      fail("source map: CUDA lines " + std::to_string(s.cudaFirst) + ".." +
           std::to_string(s.cudaLast) + " of " + std::to_string(cudaLines));
    if (s.scriptLine < 1 || s.scriptLine > srcLines)
      fail("source map: script line " + std::to_string(s.scriptLine) + " of " +
           std::to_string(srcLines));
  }
  for (const ir::Kernel& k : r.program.kernels) {
    codegen::CodegenOptions o;
    o.kernel = k.name;
    codegen::CodegenResult one = codegen::generateCuda(r.program, o);
    if (!hasErrors(one.diagnostics) && one.cuda.empty()) fail("no CUDA for kernel " + k.name);
  }
  return 0;
}

inline bool sameOutputs(const std::vector<ir::KernelArg>& a, const std::vector<ir::KernelArg>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].isTensor && a[i].tensor.data != b[i].tensor.data) return false;
  return true;
}

/// Host bytes of a kernel's tensor parameters, saturating past kMaxArgBytes.
inline int64_t argumentBytes(const ir::Kernel& k) {
  int64_t total = 0;
  for (const ir::KernelParam& p : k.params) {
    if (!p.isTensor || p.buffer < 0 || p.buffer >= static_cast<int>(k.buffers.size())) continue;
    const ir::Buffer& b = k.buffers[static_cast<size_t>(p.buffer)];
    int64_t n = ir::dtypeBytes(b.dtype);
    for (int64_t d : b.shape)
      n = d >= 0 && (d == 0 || n <= kMaxArgBytes / d) ? n * d : kMaxArgBytes + 1;
    total += n;
    if (total > kMaxArgBytes) return kMaxArgBytes + 1;
  }
  return total;
}

inline int fuzzSim(std::string_view input) {
  if (input.size() > kMaxInput) return -1;
  const std::string src(input);
  FrontEndResult r = checkScript(src, "fuzz.py");
  if (!r.ok()) return 0;
  int ran = 0;
  for (const ir::Kernel& k : r.program.kernels) {
    if (ran++ == kMaxKernels) break;
    if (argumentBytes(k) > kMaxArgBytes) continue;
    auto args = driver::makeArguments(k, {});
    if (!args.ok()) continue;
    // Two runs, each with a fresh budget of the same size: the simulator is deterministic, so
    // any difference in the bytes written means it read memory it never initialised.
    std::vector<ir::KernelArg> first = args.value(), second = args.value();
    WorkBudget budgetA(BudgetLimits{kWorkBudget, 0}), budgetB(BudgetLimits{kWorkBudget, 0});
    sim::SimOptions o;
    o.maxMemoryBytes = kSimMemory;
    o.budget = &budgetA;
    auto a = sim::Simulator(o).run(r.program, k.name, first);
    o.budget = &budgetB;
    auto b = sim::Simulator(o).run(r.program, k.name, second);
    if (a.ok() != b.ok()) fail("simulator: two runs of " + k.name + " disagree on the status");
    if (!a.ok()) continue;
    for (const ir::Fault& f : a.value().faults) checkDiagnostics(src, {f.diag});
    if (a.value().ran != b.value().ran || a.value().faults.size() != b.value().faults.size())
      fail("simulator: two runs of " + k.name + " disagree on the outcome");
    if (a.value().ran && !sameOutputs(first, second))
      fail("simulator: two runs of " + k.name + " wrote different bytes");
  }
  return 0;
}

inline int fuzzVerify(std::string_view input) {
  if (input.size() > kMaxInput) return -1;
  const std::string src(input);
  verify::VerifyOptions o;
  o.device = driver::DeviceSpec::simulator();
  o.fileName = "fuzz.py";
  o.budget = BudgetLimits{kWorkBudget, 0};
  o.maxHarnessSteps = 20'000;
  o.makeExecutor = [](const driver::DeviceSpec&,
                      const driver::ExecutorContext&) -> Result<std::unique_ptr<ir::Executor>> {
    return Status{"fuzz", "no GPU while fuzzing", 0};
  };
  verify::Report rep = verify::verifyScript(src, o);
  checkDiagnostics(src, rep.errors);
  (void)verify::reportToJson(rep);
  return 0;
}

}  // namespace tirx::fuzz
