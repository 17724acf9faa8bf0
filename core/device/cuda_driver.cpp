// libcuda through dlopen: the function table, error texts, device enumeration and the RAII
// handle types of cuda_driver.h. Nothing is linked; the few constants needed are spelled out
// (values from cuda.h, stable across driver versions).
#include "core/device/cuda_driver.h"

#include <dlfcn.h>

#include <mutex>

namespace tirx::device {

namespace {

constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr unsigned CU_EVENT_DEFAULT = 0;

struct Loaded {
  DriverApi api;
  Status error;
  bool ok = false;
};

template <class F>
bool resolve(void* lib, F& fn, const char* name, const char* fallback = nullptr) {
  void* p = ::dlsym(lib, name);
  if (!p && fallback) p = ::dlsym(lib, fallback);
  fn = reinterpret_cast<F>(p);
  return p != nullptr;
}

Loaded loadDriver() {
  Loaded l;
  void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    l.error = Status{"dlopen", "no CUDA driver (libcuda.so.1 not found)", 0};
    return l;
  }
  DriverApi& a = l.api;
  bool ok = true;
  ok &= resolve(lib, a.cuInit, "cuInit");
  ok &= resolve(lib, a.cuDriverGetVersion, "cuDriverGetVersion");
  ok &= resolve(lib, a.cuDeviceGetCount, "cuDeviceGetCount");
  ok &= resolve(lib, a.cuDeviceGet, "cuDeviceGet");
  ok &= resolve(lib, a.cuDeviceGetName, "cuDeviceGetName");
  ok &= resolve(lib, a.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  ok &= resolve(lib, a.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  ok &= resolve(lib, a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  ok &= resolve(lib, a.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
                "cuDevicePrimaryCtxRelease");
  ok &= resolve(lib, a.cuCtxSetCurrent, "cuCtxSetCurrent");
  ok &= resolve(lib, a.cuCtxSynchronize, "cuCtxSynchronize");
  ok &= resolve(lib, a.cuModuleLoadData, "cuModuleLoadData");
  ok &= resolve(lib, a.cuModuleUnload, "cuModuleUnload");
  ok &= resolve(lib, a.cuModuleGetFunction, "cuModuleGetFunction");
  ok &= resolve(lib, a.cuFuncGetAttribute, "cuFuncGetAttribute");
  ok &= resolve(lib, a.cuFuncSetAttribute, "cuFuncSetAttribute");
  ok &= resolve(lib, a.cuMemAlloc, "cuMemAlloc_v2");
  ok &= resolve(lib, a.cuMemFree, "cuMemFree_v2");
  ok &= resolve(lib, a.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  ok &= resolve(lib, a.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  ok &= resolve(lib, a.cuMemsetD8, "cuMemsetD8_v2");
  ok &= resolve(lib, a.cuLaunchKernel, "cuLaunchKernel");
  ok &= resolve(lib, a.cuEventCreate, "cuEventCreate");
  ok &= resolve(lib, a.cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy");
  ok &= resolve(lib, a.cuEventRecord, "cuEventRecord");
  ok &= resolve(lib, a.cuEventSynchronize, "cuEventSynchronize");
  ok &= resolve(lib, a.cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
  ok &= resolve(lib, a.cuGetErrorName, "cuGetErrorName");
  ok &= resolve(lib, a.cuGetErrorString, "cuGetErrorString");
  resolve(lib, a.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");  // optional (CUDA 12.0+)
  if (!ok) {
    l.error = Status{"dlsym", "the CUDA driver lacks an entry point this program needs", 0};
    return l;
  }
  const int r = a.cuInit(0);
  if (r != 0) {
    l.error = Status{"cuInit", errorText(r), r};
    // errorText uses the table, which is complete at this point.
    return l;
  }
  l.ok = true;
  return l;
}

const Loaded& loaded() {
  static Loaded l = loadDriver();
  return l;
}

const DriverApi& api() {
  return loaded().api;
}

}  // namespace

Result<const DriverApi*> driver() {
  const Loaded& l = loaded();
  if (!l.ok) return l.error;
  return &l.api;
}

bool driverLibraryPresent() {
  void* lib = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!lib) return false;
  ::dlclose(lib);
  return true;
}

std::string errorText(int code) {
  const DriverApi& a = loaded().api;
  const char* name = nullptr;
  const char* text = nullptr;
  if (a.cuGetErrorName) a.cuGetErrorName(code, &name);
  if (a.cuGetErrorString) a.cuGetErrorString(code, &text);
  std::string s = name ? name : "CUDA error " + std::to_string(code);
  if (text) s += std::string(": ") + text;
  return s;
}

Status cuStatus(const char* api, int code) {
  if (code == 0) return {};
  return Status{api, errorText(code), code};
}

#define TIRX_CU(call, name)                   \
  do {                                        \
    const int rc_ = (call);                   \
    if (rc_ != 0) return cuStatus(name, rc_); \
  } while (0)

Result<std::vector<DeviceInfo>> enumerateDevices() {
  auto d = driver();
  if (!d) return d.error();
  const DriverApi& a = **d;
  int n = 0;
  TIRX_CU(a.cuDeviceGetCount(&n), "cuDeviceGetCount");
  std::vector<DeviceInfo> out;
  for (int i = 0; i < n; ++i) {
    int dev = 0;
    TIRX_CU(a.cuDeviceGet(&dev, i), "cuDeviceGet");
    DeviceInfo info;
    info.index = i;
    char name[256] = {};
    TIRX_CU(a.cuDeviceGetName(name, sizeof name - 1, dev), "cuDeviceGetName");
    info.name = name;
    TIRX_CU(a.cuDeviceGetAttribute(&info.smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
            "cuDeviceGetAttribute");
    TIRX_CU(
        a.cuDeviceGetAttribute(&info.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
        "cuDeviceGetAttribute");
    TIRX_CU(
        a.cuDeviceGetAttribute(&info.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
        "cuDeviceGetAttribute");
    TIRX_CU(a.cuDeviceTotalMem(&info.totalMemory, dev), "cuDeviceTotalMem");
    out.push_back(std::move(info));
  }
  return out;
}

Result<Context> Context::open(int device) {
  auto d = driver();
  if (!d) return d.error();
  const DriverApi& a = **d;
  int n = 0;
  TIRX_CU(a.cuDeviceGetCount(&n), "cuDeviceGetCount");
  if (device < 0 || device >= n)
    return Status{"cuDeviceGet",
                  "no CUDA device " + std::to_string(device) + " (found " + std::to_string(n) + ")",
                  101};
  int dev = 0;
  TIRX_CU(a.cuDeviceGet(&dev, device), "cuDeviceGet");
  Context c;
  TIRX_CU(a.cuDevicePrimaryCtxRetain(&c.m_ctx, dev), "cuDevicePrimaryCtxRetain");
  c.m_device = dev;
  TIRX_CU(a.cuCtxSetCurrent(c.m_ctx), "cuCtxSetCurrent");
  return c;
}

Context::Context(Context&& o) noexcept : m_ctx(o.m_ctx), m_device(o.m_device) {
  o.m_ctx = nullptr;
  o.m_device = -1;
}

Context::~Context() {
  if (m_ctx) api().cuDevicePrimaryCtxRelease(m_device);
}

Result<Module> Module::load(const std::vector<uint8_t>& image) {
  Module m;
  TIRX_CU(api().cuModuleLoadData(&m.m_mod, image.data()), "cuModuleLoadData");
  return m;
}

Module::~Module() {
  if (m_mod) api().cuModuleUnload(m_mod);
}

Result<CuFunction> Module::function(const std::string& name) const {
  CuFunction f = nullptr;
  TIRX_CU(api().cuModuleGetFunction(&f, m_mod, name.c_str()), "cuModuleGetFunction");
  return f;
}

Result<DeviceBuffer> DeviceBuffer::alloc(size_t bytes) {
  DeviceBuffer b;
  b.m_bytes = bytes;
  TIRX_CU(api().cuMemAlloc(&b.m_ptr, bytes ? bytes : 1), "cuMemAlloc");
  return b;
}

DeviceBuffer::~DeviceBuffer() {
  if (m_ptr) api().cuMemFree(m_ptr);
}

Status DeviceBuffer::upload(const void* src, size_t n) const {
  return cuStatus("cuMemcpyHtoD", n ? api().cuMemcpyHtoD(m_ptr, src, n) : 0);
}

Status DeviceBuffer::download(void* dst, size_t n) const {
  return cuStatus("cuMemcpyDtoH", n ? api().cuMemcpyDtoH(dst, m_ptr, n) : 0);
}

Status DeviceBuffer::fill(unsigned char byte) const {
  return cuStatus("cuMemsetD8", m_bytes ? api().cuMemsetD8(m_ptr, byte, m_bytes) : 0);
}

Result<Event> Event::create() {
  Event e;
  TIRX_CU(api().cuEventCreate(&e.m_ev, CU_EVENT_DEFAULT), "cuEventCreate");
  return e;
}

Event::~Event() {
  if (m_ev) api().cuEventDestroy(m_ev);
}

Status Event::record() const {
  return cuStatus("cuEventRecord", api().cuEventRecord(m_ev, nullptr));
}

Status Event::synchronize() const {
  return cuStatus("cuEventSynchronize", api().cuEventSynchronize(m_ev));
}

Result<float> Event::since(const Event& start) const {
  float ms = 0;
  TIRX_CU(api().cuEventElapsedTime(&ms, start.m_ev, m_ev), "cuEventElapsedTime");
  return ms;
}

Status launch(CuFunction f, const int64_t grid[3], const int64_t block[3], int64_t dynamicSmem,
              std::vector<void*>& params) {
  if (dynamicSmem > 48 * 1024) {
    const int rc = api().cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                            int(dynamicSmem));
    if (rc) return cuStatus("cuFuncSetAttribute", rc);
  }
  return cuStatus("cuLaunchKernel",
                  api().cuLaunchKernel(f, unsigned(grid[0]), unsigned(grid[1]), unsigned(grid[2]),
                                       unsigned(block[0]), unsigned(block[1]), unsigned(block[2]),
                                       unsigned(dynamicSmem), nullptr, params.data(), nullptr));
}

Status encodeTiledTensorMap(const TiledTensorMapSpec& spec, TensorMapBytes& out) {
  if (!api().cuTensorMapEncodeTiled)
    return Status{"cuTensorMapEncodeTiled",
                  "the CUDA driver has no cuTensorMapEncodeTiled (it needs CUDA 12.0 or newer)", 0};
  const size_t rank = spec.dims.size();
  if (rank < 1 || rank > 5 || spec.box.size() != rank || spec.elementStrides.size() != rank ||
      spec.strides.size() + 1 != rank)
    return Status{"cuTensorMapEncodeTiled", "inconsistent tensor map ranks", 0};
  return cuStatus("cuTensorMapEncodeTiled",
                  api().cuTensorMapEncodeTiled(
                      out.bytes, spec.dataType, unsigned(rank), reinterpret_cast<void*>(spec.base),
                      spec.dims.data(), spec.strides.data(), spec.box.data(),
                      spec.elementStrides.data(), 0, spec.swizzle, 0, spec.oobFill));
}

Status synchronize() {
  return cuStatus("cuCtxSynchronize", api().cuCtxSynchronize());
}

}  // namespace tirx::device
