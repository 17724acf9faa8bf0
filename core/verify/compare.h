// The two comparison functions the doc examples call, with their exact semantics:
// numpy.testing.assert_allclose (|actual - desired| <= atol + rtol·|desired|, defaults rtol=1e-7,
// atol=0, NaNs equal by default, shapes must match) and torch.testing.assert_close (dtype-aware
// default tolerances, dtype and shape must match, NaNs unequal by default). Both compute in double
// and report the largest errors and the worst elements with their coordinates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/verify/array.h"

namespace tirx::verify {

struct ElementError {
  int64_t flat = 0;
  std::vector<int64_t> coord;
  double actual = 0, expected = 0, absErr = 0, relErr = 0;
};

struct Comparison {
  bool pass = false;
  bool equalNan = true;  ///< NaN against NaN passed
  std::string message;   ///< why it failed (shape/dtype mismatch or "N/M elements mismatch")
  double rtol = 0, atol = 0;
  double maxAbs = 0, maxRel = 0;  ///< over all compared elements (NaN pairs excluded)
  int64_t mismatches = 0, total = 0;
  std::vector<ElementError> worst;  ///< up to 8 mismatches, worst first (or the largest errors)
};

/// The element rule of every comparison: |actual − expected| ≤ atol + rtol·|expected|; a NaN
/// matches a NaN only with `equalNan`, an infinity only the same infinity. The studio's output grid
/// marks mismatching cells with it.
bool withinTolerance(double actual, double expected, double rtol, double atol, bool equalNan);

/// numpy.testing.assert_allclose(actual, desired, rtol=1e-7, atol=0, equal_nan=True).
Comparison assertAllclose(const Array& actual, const Array& desired, double rtol = 1e-7,
                          double atol = 0, bool equalNan = true);

/// torch.testing.assert_close(actual, expected, rtol=None, atol=None, equal_nan=False,
/// check_dtype=True). Both tolerances must be given or neither (then the defaults of the dtype:
/// float16 1e-3/1e-5, bfloat16 1.6e-2/1e-5, float32 1.3e-6/1e-5, float64 1e-7/1e-7, others 0/0).
Comparison assertClose(const Array& actual, const Array& expected, std::optional<double> rtol,
                       std::optional<double> atol, bool equalNan = false, bool checkDtype = true);

/// numpy.allclose(a, b, rtol=1e-5, atol=1e-8): broadcasting, NaNs unequal.
bool allclose(const Array& a, const Array& b, double rtol = 1e-5, double atol = 1e-8,
              bool equalNan = false);

/// The default (rtol, atol) of torch.testing.assert_close for a dtype.
std::pair<double, double> torchDefaultTolerance(DType t);

}  // namespace tirx::verify
