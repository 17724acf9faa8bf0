// The editor's lexer: QScintilla's Python lexer with the TIRx vocabulary (the `T` API, layout
// builders, thread axes) as highlighted identifiers, and light/dark colour schemes. PTX opcode
// strings are marked by the editor with indicators from the engine's facts, not by the lexer.
#pragma once

#include <Qsci/qscilexerpython.h>

namespace tirx::views {

class TirxLexer : public QsciLexerPython {
  Q_OBJECT
 public:
  explicit TirxLexer(QObject* parent = nullptr);
  /// Set 2 (highlighted identifiers) holds the TIRx names.
  const char* keywords(int set) const override;
  /// Colours for the light or the dark theme.
  void applyTheme(bool dark);
};

}  // namespace tirx::views
