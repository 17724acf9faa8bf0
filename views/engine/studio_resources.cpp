// initStudioResources: Q_INIT_RESOURCE must be used outside any namespace.
#include "views/engine/studio_resources.h"

#include <QtGlobal>

static void initTirxStudioQrc() {
  Q_INIT_RESOURCE(resources);
  Q_INIT_RESOURCE(examples);
}

namespace tirx::views {

void initStudioResources() {
  static bool done = false;
  if (done) return;
  done = true;
  initTirxStudioQrc();
}

}  // namespace tirx::views
