// The CUDA driver API without linking libcuda: the library is opened with dlopen at run time and
// its entry points kept in a function table, so a machine without a driver reports "no CUDA
// driver" as a Status instead of failing to start. RAII types own the primary context, modules,
// device memory and events. Only the runner child process (`tirx runner`) launches kernels; the
// IDE and the CLI use this header to enumerate devices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/diag/result.h"

namespace tirx::device {

/// Opaque driver handles (CUcontext, CUmodule, CUfunction, CUevent, CUdeviceptr) as plain values.
using CuContext = void*;
using CuModule = void*;
using CuFunction = void*;
using CuEvent = void*;
using CuDevicePtr = unsigned long long;

/// The driver's entry points. Loaded once; `driver()` returns the same table every time.
struct DriverApi {
  int (*cuInit)(unsigned) = nullptr;
  int (*cuDriverGetVersion)(int*) = nullptr;
  int (*cuDeviceGetCount)(int*) = nullptr;
  int (*cuDeviceGet)(int*, int) = nullptr;
  int (*cuDeviceGetName)(char*, int, int) = nullptr;
  int (*cuDeviceGetAttribute)(int*, int, int) = nullptr;
  int (*cuDeviceTotalMem)(size_t*, int) = nullptr;
  int (*cuDevicePrimaryCtxRetain)(CuContext*, int) = nullptr;
  int (*cuDevicePrimaryCtxRelease)(int) = nullptr;
  int (*cuCtxSetCurrent)(CuContext) = nullptr;
  int (*cuCtxSynchronize)() = nullptr;
  int (*cuModuleLoadData)(CuModule*, const void*) = nullptr;
  int (*cuModuleUnload)(CuModule) = nullptr;
  int (*cuModuleGetFunction)(CuFunction*, CuModule, const char*) = nullptr;
  int (*cuFuncGetAttribute)(int*, int, CuFunction) = nullptr;
  int (*cuFuncSetAttribute)(CuFunction, int, int) = nullptr;
  int (*cuMemAlloc)(CuDevicePtr*, size_t) = nullptr;
  int (*cuMemFree)(CuDevicePtr) = nullptr;
  int (*cuMemcpyHtoD)(CuDevicePtr, const void*, size_t) = nullptr;
  int (*cuMemcpyDtoH)(void*, CuDevicePtr, size_t) = nullptr;
  int (*cuMemsetD8)(CuDevicePtr, unsigned char, size_t) = nullptr;
  int (*cuLaunchKernel)(CuFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, void*, void**, void**) = nullptr;
  int (*cuEventCreate)(CuEvent*, unsigned) = nullptr;
  int (*cuEventDestroy)(CuEvent) = nullptr;
  int (*cuEventRecord)(CuEvent, void*) = nullptr;
  int (*cuEventSynchronize)(CuEvent) = nullptr;
  int (*cuEventElapsedTime)(float*, CuEvent, CuEvent) = nullptr;
  int (*cuGetErrorName)(int, const char**) = nullptr;
  int (*cuGetErrorString)(int, const char**) = nullptr;
  /// Optional (drivers of CUDA 12.0+): null when the driver lacks it; encodeTiledTensorMap says so.
  int (*cuTensorMapEncodeTiled)(void*, int, unsigned, void*, const uint64_t*, const uint64_t*,
                                const uint32_t*, const uint32_t*, int, int, int, int) = nullptr;
};

/// dlopen("libcuda.so.1") and resolve the table; Status{"dlopen", "no CUDA driver ..."} when
/// absent. Calls cuInit(0) once; a failing cuInit is a Status too (e.g. no device, stub library).
Result<const DriverApi*> driver();

/// True when libcuda.so.1 can be opened (does not call cuInit).
bool driverLibraryPresent();

/// "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered".
std::string errorText(int code);
/// Status for a failing call, or none (code 0 → ok).
Status cuStatus(const char* api, int code);

struct DeviceInfo {
  int index = 0;
  std::string name;
  int smCount = 0;
  int ccMajor = 0, ccMinor = 0;
  size_t totalMemory = 0;
  int sm() const { return ccMajor * 10 + ccMinor; }
};

/// Every device the driver sees.
Result<std::vector<DeviceInfo>> enumerateDevices();

/// The primary context of a device, retained for the object's lifetime and made current.
class Context {
 public:
  static Result<Context> open(int device);
  Context(Context&& o) noexcept;
  Context& operator=(Context&&) = delete;
  Context(const Context&) = delete;
  ~Context();
  CuContext handle() const { return m_ctx; }
  int device() const { return m_device; }

