// Golden tests of swizzled layouts (core/layout/swizzle_layout.h, layout_parse.h): the doc example
// of spec/TIRX.md §1.10, the equivalence table of spec/TIRX-TENSOR-CORES.md §9.2 (ComposeLayout ⇔
// byte-address rule ⇔ chunk formulas ⇔ CuTe Swizzle<B,4,3>) for 32/64/128-byte swizzles and
// 1/2/4-byte elements, the TMA swizzle images measured on the H200 (tc-verify/verify.cu test_tma
// and its log), the constraints of §9.2–§9.3, ComposeLayout parsing (both spellings, keywords,
// E0313–E0317 with their spans), toString round trips, storage span and the chunk image.
#include <QFile>
#include <QtTest>

#include "../shared_corpus.h"
#include "core/layout/compiled_layout.h"
#include "core/layout/layout_parse.h"
#include "core/layout/swizzle_layout.h"
#include "core/script/parser.h"

using namespace tirx;

namespace {

ComposeLayout composeOk(const std::string& text) {
  Diagnostics d;
  auto v = parseLayoutValueText(text, d);
  if (!v || !d.empty() || !std::holds_alternative<ComposeLayout>(*v)) {
    qWarning("%s", formatGcc(d, "<layout>").c_str());
    return ComposeLayout{Swizzle{-1, -1, -1}, {}};
  }
  return std::get<ComposeLayout>(*v);
}

// The single diagnostic of a failing parse, as "CODE col message".
std::string failure(const std::string& text) {
  Diagnostics d;
  auto v = parseLayoutValueText(text, d);
  if (v || d.empty()) return "parsed";
  return d[0].code + " " + std::to_string(d[0].span.col) + " " + d[0].message;
}

int64_t mOf(const ComposeLayout& c, int64_t r, int64_t col, int64_t rows, int64_t cols) {
  const std::vector<int64_t> coord{r, col}, shape{rows, cols};
  return c.apply(coord, shape).at("m");
}

// The spec's byte-address rule of §9.2: bits [4, 4+B) ^= bits [7, 7+B).
int64_t byteRule(int64_t byte, int B) {
  const int64_t mask = (int64_t{1} << B) - 1;
  return byte ^ (((byte >> 7) & mask) << 4);
}

QString tcVerify(const char* file) {
  return QStringLiteral(TIRX_SHARED_DIR) + "/spec/tc-verify/" + file;
}

QString readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

}  // namespace

class TestLayoutSwizzle : public QObject {
  Q_OBJECT

 private slots:
  void docExample() {
    // TIRX.md §1.10: ComposeLayout(0, 2, 3, TileLayout(S[8, 8])), apply(1, 2) -> 10 XOR 1 = 11.
    const ComposeLayout c = composeOk("ComposeLayout(0, 2, 3, TileLayout(S[8, 8]))");
    QCOMPARE(c.swizzle, (Swizzle{0, 2, 3, true}));
    QCOMPARE(mOf(c, 1, 2, 8, 8), int64_t{11});
    QCOMPARE(c.applyFlat(10).at("m"), int64_t{11});
    QCOMPARE(CompiledLayout(LayoutValue{c}).applyFlat(10).m, int64_t{11});
    // The TVM spelling and keywords give the same value.
    QCOMPARE(composeOk("ComposeLayout(SwizzleLayout(0, 2, 3), TileLayout(S[8, 8]))"), c);
    QCOMPARE(composeOk("T.ComposeLayout(per_element=0, swizzle_len=2, atom_len=3, "
                       "tile_layout=T.TileLayout(T.S[8, 8]), swizzle_inner=True)"),
             c);
    QCOMPARE(composeOk("ComposeLayout(0, 2, 3, S[8, 8])"), c);
  }

  void swizzleFormula() {
    // f(x) = x ^ ((x & (mask << S)) >> S) on x = m >> M, low M bits kept; identity for B = 0.
    const Swizzle s{3, 3, 3, true};
    for (int64_t m = 0; m < 8192; ++m) {
      const int64_t x = m >> 3;
      const int64_t f = x ^ ((x & (7 << 3)) >> 3);
      QCOMPARE(s.apply(m), (f << 3) + (m & 7));
    }
    const Swizzle outer{1, 2, 3, false};
    for (int64_t m = 0; m < 4096; ++m) {
      const int64_t x = m >> 1;
      QCOMPARE(outer.apply(m), ((x ^ ((x & 3) << 3)) << 1) + (m & 1));
    }
    for (int64_t m = 0; m < 100; ++m) QCOMPARE((Swizzle{3, 0, 3}).apply(m), m);
    QCOMPARE(s.periodElements(), int64_t{512});
    QCOMPARE((Swizzle{3, 0, 3}).periodElements(), int64_t{1});
  }

