// Tests of the PTX instruction table (core/ptx): every spelling of the seeds and spec §2.4 parses
// to the expected family, qualifiers, operand roles, atoms, carriers (§2.5), constraint letters
// (§2.6) and minimum target; misspellings are rejected with the expected message and column;
// completions, hovers and docs/ptx.md come from the same table.
#include <QFile>
#include <QtTest>

#include "core/ptx/ptx_rows.h"
#include "core/ptx/ptx_table.h"
#include "core/ptx/ptx_tma.h"
#include "core/ptx/ptx_wgmma.h"

using namespace tirx;

namespace {

/// Compact operand signature: role+name:ptxType:bits x atom:dtypes:constraint, '*' = scalar ok.
std::string signature(const PtxInstruction& in, int arity) {
  std::string out;
  for (const PtxOperandSpec& o : in.operandsFor(arity)) {
    if (!out.empty()) out += " ";
    out += o.role == OperandRole::DstReg ? "D" : o.role == OperandRole::SrcReg ? "S" : "A";
    out += o.name + ":" + o.ptxType + ":" + std::to_string(o.bits) + "x" + std::to_string(o.atom) +
           ":";
    for (size_t i = 0; i < o.dtypes.size(); ++i) out += (i ? "," : "") + o.dtypes[i];
    out += ":" + o.constraint + (o.scalarAllowed ? "*" : "");
  }
  return out;
}

}  // namespace

class TstPtxTable : public QObject {
  Q_OBJECT

 private slots:
  void accepts_data();
  void accepts();
  void fields_data();
  void fields();
  void rejects_data();
  void rejects();
  void arity();
  void registerOnlyFamilies();
  void familiesAndExamples();
  void dtypeBitsAndConstraints();
  void carriers();
  void tokensAndCompletions();
  void enumerationParses();
  void markdownInDocs();
  void tmaSpellings();
  void wgmmaSpellings();
  void wgmmaRejects_data();
  void wgmmaRejects();
  void tmaRejects_data();
  void tmaRejects();
};

