// Small n-d array values for the harness interpreter: dtype (bool, signed/unsigned integers,
// float16, bfloat16, float32, float64), shape and dense row-major bytes, with the numpy/torch
// subset the check code at the bottom of a doc example uses: constructors (linspace exactly as
// numpy and torch compute it, arange, zeros/ones/full), dtype promotion (numpy's table, torch's
// category rule, numpy 1.24 value-based scalars), broadcasting arithmetic, math, reductions,
// reshape/transpose/roll, astype and bit views, and indexing with ints, slices and tuples. Values
// are computed in double and rounded once to the result dtype. Errors come back as a message, never
// an exception.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/dtype.h"
#include "core/ir/values.h"

namespace tirx::verify {

using ir::DType;

enum class Flavor { Numpy, Torch };

struct Array {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
  Flavor flavor = Flavor::Numpy;
  bool onDevice = false;  ///< a torch tensor with device="cuda" or a tvm.runtime tensor
  int origin = -1;        ///< harness: kernel output this array holds (kept by reshape/.numpy())
  /// A numpy 0-d ndarray (np.array(0.5)), printed by repr as `array(0.5)`; any other 0-d numpy
  /// value (an item, a reduction, np.float32(x), arithmetic on 0-d arrays) is a numpy scalar.
  bool zeroDimArray = false;
  /// Which elements hold a value (ir::HostTensor::defined): empty = all; np.empty/torch.empty_like
  /// start all-undefined, an item assignment defines what it writes, a kernel run returns its
  /// outputs' definedness. Kept by copies and reshapes; ops that reorder elements drop it.
  std::vector<uint8_t> defined;

  int64_t size() const;
  int ndim() const { return static_cast<int>(shape.size()); }
  double get(int64_t i) const;  ///< element i (row-major) as double
  int64_t getInt(int64_t i) const;
  /// Store `v` into element i, rounding (floats, RNE) or truncating/wrapping (ints) to dtype.
  void set(int64_t i, double v);
  void setInt(int64_t i, int64_t v);
  std::vector<double> toDoubles() const;
  ir::HostTensor toHost() const;
  static Array fromHost(const ir::HostTensor& t, Flavor f = Flavor::Numpy);
};

/// The most bytes one harness array may hold (4 GiB, the simulator's own limit,
/// SimOptions::maxMemoryBytes): a constructor, a broadcast or the seeded inputs of a larger one are
/// refused with a diagnostic before anything is allocated (decision LIVE-2 in docs/decisions.md).
inline constexpr int64_t kMaxArrayBytes = int64_t{4} << 30;

/// Empty when an array of `shape` and `t` may be made; else why not ("a float32 array of shape
/// (1099511627776,) needs 4096 GiB, more than the harness's limit of 4 GiB per array", or a
/// negative dimension). Checked before makeArray wherever a shape comes from the script.
std::string arraySizeError(DType t, const std::vector<int64_t>& shape);

Array makeArray(DType t, std::vector<int64_t> shape, Flavor f = Flavor::Numpy);
Array fromDoubles(DType t, std::vector<int64_t> shape, const std::vector<double>& v,
                  Flavor f = Flavor::Numpy);

/// numpy.linspace(start, stop, num, endpoint=True, dtype): float64 `i*step + start`, last = stop,
/// then cast to dtype.
Array numpyLinspace(double start, double stop, int64_t num, DType dtype, bool endpoint = true);
/// torch.linspace(start, end, steps, dtype): computed in dtype with step = (end-start)/(steps-1);
/// the first half counts up from start, the second half down from end.
Array torchLinspace(double start, double end, int64_t steps, DType dtype);
Array arange(double start, double stop, double step, DType dtype, Flavor f);

/// Promotion of two array dtypes (numpy table or torch category rule).
DType promote(DType a, DType b, Flavor f);
/// One operand of a numpy binary operation, for numpy 1.24's value-based promotion: a Python
/// scalar or a 0-d array counts as a scalar and carries its value.
struct PromoOperand {
  DType dtype = DType::Float64;  ///< Python int: int64, float: float64, bool: bool
  bool scalar = false;
  double f = 0;   ///< the value of a float scalar
  int64_t i = 0;  ///< the value of an integer scalar (bits of a uint64)
};
/// numpy 1.24's result_type of two operands (legacy value-based casting, no NEP 50): scalars of
/// a category no higher than the arrays' take their minimal type (int8 + 1000 -> int16,
/// float16 + 1000 -> float32, uint8 - 1 -> int16); otherwise every dtype promotes in full.
DType numpyResultType(const PromoOperand& a, const PromoOperand& b);
/// numpy.min_scalar_type of a scalar; `smallUnsigned` when a non-negative integer also fits the
/// signed type of the same width (it then promotes as that signed type against signed/float).
DType minScalarType(const PromoOperand& s, bool* smallUnsigned);

/// Whether an in-place operation may store a `from` result into a `to` array: numpy's 'same_kind'
/// rule (bool < unsigned < signed < float; int8 += 1.5 raises UFuncTypeError), torch's canCast
/// (no float into an integer tensor, nothing but bool into a bool tensor).
bool canCastInPlace(DType from, DType to, Flavor f);
/// Promotion of an array dtype with a weak Python scalar (NEP 50 / torch): `isFloat` scalar.
DType promoteWeak(DType a, bool scalarIsFloat, bool scalarIsBool, Flavor f);

enum class BinaryOp {
  Add,
  Sub,
  Mul,
  TrueDiv,
  FloorDiv,
  Mod,
  Pow,
  Maximum,
  Minimum,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  Xor,
  Shl,
  Shr
};
enum class UnaryOp {
  Neg,
  Abs,
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Sin,
  Cos,
  Tanh,
  Sigmoid,
  Silu,
  Relu,
  Gelu,
  Floor,
  Ceil,
  Trunc,
  Round,
  Invert,
  Not,
  Rsqrt,
  Erf
};

/// Broadcasting result shape; nullopt when the shapes do not broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a,
                                                    const std::vector<int64_t>& b);
