// Private to the views' engine adapters (engine_verify.cpp, engine_bundle.cpp): a verify Report
// as the Results dock's value, and the GPU executor a VerifyRequest's device and sanitizer ask for.
#pragma once

#include <memory>
#include <string>

#include "core/ir/values.h"
#include "core/verify/verify.h"
#include "views/engine_products.h"

namespace tirx::views {

/// The studio's value of a Report: the Report itself, its checks' plots decimated for
/// request.plotColumns and the status line.
VerifyProducts productsFromReport(verify::Report r, const VerifyRequest& request, bool cancelled);
/// A CudaExecutor for "cuda:N" (with request.sanitize) or an ssh:// device; null with `why`.
std::unique_ptr<ir::Executor> makeGpuExecutor(const VerifyRequest& request, std::string* why);

}  // namespace tirx::views