void TstPtxTable::accepts_data() {
  QTest::addColumn<QString>("op");
  QTest::addColumn<QString>("sig");
  QTest::addColumn<int>("minSm");
  const char* b32 = "uint32,int32,float32";
  auto ldsig = [&](const char* t, int bits, int n, const char* dts, const char* c, const char* ac) {
    std::string a = std::to_string(bits) + "x" + std::to_string(n);
    return QString::fromStdString(std::string("Dd:") + t + ":" + a + ":" + dts + ":" + c +
                                  " Aa:" + t + ":" + a + ":" + dts + ":" + ac);
  };
  auto stsig = [&](const char* t, int bits, int n, const char* dts, const char* c, const char* ac) {
    std::string a = std::to_string(bits) + "x" + std::to_string(n);
    return QString::fromStdString(std::string("Aa:") + t + ":" + a + ":" + dts + ":" + ac +
                                  " Sb:" + t + ":" + a + ":" + dts + ":" + c);
  };
  // Seeds and spec §2.4.
  QTest::newRow("ld.global.v4.b32")
      << "ld.global.v4.b32" << ldsig(".b32", 32, 4, b32, "r", "l") << 50;
  QTest::newRow("st.global.v4.b32")
      << "st.global.v4.b32" << stsig(".b32", 32, 4, b32, "r", "l") << 50;
  QTest::newRow("ld.shared.v4.b32")
      << "ld.shared.v4.b32" << ldsig(".b32", 32, 4, b32, "r", "r") << 50;
  QTest::newRow("st.shared.v4.b32")
      << "st.shared.v4.b32" << stsig(".b32", 32, 4, b32, "r", "r") << 50;
  QTest::newRow("st.global.v4.b16")
      << "st.global.v4.b16" << stsig(".b16", 16, 4, "uint16,int16,float16,bfloat16", "h", "l")
      << 50;
  QTest::newRow("ld.global.f32") << "ld.global.f32" << ldsig(".f32", 32, 1, "float32", "f", "l")
                                 << 50;
  QTest::newRow("st.global.f32") << "st.global.f32" << stsig(".f32", 32, 1, "float32", "f", "l")
                                 << 50;
  QTest::newRow("ld.shared::cta.v2.b64")
      << "ld.shared::cta.v2.b64" << ldsig(".b64", 64, 2, "uint64,int64,float64", "l", "r") << 50;
  QTest::newRow("ld.global.v2.u32")
      << "ld.global.v2.u32" << ldsig(".u32", 32, 2, "uint32", "r", "l") << 50;
  QTest::newRow("ld.global.v4.b8")
      << "ld.global.v4.b8" << ldsig(".b8", 8, 4, "uint8,int8,bool", "h", "l") << 50;
  QTest::newRow("ld.global.v8.b32 (256-bit)")
      << "ld.global.v8.b32" << ldsig(".b32", 32, 8, b32, "r", "l") << 100;
  QTest::newRow("ld.global.v4.b64 (256-bit)")
      << "ld.global.v4.b64" << ldsig(".b64", 64, 4, "uint64,int64,float64", "l", "l") << 100;
  QTest::newRow("ld.global.cg.v4.f32")
      << "ld.global.cg.v4.f32" << ldsig(".f32", 32, 4, "float32", "f", "l") << 50;
  QTest::newRow("ld.global.cv.b32")
      << "ld.global.cv.b32" << ldsig(".b32", 32, 1, b32, "r", "l") << 50;
  QTest::newRow("ld.global.nc.v4.b32")
      << "ld.global.nc.v4.b32" << ldsig(".b32", 32, 4, b32, "r", "l") << 50;
  QTest::newRow("ld.global.L1::evict_last.v4.b32")
      << "ld.global.L1::evict_last.v4.b32" << ldsig(".b32", 32, 4, b32, "r", "l") << 70;
  QTest::newRow("ld.global.L2::256B.v4.b32")
      << "ld.global.L2::256B.v4.b32" << ldsig(".b32", 32, 4, b32, "r", "l") << 80;
  QTest::newRow("st.global.wt.v2.b32")
      << "st.global.wt.v2.b32" << stsig(".b32", 32, 2, b32, "r", "l") << 50;
  QTest::newRow("st.global.cs.v4.b32")
      << "st.global.cs.v4.b32" << stsig(".b32", 32, 4, b32, "r", "l") << 50;

  const char* f32bin = "Dd:.f32:32x1:float32:f Sa:.f32:32x1:float32:f* Sb:.f32:32x1:float32:f*";
  const char* f32un = "Dd:.f32:32x1:float32:f Sa:.f32:32x1:float32:f*";
  const char* f64bin = "Dd:.f64:64x1:float64:d Sa:.f64:64x1:float64:d* Sb:.f64:64x1:float64:d*";
  const char* u32bin = "Dd:.u32:32x1:uint32:r Sa:.u32:32x1:uint32:r* Sb:.u32:32x1:uint32:r*";
  const char* h2bin = "Dd:.f16x2:32x1:uint32:r Sa:.f16x2:32x1:uint32:r* Sb:.f16x2:32x1:uint32:r*";
  QTest::newRow("mov.b32") << "mov.b32" << QString("Dd:.b32:32x1:%1:r Sa:.b32:32x1:%1:r*").arg(b32)
                           << 50;
  QTest::newRow("mov.b16") << "mov.b16"
                           << "Dd:.b16:16x1:uint16,int16,float16,bfloat16:h "
                              "Sa:.b16:16x1:uint16,int16,float16,bfloat16:h*"
                           << 50;
  QTest::newRow("mov.b64")
      << "mov.b64"
      << "Dd:.b64:64x1:uint64,int64,float64:l Sa:.b64:64x1:uint64,int64,float64:l*" << 50;
  QTest::newRow("mov.f32") << "mov.f32" << f32un << 50;
  QTest::newRow("add.rn.f32") << "add.rn.f32" << f32bin << 50;
  QTest::newRow("sub.rz.ftz.sat.f32") << "sub.rz.ftz.sat.f32" << f32bin << 50;
  QTest::newRow("mul.rp.f32") << "mul.rp.f32" << f32bin << 50;
  QTest::newRow("add.rm.f64") << "add.rm.f64" << f64bin << 50;
  QTest::newRow("add.u32") << "add.u32" << u32bin << 50;
  QTest::newRow("add.sat.s32") << "add.sat.s32"
                               << "Dd:.s32:32x1:int32:r Sa:.s32:32x1:int32:r* Sb:.s32:32x1:int32:r*"
                               << 50;
  QTest::newRow("mul.lo.u32") << "mul.lo.u32" << u32bin << 50;
  QTest::newRow("mul.wide.u32")
      << "mul.wide.u32"
      << "Dd:.u64:64x1:uint64:l Sa:.u32:32x1:uint32:r* Sb:.u32:32x1:uint32:r*" << 50;
  QTest::newRow("add.rn.f16x2") << "add.rn.f16x2" << h2bin << 53;
  QTest::newRow("mul.rn.bf16x2")
      << "mul.rn.bf16x2"
      << "Dd:.bf16x2:32x1:uint32:r Sa:.bf16x2:32x1:uint32:r* Sb:.bf16x2:32x1:uint32:r*" << 90;
  QTest::newRow("add.rn.f32x2")
      << "add.rn.f32x2"
      << "Dd:.f32x2:64x1:uint64:l Sa:.f32x2:64x1:uint64:l* Sb:.f32x2:64x1:uint64:l*" << 100;
  QTest::newRow("add.rn.f16")
      << "add.rn.f16"
      << "Dd:.f16:16x1:uint16:h Sa:.f16:16x1:uint16:h* Sb:.f16:16x1:uint16:h*" << 53;
  QTest::newRow("fma.rn.f32") << "fma.rn.f32"
                              << "Dd:.f32:32x1:float32:f Sa:.f32:32x1:float32:f* "
                                 "Sb:.f32:32x1:float32:f* Sc:.f32:32x1:float32:f*"
                              << 50;
  QTest::newRow("fma.rz.ftz.sat.f32") << "fma.rz.ftz.sat.f32"
                                      << "Dd:.f32:32x1:float32:f Sa:.f32:32x1:float32:f* "
                                         "Sb:.f32:32x1:float32:f* Sc:.f32:32x1:float32:f*"
                                      << 50;
  QTest::newRow("fma.rn.f16x2") << "fma.rn.f16x2" << QString(h2bin) + " Sc:.f16x2:32x1:uint32:r*"
                                << 53;
  QTest::newRow("fma.rn.bf16x2")
      << "fma.rn.bf16x2"
      << "Dd:.bf16x2:32x1:uint32:r Sa:.bf16x2:32x1:uint32:r* Sb:.bf16x2:32x1:uint32:r* "
         "Sc:.bf16x2:32x1:uint32:r*"
      << 80;
  QTest::newRow("fma.rn.f32x2")
      << "fma.rn.f32x2"
      << "Dd:.f32x2:64x1:uint64:l Sa:.f32x2:64x1:uint64:l* Sb:.f32x2:64x1:uint64:l* "
         "Sc:.f32x2:64x1:uint64:l*"
      << 100;
  QTest::newRow("div.rn.f32") << "div.rn.f32" << f32bin << 50;
  QTest::newRow("div.approx.ftz.f32") << "div.approx.ftz.f32" << f32bin << 50;
  QTest::newRow("div.full.f32") << "div.full.f32" << f32bin << 50;
  QTest::newRow("div.rn.f64") << "div.rn.f64" << f64bin << 50;
  QTest::newRow("rcp.approx.ftz.f32") << "rcp.approx.ftz.f32" << f32un << 50;
  QTest::newRow("rcp.rn.f32") << "rcp.rn.f32" << f32un << 50;
  QTest::newRow("sqrt.rn.f32") << "sqrt.rn.f32" << f32un << 50;
  QTest::newRow("sqrt.approx.ftz.f32") << "sqrt.approx.ftz.f32" << f32un << 50;
  QTest::newRow("sqrt.rn.ftz.f32") << "sqrt.rn.ftz.f32" << f32un << 50;
  QTest::newRow("max.f32") << "max.f32" << f32bin << 50;
  QTest::newRow("min.ftz.NaN.f32") << "min.ftz.NaN.f32" << f32bin << 80;
  QTest::newRow("max.f16x2") << "max.f16x2" << h2bin << 80;
  QTest::newRow("min.u32") << "min.u32" << u32bin << 50;
  QTest::newRow("ex2.approx.ftz.f32") << "ex2.approx.ftz.f32" << f32un << 50;
  QTest::newRow("lg2.approx.ftz.f32") << "lg2.approx.ftz.f32" << f32un << 50;
  QTest::newRow("lg2.approx.f32") << "lg2.approx.f32" << f32un << 50;
  QTest::newRow("abs.f32") << "abs.f32" << f32un << 50;
  QTest::newRow("neg.ftz.f32") << "neg.ftz.f32" << f32un << 50;
  QTest::newRow("abs.f16") << "abs.f16"
                           << "Dd:.f16:16x1:uint16:h Sa:.f16:16x1:uint16:h*" << 53;
  QTest::newRow("neg.bf16") << "neg.bf16"
                            << "Dd:.bf16:16x1:uint16:h Sa:.bf16:16x1:uint16:h*" << 80;
  QTest::newRow("cvt.rn.f16.f32") << "cvt.rn.f16.f32"
                                  << "Dd:.f16:16x1:uint16:h Sa:.f32:32x1:float32:f*" << 50;
  QTest::newRow("cvt.rz.ftz.sat.f16.f32") << "cvt.rz.ftz.sat.f16.f32"
                                          << "Dd:.f16:16x1:uint16:h Sa:.f32:32x1:float32:f*" << 50;
  QTest::newRow("cvt.rn.bf16.f32") << "cvt.rn.bf16.f32"
                                   << "Dd:.bf16:16x1:uint16:h Sa:.f32:32x1:float32:f*" << 80;
  QTest::newRow("cvt.rn.f16x2.f32")
      << "cvt.rn.f16x2.f32"
      << "Dd:.f16x2:32x1:uint32:r Shi:.f32:32x1:float32:f* Slo:.f32:32x1:float32:f*" << 80;
  QTest::newRow("cvt.rn.bf16x2.f32")
      << "cvt.rn.bf16x2.f32"
      << "Dd:.bf16x2:32x1:uint32:r Shi:.f32:32x1:float32:f* Slo:.f32:32x1:float32:f*" << 80;
  QTest::newRow("cvt.f32.f16") << "cvt.f32.f16"
                               << "Dd:.f32:32x1:float32:f Sa:.f16:16x1:uint16:h*" << 50;
  QTest::newRow("cvt.f32.bf16") << "cvt.f32.bf16"
                                << "Dd:.f32:32x1:float32:f Sa:.bf16:16x1:uint16:h*" << 80;
  QTest::newRow("cvt.rni.s32.f32") << "cvt.rni.s32.f32"
                                   << "Dd:.s32:32x1:int32:r Sa:.f32:32x1:float32:f*" << 50;
  QTest::newRow("cvt.rzi.u32.f64") << "cvt.rzi.u32.f64"
                                   << "Dd:.u32:32x1:uint32:r Sa:.f64:64x1:float64:d*" << 50;
  QTest::newRow("cvt.rn.f32.s32") << "cvt.rn.f32.s32"
                                  << "Dd:.f32:32x1:float32:f Sa:.s32:32x1:int32:r*" << 50;
  QTest::newRow("cvt.rn.f32.f64") << "cvt.rn.f32.f64"
                                  << "Dd:.f32:32x1:float32:f Sa:.f64:64x1:float64:d*" << 50;
  QTest::newRow("cvt.rni.f32.f32") << "cvt.rni.f32.f32" << f32un << 50;
  QTest::newRow("cvt.sat.u8.s32") << "cvt.sat.u8.s32"
                                  << "Dd:.u8:8x1:uint8:h Sa:.s32:32x1:int32:r*" << 50;
}

