// Tests of layout expressions (core/layout/layout_parse.h): every constructor form of spec §1.3
// and of Apache TVM's test_constructor / test_spec_builder / test_constructor_multi_term_offset,
// LayoutEnv constants, aliases and layout names, the toString round trip, and the E03xx
// diagnostics with their exact columns.
#include <QtTest>

#include "core/layout/layout_parse.h"
#include "core/script/parser.h"

using namespace tirx;

namespace {

Iter I(int64_t e, int64_t s, const char* axis = "m") {
  return Iter{e, s, axis};
}

TileLayout L(std::vector<Iter> shard, std::vector<Iter> replica = {}, AxisCoord offset = {}) {
  TileLayout l;
  l.shard = std::move(shard);
  l.replica = std::move(replica);
  l.offset = std::move(offset);
  return l;
}

TileLayout parseOk(const std::string& text) {
  Diagnostics d;
  auto l = parseLayoutText(text, d);
  if (!l || !d.empty()) {
    qWarning("%s", formatGcc(d, "<layout>").c_str());
    return L({I(999, 999, "parse-failed")});
  }
  return *l;
}

std::optional<TileLayout> withEnv(const std::string& text, const LayoutEnv& env, Diagnostics& d) {
  ExprParseResult p = parseExpression(text);
  if (!p.expr) return std::nullopt;
  return layoutFromExpr(*p.expr, env, d);
}

const TileLayout kSeed = L({I(2, 1, "warpid"), I(32, 1, "laneid"), I(4, 1)});

}  // namespace

class TestLayoutParse : public QObject {
  Q_OBJECT

 private slots:
  void seedForms() {
    QCOMPARE(parseOk("S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)]"), kSeed);
    QCOMPARE(parseOk("TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])"), kSeed);
    QCOMPARE(parseOk("T.TileLayout(T.S[(2, 32, 4) : (1@warpid, 1@laneid, 1)])"), kSeed);
    QCOMPARE(parseOk("TileLayout(S[(2, 32, 4) : (\"warpid\", \"laneid\", 1)])"), kSeed);
  }

  void tvmConstructor() {
    const TileLayout contiguous = L({I(2, 12), I(3, 4), I(4, 1)});
    QCOMPARE(parseOk("TileLayout(S[2, 3, 4])"), contiguous);
    QCOMPARE(parseOk("TileLayout(S[(2, 3, 4) : (12, 4, 1)])"), contiguous);
    QCOMPARE(parseOk("TileLayout(S[(2, 3, 4) : (12 @ m, 4 @ m, 1 @ m)])"), contiguous);
    QCOMPARE(parseOk("TileLayout(S[(8, 4, 2) : (4 @ laneid, 1 @ laneid, 1)])"),
             L({I(8, 4, "laneid"), I(4, 1, "laneid"), I(2, 1)}));
    QCOMPARE(parseOk("TileLayout(S[8 : 4 @ laneid] + R[4 : 1 @ laneid])"),
             L({I(8, 4, "laneid")}, {I(4, 1, "laneid")}));
    QCOMPARE(parseOk("TileLayout(S[8 : 4 @ laneid] + 1 @ laneid)"),
             L({I(8, 4, "laneid")}, {}, {{"laneid", 1}}));
  }

  void tvmMultiTermOffset() {
    const AxisCoord all{{"laneid", 1}, {"warpid", 2}, {"m", 64}};
    QCOMPARE(parseOk("TileLayout(S[8 : 4 @ laneid] + 1 @ laneid + 2 @ warpid + 64)").offset, all);
    QCOMPARE(parseOk("TileLayout(S[8 : 4 @ laneid] + (1 @ laneid + 2 @ warpid + 64))").offset, all);
    QCOMPARE(parseOk("TileLayout(S[8 : 4 @ laneid] + 64)").offset, (AxisCoord{{"m", 64}}));
    QCOMPARE(
        parseOk("TileLayout((S[8 : 4 @ laneid] + 1 @ laneid) + (R[4 : 1 @ laneid] + 2 @ warpid))"),
        L({I(8, 4, "laneid")}, {I(4, 1, "laneid")}, {{"laneid", 1}, {"warpid", 2}}));
    QCOMPARE(parseOk("TileLayout(64 + S[8 : 4 @ laneid] + 1 @ laneid)").offset,
             (AxisCoord{{"laneid", 1}, {"m", 64}}));
    QCOMPARE(parseOk("S[8 : 4 @ laneid] + 1 @ laneid + 2 @ laneid").offset,
             (AxisCoord{{"laneid", 3}}));
  }

