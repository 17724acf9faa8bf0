// The interpreter class behind runHarness(), shared by harness.cpp (statements, expressions,
// operators) and harness_lib.cpp (numpy / torch / tvm functions and array methods).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/verify/harness.h"

namespace tirx::verify {

using Kwargs = std::vector<std::pair<std::string, Py>>;
struct LibCall;

/// Origin of an array produced by a kernel call: which run and argument, and its owners.
struct Origin {
  std::string kernel;
  int arg = -1;
  std::vector<sim::ElementOwner> owners;
  std::vector<std::string> bufferNames;
};

class Interp {
 public:
  explicit Interp(HarnessContext& c) : ctx(c) {}
  HarnessSummary run();

  // values
  static Py none();
  static Py boolean(bool v);
  static Py integer(int64_t v);
  static Py real(double v);
  static Py str(std::string v);
  static Py tuple(std::vector<Py> v);
  static Py list(std::vector<Py> v);
  static Py array(Array a);
  static Py opaque();
  static Py module(std::string name);
  static Py builtin(std::string name);
  static Py dtypeValue(DType t, Flavor f);

  /// Reports a harness error (the first one stops the interpretation) and returns null.
  Py error(const std::string& code, SourceSpan span, std::string message);
  bool failed() const { return m_failed; }

  Py eval(const ast::Expr& e);
  // The larger cases of eval (harness.cpp).
  Py evalCall(const ast::Expr& e);
  Py evalUnary(const ast::Expr& e);
  Py evalCompare(const ast::Expr& e);
  Py binop(ast::Op op, const Py& a, const Py& b, SourceSpan span);
  Py matmulOp(const Py& a, const Py& b, SourceSpan span);
  // Python scalars (harness_numbers.cpp)
  Py scalarBinop(ast::Op op, const Py& a, const Py& b, SourceSpan span);
  Py numberBuiltin(const std::string& name, std::vector<Py>& args, Kwargs& kw, SourceSpan span);
  /// An int64 result, or E0803 when the exact Python result leaves int64 (nullopt).
  Py checkedInt(std::optional<int64_t> v, SourceSpan span);
  Py floatToInt(double x, SourceSpan span, const char* what);
  std::optional<bool> truth(const Py& v, SourceSpan span);
  /// Any array-like (Array, number, nested list) as an Array; null + error when impossible.
  std::optional<Array> toArray(const Py& v, SourceSpan span, std::optional<DType> dtype = {},
                               Flavor f = Flavor::Numpy);
  std::optional<int64_t> toInt(const Py& v, SourceSpan span);
  std::optional<double> toReal(const Py& v, SourceSpan span);
  std::optional<std::vector<int64_t>> toShape(const std::vector<Py>& args, SourceSpan span);
  std::string typeName(const Py& v) const;

  // printing and formatting (harness_format.cpp)
  /// str(v): Python's text for scalars, strings and containers (their items as repr()); arrays
  /// as numpy 1.24 or torch print them (array_print.h).
  std::string strOf(const Py& v) const;
  /// repr(v): as str(v), but a str quoted and escaped (pyStrRepr) and an array as its repr().
  std::string reprOf(const Py& v) const;
  /// `str % x` (printf-style: refused, E0803) and `str * int` / `int * str`; nullopt for any
  /// other operands.
  std::optional<Py> strOperator(ast::Op op, const Py& a, const Py& b, SourceSpan span);
  /// An f-string (ExprKind::FString): its parts joined, each field converted and formatted.
  Py evalFString(const ast::Expr& e);
  /// format(v, spec) as Python (py_format.h); null after an error at `span` (E0804 for Python's
  /// ValueError/TypeError/OverflowError, E0806 for IndexError/KeyError, E0803 past the limits).
  std::optional<std::string> formatValue(const Py& v, const std::string& spec, SourceSpan span);
  /// The builtins format(value[, spec]), repr(value), ascii(value).
  Py formatBuiltin(const std::string& name, const std::vector<Py>& args, SourceSpan span);
  /// obj[key] for a key value (str.format's `{0[1]}`): lists, tuples, str, dicts, arrays.
  Py getItemByKey(const Py& obj, const Py& key, SourceSpan span);
  /// str.format(*args, **kwargs) on the template `self`.
  Py strFormat(const Py& self, const std::vector<Py>& args, const Kwargs& kw, SourceSpan span);

