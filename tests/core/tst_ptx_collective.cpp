// Tests of the warp-collective rows of the PTX table (core/ptx/ptx_collective.h): every accepted
// spelling parses to the expected family, counts, shape, types, operands and atoms, and minimum
// target; misspellings are rejected with the expected message and column; the hovers, completions
// and docs/ptx.md block come from the same table; and ptxas assembles each spelling exactly from
// its minimum target on (skipped visibly without ptxas). These spellings are outside the
// arithmetic conformance enumeration (ptxrows::enumerateSpellings); this file is their exact test.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "core/ptx/ptx_collective.h"
#include "core/ptx/ptx_rows.h"
#include "core/ptx/ptx_table.h"

using namespace tirx;

namespace {

std::string atomText(const PtxOperandSpec& o) {
  std::string s = o.name + "(";
  for (size_t i = 0; i < o.atomShape.size(); ++i)
    s += (i ? "," : "") + std::to_string(o.atomShape[i]);
  s +=
      "):" + o.ptxType + ":" + o.dtypes.front() + ":" + o.constraint + (o.scalarAllowed ? "*" : "");
  return s;
}

std::string operandText(const PtxInstruction& in) {
  std::string s;
  for (const PtxOperandSpec& o : in.operands) {
    s += s.empty() ? "" : " ";
    s += o.role == OperandRole::DstReg ? "D" : o.role == OperandRole::SrcReg ? "S" : "A";
    s += atomText(o);
  }
  return s;
}

QString findPtxas() {
  QString p = QStandardPaths::findExecutable("ptxas");
  if (p.isEmpty() && QFile::exists("/usr/local/cuda/bin/ptxas")) p = "/usr/local/cuda/bin/ptxas";
  return p;
}

/// One PTX line for a spelling: registers r (b32) and f (f32), a 32-bit shared address.
std::string lineFor(const PtxInstruction& in) {
  std::string s = in.opcode + " ";
  int r = 1, f = 1;
  for (size_t i = 0; i < in.operands.size(); ++i) {
    const PtxOperandSpec& o = in.operands[i];
    if (i) s += ", ";
    if (o.role == OperandRole::Address) {
      s += "[r0]";
      continue;
    }
    int regs = 1;
    if (in.family == PtxFamily::Ldmatrix || in.family == PtxFamily::Stmatrix) regs = in.matrices;
    if (in.family == PtxFamily::Mma)
      regs = o.name == "a" ? in.mmaK / 4 : o.name == "b" ? in.mmaK / 8 : 4;
    const bool flt = o.ptxType == ".f32";
    std::string list;
    for (int k = 0; k < regs; ++k)
      list += (k ? "," : "") + std::string(flt ? "f" : "r") + std::to_string(flt ? f++ : r++);
    s += in.family == PtxFamily::Shfl || in.family == PtxFamily::Redux ? list : "{" + list + "}";
  }
  return s + ";";
}

}  // namespace

class TstPtxCollective : public QObject {
  Q_OBJECT
 private slots:
  void accepts_data();
  void accepts();
  void rejects_data();
  void rejects();
  void everySpelling();
  void familiesHoversCompletions();
  void markdownListsEveryFamily();
  void assemblesFromMinimumTarget_data();
  void assemblesFromMinimumTarget();
};