  void tvmSpecBuilder() {
    QCOMPARE(parseOk("S[128 : 1 @ laneid]"), L({I(128, 1, "laneid")}));
    QCOMPARE(parseOk("S[(8,) : (4 @ laneid,)] + R[4 : 1 @ laneid]"),
             parseOk("S[8 : 4 @ laneid] + R[4 : 1 @ laneid]"));
    QCOMPARE(parseOk("S[(1,) : (1,)] + R[(8, 4) : (4 @ laneid, 1 @ laneid)] + 2 @ warpid"),
             L({I(1, 1)}, {I(8, 4, "laneid"), I(4, 1, "laneid")}, {{"warpid", 2}}));
    QCOMPARE(parseOk("S[1:1] + R[(8, 4) : (4 @ laneid, 1 @ laneid)] + 2 @ warpid"),
             parseOk("S[(1,) : (1,)] + R[(8, 4) : (4 @ laneid, 1 @ laneid)] + 2 @ warpid"));
    // String axis names.
    QCOMPARE(parseOk("S[8:\"laneid\"]"), L({I(8, 1, "laneid")}));
    QCOMPARE(parseOk("S[32:\"warpid\"]"), L({I(32, 1, "warpid")}));
    QCOMPARE(parseOk("S[(8, 4) : (\"laneid\", 1)]"), L({I(8, 1, "laneid"), I(4, 1)}));
    QCOMPARE(parseOk("S[(8,) : ((4, \"laneid\"),)]"), L({I(8, 4, "laneid")}));
    QCOMPARE(parseOk("S[8 : (4, \"laneid\")]"), L({I(8, 4, "laneid")}));
    QCOMPARE(parseOk("S[1:1] + R[4:\"laneid\"]"), L({I(1, 1)}, {I(4, 1, "laneid")}));
    // Memory axes of other targets and attribute spellings of axes.
    QCOMPARE(parseOk("S[(8, 8) : (8 @ F, 1 @ P)]"), L({I(8, 8, "F"), I(8, 1, "P")}));
    QCOMPARE(parseOk("S[(32, 4) : (1 @ Axis.laneid, 1 @ T.Axis.m)]"),
             L({I(32, 1, "laneid"), I(4, 1)}));
    QCOMPARE(parseOk("S[(32, 4, 128, 512) : (512 @ F, (512 * 32) @ F, 1 @ P, 1 @ F)]").shard[1],
             I(4, 16384, "F"));
  }

  void specExamples() {
    QCOMPARE(parseOk("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"),
             L({I(8, 4, "laneid"), I(2, 1, "warpid"), I(4, 1, "laneid"), I(2, 1)},
               {I(2, 4, "warpid")}, {{"warpid", 5}}));
    QCOMPARE(parseOk("S[(8,1,4,2):(4@laneid,2,1@laneid,1)]").span(), int64_t{2});
    QCOMPARE(parseOk("S[(3, 4) : (16, 2)]").storageSlots(), int64_t{39});
    QCOMPARE(parseOk("S[4, 8]"), L({I(4, 8), I(8, 1)}));
  }

  void combining() {
    // First non-empty shard kept; a later non-empty replica replaces; zero offsets dropped.
    QCOMPARE(parseOk("S[4] + S[8]"), L({I(4, 1)}));
    QCOMPARE(parseOk("S[()] + S[8]"), L({I(8, 1)}));
    QCOMPARE(parseOk("R[2 : 1@warpid] + S[4] + R[4 : 1@laneid]"),
             L({I(4, 1)}, {I(4, 1, "laneid")}));
    QCOMPARE(parseOk("S[4] + 0 @ laneid").offset, AxisCoord{});
    QCOMPARE(parseOk("R[32 : 1@laneid]"), L({}, {I(32, 1, "laneid")}));
  }

