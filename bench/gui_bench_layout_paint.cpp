// Studio benchmark: repaint time of the layout view on a 128×256 tile (32K cells) and a 256×256
// tile (64K cells), fitted (every cell visible), at a medium zoom (grid lines and atom outlines),
// and zoomed in (labels). Also the time to build the grid model (ownership table + colours).
// Run: QT_QPA_PLATFORM=offscreen build-gui/bin/gui_bench_layout_paint
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/layout/layout_parse.h"
#include "views/widgets/layout_canvas.h"

using namespace tirx;
using namespace tirx::views;

static double medianMs(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static void bench(const char* text, std::vector<int64_t> shape, const char* what) {
  Diagnostics d;
  auto layout = parseLayoutText(text, d);
  if (!layout) {
    std::printf("layout did not parse: %s\n", text);
    return;
  }
  QElapsedTimer t;
  t.start();
  LayoutGridModel model;
  model.setLayout(*layout, shape, 4);
  double buildMs = t.nsecsElapsed() / 1e6;
  model.setAtom(4);

  LayoutCanvas canvas;
  canvas.resize(1600, 1000);
  canvas.setModel(&model);
  QImage target(canvas.size(), QImage::Format_ARGB32_Premultiplied);
  auto time = [&](const char* zoom) {
    std::vector<double> samples;
    for (int i = 0; i < 60; ++i) {
      QElapsedTimer pt;
      pt.start();
      canvas.render(&target);
      samples.push_back(pt.nsecsElapsed() / 1e6);
    }
    std::printf("  %-34s %8.3f ms median repaint (1600×1000)\n", zoom, medianMs(samples));
  };
  std::printf("%s: %lld cells (%lld × %lld), model build %.2f ms\n", what,
              (long long)model.cellCount(), (long long)model.rows(), (long long)model.cols(),
              buildMs);
  canvas.fitToView();
  char label[64];
  std::snprintf(label, sizeof label, "fitted (%.1f px/cell)", canvas.cellSize());
  time(label);
  canvas.setCellSize(12);
  time("12 px/cell (grid + atoms)");
  canvas.setCellSize(64);
  time("64 px/cell (w l r labels)");
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  bench("S[(4, 32, 32, 8) : (1@warpid, 8, 1@laneid, 1)]", {128, 256},
        "128×256 register tile, 4 warps");
  bench("S[(8, 32, 32, 8) : (1@warpid, 8, 1@laneid, 1)]", {256, 256},
        "256×256 register tile, 8 warps");
  return 0;
}
