// Element data types of the Kernel IR and their names, widths and CUDA spellings.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tirx::ir {

enum class DType {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Void,
};

/// "float32", "uint16", "bfloat16", "bool", ...
std::string_view dtypeName(DType t);
/// Accepts the script spellings: "float32", "f32" (T.f32 alias), "int32", "i32", "uint16", "u16",
/// "float16", "f16", "bfloat16", "bf16", "bool", "float64", ...
std::optional<DType> parseDType(std::string_view name);
int dtypeBits(DType t);  ///< storage width (bool: 8)
int dtypeBytes(DType t);
bool isFloat(DType t);
bool isInt(DType t);  ///< signed or unsigned integer, not bool
bool isSigned(DType t);
/// CUDA C++ type: float, half (__half), __nv_bfloat16, int, unsigned, uint16_t, ...
std::string_view cudaTypeName(DType t);

}  // namespace tirx::ir
