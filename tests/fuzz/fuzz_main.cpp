// The libFuzzer entry point of one fuzz target: TIRX_FUZZ_ENTRY names the function of
// fuzz_targets.h that this executable fuzzes (tests/fuzz/CMakeLists.txt builds one per target).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tirx::fuzz::TIRX_FUZZ_ENTRY(std::string_view(reinterpret_cast<const char*>(data), size));
}
