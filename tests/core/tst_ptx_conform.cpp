// PTX conformance of the simulator: every spelling the instruction table accepts (enumerated from
// the table, at every operand count), run on its conformance vectors (core/ptx/ptx_vectors.h)
// through sim::execPtx, against the independent reference model of ptx_reference.cpp — exact
// bits, any NaN where the ISA leaves the NaN unspecified, the documented bound for approximate
// instructions (also checked with sim::checkApproximate). Then the simulator against device
// answers recorded by `tirx ptx-conform --record` (tests/data/ptx/*.json, see docs/ptx.md).
#include <QDir>
#include <QFile>
#include <QtTest>
#include <map>

#include "core/conform/ptx_conform.h"
#include "core/ptx/ptx_vectors.h"
#include "core/sim/sim_numerics.h"
#include "ptx_reference.h"

using namespace tirx;

namespace {

constexpr int kVectors = 384;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string describeVector(const PtxVector& v, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + hex(v[i]);
  return s + ")";
}

}  // namespace

class TstPtxConform : public QObject {
  Q_OBJECT
 private slots:
  void casesCoverTheWholeTable();
  void vectorsAreDeterministicAndCoverEdges();
  void everySpellingMatchesTheReference();
  void approximateSpellingsStayWithinTheirBound();
  void recordedAnswersMatchTheSimulator();
  void recordReaderRejectsStaleOrMalformedFiles();
};

void TstPtxConform::casesCoverTheWholeTable() {
  const std::vector<PtxConformCase> cases = ptxConformCases();
  std::map<std::string, int> arities;
  for (const PtxConformCase& c : cases) ++arities[c.opcode];
  QVERIFY(cases.size() > 6000);
  QCOMPARE(arities["max.f32"], 2);  // two- and three-input forms
  QCOMPARE(arities["max.xorsign.abs.f32"], 1);
  QCOMPARE(arities["mul.hi.u32"], 1);
  QVERIFY(arities.count("cvt.rn.relu.satfinite.bf16x2.f32"));
  QCOMPARE(ptxConformCases("mul.wide.").size(), size_t{4});
}