void TstPtxTable::accepts() {
  QFETCH(QString, op);
  QFETCH(QString, sig);
  QFETCH(int, minSm);
  PtxParseError err;
  std::optional<PtxInstruction> in = parsePtxOpcode(op.toStdString(), &err);
  QVERIFY2(in.has_value(), err.message.c_str());
  QCOMPARE(QString::fromStdString(in->opcode), op);
  QCOMPARE(QString::fromStdString(signature(*in, in->minArity)), sig);
  QCOMPARE(in->minSm, minSm);
  QVERIFY(!in->description.empty());
  QCOMPARE(err.message, std::string());
}

void TstPtxTable::fields_data() {
  QTest::addColumn<QString>("op");
  QTest::addColumn<int>("family");
  QTest::addColumn<QString>("space");
  QTest::addColumn<int>("vector");
  QTest::addColumn<QString>("type");
  QTest::addColumn<QString>("srcType");
  QTest::addColumn<QString>("rounding");
  QTest::addColumn<QString>("flags");  // f=ftz s=sat a=approx n=NaN p=packed
  auto F = [](PtxFamily f) { return static_cast<int>(f); };
  QTest::newRow("ld") << "ld.global.v4.b32" << F(PtxFamily::Ld) << "global" << 4 << ".b32"
                      << ""
                      << ""
                      << "";
  QTest::newRow("ld cta") << "ld.shared::cta.v2.b16" << F(PtxFamily::Ld) << "shared::cta" << 2
                          << ".b16"
                          << ""
                          << ""
                          << "";
  QTest::newRow("st shared") << "st.shared.b64" << F(PtxFamily::St) << "shared" << 1 << ".b64"
                             << ""
                             << ""
                             << "";
  QTest::newRow("fma") << "fma.rn.ftz.sat.f32" << F(PtxFamily::Fma) << "" << 1 << ".f32"
                       << ""
                       << ".rn"
                       << "fs";
  QTest::newRow("add packed") << "add.rn.f16x2" << F(PtxFamily::Add) << "" << 1 << ".f16x2"
                              << ""
                              << ".rn"
                              << "p";
  QTest::newRow("div approx") << "div.approx.ftz.f32" << F(PtxFamily::Div) << "" << 1 << ".f32"
                              << ""
                              << ""
                              << "fa";
  QTest::newRow("div full") << "div.full.f32" << F(PtxFamily::Div) << "" << 1 << ".f32"
                            << ""
                            << ""
                            << "a";
  QTest::newRow("rcp") << "rcp.approx.ftz.f32" << F(PtxFamily::Rcp) << "" << 1 << ".f32"
                       << ""
                       << ""
                       << "fa";
  QTest::newRow("max nan") << "max.NaN.f32" << F(PtxFamily::Max) << "" << 1 << ".f32"
                           << ""
                           << ""
                           << "n";
  QTest::newRow("ex2") << "ex2.approx.ftz.f32" << F(PtxFamily::Ex2) << "" << 1 << ".f32"
                       << ""
                       << ""
                       << "fa";
  QTest::newRow("cvt") << "cvt.rn.f16x2.f32" << F(PtxFamily::Cvt) << "" << 1 << ".f16x2"
                       << ".f32"
                       << ".rn"
                       << "p";
  QTest::newRow("cvt rni") << "cvt.rni.s32.f32" << F(PtxFamily::Cvt) << "" << 1 << ".s32"
                           << ".f32"
                           << ".rni"
                           << "";
  QTest::newRow("neg") << "neg.f32" << F(PtxFamily::Neg) << "" << 1 << ".f32"
                       << ""
                       << ""
                       << "";
  QTest::newRow("sub") << "sub.rm.f64" << F(PtxFamily::Sub) << "" << 1 << ".f64"
                       << ""
                       << ".rm"
                       << "";
  QTest::newRow("mul") << "mul.rz.sat.f32" << F(PtxFamily::Mul) << "" << 1 << ".f32"
                       << ""
                       << ".rz"
                       << "s";
  QTest::newRow("sqrt") << "sqrt.rp.f32" << F(PtxFamily::Sqrt) << "" << 1 << ".f32"
                        << ""
                        << ".rp"
                        << "";
  QTest::newRow("lg2") << "lg2.approx.f32" << F(PtxFamily::Lg2) << "" << 1 << ".f32"
                       << ""
                       << ""
                       << "a";
  QTest::newRow("abs") << "abs.ftz.f32" << F(PtxFamily::Abs) << "" << 1 << ".f32"
                       << ""
                       << ""
                       << "f";
  QTest::newRow("min") << "min.s32" << F(PtxFamily::Min) << "" << 1 << ".s32"
                       << ""
                       << ""
                       << "";
  QTest::newRow("mov") << "mov.b16" << F(PtxFamily::Mov) << "" << 1 << ".b16"
                       << ""
                       << ""
                       << "";
}

