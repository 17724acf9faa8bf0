// Scalar math: the simulator computes what the generated CUDA computes (DEC-SCALAR-1..4,
// docs/simulator.md "Scalar math"). Known values worked out by hand or with an independent host
// formula (a*b + c rounded twice, 1/sqrt rounded twice, int8 wrap between operations, INT_MIN
// // -1, clamped shifts, saturating float → int8, ties-to-even round, PTX min on ±0, int → bf16
// through f32), the CUDA text and PTX the generator emits for them (no fma, no rsqrt.approx),
// and the generated differential test: deterministic, ≥ 2,000 expressions over every dtype, every
// batch checks and runs on the simulator, one batch compiles with clean PTX, a device that
// differs in one bit is caught, and recorded answers replay.
#include <QtTest>
#include <cmath>
#include <cstring>
#include <regex>
#include <set>

#include "core/codegen/codegen.h"
#include "core/conform/scalar_conform.h"
#include "core/driver/compile.h"
#include "core/sema/sema.h"
#include "core/sim/sim_numerics.h"
#include "core/sim/simulator.h"
#include "tests/core/scalar_regressions.h"
#include "tests/support/kernel_args.h"

using namespace tirx;
using tirx::testing::at;
using tirx::testing::bitsOf;
using tirx::testing::tensorOf;