void TstPtxConform::vectorsAreDeterministicAndCoverEdges() {
  for (const PtxConformCase& c : ptxConformCases("fma.rn.f16x2")) {
    const std::vector<PtxVector> a = ptxConformVectors(c, kVectors),
                                 b = ptxConformVectors(c, kVectors);
    QCOMPARE(a.size(), size_t{kVectors});
    QVERIFY(a == b);
    QCOMPARE(ptxVectorsDigest(a, 3), ptxVectorsDigest(b, 3));
    // Both lanes of the packed sources meet +inf, a NaN and a subnormal.
    for (int lane = 0; lane < 2; ++lane) {
      bool inf = false, nan = false, sub = false;
      for (const PtxVector& v : a) {
        const uint64_t h = (v[0] >> (16 * lane)) & 0xffff;
        inf |= h == 0x7c00;
        nan |= (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
        sub |= (h & 0x7c00) == 0 && (h & 0x3ff);
      }
      QVERIFY(inf && nan && sub);
    }
  }
}

void TstPtxConform::everySpellingMatchesTheReference() {
  int checked = 0, failedCases = 0;
  QString report;
  for (const PtxConformCase& c : ptxConformCases()) {
    if (c.instr.isMemory()) continue;  // copies: checked through the executor by ptx-conform
    const int n = static_cast<int>(c.srcTypes.size());
    int bad = 0;
    std::string first;
    for (const PtxVector& v : ptxConformVectors(c, kVectors)) {
      uint64_t got = 0;
      std::string why;
      if (!sim::execPtx(c.instr, std::span<const uint64_t>(v.data(), n), got, &why)) {
        bad = kVectors;
        first = "not executed: " + why;
        break;
      }
      const ptxref::Expected e = ptxref::expect(c.instr, v.data(), n);
      if (!ptxref::accepts(e, got, &why)) {
        if (bad++ == 0) first = describeVector(v, n) + " " + why;
      }
      ++checked;
    }
    if (bad && ++failedCases <= 40)
      report += QString("\n  %1 (%2 operands): %3 of %4 vectors differ, first %5")
                    .arg(QString::fromStdString(c.opcode))
                    .arg(c.arity)
                    .arg(bad)
                    .arg(kVectors)
                    .arg(QString::fromStdString(first));
  }
  qInfo("%d instruction instances checked against the reference", checked);
  QVERIFY2(
      failedCases == 0,
      qPrintable(
          QString("%1 spellings disagree with the reference:%2").arg(failedCases).arg(report)));
}

void TstPtxConform::approximateSpellingsStayWithinTheirBound() {
  int approx = 0;
  QString report;
  for (const PtxConformCase& c : ptxConformCases()) {
    if (c.instr.isMemory() || !sim::isApproximate(c.instr)) continue;
    ++approx;
    const int n = static_cast<int>(c.srcTypes.size());
    for (const PtxVector& v : ptxConformVectors(c, kVectors)) {
      uint64_t got = 0;
      QVERIFY(sim::execPtx(c.instr, std::span<const uint64_t>(v.data(), n), got, nullptr));
      std::string why;
      if (!sim::checkApproximate(c.instr, std::span<const uint64_t>(v.data(), n), got, &why)) {
        report += QString("\n  %1 %2: %3")
                      .arg(QString::fromStdString(c.opcode))
                      .arg(QString::fromStdString(describeVector(v, n)))
                      .arg(QString::fromStdString(why));
        break;
      }
    }
  }
  QCOMPARE(approx, 16);  // ex2 6, lg2 2, rcp.approx 2, sqrt.approx 2, div.approx 2, div.full 2
  QVERIFY2(report.isEmpty(), qPrintable(report));
}

// Every file in tests/data/ptx: the IEEE-derived reference (derive_ieee.py) and the H200's answers
// recorded with `tirx ptx-conform --device cuda --record` (h200_sm90.json, sm_90).
void TstPtxConform::recordedAnswersMatchTheSimulator() {
  const QDir dir(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/ptx"));
  const QStringList files = dir.entryList({"*.json"}, QDir::Files, QDir::Name);
  QVERIFY2(!files.isEmpty(), "tests/data/ptx has no recorded or derived answers");
  const std::vector<PtxConformCase> all = ptxConformCases();
  std::map<std::pair<std::string, int>, const PtxConformCase*> byName;
  for (const PtxConformCase& c : all) byName[{c.opcode, c.arity}] = &c;
  bool device = false;
  for (const QString& name : files) {
    QFile f(dir.filePath(name));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const std::string text = f.readAll().toStdString();
    auto rec = conform::readRecord(text);
    QVERIFY2(rec.ok(),
             qPrintable(name + ": " + QString::fromStdString(rec.ok() ? "" : rec.error().text())));
    device |= rec->source != "derived";
    int vectors = 0;
    QString report;
    for (const conform::RecordedCase& rc : rec->cases) {
      const PtxConformCase* pc = byName.at({rc.opcode, rc.arity});
      const conform::CaseResult r = conform::replayCase(*pc, rc);
      vectors += static_cast<int>(rc.inputs.size());
      if (r.verdict == conform::Verdict::Match || r.verdict == conform::Verdict::WithinBound)
        continue;
      report += QString("\n  %1: %2 of %3 differ %4")
                    .arg(QString::fromStdString(rc.opcode))
                    .arg(r.differing)
                    .arg(rc.inputs.size())
                    .arg(QString::fromStdString(r.reason));
      for (const conform::VectorDiff& d : r.examples)
        report += QString("\n    %1 simulator %2 recorded %3 %4")
                      .arg(QString::fromStdString(describeVector(d.inputs, r.sources)))
                      .arg(QString::fromStdString(hex(d.model)))
                      .arg(QString::fromStdString(hex(d.device)))
                      .arg(QString::fromStdString(d.note));
    }
    if (rec->source != "derived") {
      // A device recording covers every case its target runs: listed, or counted as copied.
      size_t runnable = 0;
      for (const PtxConformCase& c : all) runnable += c.instr.minSmForArity(c.arity) <= rec->sm;
      QCOMPARE(rec->cases.size() + static_cast<size_t>(rec->memoryCasesCopied), runnable);
    }
    qInfo("%s (%s): %zu cases, %d vectors", qPrintable(name), rec->device.c_str(),
          rec->cases.size(), vectors);
    QVERIFY2(report.isEmpty(), qPrintable(name + " disagrees with the simulator:" + report));
  }
  if (!device)
    qInfo(
        "no GPU recording in tests/data/ptx yet: only the IEEE-derived answers were compared "
        "(record one with `tirx ptx-conform --device cuda --record`, docs/ptx.md)");
}

void TstPtxConform::recordReaderRejectsStaleOrMalformedFiles() {
  QVERIFY(!conform::readRecord("[]").ok());
  QVERIFY(!conform::readRecord(R"({"format": "other"})").ok());
  const std::string head = R"({"format": "tirx-ptx-conform-record", "version": 1, "generator": )";
  // Another generator version: the vectors would not be the ones recorded.
  auto stale = conform::readRecord(
      head +
      R"(999, "cases": [{"op": "add.rn.f32", "arity": 3, "vectors": 4, "inputs": "0x1", "bits": ""}]})");
  QVERIFY(!stale.ok());
  QVERIFY(stale.error().text().find("generator") != std::string::npos);
  const std::string gen = std::to_string(kPtxConformGenerator);
  auto digest = conform::readRecord(
      head + gen +
      R"(, "cases": [{"op": "add.rn.f32", "arity": 3, "vectors": 4, "inputs": "0x1", "outputs": "0x1"}]})");
  QVERIFY(!digest.ok());
  QVERIFY(digest.error().text().find("digest") != std::string::npos);
  QVERIFY(
      !conform::readRecord(head + gen + R"(, "cases": [{"op": "add.rn.f33", "arity": 3}]})").ok());
  auto explicitOk = conform::readRecord(
      head + gen +
      R"(, "cases": [{"op": "add.rn.f32", "arity": 3, "explicit": [["0x3f800000", "0x3f800000", "0x40000000"]]}]})");
  QVERIFY(explicitOk.ok());
  QCOMPARE(explicitOk->cases.at(0).outputs.at(0), uint64_t{0x40000000});
}

QTEST_APPLESS_MAIN(TstPtxConform)
#include "tst_ptx_conform.moc"