  void equivalenceTable_data() {
    QTest::addColumn<int>("B");
    QTest::addColumn<int>("elemBytes");
    for (int B = 1; B <= 3; ++B)
      for (int e : {1, 2, 4}) QTest::addRow("%dB swizzle, %d-byte elements", 16 << B, e) << B << e;
  }

  void equivalenceTable() {
    // §9.2: ComposeLayout(M = log2(16/e), B, 3) over rows of W = 16·2^B bytes equals the byte
    // rule, the chunk formula of its row width, and CuTe Swizzle<B,4,3> (the same byte rule), and
    // its mode maps to TMA numbering B and descriptor numbering 4 − B.
    QFETCH(int, B);
    QFETCH(int, elemBytes);
    const SwizzleMode mode = static_cast<SwizzleMode>(B);
    const Swizzle s = swizzleForMode(mode, elemBytes);
    QCOMPARE(s.perElement, B == 0 ? 0 : (elemBytes == 1 ? 4 : elemBytes == 2 ? 3 : 2));
    QCOMPARE(hardwareSwizzleMode(s, elemBytes), std::optional<SwizzleMode>(mode));
    QCOMPARE(swizzleModeTirx(mode), B);
    QCOMPARE(swizzleModeDescriptor(mode), 4 - B);
    QCOMPARE(swizzleModeFromDescriptor(4 - B), std::optional<SwizzleMode>(mode));
    QCOMPARE(swizzlePatternBytes(s, elemBytes), int64_t{128} << B);
    const int W = 16 << B;
    const int rowElems = W / elemBytes, rows = 32;
    ComposeLayout c{s, TileLayout::rowMajor(std::vector<int64_t>{rows, rowElems})};
    for (int r = 0; r < rows; ++r)
      for (int col = 0; col < rowElems; ++col) {
        const int64_t logicalByte = (int64_t{r} * rowElems + col) * elemBytes;
        const int64_t physByte = mOf(c, r, col, rows, rowElems) * elemBytes;
        QCOMPARE(physByte, byteRule(logicalByte, B));
        // Chunk formulas: 128B rows chunk ^ (row % 8), 64B rows chunk ^ ((row/2) % 4),
        // 32B rows chunk ^ ((row/4) % 2).
        const int chunk = col * elemBytes / 16;
        const int phase = B == 3 ? r % 8 : (B == 2 ? (r / 2) % 4 : (r / 4) % 2);
        QCOMPARE(physByte, int64_t{r} * W + (chunk ^ phase) * 16 + (col * elemBytes) % 16);
      }
  }

  void tmaImagesMeasuredOnH200() {
    // tc-verify/verify.cu test_tma: a 32-row u16 box of 64/32/16 columns loaded by TMA with
    // SWIZZLE_128B/64B/32B; O[phys] == G[m] with phys from ComposeLayout(3, B, 3) (its kernel's
    // own formula). The log records 0 mismatches for each; the same image must come out of ours.
    TIRX_NEED_SHARED("spec/tc-verify/h200_verify_and_perf.log");
    const QString log = readAll(tcVerify("h200_verify_and_perf.log"));
    QVERIFY2(!log.isEmpty(), "tc-verify/h200_verify_and_perf.log not found");
    struct Cfg {
      int B, cols;
      const char* logLine;
    } cfgs[] = {
        {3, 64,
         "[PASS] TMA 2D SWIZZLE_128B (rows of 128B): chunk' = chunk ^ (row%8): 0/2048 mismatches"},
        {2, 32,
         "[PASS] TMA 2D SWIZZLE_64B (rows of 64B):  chunk' = chunk ^ ((row/2)%4): 0/1024 "
         "mismatches"},
        {1, 16,
         "[PASS] TMA 2D SWIZZLE_32B (rows of 32B):  chunk' = chunk ^ ((row/4)%2): 0/512 "
         "mismatches"}};
    for (const Cfg& cfg : cfgs) {
      QVERIFY2(log.contains(cfg.logLine), cfg.logLine);
      const ComposeLayout c =
          composeOk("ComposeLayout(3, " + std::to_string(cfg.B) + ", 3, TileLayout(S[32, " +
                    std::to_string(cfg.cols) + "]))");
      std::vector<int> image(32 * cfg.cols, -1);  // what TMA wrote: O[phys] = G[m] = m
      for (int rr = 0; rr < 32; ++rr)
        for (int cc = 0; cc < cfg.cols; ++cc) {
          const int m = rr * cfg.cols + cc;  // verify.cu's reference, written out
          const int x = m >> 3;
          const int f = x ^ ((x & (((1 << cfg.B) - 1) << 3)) >> 3);
          image[(f << 3) | (m & 7)] = m;
        }
      for (int rr = 0; rr < 32; ++rr)
        for (int cc = 0; cc < cfg.cols; ++cc)
          QCOMPARE(image[mOf(c, rr, cc, 32, cfg.cols)], rr * cfg.cols + cc);
    }
  }

