// str() and repr() of harness arrays as numpy 1.24 and torch print them with their default print
// options: numpy's array2string (precision 8, 'maxprec' floats with common padding, scientific
// notation when numpy picks it, threshold 1000 with 3 edge items and `...`, lines of 75 columns,
// `array(..., dtype=float32)` in repr) and numpy scalars; torch's `tensor([...])` (precision 4,
// lines of 80 columns, `dtype=torch.bfloat16` suffix). Output is bounded by what is printed: a
// summarized array costs its edge items, never its size.
#pragma once

#include <string>

#include "core/verify/array.h"

namespace tirx::verify {

/// str(a): numpy's array_str (a numpy scalar or 0-d array prints as the scalar: `0.1`) or, for
/// a torch tensor, torch's repr (`tensor([0.1000, 0.2000])`).
std::string arrayStr(const Array& a);

/// repr(a): numpy's array_repr (`array([0.1, 0.2], dtype=float32)`; a numpy scalar prints as in
/// str, a 0-d array made by np.array as `array(0.1, dtype=float32)`) or torch's repr. The device
/// of a torch tensor is never printed (decision PRINT-1 in docs/decisions.md).
std::string arrayRepr(const Array& a);

/// str() of one numpy scalar of `dtype` holding `v`: the shortest digits that round-trip in that
/// dtype, positional for 1e-4 <= |v| < 1e16 ("0.1", "1.0", "-0.0"), else scientific ("1e-05").
std::string numpyScalarText(double v, DType dtype);

}  // namespace tirx::verify
