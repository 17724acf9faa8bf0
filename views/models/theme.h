// The studio's two themes: for each theme, every colour a dock draws text in or behind — syntax
// colours, the debugger's current line, the assembly lines of the selected script line, the Diff
// dock's changed rows, annotations, the register gutter's levels, verdicts (the application
// palette, Fusion light or dark, is set by views/widgets/application_theme.h). The docks take
// their colours from here (never a per-widget constant), so one table decides whether the dark
// theme is readable; tst_theme checks every text/background pair against the WCAG contrast ratio
// of 4.5.
#pragma once

#include <QColor>
#include <QIcon>
#include <utility>
#include <vector>

class QPalette;

namespace tirx::views {

/// Text drawn on a background.
struct Highlight {
  QColor text, background;
};

/// Syntax colours of code (the script's lexer and the CUDA/PTX/SASS highlighter).
struct SyntaxColours {
  QColor text, comment, keyword, string, number, builtin, name, decorator, op;
  /// Every colour with its name.
  std::vector<std::pair<const char*, QColor>> all() const;
};

struct ThemeColours {
  bool dark = false;
  QColor base;                ///< the background of code (editor, assembly, diff panes)
  QColor margin, marginText;  ///< the editor's margins
  QColor caretLine;           ///< the editor's caret line
  SyntaxColours syntax;
  Highlight debugLine;  ///< the debugger's current stop (code drawn on it keeps its syntax colours)
  Highlight
      generatedLine;  ///< CUDA/PTX/SASS lines of the selected script line (syntax colours too)
  Highlight diffRemoved, diffAdded, diffHeader, diffBlank;  ///< the Diff dock's rows
  Highlight annotationError, annotationWarning;             ///< boxed diagnostics under a line
  /// The register gutter: ≤ 80 % of the budget, up to it, a measured overflow or spill, an
  /// estimate over the budget (not a measurement: amber, not red), a stale figure.
  Highlight registersLow, registersHigh, registersOver, registersEstimatedOver, registersStale;
  Highlight staleBanner;  ///< "Out of date: …" above a dock
  /// Verdicts and messages on the window's background.
  Highlight pass, fail, cancelled, neutral, error, warning;

  /// Every text/background pair with its name (the contrast test walks them).
  std::vector<std::pair<const char*, Highlight>> highlights() const;
  /// The backgrounds syntax-coloured code is drawn on.
  std::vector<std::pair<const char*, QColor>> codeBackgrounds() const;
};

/// The colours of the dark or the light theme.
const ThemeColours& themeColours(bool dark);
/// The theme `palette` belongs to (dark when its base colour is dark).
const ThemeColours& themeColours(const QPalette& palette);
/// "color: #rrggbb" for a style sheet.
QString styleSheetColour(const QColor& colour);
/// The style sheet of a QLabel drawn as `highlight` (a banner such as "Out of date: …").
QString bannerStyleSheet(const Highlight& highlight);

/// The WCAG 2 contrast ratio of two colours (1 to 21; text wants at least 4.5).
double contrastRatio(const QColor& a, const QColor& b);

/// The Run (green triangle) and Stop (red square) toolbar icons, drawn in colours that read on
/// both palettes (Fusion's media icons are black: invisible on the dark toolbar). A disabled
/// Stop is greyed by the style as usual.
QIcon runIcon();
QIcon stopIcon();

}  // namespace tirx::views
