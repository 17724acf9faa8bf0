// The illegal-script suite: every tests/data/diagnostics/*.py carries LLVM-style annotations
//   # expected-error@+1 E0165 {{needs a last operand axis of 1}}
// (syntax in docs/diagnostics.md) and this data-driven test checks that checkScript() reports
// exactly the annotated diagnostics (severity, code, line, message substrings) and no others.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include "core/sema/sema.h"

using namespace tirx;

namespace {

struct Expected {
  int line = 0;
  Severity severity = Severity::Error;
  std::string code;
  std::vector<std::string> substrings;
  bool matched = false;
};

struct Annotations {
  std::vector<Expected> expected;
  bool noDiagnostics = false;
  int sm = 90;
  QStringList problems;  ///< malformed annotations
};

Annotations parseAnnotations(const QString& text) {
  Annotations a;
  static const QRegularExpression re(
      R"(#\s*expected-(error|warning)(?:@([+-]?)(\d+))?\s+([EW]\d{4})((?:\s*\{\{.*?\}\})*)\s*$)");
  static const QRegularExpression sub(R"(\{\{(.*?)\}\})");
  static const QRegularExpression arch(R"(^#\s*arch:\s*(\S+)\s*$)");
  const QStringList lines = text.split('\n');
  for (int i = 0; i < lines.size(); ++i) {
    const QString& l = lines[i];
    const int lineNo = i + 1;
    if (l.contains("expected-no-diagnostics")) a.noDiagnostics = true;
    if (auto m = arch.match(l.trimmed()); m.hasMatch())
      a.sm = parseArch(m.captured(1).toStdString());
    if (!l.contains("expected-")) continue;
    if (l.contains("expected-no-diagnostics")) continue;
    auto m = re.match(l);
    if (!m.hasMatch()) {
      a.problems << QString("line %1: malformed annotation: %2").arg(lineNo).arg(l.trimmed());
      continue;
    }
    Expected e;
    e.severity = m.captured(1) == "error" ? Severity::Error : Severity::Warning;
    const QString sign = m.captured(2), num = m.captured(3);
    if (num.isEmpty())
      e.line = lineNo;
    else if (sign == "+")
      e.line = lineNo + num.toInt();
    else if (sign == "-")
      e.line = lineNo - num.toInt();
    else
      e.line = num.toInt();
    e.code = m.captured(4).toStdString();
    auto it = sub.globalMatch(m.captured(5));
    while (it.hasNext()) e.substrings.push_back(it.next().captured(1).toStdString());
    a.expected.push_back(e);
  }
  return a;
}

QString describe(const Diagnostic& d) {
  return QString("%1:%2: %3: %4 [%5]")
      .arg(d.span.line)
      .arg(d.span.col)
      .arg(QString::fromStdString(std::string(severityName(d.severity))))
      .arg(QString::fromStdString(d.message))
      .arg(QString::fromStdString(d.code));
}

QString dataDir() {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/diagnostics");
}

}  // namespace

class TestDiagnostics : public QObject {
  Q_OBJECT

 private slots:
  void suiteIsLargeEnough() {
    const QStringList files = QDir(dataDir()).entryList({"*.py"}, QDir::Files);
    QVERIFY2(files.size() >= 40,
             qPrintable(QString("only %1 diagnostic scripts").arg(files.size())));
  }

  void annotationParser() {
    const Annotations a = parseAnnotations(
        "x = 1\n# expected-error@+1 E0165 {{needs a}} {{axis of 4}}\ny\nz  # expected-warning "
        "W0100\n"
        "# expected-error@2 E0100\n# arch: sm_100\n");
    QCOMPARE(int(a.expected.size()), 3);
    QCOMPARE(a.expected[0].line, 3);
    QCOMPARE(a.expected[0].code, std::string("E0165"));
    QCOMPARE(int(a.expected[0].substrings.size()), 2);
    QCOMPARE(a.expected[0].substrings[1], std::string("axis of 4"));
    QCOMPARE(a.expected[1].line, 4);
    QVERIFY(a.expected[1].severity == Severity::Warning);
    QCOMPARE(a.expected[2].line, 2);
    QCOMPARE(a.sm, 100);
    QVERIFY(a.problems.isEmpty());
    QVERIFY(!parseAnnotations("# expected-error@+1 {{no code}}\n").problems.isEmpty());
  }

  void script_data() {
    QTest::addColumn<QString>("path");
    const QStringList files = QDir(dataDir()).entryList({"*.py"}, QDir::Files, QDir::Name);
    for (const QString& f : files) QTest::newRow(qPrintable(f)) << dataDir() + "/" + f;
  }

  void script() {
    QFETCH(QString, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    Annotations a = parseAnnotations(text);
    QVERIFY2(a.problems.isEmpty(), qPrintable(a.problems.join("\n")));
    QVERIFY2(!a.expected.empty() || a.noDiagnostics,
             "a diagnostic script needs annotations or expected-no-diagnostics");
    SemaOptions opts;
    opts.sm = a.sm;
    const FrontEndResult r =
        checkScript(text.toStdString(), QFileInfo(path).fileName().toStdString(), opts);
    QStringList unexpected;
    for (const Diagnostic& d : r.diagnostics) {
      bool found = false;
      for (Expected& e : a.expected) {
        if (e.matched || e.line != d.span.line || e.severity != d.severity || e.code != d.code)
          continue;
        bool all = true;
        for (const auto& s : e.substrings) all = all && d.message.find(s) != std::string::npos;
        if (!all) continue;
        e.matched = found = true;
        break;
      }
      if (!found) unexpected << describe(d);
    }
    QStringList missing;
    for (const Expected& e : a.expected) {
      if (e.matched) continue;
      QString subs;
      for (const auto& s : e.substrings) subs += " {{" + QString::fromStdString(s) + "}}";
      missing << QString("line %1: %2 %3%4")
                     .arg(e.line)
                     .arg(e.severity == Severity::Error ? "error" : "warning")
                     .arg(QString::fromStdString(e.code))
                     .arg(subs);
    }
    // Every diagnostic must also have a span inside the file and a non-empty message.
    for (const Diagnostic& d : r.diagnostics) {
      // Sema spans cover the offending text; a syntax error at the end of the file may be empty.
      const bool semaCode = d.code >= "E0100" && d.code < "E0300";
      QVERIFY2(d.span.valid() && (d.span.length > 0 || !semaCode),
               qPrintable("diagnostic without a precise span: " + describe(d)));
      QVERIFY2(!d.message.empty() && (!std::isupper(static_cast<unsigned char>(d.message[0])) ||
                                      d.message.rfind("T.", 0) == 0),
               qPrintable("message must start lower-case: " + describe(d)));
      QVERIFY2(d.message.back() != '.', qPrintable("message ends with a period: " + describe(d)));
    }
    QVERIFY2(missing.isEmpty() && unexpected.isEmpty(),
             qPrintable("\nmissing:\n  " + missing.join("\n  ") + "\nunexpected:\n  " +
                        unexpected.join("\n  ")));
  }
};

QTEST_APPLESS_MAIN(TestDiagnostics)
#include "tst_diagnostics.moc"
