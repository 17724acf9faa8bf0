// Light and dark application palettes (Fusion style), applied to the whole QApplication.
#pragma once

#include <QIcon>

namespace tirx::views {

/// Switch the application's style to Fusion with a light or dark palette.
void applyApplicationTheme(bool dark);

/// The Run (green triangle) and Stop (red square) toolbar icons, drawn in colours that read on
/// both palettes (Fusion's media icons are black: invisible on the dark toolbar). A disabled
/// Stop is greyed by the style as usual.
QIcon runIcon();
QIcon stopIcon();

}  // namespace tirx::views