  void environment() {
    LayoutEnv env;
    env.ints = {{"N", 32}, {"W", 2}};
    env.axisAliases = {{"lane", "laneid"}};
    env.layouts = {{"reg_layout", kSeed}};
    Diagnostics d;
    QCOMPARE(*withEnv("TileLayout(S[(W, N, 4) : (1 @ warpid, 1 @ lane, 1)])", env, d), kSeed);
    QCOMPARE(withEnv("S[(N // 4, N % 5, 2 ** 3, 1 << 2, -(-3)) : (1, 1, 1, 1, 1)]", env, d)->shard,
             (std::vector<Iter>{I(8, 1), I(2, 1), I(8, 1), I(4, 1), I(3, 1)}));
    QCOMPARE(withEnv("S[(1 ** 1000000000000, (-7) // 2 + 5, (-7) % 3) : (1, 1, 1)]", env, d)->shard,
             (std::vector<Iter>{I(1, 1), I(1, 1), I(2, 1)}));
    QCOMPARE(*withEnv("reg_layout", env, d), kSeed);
    // Python's max, min and abs on integers, as module constants fold them (STATIC-IF-1).
    QCOMPARE(
        withEnv("S[(max(N - 32, 8), min(W, 5, 3), abs(-W), max(1, N, 3)) : (1, 1, 1, 1)]", env, d)
            ->shard,
        (std::vector<Iter>{I(8, 1), I(2, 1), I(2, 1), I(32, 1)}));
    QVERIFY(d.empty());
    // Not with keywords or a star, nor when the script binds the name: an extent error then.
    for (const char* bad : {"S[max(N, key=W) : 1]", "S[max(*N) : 1]", "S[max(N) : 1]"}) {
      Diagnostics e;
      QVERIFY2(!withEnv(bad, env, e), bad);
      QVERIFY2(!e.empty() && e[0].code == "E0305", bad);
    }
    LayoutEnv shadow = env;
    shadow.ints["max"] = 3;
    QVERIFY(!withEnv("S[max(N, W) : 1]", shadow, d));
    QCOMPARE(d.size(), size_t{1});
    d.clear();
    // Without the alias `lane` is an unknown axis.
    QVERIFY(!withEnv("S[8 : 1 @ lane]", LayoutEnv{}, d));
    QCOMPARE(d.size(), size_t{1});
    QCOMPARE(d[0].code, std::string("E0304"));
  }

  void roundTrip() {
    for (const char* text :
         {"S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]", "S[8 : 4@laneid] + R[4 : 1@laneid]",
          "S[8 : 4@laneid] + 1@laneid + 64 + 2@warpid", "S[()]", "R[32 : 1@laneid]",
          "S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)] + R[2 : 4@warpid] + 5@warpid"}) {
      const TileLayout l = parseOk(text);
      QCOMPARE(l.toString(), std::string(text));
      QCOMPARE(parseOk(l.toString()), l);
    }
  }

