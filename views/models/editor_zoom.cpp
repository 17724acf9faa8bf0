// zoomKeyOf: Ctrl with =, +, - or 0; Shift (the + of a US keyboard is Shift+=) and the keypad
// flag are allowed, Alt and Meta are not.
#include "views/models/editor_zoom.h"

#include <QKeyEvent>

namespace tirx::views {

ZoomKey zoomKeyOf(const QKeyEvent& e) {
  const Qt::KeyboardModifiers mods = e.modifiers() & ~(Qt::ShiftModifier | Qt::KeypadModifier);
  if (mods != Qt::ControlModifier) return ZoomKey::None;
  switch (e.key()) {
    case Qt::Key_Equal:
    case Qt::Key_Plus:
      return ZoomKey::In;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
      return ZoomKey::Out;
    case Qt::Key_0:
    case Qt::Key_ParenRight:
      return ZoomKey::Reset;
    default:
      return ZoomKey::None;
  }
}

}  // namespace tirx::views
