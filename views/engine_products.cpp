// The adapter from core/driver and core/verify to the studio's value structs. Which pieces exist
// is decided by the build (TIRX_STUDIO_HAVE_DRIVER / _VERIFY / _DEVICE, set by views/CMakeLists.txt
// when those core modules have sources); without them the functions report "not available yet".
#include "views/engine_products.h"

namespace tirx::views {

#if !defined(TIRX_STUDIO_HAVE_DRIVER)
bool compileAvailable() { return false; }
std::string compileUnavailableReason() {
  return "not available yet: this build has no core/driver (CUDA C++/PTX/SASS generation)";
}
CompileProducts runCompile(const CompileRequest&) {
  CompileProducts p;
  p.summary = compileUnavailableReason();
  return p;
}
#endif

#if !defined(TIRX_STUDIO_HAVE_VERIFY)
bool verifyAvailable() { return false; }
std::string verifyUnavailableReason() {
  return "not available yet: this build has no core/verify (run and compare against a reference)";
}
VerifyProducts runVerify(const VerifyRequest&, const CancelTokenPtr&) {
  VerifyProducts r;
  r.summary = verifyUnavailableReason();
  return r;
}
BundleExport runExportBundle(const VerifyRequest&, const CancelTokenPtr&) {
  BundleExport b;
  b.summary = verifyUnavailableReason();
  return b;
}
OpenedBundle loadBundleFile(const std::string&, int) {
  OpenedBundle b;
  b.error = verifyUnavailableReason();
  return b;
}
#endif

#if !defined(TIRX_STUDIO_HAVE_DEVICE)
std::vector<std::pair<std::string, std::string>> availableDevices() { return {}; }
#endif

}  // namespace tirx::views
