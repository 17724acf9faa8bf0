// The simulator's asynchronous timeline (ir/async_timeline.h, decision PIPE-1): exact event
// sequences for the mbarrier ring example and a two-stage cp.async pipeline, the TMA box image of
// the 128-byte swizzle example against the swizzle's own formula, the event cap, and that a run
// without the option records nothing.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/sema/sema.h"
#include "core/sim/simulator.h"

using namespace tirx;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<ir::KernelArg> rampArgs(const ir::Kernel& k) {
  std::vector<ir::KernelArg> args;
  for (const auto& p : k.params) {
    ir::KernelArg a;
    const auto& b = k.buffers[size_t(p.buffer)];
    a.tensor.dtype = b.dtype;
    a.tensor.shape = b.shape;
    a.tensor.data.assign(size_t(a.tensor.numel() * ir::dtypeBytes(b.dtype)), 0);
    args.push_back(a);
  }
  return args;
}

struct Run {
  bool ok = false;
  ir::RunOutcome out;
  std::string error;
};

Run simulate(const std::string& path, sim::SimOptions o) {
  Run r;
  FrontEndResult fe = checkScript(readFile(path), path);
  if (!fe.ok()) {
    r.error = formatGcc(fe.diagnostics, path);
    return r;
  }
  const auto& k = fe.program.kernels.at(0);
  auto args = rampArgs(k);
  sim::Simulator s(o);
  auto res = s.run(fe.program, k.name, args);
  if (!res.ok()) {
    r.error = res.error().text();
    return r;
  }
  r.out = std::move(*res);
  r.ok = r.out.ran;
  for (const auto& f : r.out.faults) r.error += f.diag.message + "\n";
  return r;
}

/// One line per event: "c0 w1 L27 mbarrier.wait full[0] par=1 ph=-1 t=5..9 x32".
std::string describe(const ir::AsyncTimeline& tl) {
  std::string s;
  for (const auto& e : tl.events) {
    s += "c" + std::to_string(e.cta) + " w" + std::to_string(e.warp) + " L" +
         std::to_string(e.span.line) + " " + ir::asyncEventKindName(e.kind);
    if (e.barrier >= 0) s += " " + tl.name(e.barrier);
    if (e.buffer >= 0) s += " " + tl.name(e.buffer) + "#" + std::to_string(e.stage);
    if (e.parity >= 0) s += " par=" + std::to_string(e.parity);
    if (e.kind == ir::AsyncEventKind::MbarWait || e.kind == ir::AsyncEventKind::MbarPhase ||
        e.kind == ir::AsyncEventKind::MbarArrive)
      s += " ph=" + std::to_string(e.phase);
    if (e.group >= 0) s += " g=" + std::to_string(e.group);
    if (e.count) s += " n=" + std::to_string(e.count);
    if (e.bytes) s += " b=" + std::to_string(e.bytes);
    s += " t=" + std::to_string(e.start);
    if (ir::isAsyncInterval(e.kind)) s += ".." + std::to_string(e.end);
    if (e.lanes > 1) s += " x" + std::to_string(e.lanes);
    if (e.unfinished) s += " unfinished";
    s += "\n";
  }
  return s;
}

sim::SimOptions withTimeline() {
  sim::SimOptions o;
  o.recordTimeline = true;
  return o;
}

const std::string kExamples = std::string(TIRX_SOURCE_DIR) + "/resources/examples/";
const std::string kData = std::string(TIRX_SOURCE_DIR) + "/tests/data/sim_timeline/";

}  // namespace

