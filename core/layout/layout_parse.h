// Building TileLayouts from script expressions: `TileLayout(S[...] + R[...] + 5@warpid)` or a bare
// spec `S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]` (spec §1.3 grammar). Errors are Diagnostics with
// codes E0300..E0349 pointing into the expression.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/diag/diagnostic.h"
#include "core/layout/tile_layout.h"
#include "core/script/ast.h"

namespace tirx {

/// Names in scope while evaluating a layout expression: module-level integer constants and the
/// layouts already defined (so `L2 = TileLayout(S[...]) ` may reuse integer constants).
struct LayoutEnv {
  std::map<std::string, int64_t> ints;
};

/// Evaluate `expr` (a `TileLayout(...)` call, `T.TileLayout(...)`, or a bare S/R/offset spec).
/// Returns nullopt and appends diagnostics on error.
std::optional<TileLayout> layoutFromExpr(const ast::Expr& expr, const LayoutEnv& env,
                                         Diagnostics& diags);

/// Parse text typed by a user (the CLI's `tirx layout "S[...]"`, the layout view's entry box).
std::optional<TileLayout> parseLayoutText(const std::string& text, Diagnostics& diags);

}  // namespace tirx
