// DType tables.
#include "core/ir/dtype.h"

#include <array>

namespace tirx::ir {

namespace {
struct Info {
  DType t;
  std::string_view name, alias, cuda;
  int bits;
};
constexpr std::array<Info, 14> kInfo{{
    {DType::Bool, "bool", "bool", "bool", 8},
    {DType::Int8, "int8", "i8", "int8_t", 8},
    {DType::Int16, "int16", "i16", "int16_t", 16},
    {DType::Int32, "int32", "i32", "int", 32},
    {DType::Int64, "int64", "i64", "long long", 64},
    {DType::UInt8, "uint8", "u8", "uint8_t", 8},
    {DType::UInt16, "uint16", "u16", "uint16_t", 16},
    {DType::UInt32, "uint32", "u32", "unsigned", 32},
    {DType::UInt64, "uint64", "u64", "unsigned long long", 64},
    {DType::Float16, "float16", "f16", "__half", 16},
    {DType::BFloat16, "bfloat16", "bf16", "__nv_bfloat16", 16},
    {DType::Float32, "float32", "f32", "float", 32},
    {DType::Float64, "float64", "f64", "double", 64},
    {DType::Void, "void", "void", "void", 0},
}};
const Info& info(DType t) {
  return kInfo[static_cast<int>(t)];
}
}  // namespace

std::string_view dtypeName(DType t) {
  return info(t).name;
}
std::optional<DType> parseDType(std::string_view name) {
  for (const auto& i : kInfo)
    if (i.name == name || i.alias == name) return i.t;
  return std::nullopt;
}
int dtypeBits(DType t) {
  return info(t).bits;
}
int dtypeBytes(DType t) {
  return info(t).bits / 8;
}
bool isFloat(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}
bool isInt(DType t) {
  return !isFloat(t) && t != DType::Bool && t != DType::Void;
}
bool isSigned(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64 ||
         isFloat(t);
}
std::string_view cudaTypeName(DType t) {
  return info(t).cuda;
}

}  // namespace tirx::ir
