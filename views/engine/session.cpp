// Session: state, debounce and the submission of value jobs to the runner.
#include "views/engine/session.h"

#include <QFileInfo>
#include <algorithm>

#include "core/driver/device.h"

namespace tirx::views {

Session::Session(JobRunner& runner, QObject* parent) : QObject(parent), m_runner(runner) {
  m_debounce.setSingleShot(true);
  m_debounce.setInterval(150);
  connect(&m_debounce, &QTimer::timeout, this, &Session::analyzeNow);
}

void Session::setText(const QString& text) {
  if (text == m_text) return;
  m_text = text;
  setModified(true);
  // The details of the old text are stale from this keystroke on: stopping them now leaves the
  // debounce for them to notice, so the next check never waits behind them.
  m_runner.cancelKind(JobKind::Details);
  m_debounce.start();
  // The shown results and assembly were made from the old text: say so until the next run.
  bool reportStale = m_report != nullptr, productsStale = m_products != nullptr;
  if (reportStale != m_reportStale || productsStale != m_productsStale) {
    m_reportStale = reportStale;
    m_productsStale = productsStale;
    emit staleChanged();
  }
}

void Session::loadText(const QString& text, const QString& filePath, bool modified) {
  replaceDocument(text, filePath, modified, QString());
  if (m_template) {
    m_template = false;
    emit templateChanged(false);
  }
}

void Session::loadTemplate(const QString& text, const QString& name) {
  replaceDocument(text, QString(), false, name);
  m_template = true;
  emit templateChanged(true);
  emit filePathChanged(QString());  // the title shows the template's name
}

void Session::replaceDocument(const QString& text, const QString& filePath, bool modified,
                              const QString& name) {
  // Nothing of the old document survives: a compile or verify still running for it is stopped
  // and its result dropped (m_document), its facts, products and report are gone.
  ++m_document;
  m_runner.cancelBatch();
  m_runner.cancelKind(JobKind::Details);
  m_recordedName = name;
  m_text = text;
  setFilePath(filePath);
  setModified(modified);
  m_facts.reset();
  m_products.reset();
  m_report.reset();
  m_selectedLine = 0;
  m_reportStale = m_productsStale = false;
  emit staleChanged();
  emit textReplaced();
  emit productsChanged();
  emit reportChanged();
  analyzeNow();
}

void Session::setFilePath(const QString& path) {
  if (!path.isEmpty() && m_template) {  // Save As made the template the user's own file
    m_template = false;
    m_recordedName.clear();
    emit templateChanged(false);
  }
  if (path == m_filePath) return;
  m_filePath = path;
  emit filePathChanged(path);
}

QString Session::displayName() const {
  if (!m_filePath.isEmpty()) return QFileInfo(m_filePath).fileName();
  return m_recordedName.isEmpty() ? QStringLiteral("untitled.py") : m_recordedName;
}

void Session::showRecorded(const QString& text, const QString& name, CompileProducts products,
                           VerifyProducts report) {
  if (m_template) {
    m_template = false;
    emit templateChanged(false);
  }
  replaceDocument(text, QString(), false, name);
  m_products = std::make_shared<const CompileProducts>(std::move(products));
  m_report = std::make_shared<const VerifyProducts>(std::move(report));
  emit productsChanged();
  emit reportChanged();
  emit statusMessage(QString::fromStdString(m_report->summary));
}

namespace {

// The analysis the diagnostics lane made of `text` for `sm`, when it is current: the compile and
// verify jobs reuse it instead of running the front end again.
std::shared_ptr<const FrontEndResult> currentAnalysis(
    const std::shared_ptr<const ScriptFacts>& facts, const std::string& text, int sm) {
  if (!facts || !facts->frontEnd || facts->source != text ||
      facts->frontEnd->program.targetSm != sm)
    return nullptr;
  return facts->frontEnd;
}

}  // namespace

VerifyRequest Session::verifyRequest() const {
  VerifyRequest req;
  req.source = m_text.toStdString();
  req.fileName = displayName().toStdString();
  req.sm = m_sm;
  req.analysed = currentAnalysis(m_facts, req.source, m_sm);
  req.device = m_device.toStdString();
  // The sanitizer watches local GPU runs only (driver::parseDevice refuses it anywhere else).
  const auto device = driver::parseDevice(req.device);
  req.sanitize =
      device && device->kind == driver::DeviceKind::Cuda ? m_sanitize.toStdString() : std::string();
  req.plotColumns = m_plotColumns;
  return req;
}

void Session::setModified(bool modified) {
  if (modified == m_modified) return;
  m_modified = modified;
  emit modifiedChanged(modified);
}

void Session::setSm(int sm) {
  if (sm == m_sm) return;
  m_sm = sm;
  analyzeNow();
}

void Session::analyzeNow() {
  m_debounce.stop();
  std::string source = m_text.toStdString();
  std::string name = displayName().toStdString();
  int sm = m_sm;
  m_runner.cancelKind(JobKind::Details);
  m_runner.submit<ScriptFacts>(
      JobKind::FrontEnd, [source, name, sm] { return checkScriptFacts(source, name, sm); }, this,
      [this](ScriptFacts facts) {
        m_facts = std::make_shared<const ScriptFacts>(std::move(facts));
        emit factsChanged();  // the diagnostics are drawn now, before any detail is computed
        requestDetails();
      });
}

void Session::requestDetails() {
  const std::shared_ptr<const ScriptFacts> checked = m_facts;
  // an edit made while the check ran (or in its factsChanged) makes these details stale already
  if (!checked || checked->detailed || checked->source != m_text.toStdString()) return;
  m_runner.submitCancellable<ScriptFacts>(
      JobKind::Details,
      [checked](const CancelTokenPtr& cancel) { return detailScriptFacts(*checked, cancel.get()); },
      this,
      [this, checked](ScriptFacts facts) {
        // only the details of the facts still shown (a newer text or document drops them)
        if (facts.cancelled || m_facts != checked) return;
        m_facts = std::make_shared<const ScriptFacts>(std::move(facts));
        emit detailsChanged();
      });
}

void Session::requestCompile() {
  CompileRequest req;
  req.source = m_text.toStdString();
  req.fileName = displayName().toStdString();
  req.sm = m_sm;
  req.analysed = currentAnalysis(m_facts, req.source, m_sm);
  emit statusMessage(tr("compiling %1…").arg(displayName()));
  const quint64 document = m_document;
  m_runner.submit<CompileProducts>(
      JobKind::Compile, [req] { return runCompile(req); }, this,
      [this, document](CompileProducts p) {
        if (document != m_document) return;  // compiled from a document replaced since
        m_products = std::make_shared<const CompileProducts>(std::move(p));
        m_productsStale = false;
        emit staleChanged();
        emit statusMessage(QString::fromStdString(m_products->summary));
        emit productsChanged();
      });
}

void Session::requestCompileAndVerify() {
  requestCompile();
  submitVerify(verifyRequest());
}

void Session::requestCtaTimeline(int64_t cta) {
  VerifyRequest req = verifyRequest();
  req.device = "sim";
  req.sanitize.clear();
  req.onlyCta = cta;
  submitVerify(std::move(req));
}

void Session::submitVerify(VerifyRequest req) {
  const quint64 document = m_document;
  m_runner.submitCancellable<VerifyProducts>(
      JobKind::Verify, [req](const CancelTokenPtr& cancel) { return runVerify(req, cancel); }, this,
      [this, document](VerifyProducts r) {
        if (document != m_document) return;  // run from a document replaced since
        m_report = std::make_shared<const VerifyProducts>(std::move(r));
        m_reportStale = false;
        emit staleChanged();
        emit statusMessage(QString::fromStdString(m_report->summary));
        emit reportChanged();
      });
}

bool Session::stop() {
  if (!m_runner.cancelBatch()) return false;
  emit statusMessage(tr("stopped"));
  emit stopped();
  return true;
}

void Session::selectLine(int line) {
  if (line == m_selectedLine) return;
  m_selectedLine = line;
  emit lineSelected(line);
}

void Session::selectElement(const QString& kernel, int buffer, qint64 flat) {
  emit elementSelected(kernel, buffer, flat);
}

void Session::setBreakpoints(QList<int> lines) {
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  lines.removeIf([](int l) { return l <= 0; });
  if (lines == m_breakpoints) return;
  m_breakpoints = std::move(lines);
  emit breakpointsChanged();
}

void Session::toggleBreakpoint(int line) {
  QList<int> lines = m_breakpoints;
  if (lines.contains(line))
    lines.removeAll(line);
  else
    lines.append(line);
  setBreakpoints(std::move(lines));
}

void Session::setDebugLine(int line) {
  if (line == m_debugLine) return;
  m_debugLine = line;
  emit debugLineChanged(line);
}

}  // namespace tirx::views
