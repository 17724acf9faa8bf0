// JobRunner: a newer job replaces a queued one of the same kind, stale results are dropped, a
// dead receiver never sees its result, kinds do not replace each other, a FrontEnd job is taken
// before the other queued jobs of its lane, and cancelKind stops and drops one kind.
#include <QElapsedTimer>
#include <QtTest>
#include <atomic>

#include "views/engine/job_runner.h"

using tirx::views::JobKind;
using tirx::views::JobRunner;

/// Generous: CI runs the views tests on a loaded 2-core machine; a passing run never waits this
/// long.
constexpr int kWaitMs = 30000;

class TstJobRunner : public QObject {
  Q_OBJECT
 private slots:
  void newerJobReplacesQueued() {
    JobRunner runner;
    QObject receiver;
    std::atomic<bool> release{false};
    auto unblock = qScopeGuard([&] { release = true; });  // a failed check must not hang the join
    std::atomic<int> started{0};
    // a blocking job of another kind keeps the worker busy while we queue three FrontEnd jobs
    runner.submit<int>(
        JobKind::Layout,
        [&] {
          ++started;
          while (!release) QThread::msleep(1);
          return 0;
        },
        &receiver, [](int) {});
    QTRY_COMPARE_WITH_TIMEOUT(started.load(), 1, kWaitMs);
    QList<int> delivered;
    for (int i = 1; i <= 3; ++i)
      runner.submit<int>(
          JobKind::FrontEnd, [i] { return i * 10; }, &receiver,
          [&delivered](int v) { delivered << v; });
    QCOMPARE(runner.replacedCount(), quint64(2));
    QVERIFY(!runner.isIdle());
    release = true;
    QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), kWaitMs);
    QCOMPARE(delivered, QList<int>{30});
    QCOMPARE(runner.latestGeneration(JobKind::FrontEnd), quint64(3));
  }

  void frontEndJumpsTheQueue() {
    // a keystroke's check is taken before the tables and details queued for the old text
    JobRunner runner;
    QObject receiver;
    std::atomic<bool> release{false};
    auto unblock = qScopeGuard([&] { release = true; });
    std::atomic<int> started{0};
    runner.submit<int>(
        JobKind::OutputGrid,
        [&] {
          ++started;
          while (!release) QThread::msleep(1);
          return 0;
        },
        &receiver, [](int) {});
    QTRY_COMPARE_WITH_TIMEOUT(started.load(), 1, kWaitMs);
    QStringList order;
    runner.submit<int>(
        JobKind::Details, [] { return 0; }, &receiver, [&](int) { order << "details"; });
    runner.submit<int>(
        JobKind::Layout, [] { return 0; }, &receiver, [&](int) { order << "layout"; });
    runner.submit<int>(
        JobKind::FrontEnd, [] { return 0; }, &receiver, [&](int) { order << "check"; });
    release = true;
    QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), kWaitMs);
    QCOMPARE(order, (QStringList{"check", "details", "layout"}));
  }

  void cancelKindStopsAndDrops() {
    JobRunner runner;
    QObject receiver;
    std::atomic<bool> sawCancel{false};
    std::atomic<int> started{0};
    QList<int> delivered;
    // a running Details job sees its token set and its result is dropped
    runner.submitCancellable<int>(
        JobKind::Details,
        [&](const tirx::CancelTokenPtr& cancel) {
          ++started;
          QElapsedTimer t;
          t.start();
          while (!cancel->cancelled() && t.elapsed() < kWaitMs) QThread::msleep(1);
          sawCancel = cancel->cancelled();
          return 1;
        },
        &receiver, [&](int v) { delivered << v; });
    QTRY_COMPARE_WITH_TIMEOUT(started.load(), 1, kWaitMs);
    // a queued one of the same kind behind a blocker is dropped without running
    std::atomic<bool> ranQueued{false};
    QVERIFY(runner.cancelKind(JobKind::Details));
    QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), kWaitMs);
    QVERIFY(sawCancel);
    QVERIFY(delivered.isEmpty());
    std::atomic<bool> release{false};
    auto unblock = qScopeGuard([&] { release = true; });
    started = 0;
    runner.submit<int>(
        JobKind::Layout,
        [&] {
          ++started;
          while (!release) QThread::msleep(1);
          return 0;
        },
        &receiver, [](int) {});
    QTRY_COMPARE_WITH_TIMEOUT(started.load(), 1, kWaitMs);
    runner.submit<int>(
        JobKind::Details,
        [&] {
          ranQueued = true;
          return 2;
        },
        &receiver, [&](int v) { delivered << v; });
    QVERIFY(runner.cancelKind(JobKind::Details));
    QVERIFY(!runner.cancelKind(JobKind::Details));  // nothing left of that kind
    release = true;
    QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), kWaitMs);
    QVERIFY(!ranQueued);
    QVERIFY(delivered.isEmpty());
  }

  void staleResultIsDropped() {
    JobRunner runner;
    QObject receiver;
    std::atomic<bool> release{false};
    auto unblock = qScopeGuard([&] { release = true; });  // a failed check must not hang the join
    std::atomic<int> started{0};
    QList<int> delivered;
    runner.submit<int>(
        JobKind::Compile,
        [&] {
          ++started;
          while (!release) QThread::msleep(1);
          return 1;
        },
        &receiver, [&delivered](int v) { delivered << v; });
    QTRY_COMPARE_WITH_TIMEOUT(started.load(), 1,
                              kWaitMs);  // job 1 is running: it cannot be replaced, only outdated
    runner.submit<int>(
        JobKind::Compile, [] { return 2; }, &receiver, [&delivered](int v) { delivered << v; });
    release = true;
    QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), kWaitMs);
    QCOMPARE(delivered, QList<int>{2});
    QCOMPARE(runner.replacedCount(), quint64(0));
  }

  void deadReceiverIsSkipped() {
    JobRunner runner;
    auto* receiver = new QObject;
    bool called = false;
    std::atomic<bool> release{false};
    auto unblock = qScopeGuard([&] { release = true; });  // a failed check must not hang the join
    runner.submit<int>(
        JobKind::Verify,
        [&] {
          while (!release) QThread::msleep(1);
          return 5;
        },
        receiver, [&called](int) { called = true; });
    delete receiver;
    release = true;
    QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), kWaitMs);
    QVERIFY(!called);
  }

  void kindsAreIndependentAndValuesCrossThreads() {
    JobRunner runner;
    QObject receiver;
    std::vector<std::string> got;
    Qt::HANDLE gui = QThread::currentThreadId();
    Qt::HANDLE doneThread = nullptr, workThread = nullptr;
    runner.submit<std::string>(
        JobKind::FrontEnd,
        [&] {
          workThread = QThread::currentThreadId();
          return std::string("a");
        },
        &receiver,
        [&](std::string s) {
          doneThread = QThread::currentThreadId();
          got.push_back(s);
        });
    runner.submit<std::string>(
        JobKind::Layout, [] { return std::string("b"); }, &receiver,
        [&](std::string s) { got.push_back(s); });
    QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), kWaitMs);
    QCOMPARE(got.size(), size_t(2));
    QCOMPARE(got[0], std::string("a"));
    QCOMPARE(got[1], std::string("b"));
    QCOMPARE(doneThread, gui);
    QVERIFY(workThread != gui);
  }
};

QTEST_MAIN(TstJobRunner)
#include "tst_job_runner.moc"
