// Private to core/verify's harness: one library call being interpreted (`np.exp(a)`,
// `torch.softmax(x, dim=-1)`), handed to the groups of library functions that
// Interp::callLibrary tries in turn (harness_funcs.cpp, harness_nn.cpp), and the small argument
// helpers they share with harness_lib.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/verify/harness_interp.h"

namespace tirx::verify {

/// The call's name, arguments and what callLibrary derived from them once.
struct LibCall {
  std::vector<Py>& args;
  Kwargs& kw;
  const std::string& name;  ///< qualified: "numpy.exp", "torch.nn.functional.softmax"
  std::string n;            ///< the last component: "exp", "softmax"
  SourceSpan sp;            ///< the call
  bool torch = false, numpy = false;
  Flavor fl = Flavor::Numpy;
  std::optional<DType> dt;  ///< the dtype= keyword, when given
  const ast::Expr& e;
  bool onDev = false;  ///< device="cuda..." given
};

inline bool startsWith(const std::string& s, const std::string& p) {
  return s.rfind(p, 0) == 0;
}

/// Keyword `name`, else null.
inline Py kwarg(const Kwargs& kw, const std::string& name) {
  for (const auto& [k, v] : kw)
    if (k == name) return v;
  return nullptr;
}

/// Positional argument `i`, else keyword `name`, else null.
inline Py argOr(const std::vector<Py>& args, size_t i, const Kwargs& kw, const std::string& name) {
  if (i < args.size()) return args[i];
  return kwarg(kw, name);
}

}  // namespace tirx::verify
