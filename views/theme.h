// Light and dark application palettes (Fusion style), applied to the whole QApplication.
#pragma once

namespace tirx::views {

/// Switch the application's style to Fusion with a light or dark palette.
void applyApplicationTheme(bool dark);

}  // namespace tirx::views
