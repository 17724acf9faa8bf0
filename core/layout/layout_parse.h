// Building TileLayouts from script expressions: `TileLayout(S[...] + R[...] + 5@warpid)` or a bare
// spec `S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]` (spec §1.3 grammar). Errors are Diagnostics with
// codes E0300..E0349 pointing into the expression.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/diag/diagnostic.h"
#include "core/layout/swizzle_layout.h"
#include "core/layout/tile_layout.h"
#include "core/script/ast.h"

namespace tirx {

/// Names in scope while evaluating a layout expression: module-level integer constants and the
/// layouts already defined (so `L2 = TileLayout(S[...]) ` may reuse integer constants).
struct LayoutEnv {
  std::map<std::string, int64_t> ints;
  /// Extra names that denote an axis (`from ...axis import laneid as lane` gives lane -> laneid).
  /// Registered axis names (spec §1.1) are always in scope.
  std::map<std::string, std::string> axisAliases;
  /// Layout constants already defined; a bare name among them evaluates to that layout
  /// (`layout=reg_layout`). They cannot be combined with `+` (TileLayout objects are not specs).
  std::map<std::string, TileLayout> layouts;
  /// ComposeLayout constants already defined (accepted where a LayoutValue is expected).
  std::map<std::string, ComposeLayout> composeLayouts;
};

/// Evaluate `expr` (a `TileLayout(...)` call, `T.TileLayout(...)`, or a bare S/R/offset spec).
/// Returns nullopt and appends diagnostics (E0300..E0349, span of the offending sub-expression)
/// on error. Unknown axis names are errors (docs/layout.md); zero offsets are dropped.
std::optional<TileLayout> layoutFromExpr(const ast::Expr& expr, const LayoutEnv& env,
                                         Diagnostics& diags);

/// Evaluate a layout value: everything layoutFromExpr accepts, plus
/// `ComposeLayout(per_element, swizzle_len, atom_len, tile_layout, swizzle_inner=True)` and TVM's
/// `ComposeLayout(SwizzleLayout(M, B, S[, inner]), tile_layout)` (spec/TIRX.md §1.10). Errors:
/// E0314 arguments, E0315 a swizzle that is not well formed (S < B, ...), E0316
/// swizzle_inner=False with swizzle_len ≥ 1, E0317 a tile layout with axes other than m.
/// layoutFromExpr reports E0313 for a ComposeLayout where only a TileLayout is accepted.
std::optional<LayoutValue> layoutValueFromExpr(const ast::Expr& expr, const LayoutEnv& env,
                                               Diagnostics& diags);
std::optional<LayoutValue> parseLayoutValueText(const std::string& text, Diagnostics& diags);

/// Parse text typed by a user (the CLI's `tirx layout "S[...]"`, the layout view's entry box).
/// Spans are on line 1 of `text`; syntax errors come from parseExpression (E0001..E0099).
std::optional<TileLayout> parseLayoutText(const std::string& text, Diagnostics& diags);

}  // namespace tirx
