// The runner child (`tirx runner REQUEST.json RESPONSE.json`): loads the cubin (or JITs the PTX
// when the cubin does not fit the device), allocates and fills the arguments, poisons outputs,
// launches, checks every CUDA call, downloads outputs and writes a response. Any CUDA error is a
// response, never a crash; a hang is the parent's business (it kills us).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/device/cuda_driver.h"
#include "core/driver/cuda_executor.h"

namespace tirx::driver {

using nlohmann::json;

namespace {

/// The fault kind for a CUDA error code (docs/runner.md).
std::string faultKind(int code) {
  switch (code) {
    case 700: return "illegal-address";       // CUDA_ERROR_ILLEGAL_ADDRESS
    case 716: return "misaligned";            // CUDA_ERROR_MISALIGNED_ADDRESS
    case 702: return "timeout";               // CUDA_ERROR_LAUNCH_TIMEOUT
    case 715: return "illegal-instruction";   // CUDA_ERROR_ILLEGAL_INSTRUCTION
    case 717: return "invalid-address-space"; // CUDA_ERROR_INVALID_ADDRESS_SPACE
    case 718: return "invalid-pc";
    case 719: return "launch";                // CUDA_ERROR_LAUNCH_FAILED
    case 701: return "launch-resources";      // CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
    default: return "cuda-error";
  }
}

bool readAll(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool writeAll(const std::string& path, const void* data, size_t n) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), std::streamsize(n));
  return bool(out);
}

std::string dirOf(const std::string& p) {
  const auto s = p.find_last_of('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

json errorJson(const Status& s, const std::string& stage) {
  return {{"api", s.api}, {"code", s.code}, {"message", s.message}, {"stage", stage},
          {"kind", faultKind(s.code)}};
}

}  // namespace

Result<std::string> devicesJson() {
  auto devs = device::enumerateDevices();
  if (!devs) return devs.error();
  json arr = json::array();
  for (const auto& d : *devs)
    arr.push_back({{"index", d.index}, {"name", d.name}, {"sms", d.smCount},
                   {"cc", std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)},
                   {"memoryBytes", d.totalMemory}});
  return arr.dump(2);
}