void TstPtxTable::fields() {
  QFETCH(QString, op);
  QFETCH(int, family);
  QFETCH(QString, space);
  QFETCH(int, vector);
  QFETCH(QString, type);
  QFETCH(QString, srcType);
  QFETCH(QString, rounding);
  QFETCH(QString, flags);
  std::optional<PtxInstruction> in = parsePtxOpcode(op.toStdString());
  QVERIFY(in.has_value());
  QCOMPARE(static_cast<int>(in->family), family);
  QCOMPARE(QString::fromStdString(in->space), space);
  QCOMPARE(in->vector, vector);
  QCOMPARE(QString::fromStdString(in->type), type);
  QCOMPARE(QString::fromStdString(in->srcType), srcType);
  QCOMPARE(QString::fromStdString(in->rounding), rounding);
  QString got;
  if (in->ftz) got += 'f';
  if (in->sat) got += 's';
  if (in->approx) got += 'a';
  if (in->nanMode) got += 'n';
  if (in->packed) got += 'p';
  QCOMPARE(got, flags);
  QCOMPARE(in->isMemory(), in->family == PtxFamily::Ld || in->family == PtxFamily::St);
  // Qualifiers: every token after the family, in order.
  std::string joined(familyName(in->family));
  for (const std::string& q : in->qualifiers) joined += q;
  QCOMPARE(QString::fromStdString(joined), op);
}

// Decision SCHED-1: exactly the register arithmetic is emitted as plain (schedulable) asm; memory
// operations, cp.async and the warp-synchronous collectives are not register-only.
void TstPtxTable::registerOnlyFamilies() {
  for (const char* op :
       {"mov.b32", "add.rn.f32", "add.rm.f32", "sub.s32", "mul.lo.u32", "fma.rn.f32", "div.rn.f32",
        "rcp.approx.ftz.f32", "sqrt.rn.f32", "min.f32", "max.f32", "ex2.approx.ftz.f32",
        "lg2.approx.ftz.f32", "abs.f32", "neg.f32", "cvt.rn.bf16x2.f32"}) {
    std::optional<PtxInstruction> in = parsePtxOpcode(op);
    QVERIFY2(in, op);
    QVERIFY2(in->isRegisterOnly(), op);
  }
  for (const char* op : {"ld.global.f32", "st.global.v4.b32", "ld.shared.v4.b32",
                         "shfl.sync.bfly.b32", "redux.sync.add.u32", "cp.async.cg.shared.global",
                         "ldmatrix.sync.aligned.m8n8.x4.shared.b16"}) {
    std::optional<PtxInstruction> in = parsePtxOpcode(op);
    QVERIFY2(in, op);
    QVERIFY2(!in->isRegisterOnly(), op);
  }
}