 private:
  Context() = default;
  CuContext m_ctx = nullptr;
  int m_device = -1;
};

/// A loaded module (cubin image).
class Module {
 public:
  static Result<Module> load(const std::vector<uint8_t>& image);
  Module(Module&& o) noexcept : m_mod(o.m_mod) { o.m_mod = nullptr; }
  Module& operator=(Module&& o) noexcept {
    std::swap(m_mod, o.m_mod);
    return *this;
  }
  Module(const Module&) = delete;
  ~Module();
  Result<CuFunction> function(const std::string& name) const;

 private:
  Module() = default;
  CuModule m_mod = nullptr;
};

/// Device memory.
class DeviceBuffer {
 public:
  static Result<DeviceBuffer> alloc(size_t bytes);
  DeviceBuffer(DeviceBuffer&& o) noexcept : m_ptr(o.m_ptr), m_bytes(o.m_bytes) { o.m_ptr = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(m_ptr, o.m_ptr);
    std::swap(m_bytes, o.m_bytes);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  ~DeviceBuffer();
  CuDevicePtr ptr() const { return m_ptr; }
  size_t bytes() const { return m_bytes; }
  Status upload(const void* src, size_t n) const;
  Status download(void* dst, size_t n) const;
  Status fill(unsigned char byte) const;

 private:
  DeviceBuffer() = default;
  CuDevicePtr m_ptr = 0;
  size_t m_bytes = 0;
};

/// A timing event.
class Event {
 public:
  static Result<Event> create();
  Event(Event&& o) noexcept : m_ev(o.m_ev) { o.m_ev = nullptr; }
  Event(const Event&) = delete;
  ~Event();
  Status record() const;
  Status synchronize() const;
  /// Milliseconds from `start` to this event (both recorded and complete).
  Result<float> since(const Event& start) const;

 private:
  Event() = default;
  CuEvent m_ev = nullptr;
};

/// What cuTensorMapEncodeTiled takes (dimension 0 innermost; spec TC §5.2), the enums as the
/// driver's integer values: CUtensorMapDataType, CUtensorMapSwizzle, CUtensorMapFloatOOBfill;
/// no interleave, no L2 promotion.
struct TiledTensorMapSpec {
  int dataType = 0;
  CuDevicePtr base = 0;
  std::vector<uint64_t> dims;            ///< rank values
  std::vector<uint64_t> strides;         ///< rank − 1 byte strides (dimension 0's is the element)
  std::vector<uint32_t> box;             ///< rank values
  std::vector<uint32_t> elementStrides;  ///< rank values (all 1 for TIRx)
  int swizzle = 0;
  int oobFill = 0;
};

/// The 128-byte CUtensorMap, 64-byte aligned as the driver requires.
struct alignas(64) TensorMapBytes {
  unsigned char bytes[128] = {};
};

/// cuTensorMapEncodeTiled into `out`. Status{"cuTensorMapEncodeTiled", "CUDA_ERROR_...: ..."} when
/// the driver refuses the map, or when it has no such entry point (a driver older than CUDA 12).
Status encodeTiledTensorMap(const TiledTensorMapSpec& spec, TensorMapBytes& out);

/// Launch `f` with a grid, block, dynamic shared memory and the kernel parameter pointers.
Status launch(CuFunction f, const int64_t grid[3], const int64_t block[3], int64_t dynamicSmem,
              std::vector<void*>& params);
/// cuCtxSynchronize as a Status (where asynchronous kernel faults surface).
Status synchronize();

}  // namespace tirx::device
