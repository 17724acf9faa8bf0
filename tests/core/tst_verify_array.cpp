// core/verify arrays and comparisons: linspace exactness (numpy's float64 algorithm and torch's
// float32 two-sided algorithm, against bit patterns computed independently), dtype promotion
// (numpy table, torch categories, weak Python scalars), broadcasting, indexing, roll, views, and
// the exact semantics of assert_allclose / assert_close including their dtype defaults.
#include <QtTest>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/verify/array.h"
#include "core/verify/compare.h"
#include "core/verify/verify.h"
#include "doubling_kernel.h"

using namespace tirx;
using namespace tirx::verify;

namespace {
uint32_t f32bits(const Array& a, int64_t i) {
  float f = static_cast<float>(a.get(i));
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
Array vec(DType t, std::vector<double> v) {
  return fromDoubles(t, {static_cast<int64_t>(v.size())}, v);
}
}  // namespace

class TestVerifyArray : public QObject {
  Q_OBJECT
 private slots:
  void numpyLinspaceExact() {
    const Array x = numpyLinspace(-2, 2, 256, DType::Float32);
    QCOMPARE(x.shape, (std::vector<int64_t>{256}));
    QCOMPARE(x.get(0), -2.0);
    QCOMPARE(x.get(255), 2.0);
    QCOMPARE(f32bits(x, 1), 0xbffdfdfeu);
    QCOMPARE(f32bits(x, 100), 0xbedcdcddu);
    QCOMPARE(f32bits(x, 127), 0xbc008081u);
    QCOMPARE(f32bits(x, 128), 0x3c008081u);
    QCOMPARE(f32bits(x, 200), 0x3f919192u);
    QCOMPARE(f32bits(x, 254), 0x3ffdfdfeu);
    const Array d = numpyLinspace(0, 1, 5, DType::Float64);
    QCOMPARE(d.toDoubles(), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
    QCOMPARE(numpyLinspace(0, 1, 4, DType::Float64, false).toDoubles(),
             (std::vector<double>{0, 0.25, 0.5, 0.75}));
  }

  void torchLinspaceExact() {
    const Array a = torchLinspace(-4, 4, 256, DType::Float32);
    QCOMPARE(a.get(0), -4.0);
    QCOMPARE(a.get(255), 4.0);
    QCOMPARE(f32bits(a, 1), 0xc07dfdfeu);
    QCOMPARE(f32bits(a, 100), 0xbf5cdcd8u);
    QCOMPARE(f32bits(a, 127), 0xbc808000u);  // -0.01568603515625, not the nearest float
    QCOMPARE(f32bits(a, 128), 0x3c808000u);
    QCOMPARE(f32bits(a, 200), 0x40119191u);
    QCOMPARE(f32bits(a, 254), 0x407dfdfeu);
  }

  void promotion() {
    QCOMPARE(promote(DType::Float16, DType::Int16, Flavor::Numpy), DType::Float32);
    QCOMPARE(promote(DType::Float16, DType::Int8, Flavor::Numpy), DType::Float16);
    QCOMPARE(promote(DType::Float32, DType::Int32, Flavor::Numpy), DType::Float64);
    QCOMPARE(promote(DType::Float32, DType::Int32, Flavor::Torch), DType::Float32);
    QCOMPARE(promote(DType::UInt8, DType::Int8, Flavor::Numpy), DType::Int16);
    QCOMPARE(promote(DType::UInt64, DType::Int64, Flavor::Numpy), DType::Float64);
    QCOMPARE(promote(DType::Float16, DType::BFloat16, Flavor::Torch), DType::Float32);
    QCOMPARE(promote(DType::Bool, DType::UInt8, Flavor::Numpy), DType::UInt8);
    QCOMPARE(promoteWeak(DType::Float32, true, false, Flavor::Numpy), DType::Float32);
    QCOMPARE(promoteWeak(DType::Int32, true, false, Flavor::Numpy), DType::Float64);
    QCOMPARE(promoteWeak(DType::Int32, true, false, Flavor::Torch), DType::Float32);
    QCOMPARE(promoteWeak(DType::Int16, false, false, Flavor::Numpy), DType::Int16);
  }

  void broadcasting() {
    Array a = fromDoubles(DType::Float32, {2, 1}, {10, 20});
    Array b = vec(DType::Float32, {1, 2, 3});
    std::string err;
    auto r = binary(BinaryOp::Add, a, b, DType::Float32, &err);
    QVERIFY(r);
    QCOMPARE(r->shape, (std::vector<int64_t>{2, 3}));
    QCOMPARE(r->toDoubles(), (std::vector<double>{11, 12, 13, 21, 22, 23}));
    QVERIFY(!binary(BinaryOp::Add, vec(DType::Float32, {1, 2}), b, DType::Float32, &err));
    QVERIFY(err.find("could not be broadcast") != std::string::npos);
    // float32 arithmetic rounds once to float32: 0.1f + 0.2f == 0.3f (exact float32 sum rounds to
    // it)
    auto s = binary(BinaryOp::Add, vec(DType::Float32, {0.1}), vec(DType::Float32, {0.2}),
                    DType::Float32, &err);
    QCOMPARE(static_cast<float>(s->get(0)), 0.1f + 0.2f);
    // Python floor division and modulo on integers
    auto fd = binary(BinaryOp::FloorDiv, vec(DType::Int32, {-7, 7}), vec(DType::Int32, {2, -2}),
                     DType::Int32, &err);
    QCOMPARE(fd->toDoubles(), (std::vector<double>{-4, -4}));
    auto md = binary(BinaryOp::Mod, vec(DType::Int32, {-7, 7}), vec(DType::Int32, {2, -2}),
                     DType::Int32, &err);
    QCOMPARE(md->toDoubles(), (std::vector<double>{1, -1}));
  }

  void shapesAndIndexing() {
    Array x = arange(0, 12, 1, DType::Int64, Flavor::Numpy);
    std::string err;
    auto m = reshape(x, {-1, 4}, &err);
    QVERIFY(m);
    QCOMPARE(m->shape, (std::vector<int64_t>{3, 4}));
    QVERIFY(!reshape(x, {5, -1}, &err));
    auto r = roll(*m, -1, 0, &err);
    QCOMPARE(r->toDoubles(), (std::vector<double>{4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3}));
    auto t = transpose(*m);
    QCOMPARE(t.shape, (std::vector<int64_t>{4, 3}));
    QCOMPARE(t.get(1), 4.0);
    // m[1:, ::2] and m[-1, 2]
    IndexItem s1;
    s1.kind = IndexItem::Kind::Slice;
    s1.start = 1;
    IndexItem s2;
    s2.kind = IndexItem::Kind::Slice;
    s2.step = 2;
    auto g = getItem(*m, {s1, s2}, &err);
    QCOMPARE(g->shape, (std::vector<int64_t>{2, 2}));
    QCOMPARE(g->toDoubles(), (std::vector<double>{4, 6, 8, 10}));
    auto e = getItem(*m, {IndexItem::at(-1), IndexItem::at(2)}, &err);
    QCOMPARE(e->ndim(), 0);
    QCOMPARE(e->get(0), 10.0);
    QVERIFY(!getItem(*m, {IndexItem::at(3)}, &err));
    QVERIFY(setItem(*m, {IndexItem::at(0)}, vec(DType::Int64, {7}), &err));
    QCOMPARE(m->get(3), 7.0);
    // bit views and casts
    Array h = vec(DType::Float16, {1.0, -2.0});
    auto u = viewAs(h, DType::UInt16, &err);
    QCOMPARE(u->toDoubles(), (std::vector<double>{0x3c00, 0xc000}));
    auto w = viewAs(h, DType::UInt32, &err);
    QCOMPARE(w->shape, (std::vector<int64_t>{1}));
    QCOMPARE(w->getInt(0), int64_t{0xc0003c00});
    QCOMPARE(astype(vec(DType::Float32, {65520.0, 1.00048828125}), DType::Float16).toDoubles(),
             (std::vector<double>{INFINITY, 1.0}));
    QCOMPARE(astype(vec(DType::Float32, {-2.7, 300}), DType::Int8).toDoubles(),
             (std::vector<double>{-2, 44}));
  }

  void assertAllcloseSemantics() {
    // |actual - desired| <= atol + rtol * |desired|: not symmetric.
    QVERIFY(assertAllclose(vec(DType::Float64, {1.0}), vec(DType::Float64, {1.1}), 0.1, 0).pass);
    QVERIFY(!assertAllclose(vec(DType::Float64, {1.1}), vec(DType::Float64, {1.0}), 0.09, 0).pass);
    QVERIFY(!assertAllclose(vec(DType::Float64, {1.0}), vec(DType::Float64, {0.9}), 0.1, 0).pass);
    // default rtol 1e-7, atol 0
    QVERIFY(assertAllclose(vec(DType::Float64, {1.0 + 5e-8}), vec(DType::Float64, {1.0})).pass);
    QVERIFY(!assertAllclose(vec(DType::Float64, {1.0 + 2e-7}), vec(DType::Float64, {1.0})).pass);
    // NaN equal by default; shape must match
    QVERIFY(assertAllclose(vec(DType::Float32, {NAN}), vec(DType::Float32, {NAN})).pass);
    QVERIFY(!assertAllclose(vec(DType::Float32, {NAN}), vec(DType::Float32, {NAN}), 1e-7, 0, false)
                 .pass);
    QVERIFY(!assertAllclose(vec(DType::Float32, {1, 2}), vec(DType::Float32, {1, 2, 3})).pass);
    Comparison c = assertAllclose(vec(DType::Float64, {1, 2, 3, 4}),
                                  vec(DType::Float64, {1, 2.5, 3, 3}), 0, 0.1);
    QVERIFY(!c.pass);
    QCOMPARE(c.mismatches, int64_t{2});
    QCOMPARE(c.maxAbs, 1.0);
    QCOMPARE(c.worst.size(), size_t{2});
    QCOMPARE(c.worst[0].coord, (std::vector<int64_t>{3}));
    QCOMPARE(c.worst[0].actual, 4.0);
  }

  void toleranceRuleAndEqualNan() {
    // The element rule the studio's output grid marks mismatches with, and the check's equal_nan
    // as each function's default or argument decided it.
    QVERIFY(withinTolerance(1.05, 1.0, 0.1, 0, true));
    QVERIFY(!withinTolerance(1.2, 1.0, 0.1, 0.05, true));
    QVERIFY(withinTolerance(NAN, NAN, 0, 0, true));
    QVERIFY(!withinTolerance(NAN, NAN, 0, 0, false));
    QVERIFY(!withinTolerance(NAN, 1.0, 1, 1, true));
    QVERIFY(withinTolerance(INFINITY, INFINITY, 0, 0, false));
    QVERIFY(!withinTolerance(INFINITY, -INFINITY, 1, 1, true));
    QVERIFY(assertAllclose(vec(DType::Float32, {1}), vec(DType::Float32, {1})).equalNan);
    QVERIFY(!assertClose(vec(DType::Float32, {1}), vec(DType::Float32, {1}), {}, {}).equalNan);
    VerifyOptions o;
    const std::string base =
        "from tvm.script import tirx as T\n"
        "@T.function\n"
        "def k(A: T.Tensor((2,), \"float32\"), B: T.Tensor((2,), \"float32\")):\n"
        "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=2))\n"
        "    tid = T.cuda.thread_idx(\"x\")\n"
        "    B[tid] = A[tid] * T.float32(2)\n"
        "import numpy as np\n"
        "import tvm\n"
        "a = np.array([1.0, np.nan], dtype='float32')\n"
        "b = np.zeros(2, dtype='float32')\n"
        "tvm.tirx.compile(k, target='cuda')(a, b)\n";
    Report r = verifyScript(base +
                                "np.testing.assert_allclose(b, a * 2)\n"
                                "np.testing.assert_allclose(b, a * 2, equal_nan=False)\n",
                            o);
    QVERIFY2(r.errors.empty(), r.errors.empty() ? "" : r.errors[0].message.c_str());
    QCOMPARE(r.checks.size(), size_t{2});
    QVERIFY(r.checks[0].equalNan && r.checks[0].pass);
    QVERIFY(!r.checks[1].equalNan && !r.checks[1].pass);
    QVERIFY(reportToJson(r).find("\"equal_nan\": false") != std::string::npos);
  }

  void assertCloseSemantics() {
    QCOMPARE(torchDefaultTolerance(DType::Float32), (std::pair<double, double>{1.3e-6, 1e-5}));
    QCOMPARE(torchDefaultTolerance(DType::Float16), (std::pair<double, double>{1e-3, 1e-5}));
    QCOMPARE(torchDefaultTolerance(DType::BFloat16), (std::pair<double, double>{1.6e-2, 1e-5}));
    QCOMPARE(torchDefaultTolerance(DType::Float64), (std::pair<double, double>{1e-7, 1e-7}));
    // float32 default: atol 1e-5 + rtol 1.3e-6 * |b|
    QVERIFY(
        assertClose(vec(DType::Float32, {1.0 + 1.1e-5}), vec(DType::Float32, {1.0}), {}, {}).pass);
    QVERIFY(
        !assertClose(vec(DType::Float32, {1.0 + 1.5e-5}), vec(DType::Float32, {1.0}), {}, {}).pass);
    // float16 default is looser
    QVERIFY(
        assertClose(vec(DType::Float16, {1.0009765625}), vec(DType::Float16, {1.0}), {}, {}).pass);
    // dtype and shape must match; NaNs unequal by default
    Comparison d = assertClose(vec(DType::Float32, {1}), vec(DType::Float64, {1}), {}, {});
    QVERIFY(!d.pass);
    QVERIFY(d.message.find("dtype") != std::string::npos);
    QVERIFY(
        assertClose(vec(DType::Float32, {1}), vec(DType::Float64, {1}), {}, {}, false, false).pass);
    QVERIFY(!assertClose(vec(DType::Float32, {NAN}), vec(DType::Float32, {NAN}), {}, {}).pass);
    QVERIFY(assertClose(vec(DType::Float32, {NAN}), vec(DType::Float32, {NAN}), {}, {}, true).pass);
    QVERIFY(!assertClose(vec(DType::Float32, {1}), vec(DType::Float32, {1}), 0.1, {})
                 .pass);  // both or neither
    QVERIFY(!assertClose(fromDoubles(DType::Float32, {1, 2}, {1, 2}), vec(DType::Float32, {1, 2}),
                         {}, {})
                 .pass);
    QVERIFY(allclose(vec(DType::Float32, {1, 2}), vec(DType::Float32, {1, 2 + 1e-6})));
  }

  void harnessOperatorSemantics() {
    std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/tests/data/verify/harness_ops.py");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string src = ss.str();
    VerifyOptions o;
    Report r = verifyScript(src, o);
    QVERIFY2(r.errors.empty(), r.errors.empty() ? "" : r.errors[0].message.c_str());
    QCOMPARE(r.checks.size(), size_t{36});
    for (const auto& c : r.checks) QVERIFY2(c.pass, c.name.c_str());
    // the same file with one expectation changed fails exactly that check
    std::string bad = src;
    const std::string from = "assert np.right_shift(w, 16)[0] == 0x1234";
    QVERIFY(bad.find(from) != std::string::npos);
    bad.replace(bad.find(from), from.size(), "assert np.right_shift(w, 16)[0] == 0x1235");
    r = verifyScript(bad, o);
    QVERIFY(r.errors.empty());
    int failed = 0;
    for (const auto& c : r.checks) failed += c.pass ? 0 : 1;
    QCOMPARE(failed, 1);
  }

  void harnessErrorsAreDiagnostics() {
    const std::string base = std::string(kDoublingKernel) + "import tvm\n";
    VerifyOptions o;
    // an unsupported function: E0802 at its span, no crash
    Report r = verifyScript(base + "x = np.fft.fft(3)\n", o);
    QVERIFY(!r.passed());
    QCOMPARE(r.errors.size(), size_t{1});
    QCOMPARE(r.errors[0].code, std::string("E0802"));
    QCOMPARE(r.errors[0].span.line, 9);
    // wrong argument dtype: E0810
    r = verifyScript(base +
                         "f = tvm.tirx.compile(k, target='cuda')\n"
                         "f(np.zeros(4, dtype='float64'), np.zeros(4, dtype='float32'))\n",
                     o);
    QCOMPARE(r.errors.size(), size_t{1});
    QCOMPARE(r.errors[0].code, std::string("E0810"));
    // a correct check passes, a wrong one fails with the element and its owner
    r = verifyScript(base +
                         "f = tvm.tirx.compile(k, target='cuda')\n"
                         "a = np.arange(4, dtype='float32')\n"
                         "b = np.zeros(4, dtype='float32')\n"
                         "f(a, b)\n"
                         "np.testing.assert_allclose(b, a * 2)\n"
                         "np.testing.assert_allclose(b, a * 3)\n",
                     o);
    QVERIFY2(r.errors.empty(), r.errors.empty() ? "" : r.errors[0].message.c_str());
    QCOMPARE(r.checks.size(), size_t{2});
    QVERIFY(r.checks[0].pass);
    QVERIFY(!r.checks[1].pass);
    QCOMPARE(r.checks[1].mismatches, int64_t{3});
    QCOMPARE(r.checks[1].worst[0].coord, (std::vector<int64_t>{3}));
    QVERIFY(r.checks[1].worst[0].owner.known);
    QCOMPARE(r.checks[1].worst[0].owner.thread, 3);
    QCOMPARE(r.checks[1].worst[0].owner.storeLine, 6);
    QVERIFY(r.checks[1].worst[0].owner.tile.empty());  // an element store: no register
    QCOMPARE(r.checks[1].worst[0].owner.slot, -1);
    // no register: the producer is the store; the element is index 3 of the compared arrays
    QCOMPARE(r.checks[1].worst[0].owner.producerLine(), 6);
    QCOMPARE(r.checks[1].flatIndex(r.checks[1].worst[0]), int64_t{3});
    QVERIFY(!r.passed());
    QVERIFY(reportToJson(r).find("\"max_abs_err\"") != std::string::npos);
  }

  // The facts the Results dock reads off a worst element: the line of the tile op that last wrote
  // its register (else its store; 0 unknown), and its row-major index (-1 when it does not fit).
  void worstElementFacts() {
    OwnerInfo o;
    QCOMPARE(o.producerLine(), 0);
    o.known = true;
    o.storeLine = 9;
    QCOMPARE(o.producerLine(), 9);
    o.regLine = 7;
    QCOMPARE(o.producerLine(), 7);
    Check c;
    c.shape = {3, 4};
    WorstElement w;
    w.coord = {2, 1};
    QCOMPARE(c.flatIndex(w), int64_t{9});
    w.coord = {3, 0};
    QCOMPARE(c.flatIndex(w), int64_t{-1});
    w.coord = {1};
    QCOMPARE(c.flatIndex(w), int64_t{-1});
  }
};

QTEST_APPLESS_MAIN(TestVerifyArray)
#include "tst_verify_array.moc"