void TstPtxTable::rejects_data() {
  QTest::addColumn<QString>("op");
  QTest::addColumn<QString>("message");
  QTest::addColumn<int>("column");
  QTest::newRow("unknown family") << "lod.global.v4.b32"
                                  << "unknown PTX instruction family 'lod' (did you mean 'ld'?)"
                                  << 0;
  QTest::newRow("unknown family, far") << "frobnicate.f32"
                                       << "unknown PTX instruction family 'frobnicate'" << 0;
  QTest::newRow("unsupported family")
      << "rsqrt.approx.f32"
      << "the PTX instruction family 'rsqrt' is not in the supported "
         "tile instruction table (supported: ld, st, mov, add, sub, "
         "mul, fma, div, rcp, sqrt, min, max, ex2, lg2, abs, neg, cvt, "
         "ldmatrix, stmatrix, mma, shfl or redux)"
      << 0;
  QTest::newRow("v3") << "ld.global.v3.b32"
                      << "'.v3' is not a vector width of ld (expected .v2, .v4 or .v8)" << 9;
  QTest::newRow("st v16") << "st.shared.v16.b32"
                          << "'.v16' is not a vector width of st (expected .v2, .v4 or .v8)" << 9;
  QTest::newRow("max rounding") << "max.rn.f32"
                                << "max.f32 does not take a rounding modifier" << 3;
  QTest::newRow("min rounding later") << "min.ftz.rz.f32"
                                      << "min.f32 does not take a rounding modifier" << 7;
  QTest::newRow("missing type")
      << "ld.global.v4"
      << "missing type qualifier: ld.global.v4 needs .b16, .b32, .b64, ..." << 12;
  QTest::newRow("missing space") << "ld.v4.b32"
                                 << "missing state space: ld.v4.b32 needs .global, .shared or "
                                    ".shared::cta"
                                 << 9;
  QTest::newRow("fma without rounding")
      << "fma.f32"
      << "missing rounding modifier: fma.f32 needs .rn, .rz, .rm or .rp" << 7;
  QTest::newRow("div without mode") << "div.f32"
                                    << "missing rounding or approximation modifier: div.f32 needs "
                                       ".approx, .full, .rn, .rz, .rm or .rp"
                                    << 7;
  QTest::newRow("mul int without mode") << "mul.u32"
                                        << "missing mode: mul.u32 needs .lo, .hi or .wide" << 7;
  QTest::newRow("misspelled ftz") << "add.ftx.f32"
                                  << "'.ftx' is not a qualifier of add.f32 (did you mean '.ftz'?)"
                                  << 3;
  QTest::newRow("type not last") << "add.f32.rn"
                                 << "type qualifier '.f32' must come last in add.f32.rn" << 3;
  QTest::newRow("ftz on f64") << "add.ftz.f64"
                              << "add.f64 does not take '.ftz'" << 3;
  QTest::newRow("sat on f64") << "fma.rn.sat.f64"
                              << "fma.f64 does not take '.sat'" << 6;
  QTest::newRow("f16 type on ld")
      << "ld.global.f16"
      << "'.f16' is not a type of ld (expected .b16, .b32, .b64, .b8, .u8, "
         ".u16, .u32, .u64, .s8, .s16, ...)"
      << 9;
  QTest::newRow("cvt missing src") << "cvt.rn.f16"
                                   << "missing source type: cvt.rn.f16 needs a destination and a "
                                      "source type, e.g. cvt.rn.f16.f32"
                                   << 10;
  QTest::newRow("cvt widening with rounding")
      << "cvt.rn.f32.f16"
      << "cvt.f32.f16 does not take a rounding modifier" << 3;
  QTest::newRow("cvt float to int needs irnd") << "cvt.s32.f32"
                                               << "missing rounding modifier: cvt.s32.f32 needs "
                                                  ".rni, .rzi, .rmi or .rpi"
                                               << 11;
  QTest::newRow("cvt int rounding on narrowing")
      << "cvt.rni.f16.f32"
      << "cvt.f16.f32 does not take an integer rounding modifier" << 3;
  QTest::newRow("cvt f16x2 rm") << "cvt.rm.f16x2.f32"
                                << "cvt.f16x2.f32 does not take a rounding modifier" << 3;
  QTest::newRow("cvt no such pair") << "cvt.rn.f16x2.f16"
                                    << "cvt has no form converting .f16 to .f16x2" << 6;
  QTest::newRow("cvt sat impossible")
      << "cvt.sat.s32.s16"
      << "cvt.s32.s16 does not take '.sat': .s32 holds every .s16 value" << 0;
  QTest::newRow("empty") << ""
                         << "empty PTX instruction" << 0;
  QTest::newRow("double dot") << "ld.global..b32"
                              << "empty qualifier after '.' in 'ld.global..b32'" << 9;
  QTest::newRow("trailing dot") << "ld.global.b32."
                                << "empty qualifier after '.' in 'ld.global.b32.'" << 13;
  QTest::newRow("leading dot") << ".global.b32"
                               << "PTX instruction starts with '.': expected a family name" << 0;
  QTest::newRow("duplicate") << "add.ftz.ftz.f32"
                             << "duplicate qualifier '.ftz'" << 7;
  QTest::newRow("two roundings")
      << "add.rn.rz.f32"
      << "'.rz' conflicts with '.rn': add.f32 takes at most a rounding modifier" << 6;
  QTest::newRow("v8 on shared") << "ld.shared.v8.b32"
                                << "'.v8' needs '.global' in ld.shared.v8.b32" << 9;
  QTest::newRow("v8 of b16")
      << "ld.global.v8.b16"
      << "'.v8' is not a vector width of ld.b16: .v8 needs a 32-bit type (.b32, "
         ".u32, .s32 or .f32)"
      << 12;
  QTest::newRow("v4 b64 on shared")
      << "st.shared.v4.b64"
      << "st.shared.v4.b64 is a 256-bit access, which only .global supports" << 0;
  QTest::newRow("nc on shared") << "ld.shared.nc.b32"
                                << "'.nc' needs '.global' in ld.shared.nc.b32" << 9;
  QTest::newRow("lu with nc") << "ld.global.nc.lu.b32"
                              << "'.lu' cannot be combined with '.nc'" << 12;
  QTest::newRow("cache and eviction") << "ld.global.cg.L1::evict_last.b32"
                                      << "'.L1::evict_last' cannot be combined with '.cg'" << 12;
  QTest::newRow("st cache op of ld") << "st.global.ca.b32"
                                     << "st.b32 does not take a cache operator" << 9;
  QTest::newRow("ld cache op of st") << "ld.global.wb.b32"
                                     << "ld.b32 does not take a cache operator" << 9;
  QTest::newRow("xorsign alone") << "max.xorsign.f32"
                                 << "'.xorsign' needs '.abs' in max.xorsign.f32" << 3;
  QTest::newRow("f32x2 sat") << "add.rn.sat.f32x2"
                             << "add.f32x2 does not take '.sat'" << 6;
  QTest::newRow("f16 rz") << "add.rz.f16x2"
                          << "add.f16x2 does not take a rounding modifier" << 3;
  QTest::newRow("mov.f16") << "mov.f16"
                           << "'.f16' is not a type of mov (expected .b16, .b32, .b64, .u16, .u32, "
                              ".u64, .s16, .s32, .s64, .f32, ...)"
                           << 3;
  QTest::newRow("mul wide u64") << "mul.wide.u64"
                                << "mul.u64 does not take '.wide'" << 3;
  QTest::newRow("fma relu with sat") << "fma.rn.sat.relu.f16"
                                     << "'.relu' cannot be combined with '.sat'" << 10;
  // No tensor of a tile op lives in .local memory (T.alloc_local tiles are registers): the table
  // refuses the state space instead of accepting spellings no kernel can use (issue 8).
  QTest::newRow("ld local")
      << "ld.local.b32"
      << "'.local' is not a state space of a tile op: its memory operand is a "
         "global or shared tensor (T.alloc_local tiles are registers)"
      << 2;
  QTest::newRow("st local vector")
      << "st.local.cs.v2.b64"
      << "'.local' is not a state space of a tile op: its memory operand is a "
         "global or shared tensor (T.alloc_local tiles are registers)"
      << 2;
  QTest::newRow("ex2 without approx")
      << "ex2.f32"
      << "missing rounding or approximation modifier: ex2.f32 needs .approx" << 7;
}

