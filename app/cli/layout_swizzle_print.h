// `tirx layout` for a swizzled layout (ComposeLayout): the (row, 16-byte chunk) image of spec
// §9.3, its banks, the hardware mode it equals and the wavefronts of every 8-row ldmatrix phase.
// Called by cmd_layout.cpp; the schema is in docs/cli.md.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/layout/swizzle_layout.h"

namespace tirx::cli {

/// Element bytes of a dtype name as the scripts spell it (float16, bf16, f32, uint8, ...), 0 when
/// unknown.
int elementBytesOfDtype(const std::string& dtype);

/// Prints the image of `layout` over `shape` with elements of `elemBytes` bytes (`dtypeName`
/// words the messages); returns the exit code (0, or 2 when the image cannot be drawn, with the
/// reason on `err`).
int printSwizzleImage(const ComposeLayout& layout, const std::vector<int64_t>& shape, int elemBytes,
                      const std::string& dtypeName, bool json, std::ostream& out,
                      std::ostream& err);

}  // namespace tirx::cli
