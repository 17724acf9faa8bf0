// The runner child (`tirx runner REQUEST.json RESPONSE.json`): reads the request
// (runner_protocol.h), loads the cubin (or JITs the PTX when the cubin does not fit the device),
// uploads the arguments exactly as the parent gave them with undefined elements poisoned, launches,
// checks every CUDA call and downloads what the kernel wrote. With two passes (some element
// undefined) it runs the kernel a second time from fresh arguments poisoned with the second byte
// and marks, per output element, whether both runs left the same bytes (docs/runner.md, "Defined
// elements"). Any CUDA error is a response, never a crash; a hang is the parent's business (it
// kills us).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/device/cuda_driver.h"
#include "core/driver/cuda_executor.h"
#include "core/driver/runner_protocol.h"

namespace tirx::driver {

namespace {

/// The fault kind for a CUDA error code (docs/runner.md).
std::string faultKind(int code) {
  switch (code) {
    case 700:
      return "illegal-address";  // CUDA_ERROR_ILLEGAL_ADDRESS
    case 716:
      return "misaligned";  // CUDA_ERROR_MISALIGNED_ADDRESS
    case 702:
      return "timeout";  // CUDA_ERROR_LAUNCH_TIMEOUT
    case 715:
      return "illegal-instruction";  // CUDA_ERROR_ILLEGAL_INSTRUCTION
    case 717:
      return "invalid-address-space";  // CUDA_ERROR_INVALID_ADDRESS_SPACE
    case 718:
      return "invalid-pc";
    case 719:
      return "launch";  // CUDA_ERROR_LAUNCH_FAILED
    case 701:
      return "launch-resources";  // CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
    default:
      return "cuda-error";
  }
}

std::string dirOf(const std::string& p) {
  const auto s = p.find_last_of('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

RunnerError errorOf(const Status& s, const std::string& stage) {
  return {s.api, s.message, stage, faultKind(s.code), s.code};
}

/// The device side of one run: buffers and parameter pointers for every argument.
struct DeviceArgs {
  std::vector<device::DeviceBuffer> buffers;
  std::vector<int> bufferOfArg;
  std::vector<uint64_t> scalars;
  std::vector<device::CuDevicePtr> ptrs;
  std::vector<void*> params;
  std::vector<device::TensorMapBytes> maps;  ///< encoded once, after the arguments' buffers exist
};

/// Encodes the request's tensor maps over the allocated arguments and appends them to the
/// kernel parameters (after the script's own, decision TC-T1).
Status encodeTensorMaps(const RunnerRequest& req, DeviceArgs& d) {
  d.maps.assign(req.tensorMaps.size(), {});
  for (size_t i = 0; i < req.tensorMaps.size(); ++i) {
    const RunnerTensorMap& t = req.tensorMaps[i];
    device::TiledTensorMapSpec spec;
    spec.dataType = tensorMapDataType(t.dtype);
    spec.base = d.ptrs[t.arg] + t.baseBytes;
    spec.dims = t.dims;
    spec.strides = t.strides;
    spec.box = t.box;
    spec.elementStrides.assign(t.dims.size(), 1);
    spec.swizzle = t.swizzle;
    spec.oobFill = t.oobNan ? 1 : 0;
    Status st = device::encodeTiledTensorMap(spec, d.maps[i]);
    if (!st.message.empty()) {
      auto list = [](const auto& v) {
        std::string out = "[";
        for (size_t k = 0; k < v.size(); ++k) out += (k ? ", " : "") + std::to_string(v[k]);
        return out + "]";
      };
      st.message = "tensor map " + std::to_string(i) + " of '" +
                   (t.name.empty() ? "argument " + std::to_string(t.arg) : t.name) + "' (dims " +
                   list(t.dims) + ", strides " + list(t.strides) + ", box " + list(t.box) +
                   ", swizzle " + std::to_string(t.swizzle) + "): " + st.message;
      return st;
    }
  }
  for (auto& m : d.maps) d.params.push_back(m.bytes);
  return {};
}

/// Allocates (first pass) and fills the arguments for run `pass`. `stage` says where it failed.
Status fillArguments(const RunnerRequest& req, const std::string& dir, int pass, DeviceArgs& d,
                     std::string& stage) {
  const bool first = d.params.empty() && !req.args.empty();
  if (first) {
    d.scalars.assign(req.args.size(), 0);
    d.ptrs.assign(req.args.size(), 0);
  }
  for (size_t i = 0; i < req.args.size(); ++i) {
    const RunnerArg& a = req.args[i];
    if (!a.isTensor) {
      if (first) {
        d.scalars[i] = a.bits;
        d.params.push_back(&d.scalars[i]);
        d.bufferOfArg.push_back(-1);
      }
      continue;
    }
    if (first) {
      stage = "alloc";
      auto b = device::DeviceBuffer::alloc(size_t(a.bytes));
      if (!b) return b.error();
      d.ptrs[i] = b->ptr();
      d.params.push_back(&d.ptrs[i]);
      d.bufferOfArg.push_back(int(d.buffers.size()));
      d.buffers.push_back(std::move(*b));
    }
    const auto& buf = d.buffers[size_t(d.bufferOfArg[i])];
    stage = "upload";
    Status st;
    if (a.undefined == Undefined::All) {
      st = buf.fill(poisonByte(pass));
    } else {
      auto bytes = argumentBytes(a, dir, pass);
      if (!bytes) {
        stage = "request";
        return bytes.error();
      }
      st = buf.upload(bytes->data(), bytes->size());
    }
    if (!st.message.empty()) return st;
  }
  if (first && !req.tensorMaps.empty()) {
    stage = "tensor-map";
    return encodeTensorMaps(req, d);
  }
  return {};
}

/// Launch and wait; asynchronous faults surface at the synchronisation.
Status launchChecked(device::CuFunction fn, const RunnerRequest& req, DeviceArgs& d,
                     const device::Event& e0, const device::Event& e1, std::string& stage) {
  stage = "launch";
  Status st = e0.record();
  if (st.message.empty())
    st = device::launch(fn, req.grid.data(), req.block.data(), req.dynamicSmem, d.params);
  if (!st.message.empty()) return st;
  stage = "run";
  st = e1.record();
  if (st.message.empty()) st = e1.synchronize();
  if (st.message.empty()) st = device::synchronize();
  return st;
}

}  // namespace

Result<std::string> devicesJson() {
  auto devs = device::enumerateDevices();
  if (!devs) return devs.error();
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& d : *devs)
    arr.push_back({{"index", d.index},
                   {"name", d.name},
                   {"sms", d.smCount},
                   {"cc", std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)},
                   {"memoryBytes", d.totalMemory}});
  return arr.dump(2);
}

int runRunner(const std::string& requestPath, const std::string& responsePath) {
  RunnerResponse resp;
  auto finish = [&](int code) {
    const std::string text = responseToJson(resp);
    return writeWholeFile(responsePath, text.data(), text.size()) ? code : 2;
  };
  auto fail = [&](const RunnerError& e, int code, bool environment = false) {
    resp.ok = false;
    resp.ran = false;
    resp.error = e;
    resp.environment = environment;
    return finish(code);
  };
  std::string text;
  if (!readWholeFile(requestPath, text, kMaxProtocolText))
    return fail({"open", "cannot read " + requestPath, "request", "request", 0}, 2);
  auto parsed = parseRequest(text);
  if (!parsed)
    return fail({"json", "malformed request: " + parsed.error().message, "request", "request", 0},
                2);
  const RunnerRequest& req = *parsed;
  const std::string dir = dirOf(requestPath);
  if (req.mode == "sim") return runSimRequest(req, dir, responsePath);
  resp.kernel = req.kernel;
  // Driver and context.
  auto api = device::driver();
  if (!api) return fail(errorOf(api.error(), "driver"), 3, true);
  auto devs = device::enumerateDevices();
  if (!devs) return fail(errorOf(devs.error(), "device"), 3, true);
  if (req.device >= int(devs->size()))
    return fail({"cuDeviceGet",
                 "no CUDA device " + std::to_string(req.device) + " (found " +
                     std::to_string(devs->size()) + ")",
                 "device", "cuda-error", 101},
                3, true);
  const device::DeviceInfo& info = (*devs)[size_t(req.device)];
  resp.device = info.name;
  resp.cc = std::to_string(info.ccMajor) + "." + std::to_string(info.ccMinor);
  auto ctx = device::Context::open(req.device);
  if (!ctx) return fail(errorOf(ctx.error(), "context"), 3, true);
  // Module: the cubin, else the PTX (driver JIT) when the cubin targets another architecture.
  std::string image;
  Result<device::Module> mod = Status{"cuModuleLoadData", "no image in the request", 0};
  if (!req.cubin.empty() && readWholeFile(dir + "/" + req.cubin, image, size_t(1) << 30)) {
    mod = device::Module::load(std::vector<uint8_t>(image.begin(), image.end()));
    resp.loadedFrom = "cubin";
  }
  if (!mod && !req.ptx.empty() && readWholeFile(dir + "/" + req.ptx, image, size_t(1) << 30)) {
    std::vector<uint8_t> ptx(image.begin(), image.end());
    ptx.push_back(0);
    mod = device::Module::load(ptx);
    resp.loadedFrom = "ptx";
  }
  if (!mod) return fail(errorOf(mod.error(), "module"), 0);
  auto fn = mod->function(req.kernel);
  if (!fn) return fail(errorOf(fn.error(), "module"), 0);
  auto e0 = device::Event::create();
  auto e1 = device::Event::create();
  if (!e0 || !e1) return fail(errorOf(e0 ? e1.error() : e0.error(), "event"), 0);
  auto fault = [&](const Status& s, const std::string& stage) {
    resp.fault = faultKind(s.code);
    return fail(errorOf(s, stage), stage == "request" ? 2 : 0);
  };
  // The checked runs: pass 0 gives the outputs, pass 1 (when some element is undefined) says which
  // of their elements are defined.
  DeviceArgs d;
  std::string stage;
  std::vector<std::vector<uint8_t>> firstRun(req.args.size());
  for (int pass = 0; pass < req.passes; ++pass) {
    Status st = fillArguments(req, dir, pass, d, stage);
    if (st.message.empty()) st = launchChecked(*fn, req, d, *e0, *e1, stage);
    if (!st.message.empty()) return fault(st, stage);
    if (pass == 0) {
      auto first = e1->since(*e0);
      resp.firstLaunchMs = first ? double(*first) : 0.0;
    }
    for (size_t i = 0; i < req.args.size(); ++i) {
      const RunnerArg& a = req.args[i];
      if (!a.isTensor || !a.download) continue;
      const auto& b = d.buffers[size_t(d.bufferOfArg[i])];
      std::vector<uint8_t> host(b.bytes());
      st = b.download(host.data(), host.size());
      if (!st.message.empty()) return fault(st, "download");
      if (pass == 0) {
        firstRun[i] = std::move(host);
        continue;
      }
      RunnerOutput& o = *std::find_if(resp.outputs.begin(), resp.outputs.end(),
                                      [&](const RunnerOutput& x) { return x.index == i; });
      const std::vector<uint8_t> mask = sameBytesMask(firstRun[i], host, ir::dtypeBytes(a.dtype));
      o.undefined = int64_t(std::count(mask.begin(), mask.end(), uint8_t(0)));
      if (o.undefined > 0) {
        o.maskFile = "def" + std::to_string(i) + ".bin";
        if (!writeWholeFile(dir + "/" + o.maskFile, mask.data(), mask.size()))
          return fail({"write", "cannot write " + o.maskFile, "download", "cuda-error", 0}, 2);
      }
    }
    if (pass == 0) {
      for (size_t i = 0; i < req.args.size(); ++i) {
        if (!req.args[i].isTensor || !req.args[i].download) continue;
        RunnerOutput o;
        o.index = i;
        o.file = "out" + std::to_string(i) + ".bin";
        if (!writeWholeFile(dir + "/" + o.file, firstRun[i].data(), firstRun[i].size()))
          return fail({"write", "cannot write " + o.file, "download", "cuda-error", 0}, 2);
        resp.outputs.push_back(std::move(o));
      }
    }
  }
  // Timed launches (benchmarks), on the arguments as the last checked run left them.
  std::vector<double> times;
  for (int r = 0; req.repeats > 0 && r < req.warmup + req.repeats; ++r) {
    Status st = launchChecked(*fn, req, d, *e0, *e1, stage);
    if (!st.message.empty()) return fault(st, "timing");
    auto ms = e1->since(*e0);
    if (!ms) return fault(ms.error(), "timing");
    if (r >= req.warmup) times.push_back(double(*ms));
  }
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  resp.launchesMs = times;
  resp.medianMs = sorted.empty() ? 0.0 : sorted[sorted.size() / 2];
  resp.minMs = sorted.empty() ? 0.0 : sorted.front();
  resp.ok = true;
  resp.ran = true;
  return finish(0);
}

}  // namespace tirx::driver