  void constraints() {
    QCOMPARE(checkSwizzle(Swizzle{3, 3, 3}), std::string());
    QCOMPARE(checkSwizzle(Swizzle{3, 3, 2}),
             std::string("atom_len (2) must be at least swizzle_len (3)"));
    QCOMPARE(checkSwizzle(Swizzle{-1, 0, 0}),
             std::string("per_element must not be negative, found -1"));
    // §9.3: M must match the element width.
    QCOMPARE(checkSwizzleElementWidth(Swizzle{3, 3, 3}, 2, "float16"), std::string());
    QCOMPARE(
        checkSwizzleElementWidth(Swizzle{3, 3, 3}, 4, "float32"),
        std::string("ComposeLayout per_element=3 swizzles 8-element units (32 bytes of float32); "
                    "a 16-byte chunk of float32 is per_element=2"));
    QCOMPARE(checkSwizzleElementWidth(Swizzle{3, 0, 3}, 4, "float32"), std::string());
    std::string why;
    QVERIFY(!hardwareSwizzleMode(Swizzle{3, 3, 3}, 4, &why));
    QVERIFY(why.find("per_element=2") != std::string::npos);
    QVERIFY(!hardwareSwizzleMode(Swizzle{3, 3, 4}, 2, &why));
    QVERIFY(why.find("atom_len=3") != std::string::npos);
    QVERIFY(!hardwareSwizzleMode(Swizzle{3, 3, 3, false}, 2, &why));
    QVERIFY(why.find("inner") != std::string::npos);
    QCOMPARE(hardwareSwizzleMode(Swizzle{3, 0, 3, false}, 2),
             std::optional<SwizzleMode>(SwizzleMode::None));
    // §9.2: the base must be aligned to the pattern period (1024/512/256 bytes).
    QCOMPARE(checkSwizzleBaseAlignment(Swizzle{3, 3, 3}, 2, 1024), std::string());
    QCOMPARE(checkSwizzleBaseAlignment(Swizzle{3, 3, 3}, 2, 2048), std::string());
    QCOMPARE(checkSwizzleBaseAlignment(Swizzle{3, 3, 3}, 2, 128),
             std::string("a 128B swizzle repeats every 1024 bytes; the buffer is only known to be "
                         "128-byte aligned (declare align=1024)"));
    QCOMPARE(checkSwizzleBaseAlignment(Swizzle{3, 1, 3}, 2, 256), std::string());
    QCOMPARE(checkSwizzleBaseAlignment(Swizzle{3, 0, 3}, 2, 16), std::string());
  }

