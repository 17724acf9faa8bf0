// The zoom keys of the text views (the script editor, the CUDA/PTX/SASS panes): Ctrl+= and Ctrl++
// (also on the keypad) zoom in, Ctrl+- zooms out, Ctrl+0 resets. A view that sees one of them as a
// key press zooms and inserts nothing (QScintilla would otherwise type the "=" or "+").
#pragma once

class QKeyEvent;

namespace tirx::views {

enum class ZoomKey { None, In, Out, Reset };

/// The zoom key `e` is (None when it is not one).
ZoomKey zoomKeyOf(const QKeyEvent& e);

}  // namespace tirx::views
