// availableDevices(): the GPUs core/device enumerates through the driver (dlopen'ed libcuda).
// Without a driver the list is empty and the device picker offers the simulator only.
#include "core/device/cuda_driver.h"
#include "core/driver/device.h"
#include "views/engine/engine_products.h"

namespace tirx::views {

std::vector<std::pair<std::string, std::string>> availableDevices() {
  std::vector<std::pair<std::string, std::string>> out;
  auto devices = device::enumerateDevices();
  if (!devices) return out;
  for (const auto& d : *devices)
    out.emplace_back(driver::DeviceSpec::cuda(d.index).text(),
                     d.name + " (sm_" + std::to_string(d.sm()) + ")");
  return out;
}

}  // namespace tirx::views
