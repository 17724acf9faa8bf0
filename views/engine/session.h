// The Session: the one object every view observes (passed by reference, never a global). It holds
// the current script text and file, the newest front-end facts (diagnostics, IR, symbols), the
// compile products and the verification report, and the cross-view selection (a script line, a
// tile element). Engine work is never done here: the session submits value jobs to the JobRunner
// and publishes their value results with signals.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

#include "views/engine/engine_products.h"
#include "views/engine/job_runner.h"
#include "views/engine/script_facts.h"

namespace tirx::views {

class Session : public QObject {
  Q_OBJECT
 public:
  explicit Session(JobRunner& runner, QObject* parent = nullptr);

  JobRunner& runner() { return m_runner; }

  const QString& text() const { return m_text; }
  /// The editor's text changed: mark modified and schedule the front end (debounced).
  void setText(const QString& text);
  /// Replace the whole document (open, new, recovery): emits textReplaced, analyses at once.
  void loadText(const QString& text, const QString& filePath, bool modified = false);
  /// Open `text` as a template called `name` (a bundled example): no file, unmodified, shown and
  /// checked under its real name; the editor keeps it read-only until Save As gives it a path.
  void loadTemplate(const QString& text, const QString& name);
  /// True while the document is an unsaved template (an example opened from the menu).
  bool isTemplate() const { return m_template; }

  const QString& filePath() const { return m_filePath; }
  void setFilePath(const QString& path);
  /// The file name shown to the engine and in titles ("untitled.py" when none).
  QString displayName() const;
  bool isModified() const { return m_modified; }
  void setModified(bool modified);

  int sm() const { return m_sm; }
  void setSm(int sm);
  /// "sim", "cuda:N" or an ssh:// device (a remote host from the settings).
  const QString& device() const { return m_device; }
  void setDevice(const QString& device) { m_device = device; }
  /// GPU runs under compute-sanitizer: "memcheck", "racecheck", "initcheck", "synccheck" or empty.
  const QString& sanitize() const { return m_sanitize; }
  void setSanitize(const QString& tool) { m_sanitize = tool; }

  /// Show a recorded run (an opened kernel bundle): `text` as the document named `name` (no file,
  /// unmodified), the recorded generated code and checks as the products and report.
  void showRecorded(const QString& text, const QString& name, CompileProducts products,
                    VerifyProducts report);
  /// The VerifyRequest of the current text, device, target and sanitizer.
  VerifyRequest verifyRequest() const;

  /// Debounce between a keystroke and the front-end job (150 ms by default).
  void setDebounceMs(int ms) { m_debounce.setInterval(ms); }
  /// Run the front end now on the current text (skips the debounce).
  void analyzeNow();

  /// The newest front-end facts delivered (null before the first one). Two stages per text
  /// (decision LIVE-3): first the engine's check alone (factsChanged: diagnostics, symbols,
  /// opcodes), then the same facts with the hover summaries, fragment facts, descriptors and tile
  /// images added (`detailed`; detailsChanged). An edit cancels the second stage of the old text.
  std::shared_ptr<const ScriptFacts> facts() const { return m_facts; }
  /// Compile products of the newest compile (null before one; see engine_products.h).
  std::shared_ptr<const CompileProducts> products() const { return m_products; }
  std::shared_ptr<const VerifyProducts> report() const { return m_report; }

  /// Compile & Verify the current text on the current device (Ctrl+Return).
  void requestCompileAndVerify();
  /// Simulate CTA `cta` of each kernel of the current text alone, on seeded inputs, for the
  /// Pipeline dock (a launch too large to simulate whole); the report replaces the last one.
  void requestCtaTimeline(int64_t cta);
  /// Only compile (for the assembly view).
  void requestCompile();
  /// Stop the running compile/verify (Stop button, Esc): its cancel token is set, a simulation or
  /// harness stops at its next budget check, a GPU runner child is killed. Queued batch jobs are
  /// dropped. Returns false when nothing was running.
  bool stop();
  /// True while a compile or verify is queued or running.
  bool batchRunning() const { return m_runner.isBatchBusy(); }

  /// The text changed since the shown report / compile products were made (the docks say so).
  bool reportStale() const { return m_reportStale; }
  bool productsStale() const { return m_productsStale; }
  /// Decimation columns of the Results plots (half the chart width in pixels): the worker keeps
  /// at most two points per column, so a series never has more points than pixel columns.
  void setPlotColumns(int columns) { m_plotColumns = columns > 0 ? columns : 512; }
  int plotColumns() const { return m_plotColumns; }

  int selectedLine() const { return m_selectedLine; }
  /// Select a 1-based script line (editor caret, assembly click, results click).
  void selectLine(int line);
  /// Select element `flat` of buffer `buffer` of `kernel` (results → layout view): the id the
  /// engine names it by (ir::Symbol::buffer, verify::OwnerInfo::buffer), never its name, which
  /// two kernels may share.
  void selectElement(const QString& kernel, int buffer, qint64 flat);
  /// The debugger's line breakpoints (1-based, ascending), toggled in the editor's margin.
  const QList<int>& breakpoints() const { return m_breakpoints; }
  void setBreakpoints(QList<int> lines);
  void toggleBreakpoint(int line);
  /// The line of the debugger's current stop (0: not debugging); the editor highlights it.
  int debugLine() const { return m_debugLine; }
  void setDebugLine(int line);

 signals:
  void textReplaced();
  void filePathChanged(const QString& path);
  /// isTemplate() changed (an example was opened, or Save As made it the user's file).
  void templateChanged(bool isTemplate);
  void modifiedChanged(bool modified);
  /// New stage-1 facts: diagnostics and symbols of a new text (facts()->detailed is false).
  void factsChanged();
  /// facts() now carries stage 2 (detailed) of the text factsChanged announced last.
  void detailsChanged();
  void productsChanged();
  void reportChanged();
  void statusMessage(const QString& message);
  /// reportStale() or productsStale() changed.
  void staleChanged();
  /// stop() dropped or cancelled batch work.
  void stopped();
  void lineSelected(int line);
  void elementSelected(const QString& kernel, int buffer, qint64 flat);
  void breakpointsChanged();
  void debugLineChanged(int line);

 private:
  /// Runs `req` as a cancellable verify job; its report replaces the last one (if the document is
  /// still the one it ran on).
  void submitVerify(VerifyRequest req);

  JobRunner& m_runner;
  QString m_text;
  QString m_filePath;
  bool m_modified = false;
  int m_sm = 90;
  QString m_device = QStringLiteral("sim");
  QString m_sanitize;
  QString m_recordedName;  ///< the document's name when it came from a bundle or is a template
  bool m_template = false;
  void replaceDocument(const QString& text, const QString& filePath, bool modified,
                       const QString& name);
  QTimer m_debounce;
  /// Stage 2 of m_facts on the interactive lane, after its diagnostics are shown.
  void requestDetails();
  std::shared_ptr<const ScriptFacts> m_facts;
  std::shared_ptr<const CompileProducts> m_products;
  std::shared_ptr<const VerifyProducts> m_report;
  int m_selectedLine = 0;
  bool m_reportStale = false;
  bool m_productsStale = false;
  int m_plotColumns = 512;
  QList<int> m_breakpoints;
  int m_debugLine = 0;
  quint64 m_document = 0;  ///< counts replaced documents: results of an older one are dropped
};

}  // namespace tirx::views
