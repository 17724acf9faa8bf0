// Running the generated conformance kernels (see ptx_conform.h): check each script, optionally
// compile it, fill the input tensors with the cases' vectors, run it on the device and compare
// every case's outputs with the simulator's model of the instruction.
#include <cstring>

#include "core/conform/conform_internal.h"
#include "core/driver/compile.h"
#include "core/ptx/ptx_rows.h"
#include "core/sema/sema.h"
#include "core/sim/sim_numerics.h"

namespace tirx::conform {

namespace {

uint64_t maskBits(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

ir::DType uintOf(int bits) {
  switch (bits) {
    case 8:
      return ir::DType::UInt8;
    case 16:
      return ir::DType::UInt16;
    case 64:
      return ir::DType::UInt64;
    default:
      return ir::DType::UInt32;
  }
}

/// Whether every differing lane of `a` and `b` is a NaN in both (result type `type`).
bool nanPayloadOnly(const std::string& type, uint64_t a, uint64_t b) {
  int bits = 0, man = 0;
  if (type == ".f16" || type == ".f16x2")
    bits = 16, man = 10;
  else if (type == ".bf16" || type == ".bf16x2")
    bits = 16, man = 7;
  else if (type == ".f32" || type == ".f32x2")
    bits = 32, man = 23;
  else if (type == ".f64")
    bits = 64, man = 52;
  if (bits == 0) return false;
  const int lanes = ptxrows::typeBits(type) / bits;
  const uint64_t m = maskBits(bits), expMask = (m >> 1) & ~maskBits(man);
  for (int l = 0; l < lanes; ++l) {
    const uint64_t x = (a >> (l * bits)) & m, y = (b >> (l * bits)) & m;
    if (x == y) continue;
    auto isNaN = [&](uint64_t v) { return (v & expMask) == expMask && (v & maskBits(man)); };
    if (!isNaN(x) || !isNaN(y)) return false;
  }
  return true;
}

bool environmentFailure(const Status& s) {
  return s.api == "dlopen" || s.api == "dlsym" || s.api == "cuInit" || s.api == "runner" ||
         s.api.rfind("cuDevice", 0) == 0;
}

void failAll(ConformReport& report, const KernelPlan& p, const std::string& why) {
  for (const CasePlan& c : p.cases) {
    report.cases[c.caseIndex].verdict = Verdict::Failed;
    report.cases[c.caseIndex].reason = why;
  }
}

}  // namespace

int vectorCount(const PtxConformCase& c) {
  return c.instr.isMemory() ? 4 * 32 * c.instr.vector : kArithmeticVectors;
}

int resultBits(const PtxConformCase& c) {
  if (c.instr.isMemory()) return ptxrows::typeBits(c.instr.type);
  return c.instr.operandsFor(c.arity).front().bits;
}

std::string_view verdictName(Verdict v) {
  switch (v) {
    case Verdict::Match:
      return "match";
    case Verdict::WithinBound:
      return "within-bound";
    case Verdict::Mismatch:
      return "mismatch";
    case Verdict::BeyondBound:
      return "beyond-bound";
    case Verdict::Skipped:
      return "skipped";
    case Verdict::Failed:
      return "failed";
  }
  return "?";
}

int ConformReport::count(Verdict v) const {
  int n = 0;
  for (const CaseResult& c : cases) n += c.verdict == v;
  return n;
}

bool ConformReport::passed() const {
  return count(Verdict::Mismatch) == 0 && count(Verdict::BeyondBound) == 0 &&
         count(Verdict::Failed) == 0;
}

CaseResult compareCase(const PtxConformCase& c, const std::vector<PtxVector>& inputs,
                       const std::vector<uint64_t>& deviceBits) {
  CaseResult r;
  r.opcode = c.opcode;
  r.arity = c.arity;
  r.memory = c.instr.isMemory();
  r.sources = static_cast<int>(c.srcTypes.size());
  r.inputs = inputs;
  r.deviceBits = deviceBits;
  const bool approx = !r.memory && sim::isApproximate(c.instr);
  const int n = static_cast<int>(c.srcTypes.size());
  const uint64_t m = maskBits(resultBits(c));
  const std::string resultType =
      r.memory ? c.instr.type : c.instr.operandsFor(c.arity).front().ptxType;
  for (size_t j = 0; j < inputs.size() && j < deviceBits.size(); ++j) {
    const std::span<const uint64_t> srcs(inputs[j].data(), static_cast<size_t>(n));
    uint64_t model = inputs[j][0] & m;
    std::string why;
    if (!r.memory && !sim::execPtx(c.instr, srcs, model, &why)) {
      r.verdict = Verdict::Failed;
      r.reason = "the simulator does not execute it: " + why;
      return r;
    }
    model &= m;
    const uint64_t dev = deviceBits[j] & m;
    bool differs;
    if (approx) {
      differs = !sim::checkApproximate(c.instr, srcs, dev, &why);
    } else {
      differs = dev != model;
      why = differs && nanPayloadOnly(resultType, dev, model) ? "NaN payload only" : "";
    }
    if (!differs) continue;
    if (r.examples.size() < 4) r.examples.push_back({inputs[j], model, dev, why});
    ++r.differing;
  }
  if (approx)
    r.verdict = r.differing ? Verdict::BeyondBound : Verdict::WithinBound;
  else
    r.verdict = r.differing ? Verdict::Mismatch : Verdict::Match;
  return r;
}

Result<ConformReport> runConformance(ir::Executor& device, const ConformOptions& options,
                                     const Progress& progress) {
  const std::vector<PtxConformCase> cases = ptxConformCases(options.prefix);
  ConformReport report;
  report.device = device.name();
  report.sm = options.sm;
  std::vector<std::string> skip;
  const std::vector<KernelPlan> plans = planKernels(cases, options, skip);
  report.cases.resize(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    report.cases[i].opcode = cases[i].opcode;
    report.cases[i].arity = cases[i].arity;
    report.cases[i].memory = cases[i].instr.isMemory();
    report.cases[i].reason = skip[i];
  }
  report.kernels = static_cast<int>(plans.size());
  for (size_t pi = 0; pi < plans.size(); ++pi) {
    if (progress) progress(static_cast<int>(pi), static_cast<int>(plans.size()));
    const KernelPlan& p = plans[pi];
    const std::string file = p.name + ".py";
    SemaOptions so;
    so.sm = options.sm;
    const FrontEndResult fe = checkScript(p.script, file, so);
    if (!fe.ok() || fe.program.kernels.empty()) {
      failAll(report, p, "the generated kernel does not check: " + formatGcc(fe.diagnostics, file));
      continue;
    }
    if (options.compile) {
      driver::CompileOptions co;
      co.sm = options.sm;
      co.sass = false;
      auto products = driver::compileProgram(fe.program, file, co, p.script);
      if (!products) return products.error();
      if (!products->ok) {
        failAll(report, p,
                "the generated kernel does not compile for sm_" + std::to_string(options.sm) +
                    ": " + formatGcc(products->diagnostics, file) + products->toolLog);
        continue;
      }
    }
    // Arguments in signature order: I<bits>... O<bits>... or MI, MO.
    const ir::Kernel& k = fe.program.kernels.front();
    std::vector<ir::KernelArg> args;
    std::map<std::string, size_t> argOf;
    for (const ir::KernelParam& param : k.params) {
      const bool out = param.name[0] == 'O' || param.name == "MO";
      const int bits = p.memory ? p.memBits : std::stoi(param.name.substr(1));
      const int rows = out ? p.outRows.at(bits) : p.rows.at(bits);
      ir::KernelArg a;
      a.tensor.dtype = uintOf(bits);
      a.tensor.shape = {rows, 4, 32, p.k, p.atom};
      a.tensor.data.assign(static_cast<size_t>(rows) * p.rowElements() * (bits / 8), 0);
      argOf[param.name] = args.size();
      args.push_back(std::move(a));
    }
    auto slotAt = [&](bool out, const Slot& s, int j) -> uint8_t* {
      const std::string name =
          p.memory ? (out ? "MO" : "MI") : (out ? "O" : "I") + std::to_string(s.bits);
      ir::HostTensor& t = args[argOf.at(name)].tensor;
      return t.data.data() + (static_cast<size_t>(s.row) * p.rowElements() + j) * (s.bits / 8);
    };
    std::vector<std::vector<PtxVector>> inputs(p.cases.size());
    for (size_t ci = 0; ci < p.cases.size(); ++ci) {
      const CasePlan& cp = p.cases[ci];
      inputs[ci] = ptxConformVectors(cases[cp.caseIndex], vectorCount(cases[cp.caseIndex]));
      for (size_t j = 0; j < inputs[ci].size(); ++j)
        for (size_t s = 0; s < cp.inputs.size(); ++s)
          std::memcpy(slotAt(false, cp.inputs[s], static_cast<int>(j)), &inputs[ci][j][s],
                      cp.inputs[s].bits / 8);
    }
    auto ran = device.run(fe.program, p.name, args);
    if (!ran) {
      if (environmentFailure(ran.error())) return ran.error();
      failAll(report, p, ran.error().text());
      continue;
    }
    if (!ran->ran || !ran->faults.empty()) {
      std::string why = ran->faults.empty() ? std::string("the kernel did not complete")
                                            : formatGcc(ran->faults.front().diag, file);
      failAll(report, p, why);
      continue;
    }
    if (report.device == device.name() && !ran->device.empty()) report.device = ran->device;
    for (size_t ci = 0; ci < p.cases.size(); ++ci) {
      const CasePlan& cp = p.cases[ci];
      std::vector<uint64_t> bits(inputs[ci].size(), 0);
      for (size_t j = 0; j < bits.size(); ++j)
        std::memcpy(&bits[j], slotAt(true, cp.output, static_cast<int>(j)), cp.output.bits / 8);
      report.cases[cp.caseIndex] = compareCase(cases[cp.caseIndex], inputs[ci], bits);
    }
  }
  if (progress) progress(static_cast<int>(plans.size()), static_cast<int>(plans.size()));
  return report;
}

}  // namespace tirx::conform