void TstPtxCollective::accepts_data() {
  QTest::addColumn<QString>("op");
  QTest::addColumn<QString>("operands");
  QTest::addColumn<int>("minSm");
  QTest::addColumn<QString>("fields");  // matrices/trans/k/ab/mode/space/type
  QTest::newRow("ldmatrix x4") << "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
                               << "Dd(4,8,4):.b32:uint32:r Amem(4,8,8):.b16:uint16:r" << 75
                               << "4/0/0//./shared/.b16";
  QTest::newRow("ldmatrix x1 trans cta")
      << "ldmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16"
      << "Dd(1,8,4):.b32:uint32:r Amem(1,8,8):.b16:uint16:r" << 75 << "1/1/0//./shared::cta/.b16";
  QTest::newRow("stmatrix x2 trans")
      << "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16"
      << "Amem(2,8,8):.b16:uint16:r Sr(2,8,4):.b32:uint32:r" << 90 << "2/1/0//./shared/.b16";
  QTest::newRow("mma k16 bf16") << "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
                                << "Dd(16,8):.f32:float32:f Sa(16,8):.b32:uint32:r "
                                   "Sb(8,8):.b32:uint32:r Sc(16,8):.f32:float32:f"
                                << 80 << "0/0/16/.bf16/.//.f32";
  QTest::newRow("mma k16 f16") << "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
                               << "Dd(16,8):.f32:float32:f Sa(16,8):.b32:uint32:r "
                                  "Sb(8,8):.b32:uint32:r Sc(16,8):.f32:float32:f"
                               << 80 << "0/0/16/.f16/.//.f32";
  QTest::newRow("mma k8 f16") << "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"
                              << "Dd(16,8):.f32:float32:f Sa(16,4):.b32:uint32:r "
                                 "Sb(8,4):.b32:uint32:r Sc(16,8):.f32:float32:f"
                              << 75 << "0/0/8/.f16/.//.f32";
  QTest::newRow("mma k8 bf16") << "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32"
                               << "Dd(16,8):.f32:float32:f Sa(16,4):.b32:uint32:r "
                                  "Sb(8,4):.b32:uint32:r Sc(16,8):.f32:float32:f"
                               << 80 << "0/0/8/.bf16/.//.f32";
  QTest::newRow("shfl bfly") << "shfl.sync.bfly.b32"
                             << "Dd(1):.b32:uint32:r Sa(1):.b32:uint32:r Sb(1):.b32:uint32:r* "
                                "Sc(1):.b32:uint32:r* Smembermask(1):.b32:uint32:r*"
                             << 50 << "0/0/0//.bfly//.b32";
  QTest::newRow("shfl idx") << "shfl.sync.idx.b32"
                            << "Dd(1):.b32:uint32:r Sa(1):.b32:uint32:r Sb(1):.b32:uint32:r* "
                               "Sc(1):.b32:uint32:r* Smembermask(1):.b32:uint32:r*"
                            << 50 << "0/0/0//.idx//.b32";
  QTest::newRow("redux add s32")
      << "redux.sync.add.s32"
      << "Dd(1):.s32:int32:r Sa(1):.s32:int32:r Smembermask(1):.b32:uint32:r*" << 80
      << "0/0/0//.add//.s32";
  QTest::newRow("redux xor b32")
      << "redux.sync.xor.b32"
      << "Dd(1):.b32:uint32:r Sa(1):.b32:uint32:r Smembermask(1):.b32:uint32:r*" << 80
      << "0/0/0//.xor//.b32";
}

void TstPtxCollective::accepts() {
  QFETCH(QString, op);
  QFETCH(QString, operands);
  QFETCH(int, minSm);
  QFETCH(QString, fields);
  PtxParseError err;
  auto in = parsePtxOpcode(op.toStdString(), &err);
  QVERIFY2(in.has_value(), err.message.c_str());
  QVERIFY(in->isCollective());
  QVERIFY(isCollectiveFamily(in->family));
  QCOMPARE(QString::fromStdString(operandText(*in)), operands);
  QCOMPARE(in->minSm, minSm);
  QCOMPARE(in->minArity, int(in->operands.size()));
  QCOMPARE(in->maxArity, in->minArity);
  const std::string f = std::to_string(in->matrices) + "/" + std::to_string(in->trans) + "/" +
                        std::to_string(in->mmaK) + "/" + in->abType + "/" +
                        (in->mode.empty() ? "." : in->mode) + "/" + in->space + "/" + in->type;
  QCOMPARE(QString::fromStdString(f), fields);
  QVERIFY(!in->description.empty());
  QCOMPARE(QString::fromStdString(std::string(familyName(in->family))), op.section('.', 0, 0));
}