void TstPtxTable::rejects() {
  QFETCH(QString, op);
  QFETCH(QString, message);
  QFETCH(int, column);
  PtxParseError err;
  std::optional<PtxInstruction> in = parsePtxOpcode(op.toStdString(), &err);
  QVERIFY(!in.has_value());
  QCOMPARE(QString::fromStdString(err.message), message);
  QCOMPARE(err.column, column);
  QVERIFY(err.column >= 0 && err.column <= op.size());
  QVERIFY(err.column + err.length <= op.size());
}

void TstPtxTable::arity() {
  std::optional<PtxInstruction> mx = parsePtxOpcode("max.f32");
  QVERIFY(mx.has_value());
  QCOMPARE(mx->minArity, 3);
  QCOMPARE(mx->maxArity, 4);
  QCOMPARE(mx->minSmForArity(3), 50);
  QCOMPARE(mx->minSmForArity(4), 100);
  QCOMPARE(mx->minSmForArity(2), 0);
  QCOMPARE(mx->minSmForArity(5), 0);
  QCOMPARE(mx->operandsFor(3).size(), size_t(3));
  QCOMPARE(mx->operandsFor(4).size(), size_t(4));
  QCOMPARE(mx->operandsFor(4)[3].name, std::string("c"));
  QVERIFY(mx->operandsFor(4)[3].scalarAllowed);
  QVERIFY(mx->operandsFor(5).empty());
  QCOMPARE(mx->operands.size(), size_t(3));

  std::optional<PtxInstruction> mn = parsePtxOpcode("min.NaN.f32");
  QVERIFY(mn.has_value());
  QCOMPARE(mn->minSmForArity(3), 80);
  QCOMPARE(mn->minSmForArity(4), 100);

  // .xorsign.abs has no three-input form; f16x2 and integer min/max are binary only.
  for (const char* op : {"min.xorsign.abs.f32", "max.f16x2", "max.s32", "max.f64"}) {
    std::optional<PtxInstruction> b = parsePtxOpcode(op);
    QVERIFY2(b.has_value(), op);
    QCOMPARE(b->maxArity, 3);
    QCOMPARE(b->minSmForArity(4), 0);
  }
  std::optional<PtxInstruction> xs = parsePtxOpcode("min.xorsign.abs.f32");
  QCOMPARE(xs->minSm, 86);

  std::optional<PtxInstruction> f = parsePtxOpcode("fma.rn.f32");
  QCOMPARE(f->minArity, 4);
  QCOMPARE(f->maxArity, 4);
  QCOMPARE(f->minSmForArity(4), 50);
  QCOMPARE(f->minSmForArity(3), 0);
  std::optional<PtxInstruction> ld = parsePtxOpcode("ld.global.v4.b32");
  QCOMPARE(ld->minArity, 2);
  QCOMPARE(ld->operands[0].role, OperandRole::DstReg);
  QCOMPARE(ld->operands[1].role, OperandRole::Address);
  std::optional<PtxInstruction> st = parsePtxOpcode("st.global.v4.b32");
  QCOMPARE(st->operands[0].role, OperandRole::Address);
  QCOMPARE(st->operands[1].role, OperandRole::SrcReg);
  QVERIFY(!st->operands[1].scalarAllowed);  // OPEN-9: stores take register tiles only
  std::optional<PtxInstruction> cv = parsePtxOpcode("cvt.rn.f16x2.f32");
  QCOMPARE(cv->operands[1].name, std::string("hi"));
  QCOMPARE(cv->operands[2].name, std::string("lo"));
}

void TstPtxTable::familiesAndExamples() {
  const std::vector<PtxFamilyInfo>& fams = ptxFamilies();
  QCOMPARE(fams.size(),
           size_t(25));  // 17 thread-level families, 5 warp collectives, TMA, cp.async, wgmma
  for (const PtxFamilyInfo& f : fams) {
    QCOMPARE(familyName(f.family), std::string_view(f.name));
    QVERIFY2(!f.description.empty(), f.name.c_str());
    QVERIFY2(!f.examples.empty(), f.name.c_str());
    for (const std::string& ex : f.examples) {
      PtxParseError err;
      std::optional<PtxInstruction> in = parsePtxOpcode(ex, &err);
      QVERIFY2(in.has_value(), (ex + ": " + err.message).c_str());
      QCOMPARE(in->family, f.family);
    }
  }
  QCOMPARE(familyName(PtxFamily::Cvt), std::string_view("cvt"));
  QCOMPARE(familyName(PtxFamily::Ex2), std::string_view("ex2"));
}

void TstPtxTable::dtypeBitsAndConstraints() {
  QCOMPARE(dtypeBits("float32"), 32);
  QCOMPARE(dtypeBits("bfloat16"), 16);
  QCOMPARE(dtypeBits("float16"), 16);
  QCOMPARE(dtypeBits("bool"), 8);
  QCOMPARE(dtypeBits("uint8"), 8);
  QCOMPARE(dtypeBits("int64"), 64);
  QCOMPARE(dtypeBits("float64"), 64);
  QCOMPARE(dtypeBits("f32"), 32);
  QCOMPARE(dtypeBits("u16"), 16);
  QCOMPARE(dtypeBits("float8"), 0);
  QCOMPARE(dtypeBits(""), 0);
  QCOMPARE(ptxConstraintFor("float32"), std::string_view("f"));
  QCOMPARE(ptxConstraintFor("float64"), std::string_view("d"));
  QCOMPARE(ptxConstraintFor("uint32"), std::string_view("r"));
  QCOMPARE(ptxConstraintFor("int32"), std::string_view("r"));
  QCOMPARE(ptxConstraintFor("float16"), std::string_view("h"));
  QCOMPARE(ptxConstraintFor("bfloat16"), std::string_view("h"));
  QCOMPARE(ptxConstraintFor("uint16"), std::string_view("h"));
  QCOMPARE(ptxConstraintFor("int64"), std::string_view("l"));
  QCOMPARE(ptxConstraintFor("uint64"), std::string_view("l"));
  QCOMPARE(ptxConstraintFor("nonsense"), std::string_view(""));
}

