// The tile-level debugger (core/debug) against independent recomputation: the bundled tiled GEMM at
// 64×64×256 (four K steps) stepped forward and back, its accumulator after the k-th mma.sync equal
// to the partial sum over the first 64(k+1) columns computed here from the script's input formula,
// the swizzled shared tile equal to A, the output equal to the full product with zero error against
// the checked reference; breakpoints (line, condition, watch), NaN/inf/uninitialised flags, the
// trace limit, and every diagnostic the session reports.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/debug/debug_session.h"

using namespace tirx;
using namespace tirx::debug;

namespace {

std::string readSource(const std::string& rel) {
  std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/" + rel, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// resources/examples/gemm_bf16_tiled.py with one 64×64 CTA and four K steps of 64.
std::string gemm64x64x256() {
  std::string s = readSource("resources/examples/gemm_bf16_tiled.py");
  const std::string from = "M = 128\nN = 128\nK = 256\n";
  const size_t at = s.find(from);
  if (at == std::string::npos) return {};
  s.replace(at, from.size(), "M = 64\nN = 64\nK = 256\n");
  // periodic inputs instead of the example's random ones, so that aAt/bAt recompute them here
  const std::pair<std::string, std::string> inputs[] = {
      {"(torch.floor(torch.rand(M * K, device=\"cuda\") * 7) - 3)",
       "((torch.arange(M * K, device=\"cuda\") % 7) - 3)"},
      {"(torch.floor(torch.rand(N * K, device=\"cuda\") * 5) - 2)",
       "((torch.arange(N * K, device=\"cuda\") % 5) - 2)"}};
  for (const auto& [random, periodic] : inputs) {
    const size_t in = s.find(random);
    if (in == std::string::npos) return {};
    s.replace(in, random.size(), periodic);
  }
  return s;
}

/// The inputs gemm64x64x256() gives the script: a = (arange(M·K) % 7) - 3, b = (arange(N·K) % 5) -
/// 2, row-major (·, K).
double aAt(int64_t i, int64_t k) {
  return double((i * 256 + k) % 7) - 3;
}
double bAt(int64_t j, int64_t k) {
  return double((j * 256 + k) % 5) - 2;
}
double partial(int64_t i, int64_t j, int64_t kEnd) {
  double s = 0;
  for (int64_t k = 0; k < kEnd; ++k) s += aAt(i, k) * bAt(j, k);
  return s;
}

std::vector<int64_t> stepsOf(const DebugSession& s, const std::string& opPrefix) {
  std::vector<int64_t> out;
  for (int64_t i = s.firstRecorded(); i <= s.lastRecorded(); ++i)
    if (s.stopAt(i).op.rfind(opPrefix, 0) == 0) out.push_back(i);
  return out;
}

/// Checks acc (4, 1, 8, 16, 8) = C[16w + r, 8n + c] against the partial sum over k < kEnd.
int accMismatches(const TileFacts& acc, int64_t kEnd) {
  int bad = 0;
  for (const auto& e : acc.elements) {
    const int64_t w = e.coord[0], n = e.coord[2], r = e.coord[3], c = e.coord[4];
    if (e.uninit || e.value != partial(16 * w + r, 8 * n + c, kEnd)) ++bad;
  }
  return bad;
}

}  // namespace

class TestDebugSession : public QObject {
  Q_OBJECT
 private slots:
  void gemmStepsForwardAndBack();
  void sharedTileAndOutput();
  void breakpoints();
  void nanInfUninitFlags();
  void traceLimit();
  void sparseArgumentsReadLikeImagedOnes();
  void largeLaunchRunsTheFocusCtaAlone();
  void hugeTileShowsItsFirstRows();
  void diagnostics();
};

void TestDebugSession::gemmStepsForwardAndBack() {
  const std::string src = gemm64x64x256();
  QVERIFY(!src.empty());
  Diagnostics diags;
  DebugOptions o;
  o.fileName = "gemm.py";
  auto s = DebugSession::start(src, o, diags);
  QVERIFY2(s, diags.empty() ? "no session" : diags[0].message.c_str());
  QCOMPARE(s->kernelName(), std::string("gemm_bf16"));
  QCOMPARE(s->firstRecorded(), int64_t{0});
  QCOMPARE(s->lastRecorded(), s->stepCount() - 1);
  QVERIFY(!s->truncated());
  const auto mmas = stepsOf(*s, "mma.sync");
  QCOMPARE(mmas.size(), size_t{4});
  for (int64_t i : mmas) QCOMPARE(s->stopAt(i).kind, std::string("collective"));
  // Forward through the four K steps: after the k-th mma the accumulator is the partial sum.
  for (size_t k = 0; k < mmas.size(); ++k) {
    QCOMPARE(s->goTo(mmas[k]), mmas[k]);
    const auto acc = s->tile("acc");
    QVERIFY(acc);
    QCOMPARE(acc->elements.size(), size_t{4096});
    QCOMPARE(accMismatches(*acc, 64 * int64_t(k + 1)), 0);
    // The loop counter of the focus thread says which K step this is.
    double kt = -1;
    for (const auto& [n, v] : s->stop().scalars)
      if (n == "kt") kt = v;
    QCOMPARE(kt, double(k));
  }
  // ... and back: the accumulator returns to the earlier partial sums, one step before the first
  // mma it is the mov's zeros on every element.
  QCOMPARE(s->goTo(mmas[1]), mmas[1]);
  QCOMPARE(accMismatches(*s->tile("acc"), 128), 0);
  QCOMPARE(s->step(-1), mmas[1] - 1);
  QCOMPARE(accMismatches(*s->tile("acc"), 64), 0);
  s->goTo(mmas[0] - 1);
  QCOMPARE(accMismatches(*s->tile("acc"), 0), 0);
  // The very first step is the mov that zeroes the accumulator; the A fragments are not loaded yet.
  s->goTo(0);
  QCOMPARE(s->stop().op, std::string("mov.b32"));
  QCOMPARE(s->tile("acc")->uninit, int64_t{0});
  QCOMPARE(accMismatches(*s->tile("acc"), 0), 0);
  const auto frag = s->tile("a");
  QCOMPARE(frag->uninit, static_cast<int64_t>(frag->elements.size()));
  // A round trip over the whole trace restores the same image.
  const auto first = s->tile("C");
  s->goTo(s->lastRecorded());
  QCOMPARE(accMismatches(*s->tile("acc"), 256), 0);
  s->goTo(0);
  const auto again = s->tile("C");
  for (size_t e = 0; e < first->elements.size(); ++e)
    QCOMPARE(again->elements[e].bits, first->elements[e].bits);
}

void TestDebugSession::sharedTileAndOutput() {
  Diagnostics diags;
  auto s = DebugSession::start(gemm64x64x256(), DebugOptions{}, diags);
  QVERIFY(s);
  // The first st.shared writes A's K step 0 into the swizzled As: As[i, k] = A[i, k].
  const auto stores = stepsOf(*s, "st.shared");
  QCOMPARE(stores.size(), size_t{8});
  s->goTo(stores[0] - 1);
  QCOMPARE(s->tile("As")->uninit, int64_t{4096});
  s->goTo(stores[0]);
  auto as = s->tile("As");
  QVERIFY(as);
  QCOMPARE(as->scope, std::string("shared"));
  QCOMPARE(as->uninit, int64_t{0});
  for (const auto& e : as->elements) QCOMPARE(e.value, aAt(e.coord[0], e.coord[1]));
  // The swizzle moves 16-byte chunks: row 1's first element lives at byte 128 + 16.
  QCOMPARE(as->elements[64].byte - as->elements[0].byte, int64_t{128 + 16});
  // Third K step (kt = 2): As holds A[:, 128:192].
  s->goTo(stores[4]);
  as = s->tile("As");
  for (const auto& e : as->elements) QCOMPARE(e.value, aAt(e.coord[0], 128 + e.coord[1]));
  // The output after the final store: the full product, zero error against the checked reference;
  // before it, C's elements are undefined (torch.zeros defines them: they are 0, not flagged).
  s->goTo(s->lastRecorded());
  QCOMPARE(s->stop().op, std::string("st.global.v2.b32"));
  const auto c = s->tile("C");
  QVERIFY(c->hasReference);
  QCOMPARE(c->maxAbsErr, 0.0);
  for (const auto& e : c->elements) {
    QCOMPARE(e.value, partial(e.coord[0], e.coord[1], 256));
    QCOMPARE(e.reference, e.value);
  }
  // The accumulator carries the reference of the element it is stored to; one K step earlier the
  // error is the missing partial sum.
  const auto mmas = stepsOf(*s, "mma.sync");
  s->goTo(mmas[2]);
  const auto acc = s->tile("acc");
  QVERIFY(acc->hasReference);
  for (const auto& e : acc->elements) {
    QVERIFY(e.hasReference);
    const int64_t i = 16 * e.coord[0] + e.coord[3], j = 8 * e.coord[2] + e.coord[4];
    QCOMPARE(e.reference, partial(i, j, 256));
    QCOMPARE(e.absErr, std::fabs(partial(i, j, 192) - partial(i, j, 256)));
    QCOMPARE(e.thread / 32, e.coord[0]);  // warp w holds rows 16w..16w+15
  }
}

void TestDebugSession::breakpoints() {
  Diagnostics diags;
  auto s = DebugSession::start(gemm64x64x256(), DebugOptions{}, diags);
  QVERIFY(s);
  const auto mmas = stepsOf(*s, "mma.sync");
  const int mmaLine = s->stopAt(mmas[0]).span.line;
  // An unconditional line breakpoint stops at each mma in turn, and back.
  QVERIFY(s->setBreakpoints({{mmaLine, ""}}).empty());
  for (int64_t m : mmas) {
    QVERIFY(s->continueForward());
    QCOMPARE(s->current(), m);
  }
  QVERIFY(!s->continueForward());
  QCOMPARE(s->current(), s->lastRecorded());
  QVERIFY(s->continueBackward());
  QCOMPARE(s->current(), mmas[3]);
  // A condition on one element: acc[0, 0, 0, 0, 0] (C[0, 0]) equals its partial sum after 3 steps.
  s->goTo(0);
  const std::string cond = "acc[0, 0, 0, 0, 0] == " + std::to_string(int(partial(0, 0, 192)));
  QVERIFY(partial(0, 0, 192) != partial(0, 0, 128) && partial(0, 0, 192) != partial(0, 0, 256));
  QVERIFY(s->setBreakpoints({{mmaLine, cond}}).empty());
  QVERIFY(s->continueForward());
  QCOMPARE(s->current(), mmas[2]);
  // A watch condition (line 0) on every step: the first step where C[5, 7] is written non-zero.
  s->goTo(0);
  QVERIFY(s->setBreakpoints({{0, "C[5, 7] != 0"}}).empty());
  QVERIFY(s->continueForward());
  QCOMPARE(s->stop().op, std::string("st.global.v2.b32"));
  // runToLine: the next step on a line.
  s->goTo(0);
  QVERIFY(s->runToLine(mmaLine));
  QCOMPARE(s->current(), mmas[0]);
}

void TestDebugSession::nanInfUninitFlags() {
  Diagnostics diags;
  DebugOptions o;
  auto s = DebugSession::start(readSource("tests/data/debug/sqrt_nan.py"), o, diags);
  QVERIFY(s);
  QCOMPARE(s->stepCount(), int64_t{3});
  // After the load: no NaN, one inf; the sqrt makes element 1 NaN, element 2 stays inf.
  auto a = s->tile("a");
  QCOMPARE(a->nans, int64_t{0});
  QCOMPARE(a->infs, int64_t{1});
  QVERIFY(s->setBreakpoints({{0, "nan(a)"}}).empty());
  QVERIFY(!s->hitsHere());
  QVERIFY(s->continueForward());
  QCOMPARE(s->stop().op, std::string("sqrt.rn.f32"));
  a = s->tile("a");
  QCOMPARE(a->nans, int64_t{1});
  QVERIFY(a->elements[1].nan);
  QVERIFY(a->elements[2].inf);
  QCOMPARE(a->elements[3].value, 3.0);
  // Out: undefined before the store (the script's zeros are defined: they read 0, not uninit).
  QCOMPARE(s->tile("Out")->uninit, int64_t{0});
  s->goTo(s->lastRecorded());
  const auto out = s->tile("Out");
  QVERIFY(out->elements[1].nan);
  QVERIFY(out->hasReference);  // the check compared Out against np.sqrt(x)
  QVERIFY(std::isnan(out->elements[1].reference));
  QVERIFY(s->setBreakpoints({{0, "inf(Out[2, 0])"}}).empty());
  QVERIFY(s->hitsHere());
  QVERIFY(s->setBreakpoints({{0, "uninit(a)"}}).empty());
  QVERIFY(!s->hitsHere());
}

void TestDebugSession::traceLimit() {
  Diagnostics diags;
  DebugOptions o;
  o.maxTraceBytes = 1;  // the base image alone is over it: one step is kept
  auto s = DebugSession::start(gemm64x64x256(), o, diags);
  QVERIFY(s);
  QVERIFY(s->truncated());
  QCOMPARE(s->lastRecorded(), int64_t{0});
  QVERIFY(s->stepCount() > 1);
  QCOMPARE(diags.size(), size_t{1});
  QCOMPARE(diags[0].code, std::string("W0844"));
  QCOMPARE(s->step(5), int64_t{0});  // clamped to what was recorded
  // --first-step reaches the later steps under the same limit.
  o.firstStep = 10;
  diags.clear();
  s = DebugSession::start(gemm64x64x256(), o, diags);
  QVERIFY(s);
  QCOMPARE(s->firstRecorded(), int64_t{10});
  QCOMPARE(s->current(), int64_t{10});
  QVERIFY(s->traceBytes() > 0);
}

// Tensor arguments over DebugOptions::imagedArgBytes are not imaged at every step (benchmark-sized
// Q, K, V, O): the trace keeps the chunks the CTA writes. Stepping forward and back reads the
// same values as the imaged session, at every step.
void TestDebugSession::sparseArgumentsReadLikeImagedOnes() {
  Diagnostics d1, d2;
  auto dense = DebugSession::start(gemm64x64x256(), DebugOptions{}, d1);
  DebugOptions o;
  o.imagedArgBytes = 0;  // every tensor argument sparse
  auto sparse = DebugSession::start(gemm64x64x256(), o, d2);
  QVERIFY(dense && sparse);
  QCOMPARE(sparse->lastRecorded(), dense->lastRecorded());
  QVERIFY(sparse->traceBytes() < dense->traceBytes());
  auto same = [&](int64_t step) {
    dense->goTo(step);
    sparse->goTo(step);
    for (const char* name : {"A", "B", "C", "acc"}) {
      const auto a = dense->tile(name), b = sparse->tile(name);
      if (!a || !b || a->elements.size() != b->elements.size()) return false;
      for (size_t i = 0; i < a->elements.size(); ++i)
        if (a->elements[i].value != b->elements[i].value) return false;
    }
    return true;
  };
  const int64_t last = dense->lastRecorded();
  for (int64_t step : {last, int64_t{0}, last - 1, last, dense->firstRecorded() + 3, last})
    QVERIFY2(same(step), qPrintable(QString("step %1").arg(step)));
  const auto c = sparse->tile("C");  // at the last step: the product, read from the trace
  QVERIFY(c);
  for (const auto& e : c->elements) QCOMPARE(e.value, partial(e.coord[0], e.coord[1], 256));
  sparse->goTo(last - 1);  // before the store (one step for the whole tile): C is still zero
  const auto before = sparse->tile("C");
  for (const auto& e : before->elements) QCOMPARE(e.value, 0.0);
}

// A grid over DebugOptions::wholeLaunchCtas runs the focus CTA alone (W0846): its tile of the
// output is the product, the other CTAs' tiles keep their zeros.
void TestDebugSession::largeLaunchRunsTheFocusCtaAlone() {
  std::string src = readSource("resources/examples/gemm_bf16_tiled.py");  // 128 × 128: 4 CTAs
  DebugOptions o;
  o.wholeLaunchCtas = 1;
  o.cta = 3;
  Diagnostics diags;
  auto s = DebugSession::start(src, o, diags);
  QVERIFY(s);
  bool warned = false;
  for (const auto& d : diags)
    warned = warned || (d.code == "W0846" && d.message.find("launches 4 CTAs: the debugger runs "
                                                            "cta 3 alone") != std::string::npos);
  QVERIFY(warned);
  s->goTo(s->lastRecorded());
  const auto c = s->tile("C");
  QVERIFY(c);
  int64_t mine = 0, others = 0;
  for (const auto& e : c->elements) {
    const bool inTile = e.coord[0] >= 64 && e.coord[1] >= 64;  // cta 3 = (1, 1)
    if (inTile && e.value != 0) ++mine;
    if (!inTile && e.value != 0) ++others;
  }
  QVERIFY2(mine > 4000, qPrintable(QString::number(mine)));
  QCOMPARE(others, int64_t{0});
}

// A (2048, 1024) output (2 Mi elements, over the one-table cap of 2^20 and, here, over the imaged
// size): the facts show its first 1024 rows with a note; an indexed condition reads any element.
void TestDebugSession::hugeTileShowsItsFirstRows() {
  DebugOptions o;
  o.imagedArgBytes = 1 << 20;  // O's 8 MiB are traced by chunks
  Diagnostics diags;
  auto s = DebugSession::start(readSource("tests/data/debug/large_output.py"), o, diags);
  QVERIFY(s);
  s->goTo(s->lastRecorded());
  const auto t = s->tile("O");
  QVERIFY(t);
  QCOMPARE(t->elements.size(), size_t{1024 * 1024});
  QVERIFY2(t->note.find("rows 0-1023 of 2048") != std::string::npos, t->note.c_str());
  QCOMPARE(t->max, 2.5);
  QCOMPARE(t->elements[5 * 1024 + 40].value, 2.5);
  QCOMPARE(t->elements[5 * 1024 + 31].value, 0.0);
  QCOMPARE(t->elements[1023 * 1024].coord, (std::vector<int64_t>{1023, 0}));
  // Conditions index the whole tile: a watch on row 5 stops at the store, one on row 1500 (past
  // the shown rows) holds from the start.
  s->goTo(s->firstRecorded());
  QVERIFY(s->setBreakpoints({{0, "O[5, 40] == 2.5"}}).empty());
  QVERIFY(s->continueForward());
  QCOMPARE(s->stop().op, std::string("st.global.f32"));
  s->goTo(s->firstRecorded());
  QVERIFY(s->setBreakpoints({{0, "O[1500, 1023] == 0"}}).empty());
  QVERIFY(s->continueForward());
  QCOMPARE(s->current(), s->firstRecorded() + 1);
}

void TestDebugSession::diagnostics() {
  Diagnostics diags;
  auto s = DebugSession::start(gemm64x64x256(), DebugOptions{}, diags);
  QVERIFY(s);
  // A line without a tile op (the for loop), with a note naming the next tile op's line.
  int forLine = 0;
  {
    std::istringstream in(gemm64x64x256());
    std::string l;
    for (int n = 1; std::getline(in, l); ++n)
      if (l.find("for kt in range") != std::string::npos) forLine = n;
  }
  QVERIFY(forLine > 0);
  auto d = s->setBreakpoints({{forLine, ""}});
  QCOMPARE(d.size(), size_t{1});
  QCOMPARE(d[0].code, std::string("E0841"));
  QCOMPARE(d[0].span.line, forLine);
  QCOMPARE(d[0].notes.size(), size_t{1});
  QCOMPARE(d[0].notes[0].span.line, forLine + 1);
  // Condition syntax: the column of the problem.
  d = s->setBreakpoints({{0, "acc[0, 0 > 3"}, {0, "C[1, 2] >"}, {0, "nan(C"}});
  QCOMPARE(d.size(), size_t{3});
  QCOMPARE(d[0].code, std::string("E0840"));
  QCOMPARE(d[0].span.col, 10);
  QCOMPARE(d[1].code, std::string("E0840"));
  QCOMPARE(d[1].span.col, 10);
  QCOMPARE(d[2].code, std::string("E0840"));
  // Meaning: unknown buffer, wrong rank, index outside.
  d = s->setBreakpoints({{0, "D[0, 0] > 1"}, {0, "C[0] > 1"}, {0, "C[0, 64] > 1"}});
  QCOMPARE(d.size(), size_t{3});
  for (const auto& x : d) QCOMPARE(x.code, std::string("E0842"));
  QVERIFY(d[2].message.find("extent 64") != std::string::npos);
  Diagnostic u;
  QVERIFY(!s->tile("nope", &u));
  QCOMPARE(u.code, std::string("E0845"));
  // A launch that never happens, a kernel that does not exist, a focus outside the launch.
  DebugOptions o;
  o.launch = 1;
  diags.clear();
  QVERIFY(!DebugSession::start(gemm64x64x256(), o, diags));
  QCOMPARE(diags.back().code, std::string("E0843"));
  o = {};
  o.kernel = "other";
  diags.clear();
  QVERIFY(!DebugSession::start(gemm64x64x256(), o, diags));
  QCOMPARE(diags.back().code, std::string("E0843"));
  o = {};
  o.thread = 128;
  diags.clear();
  QVERIFY(!DebugSession::start(gemm64x64x256(), o, diags));
  QCOMPARE(diags.back().code, std::string("E0845"));
  // A script error comes back as the front end's diagnostic.
  diags.clear();
  QVERIFY(!DebugSession::start("def broken(:\n", DebugOptions{}, diags));
  QVERIFY(!diags.empty());
}

QTEST_APPLESS_MAIN(TestDebugSession)
#include "tst_debug_session.moc"