/// Element-wise binary op with broadcasting into `resultType` (comparisons give bool).
std::optional<Array> binary(BinaryOp op, const Array& a, const Array& b, DType resultType,
                            std::string* err);
Array unary(UnaryOp op, const Array& a, std::string* err = nullptr);
Array astype(const Array& a, DType t);
std::optional<Array> reshape(const Array& a, std::vector<int64_t> shape, std::string* err);
Array transpose(const Array& a);
/// numpy's transpose(a, axes): result dimension d is `a`'s dimension axes[d]; negative axes count
/// from the end. nullopt (with numpy's message in `err`) unless `axes` is a permutation of a's.
std::optional<Array> transpose(const Array& a, const std::vector<int64_t>& axes, std::string* err);
std::optional<Array> roll(const Array& a, int64_t shift, std::optional<int> axis, std::string* err);
/// Bit view as another dtype (last dimension rescaled), as ndarray.view / Tensor.view(dtype).
std::optional<Array> viewAs(const Array& a, DType t, std::string* err);
std::optional<Array> where(const Array& c, const Array& a, const Array& b, std::string* err);

/// numpy.matmul / torch.matmul (`a @ b`): 1-D operands promoted to a row (a) or a column (b) and
/// the added dimension dropped again, 2-D matrices, and stacks whose batch dimensions are equal or
/// absent on one side. Each element is one dot product, accumulated in double (int64 for
/// integers) and rounded once to `rt`; bool operands are refused. nullopt with numpy's message.
std::optional<Array> matmul(const Array& a, const Array& b, DType rt, std::string* err);

enum class Reduce { Sum, Max, Min, Mean, Prod, Any, All };
/// Reduction over every element (axis nullopt) or one axis.
std::optional<Array> reduce(Reduce r, const Array& a, std::optional<int> axis, std::string* err);

/// One index item of `a[...]`: an integer, a slice (start/stop/step may be absent) or a full `...`.
struct IndexItem {
  enum class Kind { Int, Slice, Ellipsis, NewAxis } kind = Kind::Int;
  int64_t value = 0;
  std::optional<int64_t> start, stop, step;
  /// An integer index item.
  static IndexItem at(int64_t v) {
    IndexItem it;
    it.value = v;
    return it;
  }
};
std::optional<Array> getItem(const Array& a, const std::vector<IndexItem>& idx, std::string* err);
bool setItem(Array& a, const std::vector<IndexItem>& idx, const Array& value, std::string* err);

/// "float32[2, 32, 4]"
std::string describe(const Array& a);
std::string shapeText(const std::vector<int64_t>& s);

}  // namespace tirx::verify
