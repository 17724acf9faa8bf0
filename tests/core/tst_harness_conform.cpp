// The harness against real numpy (issue 8): every case of tests/data/harness_conform/cases.json
// (check-code snippets generated over operators x dtypes x shapes plus hand-written ones, with
// what numpy 1.24 computed or raised, see gen_conform.py) runs through the harness interpreter.
// A case conforms when the harness binds `r` to the same kind, dtype, shape and element values
// (bit-exact; transcendental functions within the case's ulp bound) or, where numpy raised, stops
// with a diagnostic at the line that raised. A harness refusal (E0802/E0803: not modelled) of a
// snippet numpy runs is counted, never taken as a value. Any other difference fails the suite.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <cmath>
#include <cstring>

#include "core/script/parser.h"
#include "core/verify/harness_interp.h"

using namespace tirx;
using namespace tirx::verify;

namespace {

QString casesPath() {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/harness_conform/cases.json");
}

/// Distance in units in the last place of `t` between two finite values of that dtype.
double ulpDistance(double a, double b, DType t) {
  if (a == b) return 0;
  const int mant = t == DType::Float16    ? 10
                   : t == DType::BFloat16 ? 7
                   : t == DType::Float32  ? 23
                                          : 52;
  const double m = std::max(std::fabs(a), std::fabs(b));
  int e;
  std::frexp(m, &e);
  const double ulp = std::ldexp(1.0, e - 1 - mant);
  return std::fabs(a - b) / ulp;
}

bool sameFloat(double got, double want, double ulps, DType t) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isnan(got)) return false;
  if (std::isinf(want) || std::isinf(got)) return got == want;
  if (ulps == 0) return got == want && std::signbit(got) == std::signbit(want);
  return ulpDistance(got, want, t) <= ulps;
}

bool sameInt(const Array& a, int64_t i, const QString& want) {
  const std::string w = want.toStdString();
  const uint64_t bits = static_cast<uint64_t>(a.getInt(i));
  if (!w.empty() && w[0] == '-') return static_cast<int64_t>(bits) == std::stoll(w);
  const uint64_t u = std::stoull(w);
  if (a.dtype == DType::UInt64) return bits == u;
  return static_cast<int64_t>(bits) >= 0 && bits == u;
}

class Comparer {
 public:
  explicit Comparer(double ulps) : m_ulps(ulps) {}
  QString why;

  bool same(const Interp& in, const Py& v, const QJsonObject& want) {
    const QString kind = want["kind"].toString();
    const QJsonArray vals = want["values"].toArray();
    if (kind == "array") {
      if (v->kind != PyKind::Array)
        return fail("expected an array, found " + QString::fromStdString(in.typeName(v)));
      const Array& a = *v->arr;
      const QString dt = QString::fromStdString(std::string(ir::dtypeName(a.dtype)));
      if (dt != want["dtype"].toString())
        return fail("dtype " + dt + ", numpy " + want["dtype"].toString());
      QJsonArray shape;
      for (auto s : a.shape) shape.append(static_cast<qint64>(s));
      if (shape != want["shape"].toArray())
        return fail("shape " + QString::fromStdString(shapeText(a.shape)) + ", numpy " +
                    QJsonDocument(want["shape"].toArray()).toJson(QJsonDocument::Compact));
      if (a.size() != vals.size()) return fail("element count");
      for (int64_t i = 0; i < a.size(); ++i) {
        const QString w = vals[static_cast<int>(i)].toString();
        const bool ok = ir::isFloat(a.dtype)
                            ? sameFloat(a.get(i),
                                        w.toStdString() == "nan"
                                            ? NAN
                                            : std::strtod(w.toStdString().c_str(), nullptr),
                                        m_ulps, a.dtype)
                            : sameInt(a, i, w);
        if (!ok) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.17g", a.get(i));
          return fail(QString("element %1: %2, numpy %3")
                          .arg(i)
                          .arg(ir::isFloat(a.dtype) ? QString(buf) : QString::number(a.getInt(i)))
                          .arg(w));
        }
      }
      return true;
    }
    if (kind == "tuple" || kind == "list") {
      const PyKind k = kind == "tuple" ? PyKind::Tuple : PyKind::List;
      if (v->kind != k)
        return fail("expected a " + kind + ", found " + QString::fromStdString(in.typeName(v)));
      const QJsonArray items = want["items"].toArray();
      if (static_cast<int>(v->items.size()) != items.size()) return fail(kind + " length");
      for (int i = 0; i < items.size(); ++i)
        if (!same(in, v->items[i], items[i].toObject()))
          return fail(QString("item %1: ").arg(i) + why);
      return true;
    }
    const QString w = vals.isEmpty() ? QString() : vals[0].toString();
    if (kind == "bool") {
      if (v->kind != PyKind::Bool)
        return fail("expected a bool, found " + QString::fromStdString(in.typeName(v)));
      return (v->b ? "1" : "0") == w || fail("bool " + QString::number(v->b) + ", Python " + w);
    }
    if (kind == "int") {
      if (v->kind != PyKind::Int)
        return fail("expected an int, found " + QString::fromStdString(in.typeName(v)));
      return QString::number(v->i) == w || fail("int " + QString::number(v->i) + ", Python " + w);
    }
    if (kind == "float") {
      if (v->kind != PyKind::Float)
        return fail("expected a float, found " + QString::fromStdString(in.typeName(v)));
      const double d = w == "nan" ? NAN : std::strtod(w.toStdString().c_str(), nullptr);
      return sameFloat(v->f, d, 0, DType::Float64) ||
             fail(QString("float %1, Python %2").arg(v->f, 0, 'g', 17).arg(w));
    }
    if (kind == "str") {
      if (v->kind != PyKind::Str) return fail("expected a str");
      return QString::fromStdString(v->s) == w || fail("str differs");
    }
    return fail("unknown kind " + kind);
  }

 private:
  bool fail(const QString& w) {
    why = w;
    return false;
  }
  double m_ulps;
};

