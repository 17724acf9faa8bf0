// Registers the studio's embedded resources (resources/resources.qrc and the generated examples
// .qrc). They live in the static tirx_views library, whose resource initialisers the linker would
// otherwise drop; every entry point that reads ":/…" calls this first (idempotent).
#pragma once

namespace tirx::views {

void initStudioResources();

}  // namespace tirx::views