class TestSimTimeline : public QObject {
  Q_OBJECT
 private slots:
  void offByDefault() {
    // A plain run records nothing (verify's default).
    Run r = simulate(kExamples + "mbarrier_ring.py", sim::SimOptions{});
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.out.timeline.empty());
    QVERIFY(r.out.timeline.names.empty());
  }

  void mbarrierRing() {
    // Warp 1 produces, warp 0 consumes, two stages, eight rounds: each consumer wait on full[s]
    // ends at the phase flip that the producer's 32nd arrival causes, each producer wait on
    // empty[s] passes at once (parity 1 of a fresh barrier, then phases the consumer completed
    // earlier in simulated time).
    Run r = simulate(kExamples + "mbarrier_ring.py", withTimeline());
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(!r.out.timeline.truncated);
    const std::string expected =
        "c0 w0 L23 mbarrier.init full[0] n=32 t=6\n"
        "c0 w0 L24 mbarrier.init empty[0] n=32 t=7\n"
        "c0 w0 L23 mbarrier.init full[1] n=32 t=10\n"
        "c0 w0 L24 mbarrier.init empty[1] n=32 t=11\n"
        "c0 w1 L31 mbarrier.wait empty[0] par=1 ph=-1 t=21..21 x32\n"
        "c0 w0 L35 mbarrier.wait full[0] par=0 ph=0 t=21..23 x32\n"
        "c0 w1 L33 mbarrier.arrive full[0] ph=0 n=32 t=23 x32\n"
        "c0 w1 L33 mbarrier.phase full[0] ph=0 t=23\n"
        "c0 w0 L37 mbarrier.arrive empty[0] ph=0 n=32 t=25 x32\n"
        "c0 w0 L37 mbarrier.phase empty[0] ph=0 t=25\n"
        "c0 w1 L31 mbarrier.wait empty[1] par=1 ph=-1 t=30..30 x32\n"
        "c0 w0 L35 mbarrier.wait full[1] par=0 ph=0 t=31..32 x32\n"
        "c0 w1 L33 mbarrier.arrive full[1] ph=0 n=32 t=32 x32\n"
        "c0 w1 L33 mbarrier.phase full[1] ph=0 t=32\n"
        "c0 w0 L37 mbarrier.arrive empty[1] ph=0 n=32 t=34 x32\n"
        "c0 w0 L37 mbarrier.phase empty[1] ph=0 t=34\n"
        "c0 w1 L31 mbarrier.wait empty[0] par=0 ph=0 t=39..39 x32\n"
        "c0 w0 L35 mbarrier.wait full[0] par=1 ph=1 t=40..41 x32\n"
        "c0 w1 L33 mbarrier.arrive full[0] ph=1 n=32 t=41 x32\n"
        "c0 w1 L33 mbarrier.phase full[0] ph=1 t=41\n"
        "c0 w0 L37 mbarrier.arrive empty[0] ph=1 n=32 t=43 x32\n"
        "c0 w0 L37 mbarrier.phase empty[0] ph=1 t=43\n"
        "c0 w1 L31 mbarrier.wait empty[1] par=0 ph=0 t=48..48 x32\n"
        "c0 w0 L35 mbarrier.wait full[1] par=1 ph=1 t=49..50 x32\n"
        "c0 w1 L33 mbarrier.arrive full[1] ph=1 n=32 t=50 x32\n"
        "c0 w1 L33 mbarrier.phase full[1] ph=1 t=50\n"
        "c0 w0 L37 mbarrier.arrive empty[1] ph=1 n=32 t=52 x32\n"
        "c0 w0 L37 mbarrier.phase empty[1] ph=1 t=52\n"
        "c0 w1 L31 mbarrier.wait empty[0] par=1 ph=1 t=57..57 x32\n"
        "c0 w0 L35 mbarrier.wait full[0] par=0 ph=2 t=58..59 x32\n"
        "c0 w1 L33 mbarrier.arrive full[0] ph=2 n=32 t=59 x32\n"
        "c0 w1 L33 mbarrier.phase full[0] ph=2 t=59\n"
        "c0 w0 L37 mbarrier.arrive empty[0] ph=2 n=32 t=61 x32\n"
        "c0 w0 L37 mbarrier.phase empty[0] ph=2 t=61\n"
        "c0 w1 L31 mbarrier.wait empty[1] par=1 ph=1 t=66..66 x32\n"
        "c0 w0 L35 mbarrier.wait full[1] par=0 ph=2 t=67..68 x32\n"
        "c0 w1 L33 mbarrier.arrive full[1] ph=2 n=32 t=68 x32\n"
        "c0 w1 L33 mbarrier.phase full[1] ph=2 t=68\n"
        "c0 w0 L37 mbarrier.arrive empty[1] ph=2 n=32 t=70 x32\n"
        "c0 w0 L37 mbarrier.phase empty[1] ph=2 t=70\n"
        "c0 w1 L31 mbarrier.wait empty[0] par=0 ph=2 t=75..75 x32\n"
        "c0 w0 L35 mbarrier.wait full[0] par=1 ph=3 t=76..77 x32\n"
        "c0 w1 L33 mbarrier.arrive full[0] ph=3 n=32 t=77 x32\n"
        "c0 w1 L33 mbarrier.phase full[0] ph=3 t=77\n"
        "c0 w0 L37 mbarrier.arrive empty[0] ph=3 n=32 t=79 x32\n"
        "c0 w0 L37 mbarrier.phase empty[0] ph=3 t=79\n"
        "c0 w1 L31 mbarrier.wait empty[1] par=0 ph=2 t=84..84 x32\n"
        "c0 w0 L35 mbarrier.wait full[1] par=1 ph=3 t=85..86 x32\n"
        "c0 w1 L33 mbarrier.arrive full[1] ph=3 n=32 t=86 x32\n"
        "c0 w1 L33 mbarrier.phase full[1] ph=3 t=86\n"
        "c0 w0 L37 mbarrier.arrive empty[1] ph=3 n=32 t=88 x32\n"
        "c0 w0 L37 mbarrier.phase empty[1] ph=3 t=88\n";
    QCOMPARE(describe(r.out.timeline), expected);
  }

  void cpAsyncTwoStage() {
    // Group g holds tile g; wait_group(1) in round i waits for group i. Round 0 waits for the
    // copy issued at t=2 (it lands 64 ticks later), round 1's group landed while round 0 read.
    Run r = simulate(kData + "cp_async_2stage.py", withTimeline());
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.out.timeline.copyTicks, int64_t{64});
    const std::string expected =
        "c0 w0 L13 cp.async buf#0 b=512 t=2..66 x32\n"
        "c0 w0 L14 cp.async.commit g=0 b=512 t=3 x32\n"
        "c0 w0 L17 cp.async buf#1 b=512 t=7..71 x32\n"
        "c0 w0 L18 cp.async.commit g=1 b=512 t=8 x32\n"
        "c0 w0 L19 cp.async.wait g=0 n=1 t=9..66 x32\n"
        "c0 w0 L17 cp.async buf#0 b=512 t=84..148 x32\n"
        "c0 w0 L18 cp.async.commit g=2 b=512 t=85 x32\n"
        "c0 w0 L19 cp.async.wait g=1 n=1 t=86..86 x32\n"
        "c0 w0 L17 cp.async buf#1 b=512 t=104..168 x32\n"
        "c0 w0 L18 cp.async.commit g=3 b=512 t=105 x32\n"
        "c0 w0 L19 cp.async.wait g=2 n=1 t=106..148 x32\n"
        "c0 w0 L18 cp.async.commit g=4 t=166 x32\n"
        "c0 w0 L19 cp.async.wait g=3 n=1 t=167..168 x32\n";
    QCOMPARE(describe(r.out.timeline), expected);
  }

  void copyTicksOption() {
    // The latency model is an option: with 10 ticks the first wait ends at 2 + 10.
    sim::SimOptions o = withTimeline();
    o.timelineCopyTicks = 10;
    Run r = simulate(kData + "cp_async_2stage.py", o);
    QVERIFY2(r.ok, r.error.c_str());
    const auto& ev = r.out.timeline.events;
    QVERIFY(ev.size() > 4);
    QCOMPARE(ev[4].kind, ir::AsyncEventKind::CpAsyncWait);
    QCOMPARE(ev[4].start, int64_t{9});
    QCOMPARE(ev[4].end, int64_t{12});
  }

  void tmaSequenceAndImage() {
    // One elected thread announces 4096 bytes and issues the box; all four warps wait until it
    // lands; the image is SWIZZLE_128B's: the 16-byte chunk c of shared row r holds global chunk
    // c ^ (r % 8) of row r (the hardware formula, spec TC §9.2, not the simulator's layout code).
    Run r = simulate(kExamples + "tma_copy_128b.py", withTimeline());
    QVERIFY2(r.ok, r.error.c_str());
    const auto& tl = r.out.timeline;
    std::string cta0;
    std::istringstream lines(describe(tl));
    for (std::string l; std::getline(lines, l);)
      if (l.rfind("c0 ", 0) == 0) cta0 += l + "\n";
    const std::string expected =
        "c0 w0 L21 mbarrier.init bar[0] n=1 t=4\n"
        "c0 w0 L26 mbarrier.expect_tx bar[0] b=4096 t=8\n"
        "c0 w0 L26 mbarrier.arrive bar[0] ph=0 n=1 t=8\n"
        "c0 w0 L28 mbarrier.wait bar[0] par=0 ph=0 t=8..73 x32\n"
        "c0 w1 L28 mbarrier.wait bar[0] par=0 ph=0 t=8..73 x32\n"
        "c0 w2 L28 mbarrier.wait bar[0] par=0 ph=0 t=8..73 x32\n"
        "c0 w3 L28 mbarrier.wait bar[0] par=0 ph=0 t=8..73 x32\n"
        "c0 w0 L27 tma.load bar[0] As#0 b=4096 t=9..73\n"
        "c0 w0 L27 mbarrier.complete_tx bar[0] b=4096 t=73\n"
        "c0 w0 L27 mbarrier.phase bar[0] ph=0 t=73\n"
        "c0 w0 L33 tma.store As#0 b=4096 t=141..205\n"
        "c0 w0 L34 bulk.commit g=0 b=4096 t=142\n"
        "c0 w0 L35 bulk.wait g=0 t=143..205\n";
    QCOMPARE(cta0, expected);
    QCOMPARE(tl.images.size(), size_t(2));  // one per CTA: coordinates (0, 0) and (32, 0)
    for (int cta = 0; cta < 2; ++cta) {
      const ir::TmaBoxImage& im = tl.images[size_t(cta)];
      QCOMPARE(im.cta, cta);
      QCOMPARE(im.coords, (std::vector<int64_t>{32 * cta, 0}));
      QCOMPARE(im.rows, int64_t{32});
      QCOMPARE(im.cols, int64_t{64});
      QCOMPARE(im.swizzleBytes, 128);
      QCOMPARE(im.elemBytes, 2);
      QCOMPARE(tl.name(im.buffer), std::string("As"));
      QCOMPARE(tl.name(im.tensor), std::string("A"));
      for (int64_t row = 0; row < 32; ++row)
        for (int64_t col = 0; col < 64; ++col) {
          const size_t p = size_t(row * 64 + col);
          QCOMPARE(im.srcRow[p], int32_t(32 * cta + row));
          QCOMPARE(im.srcCol[p], int32_t(((col / 8) ^ (row % 8)) * 8 + col % 8));
        }
    }
    int loads = 0;
    for (const auto& e : tl.events)
      if (e.kind == ir::AsyncEventKind::TmaLoad) {
        QCOMPARE(e.image, e.cta);
        ++loads;
      }
    QCOMPARE(loads, 2);
  }

  void invalBetweenRounds() {
    // mbarrier.inval is an event of its own; the barrier's second life starts at phase 0 again.
    Run r = simulate(std::string(TIRX_SOURCE_DIR) + "/tests/data/sim_async/mbar_inval_reinit_ok.py",
                     withTimeline());
    QVERIFY2(r.ok, r.error.c_str());
    std::string got;
    for (const auto& e : r.out.timeline.events)
      if (e.kind == ir::AsyncEventKind::MbarInval || e.kind == ir::AsyncEventKind::MbarInit ||
          e.kind == ir::AsyncEventKind::MbarPhase)
        got += std::string(ir::asyncEventKindName(e.kind)) + " ph=" + std::to_string(e.phase) +
               " L" + std::to_string(e.span.line) + "\n";
    QCOMPARE(
        got,
        std::string("mbarrier.init ph=0 L14\nmbarrier.phase ph=0 L17\nmbarrier.inval ph=1 L21\n"
                    "mbarrier.init ph=0 L14\nmbarrier.phase ph=0 L17\nmbarrier.inval ph=1 L21\n"));
  }

  void capTruncates() {
    // A cap of 10 events keeps the first 10 recorded and says so.
    sim::SimOptions o = withTimeline();
    o.timelineMaxEvents = 10;
    Run r = simulate(kExamples + "mbarrier_ring.py", o);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.out.timeline.truncated);
    QCOMPARE(r.out.timeline.events.size(), size_t(10));
    QCOMPARE(r.out.timeline.maxEvents, int64_t{10});
  }

  void deadlockLeavesUnfinishedWait() {
    // A wait that can never complete shows as an unfinished wait of the waiting warp.
    Run r =
        simulate(std::string(TIRX_SOURCE_DIR) + "/tests/data/sim_async/mbar_deadlock_arrivals.py",
                 withTimeline());
    QVERIFY(!r.ok);
    QVERIFY2(r.error.find("deadlock") != std::string::npos, r.error.c_str());
    bool found = false;
    for (const auto& e : r.out.timeline.events)
      found =
          found || (e.kind == ir::AsyncEventKind::MbarWait && e.unfinished && e.warp == 0 &&
                    e.lanes == 32 && r.out.timeline.name(e.barrier) == "bar[1]" && e.parity == 0);
    QVERIFY2(found, describe(r.out.timeline).c_str());
  }
};

QTEST_APPLESS_MAIN(TestSimTimeline)
#include "tst_sim_timeline.moc"
