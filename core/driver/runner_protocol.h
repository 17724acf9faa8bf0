// The runner protocol (docs/runner.md) as values: the request the parent writes, the response the
// child writes, and their JSON forms. Both parsers are defensive: any text — truncated, not JSON,
// members of the wrong type or out of range — gives a Status that says what is wrong, never an
// exception. Also the data path both sides share: the bytes of a tensor argument for one run
// (undefined elements filled with that run's poison byte) and the definedness test of two runs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/result.h"
#include "core/ir/dtype.h"

namespace tirx::driver {

/// How many elements of a tensor argument hold no value the script gave.
enum class Undefined { None, All, Some };

struct RunnerArg {
  bool isTensor = true;
  // tensor
  std::string file;      ///< raw bytes; empty when every element is undefined
  std::string maskFile;  ///< Undefined::Some: one byte per element, 0 = undefined
  ir::DType dtype = ir::DType::Float32;
  std::vector<int64_t> shape;
  uint64_t bytes = 0;
  Undefined undefined = Undefined::None;
  bool download = false;  ///< the kernel writes it: send it back
  // scalar
  uint64_t bits = 0;
};

/// A TMA tensor map the runner encodes with cuTensorMapEncodeTiled (docs/runner.md "Tensor maps";
/// decision TC-T1): over tensor argument `arg` from byte `baseBytes`, dimension 0 innermost. The
/// kernel takes the maps by value after its own parameters, in this order.
struct RunnerTensorMap {
  size_t arg = 0;                        ///< the tensor argument (index into args)
  std::string name;                      ///< its parameter name, for messages
  ir::DType dtype = ir::DType::Float32;  ///< the map's data type (tensorMapDataType)
  uint64_t baseBytes = 0;                ///< the view's start inside the argument
  std::vector<uint64_t> dims;            ///< 1..5 values, each in [1, 2^32]
  std::vector<uint64_t> strides;         ///< rank − 1 byte strides, multiples of 16, < 2^40
  std::vector<uint32_t> box;             ///< rank values in [1, 256]
  int swizzle = 0;                       ///< CUtensorMapSwizzle 0..3
  bool oobNan = false;                   ///< CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
};

/// CUtensorMapDataType of a dtype (decision TC-T2): float16 6, bfloat16 9, float32 7, float64 8,
/// int32 3, int64 5, uint32 2, uint64 4, 8/16-bit integers UINT8 0 / UINT16 1; −1 for bool/void.
int tensorMapDataType(ir::DType t);

struct RunnerRequest {
  int version = 3;  ///< 3 adds `mode` and the simulator's members; 2 is still read
  std::string kernel;
  /// "cuda" (the cubin/PTX on a GPU) or "sim": the simulator runs `script` (remote `…/sim` runs).
  std::string mode = "cuda";
  std::string script, scriptFile;  ///< mode "sim": the script's text and file name
  int sm = 90;                     ///< mode "sim": the target sema checks for
  int device = 0;
  std::string cubin = "kernel.cubin", ptx = "kernel.ptx";
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  int64_t dynamicSmem = 0;  ///< bytes of dynamic shared memory at launch
  int warmup = 0, repeats = 0;
  /// 2 when some tensor argument has undefined elements: the kernel runs twice, with the poison
  /// bytes kPoisonByte and kSecondPoisonByte, and an output element is defined when both runs
  /// leave the same bytes in it.
  int passes = 1;
  std::vector<RunnerArg> args;
  std::vector<RunnerTensorMap> tensorMaps;  ///< optional member "tensorMaps"
};

struct RunnerOutput {
  size_t index = 0;       ///< the argument
  std::string file;       ///< its bytes after the first run
  std::string maskFile;   ///< present when some element is undefined after the run
  int64_t undefined = 0;  ///< elements whose bytes differ between the two runs
};

struct RunnerError {
  std::string api, message, stage, kind;
  int code = 0;
};

/// A fault the simulator found (mode "sim"), with its diagnostic at script lines.
struct RunnerFault {
  std::string kind;
  Diagnostic diag;
};

struct RunnerResponse {
  bool ok = false, ran = false, environment = false;
  std::string kernel, device, cc, loadedFrom, fault;
  RunnerError error;  ///< meaningful when !ok
  double firstLaunchMs = 0, medianMs = 0, minMs = 0;
  std::vector<double> launchesMs;
  std::vector<RunnerOutput> outputs;
  std::vector<RunnerFault> faults;  ///< mode "sim" (ok may be true and ran false: a fatal fault)
};

/// Largest request or response text either side reads (a response is a few KiB).
inline constexpr size_t kMaxProtocolText = 16u << 20;

std::string requestToJson(const RunnerRequest& r);
/// Status{"request", why} for anything that is not a well-formed request.
Result<RunnerRequest> parseRequest(const std::string& text);

std::string responseToJson(const RunnerResponse& r);
/// Status{"response", why} for anything that is not a well-formed response.
Result<RunnerResponse> parseResponse(const std::string& text);

/// The bytes of tensor argument `a` for run `pass` (0 or 1): the argument file, or poison when
/// every element is undefined, with undefined elements (mask file) filled with that run's poison
/// byte. `dir` holds the files. Status{"request", …} when a file is missing or of the wrong size.
Result<std::vector<uint8_t>> argumentBytes(const RunnerArg& a, const std::string& dir, int pass);
/// The poison byte of run `pass`.
uint8_t poisonByte(int pass);

/// Per element of `elemBytes` bytes: 1 where `first` and `second` hold the same bytes.
std::vector<uint8_t> sameBytesMask(const std::vector<uint8_t>& first,
                                   const std::vector<uint8_t>& second, int elemBytes);

/// The child side of a mode "sim" request (core/driver/runner_sim.cpp): check the script, run the
/// kernel on the simulator, write the outputs and RESPONSE. Exit code as runRunner's.
int runSimRequest(const RunnerRequest& req, const std::string& dir,
                  const std::string& responsePath);

/// Whole-file helpers that never throw; reads are capped at `limit` bytes (false beyond it).
bool readWholeFile(const std::string& path, std::string& out, size_t limit = SIZE_MAX);
bool writeWholeFile(const std::string& path, const void* data, size_t n);

}  // namespace tirx::driver