  // library (harness_lib.cpp)
  Py attribute(const Py& obj, const std::string& name, SourceSpan span);
  Py call(const Py& callee, std::vector<Py>& args, Kwargs& kw, const ast::Expr& callExpr);
  /// numpy / torch / tvm / builtins functions by qualified name: tries the groups below in turn;
  /// E0802 when none knows the name.
  Py callLibrary(const std::string& name, std::vector<Py>& args, Kwargs& kw, const ast::Expr& e);
  // The groups (harness_funcs.cpp; libNn: harness_nn.cpp): nullopt when the name is not theirs,
  // else the result (null after an error).
  std::optional<Py> libCompare(LibCall& lc);
  std::optional<Py> libTvm(LibCall& lc);
  std::optional<Py> libConstruct(LibCall& lc);
  std::optional<Py> libRandom(LibCall& lc);
  std::optional<Py> libMath(LibCall& lc);
  std::optional<Py> libOperators(LibCall& lc);
  std::optional<Py> libReduce(LibCall& lc);
  std::optional<Py> libShape(LibCall& lc);
  std::optional<Py> libNn(LibCall& lc);
  Py libSoftmax(LibCall& lc);    ///< torch.softmax, F.softmax, Tensor.softmax (harness_nn.cpp)
  Py libAttention(LibCall& lc);  ///< F.scaled_dot_product_attention (harness_nn.cpp)
  std::optional<Py> libBuiltins(LibCall& lc);
  // Their shared argument handling: the result array in the call's flavour and device; argument
  // `i` (or keyword) as an array (E0805 when missing); an axis keyword; only these keywords
  // (E0803).
  Py libFinish(const LibCall& lc, Array a);
  std::optional<Array> libArr(const LibCall& lc, size_t i, const std::string& kwname = "");
  std::optional<std::optional<int>> libAxisArg(const LibCall& lc, const char* k);
  bool libOnlyKeywords(const LibCall& lc, std::initializer_list<const char*> allowed);
  // The array methods of callMethod by kind (harness_funcs.cpp); nullopt for other names.
  std::optional<Py> arrayConversionMethod(const Py& self, const std::string& name,
                                          std::vector<Py>& args, Kwargs& kw, SourceSpan sp);
  std::optional<Py> arrayQueryMethod(const Py& self, const std::string& name,
                                     const std::vector<Py>& args, SourceSpan sp);
  std::optional<Py> arrayInPlaceMethod(const Py& self, const std::string& name,
                                       const std::vector<Py>& args, SourceSpan sp);
  Py callMethod(const Py& self, const std::string& name, std::vector<Py>& args, Kwargs& kw,
                const ast::Expr& e);
  Py callKernel(const Py& compiled, std::vector<Py>& args, const ast::Expr& e);
  Py check(const std::string& kind, std::vector<Py>& args, Kwargs& kw, const ast::Expr& e);
  void addCheck(const std::string& kind, const Comparison& c, const Array& actual,
                const Array& expected, SourceSpan span);

  HarnessContext& ctx;
  std::map<std::string, Py> globals;
  std::vector<std::map<std::string, Py>> frames;  ///< locals of harness-level def calls
  std::vector<Origin> origins;
  std::string lastKernel;
  std::string lastDevice;
  int kernelCalls = 0;
  int64_t steps = 0;
  uint64_t rng = 0x853c49e6748fea9bULL;

 private:
  enum class Flow { Normal, Break, Continue, Return, Error };
  Flow exec(const ast::Stmt& s);
  Flow execFor(const ast::Stmt& s);     ///< a `for` statement (harness_exec.cpp)
  Flow execAssert(const ast::Stmt& s);  ///< an `assert` statement: a check
  Flow execBlock(const ast::Block& b);
  /// One harness step: E0807 past the step limit or once the verify's budget is spent.
  bool chargeStep(SourceSpan span);
  /// `range(...)` of a for loop as (ok, {start, stop, step}); nullopt when `e` is not a call of
  /// the builtin range.
  std::optional<std::pair<bool, std::array<int64_t, 3>>> lazyRange(const ast::Expr& e);
  Flow forRange(const ast::Stmt& s, const std::array<int64_t, 3>& range);
  bool assign(const ast::Expr& target, const Py& value);
  /// The index of `target` (a subscript of `list`) as Python resolves it, negative from the end;
  /// E0806 with `outOfRange` outside the list.
  std::optional<int64_t> listIndex(const PyValue& list, const ast::Expr& target,
                                   const std::string& outOfRange);
  /// `target op= value` with Python's evaluation order and numpy's in-place semantics.
  bool augAssign(const ast::Stmt& s);
  /// Checks an in-place array result against its target (same_kind cast, target shape).
  /// E0803 when `target` is a view the harness holds as a copy (true: refused).
  bool refuseViewWrite(const Py& target, SourceSpan span);
  bool inPlaceResult(ast::Op op, const Array& target, const Py& result, SourceSpan span);
  Py lookup(const std::string& name, SourceSpan span);
  void bindImport(const ast::Stmt& s);
  Py callFunction(const Py& fn, std::vector<Py>& args, Kwargs& kw, SourceSpan span);
  Py subscript(const Py& obj, const ast::Expr& index, SourceSpan span);
  bool indexItems(const ast::Expr& index, std::vector<IndexItem>& items);
  Py m_return;
  bool m_failed = false;
  int m_statementsRun = 0;
};

}  // namespace tirx::verify