  void parseErrors() {
    QCOMPARE(failure("ComposeLayout(3, 3, 2, TileLayout(S[8, 64]))"),
             std::string("E0315 1 atom_len (2) must be at least swizzle_len (3)"));
    QCOMPARE(
        failure("ComposeLayout(3, 3, 3, TileLayout(S[8, 64]), swizzle_inner=False)"),
        std::string("E0316 60 swizzle_inner=False is not supported: the hardware (TMA, wgmma) "
                    "swizzles only the inner direction, so no shared-memory instruction could use "
                    "this layout"));
    // swizzle_inner=False with B = 0 is the identity: accepted.
    QCOMPARE(composeOk("ComposeLayout(3, 0, 3, TileLayout(S[8, 64]), swizzle_inner=False)").swizzle,
             (Swizzle{3, 0, 3, false}));
    QCOMPARE(
        failure("ComposeLayout(3, 3, 3, TileLayout(S[(32, 4) : (1@laneid, 1)]))"),
        std::string("E0317 24 the tile layout of a ComposeLayout must map to the memory axis m "
                    "only, found laneid"));
    QCOMPARE(
        failure("ComposeLayout(3, 3, 3)"),
        std::string("E0314 1 ComposeLayout is missing 'tile_layout' (per_element, swizzle_len, "
                    "atom_len, tile_layout, swizzle_inner=True)"));
    QCOMPARE(
        failure("ComposeLayout(3, 3, 3, S[8], depth=2)"),
        std::string("E0314 30 ComposeLayout has no argument 'depth' (per_element, swizzle_len, "
                    "atom_len, tile_layout, swizzle_inner=True)"));
    QCOMPARE(failure("ComposeLayout(3, 3, 3, S[8], per_element=3)"),
             std::string("E0314 30 ComposeLayout got argument 'per_element' twice"));
    QCOMPARE(failure("ComposeLayout(3, 3, 3, S[8], 1)"),
             std::string("E0314 30 swizzle_inner must be True or False, found integer 1"));
    QCOMPARE(
        failure("ComposeLayout(3, 3, 3, S[8], True, 5)"),
        std::string("E0314 1 ComposeLayout takes at most 5 arguments (per_element, swizzle_len, "
                    "atom_len, tile_layout, swizzle_inner=True), found 6"));
    QCOMPARE(failure("ComposeLayout(-1, 3, 3, S[8])"),
             std::string("E0315 15 per_element must be between 0 and 40, found -1"));
    QCOMPARE(failure("ComposeLayout(SwizzleLayout(3, 3), S[8])"),
             std::string("E0314 15 SwizzleLayout is missing 'atom_len' (per_element, swizzle_len, "
                         "atom_len, swizzle_inner=True)"));
    QCOMPARE(
        failure("ComposeLayout(3, 3, 3, ComposeLayout(3, 3, 3, S[8]))"),
        std::string("E0313 24 a swizzled layout (ComposeLayout) is not accepted here: expected a "
                    "TileLayout"));
    // Where only a TileLayout is accepted, a ComposeLayout is E0313, not a generic E0300.
    Diagnostics d;
    QVERIFY(!parseLayoutText("ComposeLayout(3, 3, 3, S[8, 64])", d));
    QCOMPARE(d.size(), size_t{1});
    QCOMPARE(d[0].code, std::string("E0313"));
  }

  void hostileInputsGiveDiagnostics() {
    // Nothing here may crash, hang or parse: each gives at least one error.
    for (const char* text :
         {"ComposeLayout()", "ComposeLayout(3)", "ComposeLayout(3, 3, 3, 4)",
          "ComposeLayout(3, 3, 3, laneid)", "ComposeLayout(1 << 62, 3, 3, S[8])",
          "ComposeLayout(3, 40, 40, S[8])", "ComposeLayout(20, 20, 20, S[8])",
          "ComposeLayout(3, 3, 3, S[8], swizzle_inner=None)",
          "ComposeLayout(SwizzleLayout(), S[8])",
          "ComposeLayout(SwizzleLayout(3, 3, 3), S[8], True)",
          "ComposeLayout(SwizzleLayout(3, 3, 3), tile_layout=S[8])",
          "ComposeLayout(3, 3, 3, S[(4, 4) : (1, 1)] + R[2 : 1])",
          "ComposeLayout(3, 3, 3, S[8] + 1@warpid)", "ComposeLayout(3, 3, 3, TileLayout(S[0]))",
          "ComposeLayout(3, 3, 3, S[8]) + 1", "ComposeLayout(3, 3, 3, S[8])[0]",
          "ComposeLayout(x, 3, 3, S[8])", "ComposeLayout(3.5, 3, 3, S[8])"}) {
      Diagnostics d;
      const auto v = parseLayoutValueText(text, d);
      QVERIFY2(!v, text);
      QVERIFY2(hasErrors(d), text);
    }
  }

  void envConstants() {
    ExprParseResult p = parseExpression("SW");
    LayoutEnv env;
    env.composeLayouts["SW"] = composeOk("ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))");
    Diagnostics d;
    auto v = layoutValueFromExpr(*p.expr, env, d);
    QVERIFY(v && d.empty());
    QCOMPARE(std::get<ComposeLayout>(*v), env.composeLayouts["SW"]);
    QVERIFY(!layoutFromExpr(*p.expr, env, d));
    QCOMPARE(d.back().code, std::string("E0313"));
    // Integer constants work inside the arguments; a TileLayout constant as the tile.
    env.ints["B"] = 2;
    env.layouts["T64"] = TileLayout::rowMajor(std::vector<int64_t>{8, 32});
    ExprParseResult q = parseExpression("ComposeLayout(3, B, B + 1, T64)");
    d.clear();
    v = layoutValueFromExpr(*q.expr, env, d);
    QVERIFY(v && d.empty());
    QCOMPARE(std::get<ComposeLayout>(*v).swizzle, (Swizzle{3, 2, 3}));
    QCOMPARE(std::get<ComposeLayout>(*v).tile, env.layouts["T64"]);
  }