void TstPtxTable::carriers() {
  auto dts = [](const char* t) {
    std::string out;
    for (const DTypeName& d : ptxTypeDtypes(t)) out += (out.empty() ? "" : ",") + d;
    return QString::fromStdString(out);
  };
  QCOMPARE(dts(".b16"), QString("uint16,int16,float16,bfloat16"));
  QCOMPARE(dts(".b32"), QString("uint32,int32,float32"));
  QCOMPARE(dts(".b64"), QString("uint64,int64,float64"));
  QCOMPARE(dts(".u32"), QString("uint32"));
  QCOMPARE(dts(".s16"), QString("int16"));
  QCOMPARE(dts(".f32"), QString("float32"));
  QCOMPARE(dts(".f64"), QString("float64"));
  QCOMPARE(dts(".f16"), QString("uint16"));
  QCOMPARE(dts(".bf16"), QString("uint16"));
  QCOMPARE(dts(".f16x2"), QString("uint32"));
  QCOMPARE(dts(".bf16x2"), QString("uint32"));
  QCOMPARE(dts(".u16x2"), QString("uint32"));
  QCOMPARE(dts(".f32x2"), QString("uint64"));
  QCOMPARE(dts(".pred"), QString("uint32"));
  QCOMPARE(dts(".zz"), QString());
}

void TstPtxTable::tokensAndCompletions() {
  std::vector<PtxTokenInfo> toks = describePtxTokens("ld.global.v4.b32");
  QCOMPARE(toks.size(), size_t(4));
  QCOMPARE(toks[0].text, std::string("ld"));
  QCOMPARE(toks[1].text, std::string(".global"));
  QCOMPARE(toks[1].column, 2);
  QCOMPARE(toks[2].text, std::string(".v4"));
  QCOMPARE(toks[2].column, 9);
  QCOMPARE(toks[3].column, 12);
  for (const PtxTokenInfo& t : toks) QVERIFY2(!t.description.empty(), t.text.c_str());
  std::vector<PtxTokenInfo> cv = describePtxTokens("cvt.rn.f16.f32");
  QCOMPARE(cv[2].description.rfind("destination type", 0), size_t(0));
  QCOMPARE(cv[3].description.rfind("source type", 0), size_t(0));
  QCOMPARE(describePtxTokens("zz.q")[1].description, std::string());

  auto texts = [](const std::vector<PtxTokenInfo>& v) {
    QStringList out;
    for (const PtxTokenInfo& t : v) out << QString::fromStdString(t.text);
    return out;
  };
  QCOMPARE(texts(ptxCompletions("m")), QStringList({"mov", "mul", "min", "max", "mma"}));
  QStringList afterLd = texts(ptxCompletions("ld."));
  QVERIFY(afterLd.contains(".global"));
  QVERIFY(afterLd.contains(".shared::cta"));
  QVERIFY(afterLd.contains(".v4"));
  QStringList afterSpace = texts(ptxCompletions("ld.global."));
  QVERIFY(!afterSpace.contains(".shared"));
  QVERIFY(afterSpace.contains(".b32"));
  QVERIFY(afterSpace.contains(".nc"));
  QCOMPARE(texts(ptxCompletions("ld.global.v")), QStringList({".v2", ".v4", ".v8"}));
  QCOMPARE(ptxCompletions("ld.global.v")[0].column, 9);
  QCOMPARE(texts(ptxCompletions("fma.rn.f")),
           QStringList({".ftz", ".f32", ".f64", ".f16", ".f16x2", ".f32x2"}));
  QStringList cvtSrc = texts(ptxCompletions("cvt.rn.f16."));
  QVERIFY(cvtSrc.contains(".f32"));
  QVERIFY(!cvtSrc.contains(".f16"));
  QVERIFY(ptxCompletions("lod.").empty());
  QVERIFY(ptxCompletions("add.f32.").empty());
}

void TstPtxTable::enumerationParses() {
  std::vector<std::string> all = ptxrows::enumerateSpellings();
  QVERIFY(all.size() > 5000);
  int f32x2 = 0;
  for (const std::string& s : all) {
    std::optional<PtxInstruction> in = parsePtxOpcode(s);
    QVERIFY2(in.has_value(), s.c_str());
    QVERIFY(in->minSm >= 50 && in->minSm <= 100);
    for (const PtxOperandSpec& o : in->operandsFor(in->maxArity)) {
      QVERIFY2(!o.dtypes.empty(), s.c_str());
      QVERIFY2(!o.constraint.empty(), s.c_str());
      QCOMPARE(dtypeBits(o.dtypes.front()), o.bits);
    }
    if (in->type == ".f32x2") {
      ++f32x2;
      QCOMPARE(in->minSm, 100);
    }
  }
  QVERIFY(f32x2 > 0);
}

void TstPtxTable::markdownInDocs() {
  std::string md = ptxTableMarkdown();
  QVERIFY(md.find("| `ld` |") != std::string::npos);
  QVERIFY(md.find("`fma.{rn|rz|rm|rp}") == std::string::npos);  // pipes are escaped in tables
  QVERIFY(md.find("3 inputs: sm_100") != std::string::npos);
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/docs/ptx.md"));
  QVERIFY(f.open(QIODevice::ReadOnly));
  std::string doc = f.readAll().toStdString();
  QVERIFY2(doc.find(md) != std::string::npos,
           "docs/ptx.md does not contain ptxTableMarkdown(): regenerate it with "
           "`tst_ptx_table --print-markdown` semantics (see docs/ptx.md)");
}

