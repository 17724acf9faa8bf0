// Cross-checks the PTX instruction table against the real assembler: every spelling the table
// enumerates is written into one PTX kernel (operands of the widths the table says) and assembled
// with ptxas for several targets; an instruction must assemble exactly when the target is at
// least its minimum target (minSm, or minSmExtended for the three-input min/max form). Skips
// visibly when ptxas is not installed.
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "core/ptx/ptx_rows.h"
#include "core/ptx/ptx_table.h"

using namespace tirx;

namespace {

struct Line {
  std::string text;
  int need = 0;
};

/// One PTX instruction line: registers named by width (h: 8/16 bits, r: 32, l: 64).
std::string instructionText(const std::string& op, const std::vector<PtxOperandSpec>& ops) {
  std::string s = op + " ";
  int reg = 1;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i) s += ", ";
    const PtxOperandSpec& o = ops[i];
    if (o.role == OperandRole::Address) {
      s += "[l0]";
      continue;
    }
    std::string prefix = o.bits <= 16 ? "h" : o.bits == 32 ? "r" : "l";
    if (o.atom == 1) {
      s += prefix + std::to_string(reg++);
    } else {
      s += "{";
      for (int a = 0; a < o.atom; ++a) s += (a ? "," : "") + prefix + std::to_string(reg++);
      s += "}";
    }
  }
  return s + ";";
}

QString findPtxas() {
  QString p = QStandardPaths::findExecutable("ptxas");
  if (p.isEmpty() && QFile::exists("/usr/local/cuda/bin/ptxas")) p = "/usr/local/cuda/bin/ptxas";
  return p;
}

}  // namespace

class TstPtxPtxasSlow : public QObject {
  Q_OBJECT
 private slots:
  void everySpellingAssemblesFromItsMinimumTarget_data();
  void everySpellingAssemblesFromItsMinimumTarget();
};

void TstPtxPtxasSlow::everySpellingAssemblesFromItsMinimumTarget_data() {
  QTest::addColumn<int>("sm");
  for (int sm : {75, 80, 90, 100}) QTest::newRow(("sm_" + std::to_string(sm)).c_str()) << sm;
}

void TstPtxPtxasSlow::everySpellingAssemblesFromItsMinimumTarget() {
  QFETCH(int, sm);
  QString ptxas = findPtxas();
  if (ptxas.isEmpty()) QSKIP("ptxas not found on PATH or in /usr/local/cuda/bin");
  std::vector<Line> lines;
  for (const std::string& op : ptxrows::enumerateSpellings()) {
    std::optional<PtxInstruction> in = parsePtxOpcode(op);
    QVERIFY(in.has_value());
    lines.push_back({instructionText(op, in->operandsFor(in->minArity)), in->minSm});
    if (in->maxArity > in->minArity)
      lines.push_back({instructionText(op, in->operandsFor(in->maxArity)), in->minSmExtended});
  }
  std::string header = ".version 9.0\n.target sm_" + std::to_string(sm) +
                       "\n.address_size 64\n.visible .entry k(.param .u64 p){\n"
                       ".reg .b16 h<64>; .reg .b32 r<64>; .reg .b64 l<64>;\n"
                       "ld.param.u64 l0, [p];\n";
  const int firstLine = 7;  // 1-based line number of lines[0]
  std::string src = header;
  for (const Line& l : lines) src += l.text + "\n";
  src += "ret;\n}\n";
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  QFile f(dir.filePath("all.ptx"));
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(src.c_str());
  f.close();
  QProcess p;
  p.start(ptxas, {QString("-arch=sm_%1").arg(sm), f.fileName(), "-o", dir.filePath("all.cubin")});
  QVERIFY(p.waitForFinished(120000));
  QString err = QString::fromUtf8(p.readAllStandardError());
  if (err.contains("not defined for option 'gpu-name'") || err.contains("Unsupported gpu"))
    QSKIP("this ptxas does not know the target");
  std::map<int, QString> errors;  // line index -> first message
  QRegularExpression re(R"(line (\d+); error\s*: (.*))");
  for (const QString& l : err.split('\n')) {
    QRegularExpressionMatch m = re.match(l);
    if (m.hasMatch()) errors.emplace(m.captured(1).toInt() - firstLine, m.captured(2));
  }
  int wrong = 0;
  QString report;
  for (size_t i = 0; i < lines.size(); ++i) {
    bool failed = errors.count(static_cast<int>(i)) > 0;
    bool shouldPass = sm >= lines[i].need;
    if (failed == shouldPass) {
      if (++wrong <= 10)
        report += QString("\n  %1 (table min sm_%2): %3")
                      .arg(QString::fromStdString(lines[i].text))
                      .arg(lines[i].need)
                      .arg(failed ? errors[static_cast<int>(i)] : QString("assembled"));
    }
  }
  QVERIFY2(wrong == 0, qPrintable(QString("%1 of %2 instructions disagree with ptxas:%3")
                                      .arg(wrong)
                                      .arg(lines.size())
                                      .arg(report)));
}

QTEST_APPLESS_MAIN(TstPtxPtxasSlow)
#include "tst_ptx_ptxas_slow.moc"