  void errors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("col");
    QTest::addColumn<int>("length");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const char* text, const char* code, int col, int len,
                  const char* msg) { QTest::newRow(name) << text << code << col << len << msg; };
    row("stride count", "S[(2, 32, 4) : (1 @ warpid, 1)]", "E0302", 16, 15,
        "extents and strides differ in length: 3 extents, 2 strides");
    row("stride count 1d", "S[(2, 4) : 1]", "E0302", 12, 1,
        "extents and strides differ in length: 2 extents, 1 strides");
    row("unknown axis", "S[8 : 4 @ lane]", "E0304", 11, 4, "unknown axis 'lane'");
    row("unknown string axis", "S[8 : \"lane\"]", "E0304", 7, 6, "unknown axis 'lane'");
    row("axis not a name", "S[8 : 4 @ 3]", "E0304", 11, 1,
        "expected an axis (laneid, warpid, m, ...), found integer 3");
    row("zero extent", "S[(4, 0) : (1, 1)]", "E0303", 7, 1, "extent must be positive, found 0");
    row("negative extent", "S[-4]", "E0303", 3, 2, "extent must be positive, found -4");
    row("negative stride", "S[8 : -1]", "E0307", 7, 2, "stride must not be negative, found -1");
    row("negative offset", "S[8] + -2 @ laneid", "E0308", 8, 2,
        "offset must not be negative, found -2");
    row("unknown extent name", "S[N]", "E0305", 3, 1,
        "unknown name 'N': expected an extent (an integer or a module-level integer constant)");
    row("unknown term name", "S[4] + foo", "E0305", 8, 3,
        "unknown name 'foo' in a layout expression");
    row("float term", "S[4] + 1.5", "E0300", 8, 3,
        "expected a layout term (S[...], R[...] or an offset such as 1 @ laneid), found a float");
    row("call term", "S[4] + f(1)", "E0300", 8, 4,
        "expected a layout term (S[...], R[...] or an offset such as 1 @ laneid), found a call");
    row("two args", "TileLayout(S[4], S[8])", "E0301", 1, 22,
        "TileLayout takes exactly one layout spec, found 2 arguments");
    row("keyword", "TileLayout(S[4], x=1)", "E0301", 18, 3,
        "TileLayout takes no keyword arguments, found 'x='");
    row("slice step", "S[8 : 1 : 2]", "E0309", 11, 1,
        "a shard takes 'extents : strides', found a second ':'");
    row("only offsets", "1 @ laneid + 64", "E0312", 1, 15,
        "a layout needs an S[...] or R[...] term, found only offsets");
    row("float stride", "S[8 : 1.5]", "E0306", 7, 3,
        "expected a stride (INT, INT @ axis, \"axis\" or (INT, \"axis\")), found a float");
    row("division by zero", "S[4 // 0]", "E0311", 8, 1, "integer division by zero");
    row("too large", "S[(1 << 30, 1 << 30)]", "E0310", 1, 21,
        "layout is too large: more than 2^40 elements or offsets overflow");
    row("power hang guard", "S[2 ** 1000000000000]", "E0310", 3, 18,
        "integer expression overflows 64 bits");
    row("missing strides", "S[8 :]", "E0309", 3, 3, "expected strides after ':' in a shard");
    row("missing extents", "S[: 4]", "E0309", 3, 3, "expected extents before ':' in a shard");
    row("overflow", "S[(1 << 62) * 4]", "E0310", 3, 13, "integer expression overflows 64 bits");
  }

  void errors() {
    QFETCH(QString, text);
    QFETCH(QString, code);
    QFETCH(int, col);
    QFETCH(int, length);
    QFETCH(QString, message);
    Diagnostics d;
    const auto l = parseLayoutText(text.toStdString(), d);
    QVERIFY(!l.has_value());
    QCOMPARE(d.size(), size_t{1});
    QCOMPARE(QString::fromStdString(d[0].code), code);
    QCOMPARE(QString::fromStdString(d[0].message), message);
    QCOMPARE(d[0].span.line, 1);
    QCOMPARE(d[0].span.col, col);
    QCOMPARE(d[0].span.length, length);
  }

  void syntaxErrorPassesThrough() {
    Diagnostics d;
    QVERIFY(!parseLayoutText("S[(2, 32", d).has_value());
    QVERIFY(!d.empty());
    QVERIFY(d[0].code.rfind("E00", 0) == 0);
    d.clear();
    QVERIFY(!parseLayoutText("", d).has_value());
    QVERIFY(hasErrors(d));
  }

  void gccFormat() {
    Diagnostics d;
    parseLayoutText("S[(2, 32, 4) : (1 @ warpid, 1)]", d);
    QCOMPARE(formatGcc(d, "<layout>"),
             std::string("<layout>:1:16: error: extents and strides differ in length: 3 extents, "
                         "2 strides [E0302]\n"));
  }
};

QTEST_APPLESS_MAIN(TestLayoutParse)
#include "tst_layout_parse.moc"