  void plainLayoutsStayTileLayouts() {
    Diagnostics d;
    auto v = parseLayoutValueText("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]", d);
    QVERIFY(v && d.empty());
    QVERIFY(std::holds_alternative<TileLayout>(*v));
    QCOMPARE(swizzleOf(*v), Swizzle{});
    QCOMPARE(toString(*v), std::string("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"));
  }

  void toStringRoundTrip() {
    for (const char* text :
         {"ComposeLayout(3, 3, 3, TileLayout(S[(64, 64) : (64, 1)]))",
          "ComposeLayout(0, 2, 3, TileLayout(S[(8, 8) : (8, 1)] + 128))",
          "ComposeLayout(2, 0, 3, TileLayout(S[16 : 1]), swizzle_inner=False)"}) {
      const ComposeLayout c = composeOk(text);
      QCOMPARE(c.toString(), std::string(text));
      QCOMPARE(composeOk(c.toString()), c);
    }
    QVERIFY(composeOk("ComposeLayout(3, 3, 3, S[64, 64])") !=
            composeOk("ComposeLayout(3, 2, 3, S[64, 64])"));
  }

  void sizeAndSpan() {
    const ComposeLayout full = composeOk("ComposeLayout(3, 3, 3, S[64, 64])");
    QCOMPARE(full.size(), int64_t{4096});
    QCOMPARE(full.span(), int64_t{4096});
    QCOMPARE(full.storageSpan(), int64_t{4096});
    // A tile that ends inside a 64-element unit group: the swizzle can move its last offsets up
    // to the end of that group, so the storage rounds up (every offset must fit).
    const ComposeLayout partial = composeOk("ComposeLayout(3, 3, 3, S[(3, 16) : (64, 1)])");
    QCOMPARE(partial.span(), int64_t{2 * 64 + 16});
    QCOMPARE(partial.storageSpan(), int64_t{192});
    int64_t maxM = 0;
    for (int64_t f = 0; f < partial.size(); ++f)
      maxM = std::max(maxM, partial.applyFlat(f).at("m"));
    QVERIFY(maxM < partial.storageSpan());
    QVERIFY(maxM >= partial.span());  // row 2 chunk 0 lands on chunk 2: beyond the tile's span
  }

  void chunkImage128B() {
    const LayoutValue v = composeOk("ComposeLayout(3, 3, 3, S[64, 64])");
    const std::vector<int64_t> shape{64, 64};
    std::string why;
    const auto img = chunkImage(v, shape, 2, 1024, &why);
    QVERIFY2(img, why.c_str());
    QCOMPARE(img->rows, int64_t{64});
    QCOMPARE(img->chunksPerRow, int64_t{8});
    QCOMPARE(img->physRowChunks, int64_t{8});
    for (int64_t r = 0; r < 64; ++r)
      for (int64_t c = 0; c < 8; ++c) QCOMPARE(img->at(r, c), r * 8 + (c ^ (r % 8)));
    QCOMPARE(ChunkImage::firstBank(img->at(3, 0)), 12);  // row 3 chunk 0 -> chunk 3: banks 12-15
    // A padded 144-byte-row layout: contiguous chunks, pitch 9 chunks.
    const LayoutValue padded = TileLayout{{{64, 72, "m"}, {64, 1, "m"}}, {}, {}};
    const auto p = chunkImage(padded, shape, 2, 1024, &why);
    QVERIFY(p);
    QCOMPARE(p->physRowChunks, int64_t{9});
    QCOMPARE(p->at(1, 0), int64_t{9});
    // Chunks whose elements are not contiguous are -1 (a column-major tile).
    const LayoutValue colMajor = TileLayout{{{64, 1, "m"}, {64, 64, "m"}}, {}, {}};
    QCOMPARE(chunkImage(colMajor, shape, 2, 1024)->at(0, 0), int64_t{-1});
    QVERIFY(!chunkImage(v, shape, 2, 16, &why));
    QCOMPARE(why, std::string("the layout has 64 rows, more than 16"));
    // A single enormous row is bounded too (no unbounded allocation).
    const LayoutValue wide = TileLayout{{{int64_t{1} << 30, 1, "m"}}, {}, {}};
    const std::vector<int64_t> one{int64_t{1} << 30};
    QVERIFY(!chunkImage(wide, one, 2, 1024, &why));
    QCOMPARE(why, std::string("the layout has 134217728 chunks, more than 4194304"));
  }
};

QTEST_APPLESS_MAIN(TestLayoutSwizzle)
#include "tst_layout_swizzle.moc"