void TstPtxCollective::rejects_data() {
  QTest::addColumn<QString>("op");
  QTest::addColumn<QString>("message");
  QTest::addColumn<int>("column");
  QTest::newRow("bad count") << "ldmatrix.sync.aligned.m8n8.x3.shared.b16"
                             << "'.x3' is not a matrix count of ldmatrix (expected .x1, .x2 or .x4)"
                             << 26;
  QTest::newRow("missing space")
      << "ldmatrix.sync.aligned.m8n8.x4.b16"
      << "missing the state space before '.b16': ldmatrix.sync.aligned.m8n8.x4.b16 needs .shared "
         "or "
         ".shared::cta (the form is "
         "ldmatrix.sync.aligned.m8n8.{x1|x2|x4}[.trans].{shared|shared::cta}.b16)"
      << 29;
  QTest::newRow("missing type")
      << "ldmatrix.sync.aligned.m8n8.x4.shared"
      << "missing the type: ldmatrix.sync.aligned.m8n8.x4.shared needs .b16 (the form is "
         "ldmatrix.sync.aligned.m8n8.{x1|x2|x4}[.trans].{shared|shared::cta}.b16)"
      << 36;
  QTest::newRow("order")
      << "ldmatrix.sync.aligned.m8n8.trans.x4.shared.b16"
      << "missing a matrix count before '.trans': ldmatrix.sync.aligned.m8n8.trans.x4.shared.b16 "
         "needs .x1, "
         ".x2 or .x4 (the form is "
         "ldmatrix.sync.aligned.m8n8.{x1|x2|x4}[.trans].{shared|shared::cta}.b16)"
      << 26;
  QTest::newRow("no sync")
      << "mma.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
      << "missing '.sync' before '.aligned': mma.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 needs "
         ".sync (the "
         "form is mma.sync.aligned.{m16n8k8|m16n8k16}.row.col.f32.{bf16|f16}.{bf16|f16}.f32)"
      << 3;
  QTest::newRow("mixed types") << "mma.sync.aligned.m16n8k16.row.col.f32.bf16.f16.f32"
                               << "mma.sync takes A and B of one type: found A .bf16 and B .f16"
                               << 42;
  QTest::newRow("int shape")
      << "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
      << "'.m16n8k32' is not the shape of mma (expected .m16n8k8 or .m16n8k16)" << 16;
  QTest::newRow("f16 accumulator") << "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"
                                   << "'.f16' is not the D type of mma (expected .f32)" << 33;
  QTest::newRow("shfl without sync")
      << "shfl.bfly.b32"
      << "shfl without '.sync' was removed from PTX for sm_70 and newer: write "
         "shfl.sync.{up|down|bfly|idx}.b32"
      << 4;
  QTest::newRow("shfl mode") << "shfl.sync.xor.b32"
                             << "'.xor' is not a mode of shfl (expected .up, .down, .bfly or .idx)"
                             << 9;
  QTest::newRow("redux f32")
      << "redux.sync.max.f32"
      << "redux.sync on .f32 needs sm_100a, which this table does not support (it has "
         ".add/.min/.max on .u32/.s32 and .and/.or/.xor on .b32)"
      << 14;
  QTest::newRow("duplicate") << "shfl.sync.bfly.bfly.b32"
                             << "'.bfly' comes too late or twice in shfl.sync.bfly.bfly.b32: the "
                                "order is shfl.sync.{up|down|bfly|idx}.b32"
                             << 14;
  QTest::newRow("redux and u32") << "redux.sync.and.u32"
                                 << "'.u32' is not the type of redux (expected .b32)" << 14;
  QTest::newRow("extra token")
      << "shfl.sync.bfly.b32.x"
      << "'.x' is not a qualifier of shfl (the form is shfl.sync.{up|down|bfly|idx}.b32)" << 18;
  QTest::newRow("typo family")
      << "ldmatrx.sync.aligned.m8n8.x4.shared.b16"
      << "unknown PTX instruction family 'ldmatrx' (did you mean 'ldmatrix'?)" << 0;
}

void TstPtxCollective::rejects() {
  QFETCH(QString, op);
  QFETCH(QString, message);
  QFETCH(int, column);
  PtxParseError err;
  QVERIFY(!parsePtxOpcode(op.toStdString(), &err).has_value());
  QCOMPARE(QString::fromStdString(err.message), message);
  QCOMPARE(err.column, column);
}

void TstPtxCollective::everySpelling() {
  const std::vector<std::string> all = collectiveSpellings();
  // ldmatrix and stmatrix 3 counts x 2 trans x 2 spaces each, mma 2 shapes x 2 types, shfl 4
  // modes, redux 3 x 2 + 3.
  QCOMPARE(int(all.size()), 12 + 12 + 4 + 4 + 9);
  for (const std::string& s : all) {
    auto in = parsePtxOpcode(s);
    QVERIFY2(in.has_value(), s.c_str());
    QVERIFY(in->isCollective());
  }
  // None of them is in the arithmetic conformance enumeration (its suite has no collective model).
  for (const std::string& s : ptxrows::enumerateSpellings())
    QVERIFY2(!parsePtxOpcode(s)->isCollective(), s.c_str());
}

