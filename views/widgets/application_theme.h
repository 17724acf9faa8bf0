// The application-wide half of the studio's themes: the QApplication style and palette. It sits
// apart from the colour tables (views/models/theme.h), which need only QtGui, because setting the
// style and palette of the whole application is a QtWidgets call.
#pragma once

namespace tirx::views {

/// Switch the application's style to Fusion with a light or dark palette.
void applyApplicationTheme(bool dark);

}  // namespace tirx::views