struct Outcome {
  bool error = false;
  std::string code, message;
  int line = 0;
  Py r;
};

}  // namespace

class TestHarnessConform : public QObject {
  Q_OBJECT
 private slots:
  void conformsToNumpy() {
    QFile f(casesPath());
    QVERIFY2(f.open(QIODevice::ReadOnly), "tests/data/harness_conform/cases.json is missing");
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonArray cases = root["cases"].toArray();
    QVERIFY(cases.size() >= 300);
    int values = 0, errors = 0, refused = 0;
    QStringList mismatches, refusals;
    for (const auto& cv : cases) {
      const QJsonObject c = cv.toObject();
      const QString name = c["name"].toString();
      // A case with a `harness` spelling (torch.softmax, scaled_dot_product_attention) runs that
      // here and numpy's formula (`code`) under numpy.
      const std::string src =
          c.contains("harness")
              ? "import numpy as np\nimport torch\nimport torch.nn.functional as F\n" +
                    c["harness"].toString().toStdString()
              : "import numpy as np\n" + c["code"].toString().toStdString();
      ParseResult pr = parseScript(src, "<snippet>");
      if (!pr.diagnostics.empty()) {  // e.g. an integer literal beyond int64 (E0008)
        const Diagnostic& d = pr.diagnostics[0];
        const QString what = QString("%1 at line %2: %3")
                                 .arg(QString::fromStdString(d.code))
                                 .arg(d.span.line)
                                 .arg(QString::fromStdString(d.message));
        if (c.contains("error"))
          mismatches << name + ": does not parse: " + what;
        else {
          ++refused;
          refusals << name + ": does not parse: " + what;
        }
        continue;
      }
      ir::Program program;
      Report rep;
      HarnessContext ctx;
      ctx.module = &pr.module;
      ctx.program = &program;
      ctx.report = &rep;
      Interp in(ctx);
      in.run();
      Outcome o;
      if (!rep.errors.empty()) {
        o.error = true;
        o.code = rep.errors[0].code;
        o.message = rep.errors[0].message;
        o.line = rep.errors[0].span.line;
      } else if (in.globals.count("r")) {
        o.r = in.globals["r"];
      }
      const QString harnessErr = QString("%1 at line %2: %3")
                                     .arg(QString::fromStdString(o.code))
                                     .arg(o.line)
                                     .arg(QString::fromStdString(o.message));
      if (c.contains("error")) {
        const QString pyErr = c["error"].toString() + QString(" at line %1").arg(c["line"].toInt());
        if (!o.error) {
          mismatches << name + ": numpy raises " + pyErr + ", the harness computes a value";
        } else if (o.line != c["line"].toInt()) {
          mismatches << name + ": numpy raises " + pyErr + ", the harness reports " + harnessErr;
        } else {
          ++errors;
        }
        continue;
      }
      if (o.error) {
        if (o.code == "E0802" || o.code == "E0803") {
          ++refused;
          refusals << name + ": " + harnessErr;
        } else {
          mismatches << name + ": numpy computes a value, the harness reports " + harnessErr;
        }
        continue;
      }
      if (!o.r) {
        mismatches << name + ": the harness bound no r";
        continue;
      }
      Comparer cmp(c["ulp"].toDouble());
      if (!cmp.same(in, o.r, c["result"].toObject()))
        mismatches << name + ": " + cmp.why;
      else
        ++values;
    }
    for (const auto& r : refusals) qInfo("refused: %s", qPrintable(r));
    for (const auto& m : mismatches) qWarning("MISMATCH %s", qPrintable(m));
    qInfo(
        "harness conformance against numpy %s: %d cases, %d values and %d errors as numpy, %d "
        "refused, %d mismatches",
        qPrintable(root["numpy"].toString()), static_cast<int>(cases.size()), values, errors,
        refused, static_cast<int>(mismatches.size()));
    QCOMPARE(mismatches.size(), 0);
  }
};

QTEST_APPLESS_MAIN(TestHarnessConform)
#include "tst_harness_conform.moc"