void TstPtxCollective::familiesHoversCompletions() {
  int collective = 0;
  for (const PtxFamilyInfo& f : ptxFamilies())
    if (isCollectiveFamily(f.family)) {
      ++collective;
      for (const std::string& e : f.examples) QVERIFY2(parsePtxOpcode(e).has_value(), e.c_str());
    }
  QCOMPARE(collective, 5);
  const auto toks = describePtxTokens("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  QCOMPARE(int(toks.size()), 10);
  QVERIFY(QString::fromStdString(toks[3].description).contains("A 16x16"));
  QVERIFY(QString::fromStdString(toks[7].description).startsWith("A type: bfloat16"));
  QVERIFY(QString::fromStdString(toks[9].description).startsWith("C type"));
  const auto ld = describePtxTokens("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16");
  QVERIFY(QString::fromStdString(ld[4].description).contains("lanes 0-15"));
  QVERIFY(QString::fromStdString(ld[5].description).contains("column pair"));
  auto has = [](const std::vector<PtxTokenInfo>& v, const char* t) {
    return std::any_of(v.begin(), v.end(), [&](const PtxTokenInfo& i) { return i.text == t; });
  };
  QVERIFY(has(ptxCompletions("ldm"), "ldmatrix"));
  QVERIFY(has(ptxCompletions("m"), "mma"));
  const auto afterCount = ptxCompletions("ldmatrix.sync.aligned.m8n8.x4.");
  QVERIFY(has(afterCount, ".trans") && has(afterCount, ".shared") && !has(afterCount, ".b16"));
  QCOMPARE(afterCount.front().column, 29);
  QVERIFY(has(ptxCompletions("mma.sync.aligned.m16n8k16.row.col.f32.bf"), ".bf16"));
  QVERIFY(has(ptxCompletions("redux.sync."), ".xor") && has(ptxCompletions("redux.sync."), ".add"));
  QVERIFY(ptxCompletions("shfl.sync.up.b32.").empty());
}

void TstPtxCollective::markdownListsEveryFamily() {
  const std::string md = ptxTableMarkdown();
  for (const char* s :
       {"## Warp collectives",
        "`ldmatrix.sync.aligned.m8n8.{x1\\|x2\\|x4}[.trans].{shared\\|shared::cta}.b16`",
        "`mma.sync.aligned.{m16n8k8\\|m16n8k16}.row.col.f32.{bf16\\|f16}.{bf16\\|f16}.f32`",
        "d (16, 8), a (16, 8), b (8, 8), c (16, 8)", "sm_90", "`redux` | bitwise"})
    QVERIFY2(md.find(s) != std::string::npos, s);
}

void TstPtxCollective::assemblesFromMinimumTarget_data() {
  QTest::addColumn<int>("sm");
  for (int sm : {75, 80, 86, 90, 100}) QTest::newRow(("sm_" + std::to_string(sm)).c_str()) << sm;
}

void TstPtxCollective::assemblesFromMinimumTarget() {
  QFETCH(int, sm);
  const QString ptxas = findPtxas();
  if (ptxas.isEmpty()) QSKIP("ptxas not found on PATH or in /usr/local/cuda/bin");
  std::vector<std::pair<std::string, int>> lines;
  for (const std::string& s : collectiveSpellings()) {
    auto in = parsePtxOpcode(s);
    QVERIFY(in.has_value());
    lines.push_back({lineFor(*in), in->minSm});
  }
  std::string src = ".version 9.0\n.target sm_" + std::to_string(sm) +
                    "\n.address_size 64\n.visible .entry k(){\n.reg .b32 r<64>; .reg .f32 f<64>;\n";
  const int firstLine = 6;
  for (const auto& l : lines) src += l.first + "\n";
  src += "ret;\n}\n";
  QTemporaryDir dir;
  QFile f(dir.filePath("c.ptx"));
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(src.c_str());
  f.close();
  QProcess p;
  p.start(ptxas, {QString("-arch=sm_%1").arg(sm), f.fileName(), "-o", dir.filePath("c.cubin")});
  QVERIFY(p.waitForFinished(120000));
  const QString err = QString::fromUtf8(p.readAllStandardError());
  if (err.contains("not defined for option 'gpu-name'") || err.contains("Unsupported gpu"))
    QSKIP("this ptxas does not know the target");
  std::map<int, QString> errors;
  QRegularExpression re(R"(line (\d+); error\s*: (.*))");
  for (const QString& l : err.split('\n')) {
    auto m = re.match(l);
    if (m.hasMatch()) errors.emplace(m.captured(1).toInt() - firstLine, m.captured(2));
  }
  QString report;
  int wrong = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const bool failed = errors.count(int(i)) > 0;
    if (failed == (sm >= lines[i].second)) {
      ++wrong;
      report += QString("\n  %1 (table sm_%2): %3")
                    .arg(QString::fromStdString(lines[i].first))
                    .arg(lines[i].second)
                    .arg(failed ? errors[int(i)] : QString("assembled"));
    }
  }
  QVERIFY2(
      wrong == 0,
      qPrintable(
          QString("%1 of %2 disagree with ptxas:%3").arg(wrong).arg(lines.size()).arg(report)));
  QVERIFY(p.exitCode() == 0 || sm < 90);  // every spelling assembles from sm_90 on
}

QTEST_APPLESS_MAIN(TstPtxCollective)
#include "tst_ptx_collective.moc"
