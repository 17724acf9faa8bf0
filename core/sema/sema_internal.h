// Private to core/sema: everything the checker's files share — its values (sema_values.h), its
// state (analyzer_state.h) and the Analyzer's parts (analyzer.h).
#pragma once

#include "core/sema/analyzer.h"