void TstPtxTable::tmaSpellings() {
  const std::vector<std::string> all = tirx::tmaSpellings();
  QCOMPARE(all.size(), size_t(30));  // 5 ranks x (2 load destinations x 2 + store x 2)
  for (const std::string& s : all) {
    PtxParseError err;
    auto in = parsePtxOpcode(s, &err);
    QVERIFY2(in.has_value(), (s + ": " + err.message).c_str());
    QCOMPARE(in->family, PtxFamily::BulkTensor);
    QCOMPARE(in->minSm, 90);
    QCOMPARE(in->minArity, 2);
    QCOMPARE(in->tensorRank, s[21] - '0');
    QCOMPARE(in->tmaStore, s.find(".bulk_group") != std::string::npos);
    QCOMPARE(in->operands[0].name, std::string("dst"));  // destination first in both directions
    QCOMPARE(describePtxTokens(s).front().text, std::string("cp"));
  }
  auto ld =
      parsePtxOpcode("cp.async.bulk.tensor.3d.shared::cta.global.mbarrier::complete_tx::bytes");
  QVERIFY(ld.has_value());
  QCOMPARE(ld->space, std::string("shared::cta"));
  QCOMPARE(ld->tensorRank, 3);
  QVERIFY(!ld->tmaStore);
  const auto toks = describePtxTokens("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group");
  QCOMPARE(toks.size(), size_t(9));
  QVERIFY(toks.back().description.find("bulk async group") != std::string::npos);
}

void TstPtxTable::tmaRejects_data() {
  QTest::addColumn<QString>("op");
  QTest::addColumn<QString>("message");
  QTest::addColumn<int>("column");
  QTest::newRow("rank 6")
      << "cp.async.bulk.tensor.6d.shared::cta.global.mbarrier::complete_tx::bytes"
      << "expected the rank ('.1d' to '.5d')" << 20;
  QTest::newRow("multicast") << "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
                                "complete_tx::bytes.multicast::cluster"
                             << "multicast TMA needs a thread-block cluster" << 80;
  QTest::newRow("im2col")
      << "cp.async.bulk.tensor.3d.shared::cta.global.im2col.mbarrier::complete_tx::bytes"
      << "im2col load mode is not supported" << 42;
  QTest::newRow("store from cluster") << "cp.async.bulk.tensor.2d.global.shared::cluster.bulk_group"
                                      << "expected the source '.shared::cta' of a store" << 30;
  QTest::newRow("load without completion")
      << "cp.async.bulk.tensor.2d.shared::cta.global.tile"
      << "missing the completion '.mbarrier::complete_tx::bytes'" << 47;
  QTest::newRow("store with mbarrier")
      << "cp.async.bulk.tensor.1d.global.shared::cta.mbarrier::complete_tx::bytes"
      << "expected the completion '.bulk_group'" << 42;
  QTest::newRow("reduce") << "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group"
                          << "TMA reduction) is not supported" << 0;
  QTest::newRow("cache hint")
      << "cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint"
      << "cache hints (.L2::cache_hint) are not supported" << 71;
}

void TstPtxTable::tmaRejects() {
  QFETCH(QString, op);
  QFETCH(QString, message);
  QFETCH(int, column);
  PtxParseError err;
  QVERIFY(!parsePtxOpcode(op.toStdString(), &err).has_value());
  QVERIFY2(err.message.find(message.toStdString()) != std::string::npos, err.message.c_str());
  QCOMPARE(err.column, column);
}

void TstPtxTable::wgmmaSpellings() {
  const std::vector<std::string> all = tirx::wgmmaSpellings();
  QCOMPARE(all.size(), size_t(64));  // N = 8..256 step 8, bf16 and f16
  for (const std::string& s : all) {
    PtxParseError err;
    auto in = parsePtxOpcode(s, &err);
    QVERIFY2(in.has_value(), (s + ": " + err.message).c_str());
    QCOMPARE(in->family, PtxFamily::Wgmma);
    QCOMPARE(in->minSm, 90);
    QCOMPARE(in->minArity, 3);
    QCOMPARE(in->mmaK, 16);
    QCOMPARE(in->type, std::string(".f32"));
    QVERIFY(in->wgmmaN >= 8 && in->wgmmaN <= 256 && in->wgmmaN % 8 == 0);
    QCOMPARE(s.find("m64n" + std::to_string(in->wgmmaN) + "k16") != std::string::npos, true);
    QCOMPARE(in->abType,
             s.find(".bf16") != std::string::npos ? std::string(".bf16") : std::string(".f16"));
    QCOMPARE(describePtxTokens(s).size(), size_t(8));
  }
  QVERIFY(describePtxTokens(all.front())[4].description.find("64 x N") != std::string::npos);
}

void TstPtxTable::wgmmaRejects_data() {
  QTest::addColumn<QString>("op");
  QTest::addColumn<QString>("message");
  QTest::addColumn<int>("column");
  QTest::newRow("N 260") << "wgmma.mma_async.sync.aligned.m64n260k16.f32.bf16.bf16"
                         << "N = 260 is not a wgmma shape" << 28;
  QTest::newRow("N 12") << "wgmma.mma_async.sync.aligned.m64n12k16.f32.bf16.bf16"
                        << "N = 12 is not a wgmma shape" << 28;
  QTest::newRow("tf32 k8") << "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32"
                           << "only k16 shapes" << 28;
  QTest::newRow("f16 accumulators") << "wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16"
                                    << "f16 accumulators" << 38;
  QTest::newRow("mixed types") << "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.f16"
                               << "A and B of one type" << 47;
  QTest::newRow("fence as op") << "wgmma.fence.sync.aligned"
                               << "write T.ptx.wgmma.fence.sync.aligned()" << 5;
  QTest::newRow("sparse") << "wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.bf16.bf16"
                          << "sparse wgmma" << 15;
  QTest::newRow("missing aligned") << "wgmma.mma_async.sync.m64n64k16.f32.bf16.bf16"
                                   << "expected '.aligned'" << 20;
  QTest::newRow("trailing") << "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16.x"
                            << "expected the end of the instruction" << 52;
}

void TstPtxTable::wgmmaRejects() {
  QFETCH(QString, op);
  QFETCH(QString, message);
  QFETCH(int, column);
  PtxParseError err;
  QVERIFY(!parsePtxOpcode(op.toStdString(), &err).has_value());
  QVERIFY2(err.message.find(message.toStdString()) != std::string::npos, err.message.c_str());
  QCOMPARE(err.column, column);
}

int main(int argc, char** argv) {
  // `tst_ptx_table --print-markdown` prints the generated table, to refresh docs/ptx.md.
  if (argc > 1 && std::string(argv[1]) == "--print-markdown") {
    std::fputs(ptxTableMarkdown().c_str(), stdout);
    return 0;
  }
  TstPtxTable t;
  return QTest::qExec(&t, argc, argv);
}

#include "tst_ptx_table.moc"
