// Private to the views' engine adapters (engine_verify.cpp, engine_bundle.cpp): a verify Report
// as the Results dock's value, and the device (core/driver/device.h) a VerifyRequest's device and
// sanitizer texts name.
#pragma once

#include <memory>
#include <string>

#include "core/diag/result.h"
#include "core/driver/device.h"
#include "core/verify/verify.h"
#include "views/engine/engine_products.h"

namespace tirx::views {

/// The studio's value of a Report: the Report itself, its checks' plots decimated for
/// request.plotColumns and the status line.
VerifyProducts productsFromReport(verify::Report r, const VerifyRequest& request, bool cancelled);
/// The request's device (empty: the simulator) with its sanitizer (empty: none), through
/// driver::parseDevice; its Status says what is wrong with the text.
Result<driver::DeviceSpec> deviceOf(const VerifyRequest& request);

}  // namespace tirx::views