int runRunner(const std::string& requestPath, const std::string& responsePath) {
  json resp = {{"ok", false}, {"ran", false}};
  auto finish = [&](int code) {
    std::ofstream out(responsePath);
    out << resp.dump(2) << "\n";
    return out ? code : 2;
  };
  std::string text;
  if (!readAll(requestPath, text)) {
    resp["error"] = {{"api", "open"}, {"message", "cannot read " + requestPath}, {"stage", "request"}};
    return finish(2);
  }
  json req = json::parse(text, nullptr, false);
  if (req.is_discarded() || !req.is_object() || !req.contains("kernel") || !req.contains("args")) {
    resp["error"] = {{"api", "json"}, {"message", "malformed request"}, {"stage", "request"}};
    return finish(2);
  }
  const std::string dir = dirOf(requestPath);
  const std::string kernel = req.value("kernel", "");
  resp["kernel"] = kernel;
  // Driver and context.
  auto api = device::driver();
  if (!api) {
    resp["environment"] = true;
    resp["error"] = errorJson(api.error(), "driver");
    return finish(3);
  }
  const int devIndex = req.value("device", 0);
  auto devs = device::enumerateDevices();
  if (!devs || devIndex < 0 || devIndex >= int(devs->size())) {
    resp["environment"] = true;
    resp["error"] = devs ? json{{"api", "cuDeviceGet"},
                                {"message", "no CUDA device " + std::to_string(devIndex) + " (found " +
                                                std::to_string(devs->size()) + ")"},
                                {"stage", "device"}}
                         : errorJson(devs.error(), "device");
    return finish(3);
  }
  const device::DeviceInfo& info = (*devs)[size_t(devIndex)];
  resp["device"] = info.name;
  resp["deviceIndex"] = devIndex;
  resp["cc"] = std::to_string(info.ccMajor) + "." + std::to_string(info.ccMinor);
  auto ctx = device::Context::open(devIndex);
  if (!ctx) {
    resp["environment"] = true;
    resp["error"] = errorJson(ctx.error(), "context");
    return finish(3);
  }
  // Module: the cubin, else the PTX (driver JIT) when the cubin targets another architecture.
  std::string cubinText, ptxText;
  std::vector<uint8_t> image;
  Result<device::Module> mod = Status{"cuModuleLoadData", "no image in the request", 0};
  if (req.contains("cubin") && readAll(dir + "/" + req["cubin"].get<std::string>(), cubinText)) {
    image.assign(cubinText.begin(), cubinText.end());
    mod = device::Module::load(image);
    resp["loadedFrom"] = "cubin";
  }
  if (!mod && req.contains("ptx") && readAll(dir + "/" + req["ptx"].get<std::string>(), ptxText)) {
    image.assign(ptxText.begin(), ptxText.end());
    image.push_back(0);
    mod = device::Module::load(image);
    resp["loadedFrom"] = "ptx";
  }
  if (!mod) {
    resp["error"] = errorJson(mod.error(), "module");
    return finish(0);
  }
  auto fn = mod->function(kernel);
  if (!fn) {
    resp["error"] = errorJson(fn.error(), "module");
    return finish(0);
  }
  // Arguments.
  std::vector<device::DeviceBuffer> buffers;
  std::vector<int> bufferOfArg;
  std::vector<uint64_t> scalars(req["args"].size(), 0);
  std::vector<device::CuDevicePtr> ptrs(req["args"].size(), 0);
  std::vector<void*> params;
  size_t i = 0;
  for (const auto& a : req["args"]) {
    if (a.value("kind", "") == "tensor") {
      const size_t bytes = a.value("bytes", size_t(0));
      auto b = device::DeviceBuffer::alloc(bytes);
      if (!b) {
        resp["error"] = errorJson(b.error(), "alloc");
        return finish(0);
      }
      Status st;
      if (a.value("poison", false)) {
        st = b->fill(0xFF);
      } else {
        std::string data;
        if (!readAll(dir + "/" + a.value("file", ""), data) || data.size() != bytes) {
          resp["error"] = {{"api", "open"}, {"message", "argument file " + std::to_string(i) +
                                                            " missing or of the wrong size"},
                           {"stage", "request"}};
          return finish(2);
        }
        st = b->upload(data.data(), bytes);
      }
      if (!st.message.empty()) {
        resp["error"] = errorJson(st, "upload");
        return finish(0);
      }
      ptrs[i] = b->ptr();
      params.push_back(&ptrs[i]);
      bufferOfArg.push_back(int(buffers.size()));
      buffers.push_back(std::move(*b));
    } else {
      scalars[i] = a.value("bits", uint64_t(0));
      params.push_back(&scalars[i]);
      bufferOfArg.push_back(-1);
    }
    ++i;
  }
  int64_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  for (int d = 0; d < 3; ++d) {
    if (req.contains("grid") && d < int(req["grid"].size())) grid[d] = req["grid"][size_t(d)];
    if (req.contains("block") && d < int(req["block"].size())) block[d] = req["block"][size_t(d)];
  }
  const int64_t smem = req.value("dynamicSmem", int64_t(0));
  const int warmup = std::max(0, req.value("warmup", 0));
  const int repeats = std::max(0, req.value("repeats", 0));
  auto e0 = device::Event::create();
  auto e1 = device::Event::create();
  if (!e0 || !e1) {
    resp["error"] = errorJson(e0 ? e1.error() : e0.error(), "event");
    return finish(0);
  }
  // The checked run: launch, synchronize (asynchronous faults surface here), download.
  auto fault = [&](const Status& s, const std::string& stage) {
    resp["error"] = errorJson(s, stage);
    resp["fault"] = faultKind(s.code);
    return finish(0);
  };
  Status st = e0->record();
  if (st.message.empty()) st = device::launch(*fn, grid, block, smem, params);
  if (!st.message.empty()) return fault(st, "launch");
  st = e1->record();
  if (st.message.empty()) st = e1->synchronize();
  if (st.message.empty()) st = device::synchronize();
  if (!st.message.empty()) return fault(st, "run");
  auto first = e1->since(*e0);
  resp["firstLaunchMs"] = first ? double(*first) : 0.0;
  json outputs = json::array();
  i = 0;
  for (const auto& a : req["args"]) {
    if (bufferOfArg[i] >= 0 && a.value("download", true)) {
      const auto& b = buffers[size_t(bufferOfArg[i])];
      std::vector<uint8_t> host(b.bytes());
      st = b.download(host.data(), host.size());
      if (!st.message.empty()) return fault(st, "download");
      const std::string name = "out" + std::to_string(i) + ".bin";
      if (!writeAll(dir + "/" + name, host.data(), host.size())) {
        resp["error"] = {{"api", "write"}, {"message", "cannot write " + name}, {"stage", "download"}};
        return finish(2);
      }
      outputs.push_back({{"index", i}, {"file", name}});
    }
    ++i;
  }
  resp["outputs"] = outputs;
  // Timed launches (benchmarks).
  std::vector<double> times;
  for (int r = 0; repeats > 0 && r < warmup + repeats; ++r) {
    st = e0->record();
    if (st.message.empty()) st = device::launch(*fn, grid, block, smem, params);
    if (st.message.empty()) st = e1->record();
    if (st.message.empty()) st = e1->synchronize();
    if (!st.message.empty()) return fault(st, "timing");
    auto ms = e1->since(*e0);
    if (!ms) return fault(ms.error(), "timing");
    if (r >= warmup) times.push_back(double(*ms));
  }
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  resp["launchesMs"] = times;
  resp["medianMs"] = sorted.empty() ? 0.0 : sorted[sorted.size() / 2];
  resp["minMs"] = sorted.empty() ? 0.0 : sorted.front();
  resp["ok"] = true;
  resp["ran"] = true;
  return finish(0);
}

}  // namespace tirx::driver