namespace {

float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// A one-thread kernel: `F` holds f32 inputs, `I` int32 inputs; each line of `body` stores one
/// result into the output tensor of its dtype.
const char* kKnown = R"(from tvm.script import tirx as T


@T.function
def known(F: T.Tensor((8,), "float32"), I: T.Tensor((8,), "int32"), B8: T.Tensor((4,), "int8"),
          OF: T.Tensor((8,), "float32"), OI: T.Tensor((8,), "int32"), O8: T.Tensor((8,), "int8"),
          OB: T.Tensor((2,), "bfloat16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = F[0]
    b = F[1]
    c = F[2]
    OF[0] = a * b + c
    OF[1] = T.rsqrt(F[3])
    OF[2] = T.round(F[4])
    OF[3] = T.min(F[5], F[6])
    OF[4] = T.max(F[7], F[0])
    x = I[0]
    OI[0] = x // I[1]
    OI[1] = x % I[1]
    OI[2] = I[2] << I[3]
    OI[3] = I[4] >> I[3]
    OI[4] = x + I[5]
    OI[5] = T.abs(x)
    p = B8[0]
    O8[0] = (p + p) // B8[1]
    O8[1] = T.Cast("int8", F[4] * T.float32(120))
    O8[2] = T.int8(F[7])
    O8[3] = (p * p) >> B8[2]
    OB[0] = T.bfloat16(I[6])
)";

/// Unsigned magnitudes and ceiling division: a uint64 above 2^63 (held by the simulator as a
/// negative 64-bit value) is its own T.abs, and T.ceildiv of unsigned operands is ceil(a / b),
/// not the signed spelling -((-a) // b) evaluated modulo 2^64.
const char* kUnsigned = R"(from tvm.script import tirx as T


@T.function
def unsigned_ops(U: T.Tensor((4,), "uint64"), W: T.Tensor((4,), "uint32"),
                 OU: T.Tensor((4,), "uint64"), OW: T.Tensor((3,), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    OU[0] = T.abs(U[0])
    OU[1] = T.ceildiv(U[1], U[2])
    OU[2] = T.ceildiv(U[0], U[3])
    OU[3] = T.ceildiv(U[2], U[1])
    OW[0] = T.ceildiv(W[0], W[1])
    OW[1] = T.ceildiv(W[2], W[3])
    OW[2] = T.abs(W[0])
)";

struct KnownRun {
  std::vector<ir::KernelArg> args;
  FrontEndResult fe;
};

/// The simulator as a "device" that flips the low bit of one output element of one kernel.
class OneBitOff : public ir::Executor {
 public:
  std::string name() const override { return "one-bit-off"; }
  Result<ir::RunOutcome> run(const ir::Program& p, const std::string& k,
                             std::vector<ir::KernelArg>& args) override {
    auto r = m_sim.run(p, k, args);
    if (r && r->ran && ++m_runs == 1)
      for (auto& a : args)
        if (a.tensor.dtype == ir::DType::Int32 && a.tensor.shape.size() == 2 &&
            a.tensor.shape[1] == conform::kScalarThreads &&
            a.tensor.shape[0] < 100) {  // an output tensor (inputs are 128 × 3)
          a.tensor.data[5 * 4] ^= 1;
          break;
        }
    return r;
  }

 private:
  sim::Simulator m_sim;
  int m_runs = 0;
};

}  // namespace

class TstScalarConform : public QObject {
  Q_OBJECT
 private slots:
  void knownValuesOnTheSimulator();
  void cudaSpellsOutEveryRounding();
  void unsignedAbsAndCeildiv();
  void issue22RegressionsOnTheSimulator();
  void narrowArithmeticStaysIn32BitPtx();
  void generatorIsDeterministicAndCoversEveryDtype();
  void everyBatchChecksAndRunsOnTheSimulator();
  void oneBatchCompilesWithoutContractionOrApprox();
  void agreementRules();
  void aDifferingDeviceIsCaughtAndRecordsReplay();
};

void TstScalarConform::knownValuesOnTheSimulator() {
  FrontEndResult fe = checkScript(kKnown, "known.py");
  QVERIFY2(fe.ok(), formatGcc(fe.diagnostics, "known.py").c_str());
  // a*b + c: a = b = 1 + 2^-12, c = -(1 + 2^-11). a*b = 1 + 2^-11 + 2^-24 rounds (tie, even) to
  // 1 + 2^-11, so rounded twice the sum is 0; one fma would give 2^-24 (0x33800000).
  // rsqrt: an input where 1/sqrt rounded twice differs from the correctly rounded 1/sqrt.
  float rsIn = 0;
  for (uint32_t k = 1; k < 100000 && rsIn == 0; ++k) {
    const float x = floatOf(0x3f800000u + k * 37);
    const float twice = static_cast<float>(1.0 / static_cast<double>(std::sqrt(x)));
    const float exact = static_cast<float>(1.0L / std::sqrt(static_cast<long double>(x)));
    if (twice != exact) rsIn = x;
  }
  QVERIFY(rsIn != 0);
  const float nan = std::nanf("");
  std::vector<float> f = {
      floatOf(0x3f800800), floatOf(0x3f800800), floatOf(0xbf801000), rsIn, 2.5f, -0.0f, 0.0f, nan};
  std::vector<int32_t> in = {INT32_MIN, -1, 1, 40, -8, -1, (1 << 30) + (1 << 22) + 1, 0};
  std::vector<int8_t> b8 = {100, 2, 2, 0};
  std::vector<ir::KernelArg> args = {tensorOf(ir::DType::Float32, f),
                                     tensorOf(ir::DType::Int32, in),
                                     tensorOf(ir::DType::Int8, b8),
                                     tensorOf(ir::DType::Float32, std::vector<float>(8)),
                                     tensorOf(ir::DType::Int32, std::vector<int32_t>(8)),
                                     tensorOf(ir::DType::Int8, std::vector<int8_t>(8)),
                                     tensorOf(ir::DType::BFloat16, std::vector<uint16_t>(2))};
  sim::Simulator s;
  auto r = s.run(fe.program, "known", args);
  QVERIFY(r && r->ran && r->faults.empty());
  QCOMPARE(bitsOf(at<float>(args[3], 0)), 0u);  // not 0x33800000: no contraction
  QCOMPARE(bitsOf(at<float>(args[3], 1)),
           bitsOf(static_cast<float>(1.0 / static_cast<double>(std::sqrt(rsIn)))));
  QCOMPARE(at<float>(args[3], 2), 2.0f);                 // ties to even
  QCOMPARE(bitsOf(at<float>(args[3], 3)), 0x80000000u);  // PTX min: -0 < +0
  QCOMPARE(at<float>(args[3], 4), floatOf(0x3f800800));  // max(NaN, a) = a
  QCOMPARE(at<int32_t>(args[4], 0), INT32_MIN);          // INT_MIN // -1 wraps
  QCOMPARE(at<int32_t>(args[4], 1), 0);                  // INT_MIN % -1
  QCOMPARE(at<int32_t>(args[4], 2), 0);                  // 1 << 40: the amount clamps
  QCOMPARE(at<int32_t>(args[4], 3), -1);                 // -8 >> 40: the sign
  QCOMPARE(at<int32_t>(args[4], 4), INT32_MAX);          // INT_MIN + -1 wraps
  QCOMPARE(at<int32_t>(args[4], 5), INT32_MIN);          // abs(INT_MIN)
  QCOMPARE(at<int8_t>(args[5], 0), int8_t{-28});         // (100 + 100) wraps to -56 before // 2
  QCOMPARE(at<int8_t>(args[5], 1), int8_t{44});          // 300.0 → int32 300 → low byte 44
  QCOMPARE(at<int8_t>(args[5], 2), int8_t{0});           // NaN → 0
  QCOMPARE(at<int8_t>(args[5], 3), int8_t{4});  // 100 * 100 wraps to 16 before >> 2 (not 2500)
  // 2^30 + 2^22 + 1 → f32 2^30 + 2^22 (a bf16 tie) → bf16 2^30 (0x4e80), not 0x4e81.
  QCOMPARE(at<uint16_t>(args[6], 0), uint16_t{0x4e80});
}

void TstScalarConform::cudaSpellsOutEveryRounding() {
  FrontEndResult fe = checkScript(kKnown, "known.py");
  QVERIFY(fe.ok());
  const codegen::CodegenResult g = codegen::generateCuda(fe.program);
  QVERIFY2(g.cuda.find("__fadd_rn(__fmul_rn(a, b), c)") != std::string::npos, g.cuda.c_str());
  QVERIFY(g.cuda.find("__fdiv_rn(1.0f, __fsqrt_rn(") != std::string::npos);
  QVERIFY(g.cuda.find("rsqrtf") == std::string::npos);
  QVERIFY(g.cuda.find("rintf(") != std::string::npos);
  QVERIFY(g.cuda.find("tirx_fminf(") != std::string::npos);
  QVERIFY(g.cuda.find("tirx_floordiv(x, ") != std::string::npos);
  QVERIFY(g.cuda.find("tirx_shl(") != std::string::npos);
  QVERIFY(g.cuda.find("tirx_wadd(x, ") != std::string::npos);
  QVERIFY(g.cuda.find("(signed char)tirx_s8(((unsigned)p + (unsigned)p))") != std::string::npos);
  // float → int as inline cvt.rzi: NVRTC would turn __float2int_rz into fptosi, whose
  // out-of-range results are poison
  QVERIFY(g.cuda.find("tirx_f2i_rz(") != std::string::npos);
  QVERIFY(g.cuda.find("__float2int_rz(") == std::string::npos);
  QVERIFY(g.cuda.find("__float2bfloat16_rn((float)(") != std::string::npos);
  auto products = driver::compileProgram(fe.program, "known.py", {}, kKnown);
  QVERIFY2(products && products->ok,
           products ? products->toolLog.c_str() : products.error().text().c_str());
  const std::vector<std::string> bad = conform::forbiddenScalarPtx(products->ptx);
  QVERIFY2(bad.empty(), bad.empty() ? "" : bad.front().c_str());
  QVERIFY(products->ptx.find("sqrt.rn.f32") != std::string::npos);
  QVERIFY(products->ptx.find("min.f32") != std::string::npos);
  QVERIFY(products->ptx.find("cvt.rzi.s32.f32") != std::string::npos);
}

void TstScalarConform::unsignedAbsAndCeildiv() {
  FrontEndResult fe = checkScript(kUnsigned, "unsigned.py");
  QVERIFY2(fe.ok(), formatGcc(fe.diagnostics, "unsigned.py").c_str());
  const uint64_t big = (uint64_t{1} << 63) + 5;
  std::vector<ir::KernelArg> args = {
      tensorOf(ir::DType::UInt64, std::vector<uint64_t>{big, 7, 2, uint64_t{1} << 62}),
      tensorOf(ir::DType::UInt32, std::vector<uint32_t>{0xffffffffu, 2, 6, 3}),
      tensorOf(ir::DType::UInt64, std::vector<uint64_t>(4)),
      tensorOf(ir::DType::UInt32, std::vector<uint32_t>(3))};
  sim::Simulator s;
  auto r = s.run(fe.program, "unsigned_ops", args);
  QVERIFY(r && r->ran && r->faults.empty());
  QCOMPARE(at<uint64_t>(args[2], 0), big);  // not 2^63 - 5
  QCOMPARE(at<uint64_t>(args[2], 1), uint64_t{4});
  QCOMPARE(at<uint64_t>(args[2], 2), uint64_t{3});  // (2^63 + 5) / 2^62 rounded up
  QCOMPARE(at<uint64_t>(args[2], 3), uint64_t{1});
  QCOMPARE(at<uint32_t>(args[3], 0), 0x80000000u);  // a + b - 1 would overflow
  QCOMPARE(at<uint32_t>(args[3], 1), 2u);
  QCOMPARE(at<uint32_t>(args[3], 2), 0xffffffffu);
  // The CUDA spelling computes the same: a quotient and a remainder test, no negation.
  const codegen::CodegenResult g = codegen::generateCuda(fe.program);
  QVERIFY2(g.cuda.find("tirx_floormod(") != std::string::npos, g.cuda.c_str());
  QVERIFY2(g.cuda.find("(-tirx_floordiv(") == std::string::npos, g.cuda.c_str());
}

void TstScalarConform::issue22RegressionsOnTheSimulator() {
  FrontEndResult fe = checkScript(testing::kIssue22Kernel, "issue22.py");
  QVERIFY2(fe.ok(), formatGcc(fe.diagnostics, "issue22.py").c_str());
  std::vector<ir::KernelArg> args = testing::issue22Args();
  sim::Simulator s;
  auto r = s.run(fe.program, "issue22", args);
  QVERIFY(r && r->ran && r->faults.empty());
  const std::string why = testing::issue22Mismatches(args);
  QVERIFY2(why.empty(), why.c_str());
  // The H100's record came from the default options (seed 22): the default generator still
  // writes its eight expressions, so tst_scalar_host_slow's whole run covers them.
  conform::ScalarConformOptions o;
  QCOMPARE(o.seed, uint64_t{22});
  std::set<std::string> texts;
  for (const auto& c : conform::scalarCases(o)) texts.insert(c.text);
  for (const auto& e : testing::kIssue22Expressions) QVERIFY2(texts.count(e) == 1, e.c_str());
}

// DEC-SCALAR-6: every 8/16-bit result is computed in 32 bits and brought back to its type by the
// prelude's opaque cvt, so NVRTC emits no 16-bit negation, left shift, add, sub or multiply (the
// operations that wrap); the H100 compared -(-32768) as +32768 after neg.s16 (and 0x8000 << 1 as
// non-zero after shl.b16).
void TstScalarConform::narrowArithmeticStaysIn32BitPtx() {
  FrontEndResult fe = checkScript(testing::kIssue22Kernel, "issue22.py");
  QVERIFY(fe.ok());
  const codegen::CodegenResult g = codegen::generateCuda(fe.program);
  QVERIFY2(g.cuda.find("(short)tirx_s16(0u - (unsigned)m)") != std::string::npos, g.cuda.c_str());
  QVERIFY(g.cuda.find("(unsigned short)tirx_u16(0u - (unsigned)") != std::string::npos);
  QVERIFY(g.cuda.find("tirx_nshl(m, ") != std::string::npos);
  QVERIFY(g.cuda.find("(short)(0u - ") == std::string::npos);  // never a bare narrowing cast
  auto products = driver::compileProgram(fe.program, "issue22.py", {}, testing::kIssue22Kernel);
  QVERIFY2(products && products->ok,
           products ? products->toolLog.c_str() : products.error().text().c_str());
  const std::regex narrowOp(R"(\b(neg|add|sub|mul\.lo|shl)\.[sub]16\b)");
  std::smatch m;
  QVERIFY2(!std::regex_search(products->ptx, m, narrowOp),
           (m.empty() ? std::string() : m.str()).c_str());
  QVERIFY(products->ptx.find("cvt.s32.s16") != std::string::npos);
}

void TstScalarConform::generatorIsDeterministicAndCoversEveryDtype() {
  conform::ScalarConformOptions o;
  const auto a = conform::scalarCases(o), b = conform::scalarCases(o);
  QVERIFY(a.size() >= 2000);
  QCOMPARE(a.size(), b.size());
  std::set<ir::DType> types;
  std::string all;
  int approx = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    QCOMPARE(a[i].text, b[i].text);
    types.insert(a[i].dtype);
    all += a[i].text + "\n";
    approx += !a[i].approx.empty();
  }
  QCOMPARE(types.size(), size_t{12});
  QVERIFY(approx > 100 && approx < 400);
  for (const char* op : {" + ",        " - ",      " * ",        " / ",         " // ",
                         " % ",        " & ",      " | ",        " ^ ",         " << ",
                         " >> ",       "(-",       "(~",         " if ",        "T.if_then_else(",
                         "T.Cast(",    " and ",    " or ",       "(not ",       " < ",
                         " >= ",       " == ",     " != ",       "T.min(",      "T.max(",
                         "T.abs(",     "T.fabs(",  "T.sqrt(",    "T.rsqrt(",    "T.floor(",
                         "T.ceil(",    "T.round(", "T.ceildiv(", "T.exp(",      "T.exp2(",
                         "T.log(",     "T.log2(",  "T.sin(",     "T.cos(",      "T.tanh(",
                         "T.sigmoid(", "T.pow(",   "T.float16(", "T.bfloat16(", "T.uint64(",
                         "T.int8("})
    QVERIFY2(all.find(op) != std::string::npos, op);
  o.seed = 23;
  QVERIFY(conform::scalarCases(o)[1].text != a[1].text);
}

void TstScalarConform::everyBatchChecksAndRunsOnTheSimulator() {
  conform::ScalarConformOptions o;
  auto r = conform::runScalarConformance(nullptr, o);
  QVERIFY(r);
  QVERIFY2(r->failures.empty(), r->failures.empty() ? "" : r->failures.front().c_str());
  QCOMPARE(r->expressions, 2400);
  QCOMPARE(r->evaluations, int64_t{2400} * conform::kScalarThreads);
  QVERIFY(r->passed());
}

void TstScalarConform::oneBatchCompilesWithoutContractionOrApprox() {
  conform::ScalarConformOptions o;
  o.expressions = 96;
  o.perKernel = 96;
  o.compile = true;
  auto r = conform::runScalarConformance(nullptr, o);
  QVERIFY(r);
  QVERIFY2(r->failures.empty(), r->failures.empty() ? "" : r->failures.front().c_str());
  QVERIFY2(r->ptxProblems.empty(), r->ptxProblems.empty() ? "" : r->ptxProblems.front().c_str());
  QCOMPARE(r->kernels, 2);  // the exact batch and the libdevice batch
}

void TstScalarConform::agreementRules() {
  using ir::DType;
  QVERIFY(conform::scalarAgree(DType::Float32, 0x7fc00000, 0xffffffff, 0));  // any NaN
  QVERIFY(
      !conform::scalarAgree(DType::Float32, 0x00000000, 0x80000000, 0));  // the sign of 0 counts
  QVERIFY(!conform::scalarAgree(DType::Float32, 0x3f800000, 0x3f800001, 0));
  QVERIFY(conform::scalarAgree(DType::Float32, 0x3f800000, 0x3f800002, 2));
  QVERIFY(conform::scalarAgree(DType::Float32, 0x80000001, 0x00000001, 2));   // across zero
  QVERIFY(!conform::scalarAgree(DType::Float32, 0x7f800000, 0x7fc00000, 4));  // inf is not NaN
  QVERIFY(!conform::scalarAgree(DType::Int32, 0xffffffff, 0xfffffffe, 4));    // ints are exact
  QVERIFY(conform::scalarAgree(DType::Float16, 0x7e00, 0x7fff, 0));
  const std::string ptx =
      "\tadd.rn.f32 %f3, %f1, %f2;\n\tfma.rn.f32 %f4, %f1, %f2, %f3;\n"
      "\trsqrt.approx.ftz.f32 %f5, %f4;\n\tmad.lo.s32 %r1, %r2, %r3, %r4;\n";
  const auto bad = conform::forbiddenScalarPtx(ptx);
  QCOMPARE(bad.size(), size_t{2});
  QCOMPARE(bad[0], std::string("fma.rn.f32 at PTX line 2"));
  QCOMPARE(bad[1], std::string("rsqrt.approx.ftz.f32 at PTX line 3"));
}

void TstScalarConform::aDifferingDeviceIsCaughtAndRecordsReplay() {
  conform::ScalarConformOptions o;
  o.expressions = 48;
  o.perKernel = 48;
  OneBitOff off;
  auto r = conform::runScalarConformance(&off, o);
  QVERIFY(r);
  QCOMPARE(r->disagreements, 1);
  QCOMPARE(r->examples.size(), size_t{1});
  QCOMPARE(r->examples[0].thread, 5);
  QVERIFY(!r->passed());
  QVERIFY(!r->recordJson.empty());
  auto replayed = conform::replayScalarRecord(r->recordJson);
  QVERIFY(replayed);
  QCOMPARE(replayed->disagreements, 1);
  // An honest device records a file that replays with no disagreement.
  sim::Simulator honest;
  auto ok = conform::runScalarConformance(&honest, o);
  QVERIFY(ok && ok->passed());
  auto again = conform::replayScalarRecord(ok->recordJson);
  QVERIFY(again && again->passed());
  QCOMPARE(again->evaluations, int64_t{48} * conform::kScalarThreads);
  QVERIFY(!conform::replayScalarRecord("{\"format\": \"other\"}"));
  // A digest the simulator no longer gives (its semantics changed since the record) is stale:
  // the device's bits are unknown, so it is not reported as a disagreement, and it does not pass.
  std::string changed = ok->recordJson;
  const size_t d = changed.find("{\"d\":\"0x") + 9;
  changed[d] = changed[d] == '1' ? '2' : '1';
  auto outdated = conform::replayScalarRecord(changed);
  QVERIFY(outdated);
  QCOMPARE(outdated->disagreements, 0);
  QCOMPARE(outdated->stale, 1);
  QCOMPARE(outdated->staleExamples.size(), size_t{1});
  QVERIFY(!outdated->passed());
  std::string stale = ok->recordJson;
  stale.replace(stale.find("\"generator\":1"), 13, "\"generator\":0");
  QVERIFY(!conform::replayScalarRecord(stale));
}

QTEST_GUILESS_MAIN(TstScalarConform)
#include "tst_scalar_conform.moc"
