// Private to core/sema: the Analyzer that walks one module and builds the ir::Program. Its
// functions are grouped by part, each in its own file: sema.cpp (module scope, imports, names),
// sema_expr.cpp (scalar expressions), sema_kernel.cpp (kernels, launch, statements),
// sema_tensor.cpp (allocations, views, regions, element access), sema_tile.cpp /
// sema_tile_check.cpp (apply and ewise legality), sema_tma.cpp, sema_wgmma.cpp,
// sema_collective.cpp / sema_warp.cpp, sema_cp_async.cpp, sema_async.cpp, sema_function.cpp and
// the smaller ones named beside their groups. The state they share is AnalyzerState
// (analyzer_state.h); the values they pass are in sema_values.h. Diagnostic codes: sema_codes.h.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/sema/analyzer_state.h"

namespace tirx::sema {

/// The checker of one module: each group of member functions below is one part of sema, in the
/// file named beside it; what they share is AnalyzerState.
class Analyzer : public AnalyzerState {
 public:
  Analyzer(const ast::Module& module, const SemaOptions& options);
  SemaResult run();
  /// Record the fragment facts of the tensor-core ops into `out` (null: do not).
  void collectFragments(std::vector<FragmentFact>* out) { m_fragments = out; }
  void collectDescriptors(std::vector<DescriptorFact>* out) { m_descriptors = out; }

  // ---- diagnostics (sema.cpp) ----
  Diagnostic& error(const char* code, SourceSpan span, std::string message);
  Diagnostic& warning(const char* code, SourceSpan span, std::string message);
  void note(Diagnostic& d, SourceSpan span, std::string message);

  // ---- names (sema.cpp) ----
  const Binding* lookup(const std::string& name);
  void useSymbol(int symbol, SourceSpan span);
  int addSymbol(ir::Symbol s);
  /// Record the `T.ptx["…"]` string literal `str` for the studio (ir::Program::opcodeSites).
  void addOpcodeSite(const ast::Expr& str, bool valid, std::optional<PtxInstruction> instr,
                     std::string info);
  /// "T.cuda.tile.apply" for a chain of attributes on a name bound to the T namespace;
  /// empty when `e` is not such a chain.
  std::string builtinPath(const ast::Expr& e);
  std::vector<std::string> namesInScope() const;
  void unknownName(const ast::Expr& nameExpr);
  void unknownBuiltin(const ast::Expr& e, const std::string& path);
  /// A static integer (literals, module constants, folded with Python semantics). With `report`
  /// false only fold errors (overflow, division by zero) are reported: callers that word their
  /// own "must be static" message skip it when the diagnostic count grew.
  std::optional<int64_t> staticInt(const ast::Expr& e, bool report = true);
  /// The truth of a condition on static integers (`POLY == 0`, `0 < N <= 64 and not SMALL`, a bare
  /// integer), folded with Python's semantics; nullopt when any part is not static.
  std::optional<bool> staticCondition(const ast::Expr& e);
  /// A module float constant's value (sema_constants.cpp): float literals, int and float
  /// constants under + - * / // % ** and math.sqrt/exp/log/log2/pi/e, when the result is a
  /// finite float; nullopt for integer-only expressions and anything else.
  std::optional<double> staticFloat(const ast::Expr& value);
  bool staticShape(const ast::Expr& sh, const char* code, const std::string& noun,
                   const std::string& article, std::vector<int64_t>& out);
  std::optional<ir::DType> dtypeArg(const ast::Expr& e, bool report = true);
  std::optional<TileLayout> layoutArg(const ast::Expr& e);
  LayoutEnv layoutEnv() const;
  std::string text(const SourceSpan& s) const;

  // ---- call signatures (sema.cpp) ----
  /// Check a call's positional count and keyword names; `required` positional parameters first.
  bool checkCallShape(const ast::Expr& call, const std::string& display, int minPos, int maxPos,
                      const std::vector<std::string>& keywords);
  const ast::Expr* keyword(const ast::Expr& call, const std::string& name) const;

  // ---- module scope (sema.cpp / sema_function.cpp / sema_kernel.cpp) ----
  void bindImport(const ast::Stmt& s);
  void bindModuleAssign(const ast::Stmt& s);
  /// Binds one module-level `NAME = value` (int constant, layout, dtype alias or harness value).
  void bindModuleName(const ast::Expr& target, const ast::Expr& value);
  /// The dtype a module-level `NAME = T.float16` / `NAME = "float16"` aliases, nullopt otherwise.
  std::optional<ir::DType> moduleDTypeAlias(const ast::Expr& e);
  void analyzeFunctionDef(const ast::Stmt& s);
  // ---- kernels the checker would not see (sema_visibility.cpp) ----
  /// E0117 (undefined name) or E0109 (not a TIRx decorator) for a def's decorator.
  bool checkForeignDecorator(const ast::Stmt& def, const ast::Expr& decorator);
  /// E0118 for kernels defined inside Python functions or module-level if/for/while.
  void checkHiddenKernels();
  /// E0119 when the module defines no kernel and nothing else is wrong.
  void requireKernel();
  void analyzeScalarFunction(const ast::Stmt& s);
  void analyzeKernel(const ast::Stmt& s);
  void checkSharedMemory(const ir::Kernel& k);
  /// E0291 for element accesses and tile operands proven out of bounds (sema_bounds.cpp).
  void checkStaticBounds(const ir::Kernel& k);

  // ---- constant folding (sema_fold.cpp) ----
  /// Reports a failed fold at `span` (E0240 overflow, E0156 division by zero, E0244 negative
  /// shift count or exponent); `what` is the expression's text. False when `f` is ok.
  bool reportFoldError(const IntFold& f, SourceSpan span);
  /// Reports the fold error of a module integer that TIRx code uses (once per definition).
  void reportModuleFold(const Binding& b);

  // ---- scalar expressions (sema_expr.cpp) ----
  Scalar lowerScalarName(const ast::Expr& e);
  Scalar lowerUnary(const ast::Expr& e);
  Scalar lowerScalar(const ast::Expr& e);
  Scalar lowerCall(const ast::Expr& e);
  Scalar lowerBinary(const ast::Expr& e, ast::Op op, Scalar a, Scalar b, SourceSpan span);
  /// Folds an operation on two bare literals as Python does (sema_expr.cpp).
  Scalar foldLiterals(ast::Op op, const Scalar& a, const Scalar& b, SourceSpan span);
  Scalar lowerCompare(const ast::Expr& e);
  Scalar lowerBuiltinCall(const ast::Expr& e, const std::string& path);
  // The families of lowerBuiltinCall (sema_expr.cpp); nullopt when `path` is not one of theirs.
  std::optional<Scalar> lowerCastCall(const ast::Expr& e, const std::string& path);
  std::optional<Scalar> lowerThreadIndexCall(const ast::Expr& e, const std::string& path);
  std::optional<Scalar> lowerIntrinsicCall(const ast::Expr& e, const std::string& path);
  Scalar lowerFunctionCall(const ast::Expr& e, int func);
  /// Give a literal the dtype `t` (int literal → float ok, float literal → int is an error).
  Scalar coerce(Scalar s, ir::DType t, SourceSpan span, const char* what);
  bool unify(Scalar& a, Scalar& b, SourceSpan span, const std::string& opText);
  /// The dtype two bare literals take together: float32 if either is a float, else int64 if
  /// either needs it, else int32.
  static ir::DType concreteLiteralType(const Scalar& a, const Scalar& b);
  /// E0241: a literal that the dtype it adopts cannot represent.
  void literalOutOfRange(int64_t v, ir::DType t, SourceSpan span, const std::string& what);
  ir::ExprPtr asBool(Scalar s, SourceSpan span);
  ir::ExprPtr lowerIndex(const ast::Expr& e);
  bool threadDependent(const ir::Expr& e) const;

  // ---- macros (sema_macro.cpp; decision L-2) ----
  /// Binds a module-level `@T.macro def` (E0126 for *args, bad hygienic=, a return in the body).
  void bindMacro(const ast::Stmt& def, const ast::Expr& decorator);
  /// Inlines the body of `macro` at the statement-level call `call` (E0102-E0104, E0126).
  void expandMacro(const ast::Expr& call, const Binding& macro, std::vector<ir::Stmt>& out);
  /// What a macro parameter is bound to for one argument; nullopt after an error.
  std::optional<Binding> macroArgument(const ast::Expr& e);

  // ---- error recovery (sema_recovery.cpp) ----
  /// Binds `name` in the body as Refused (its declaration was reported).
  void bindRefused(const std::string& name, SourceSpan span);
  /// True when `e` mentions a name bound as Refused.
  bool mentionsRefused(const ast::Expr& e);
  /// True (and the statement's name targets bound as Refused) when the statement's own
  /// expressions mention a refused name: the caller skips it without a diagnostic.
  bool skipRefusedStmt(const ast::Stmt& s);
  /// A module-level `NAME = value` whose value uses a name nothing binds (E0100 at that name, a
  /// Python NameError) or a refused name (silent): NAME is bound as Refused and true is returned.
  bool poisonModuleName(const ast::Expr& target, const ast::Expr& value);

  // ---- kernels and statements (sema_kernel.cpp) ----
  void lowerParams(const ast::Stmt& def, ir::Kernel& k);
  /// align=, scope=, strides= and layout= of a T.Tensor parameter (sema_kernel.cpp).
  void tensorParamOptions(const ast::Expr& annotation, ir::Buffer& buf);
  bool lowerDeviceEntry(const ast::Expr& call, ir::Kernel& k);
  void lowerBlock(const ast::Block& block, std::vector<ir::Stmt>& out);
  /// Lowers one statement; collectives hoisted out of its expressions go before it (sema_warp.cpp).
  void lowerStmt(const ast::Stmt& s, std::vector<ir::Stmt>& out);
  void lowerStmtBody(const ast::Stmt& s, std::vector<ir::Stmt>& out);
  void lowerAssignTo(const ast::Expr& target, const ast::Expr& value, const ast::Expr* annotation,
                     SourceSpan span, std::vector<ir::Stmt>& out);
  void lowerExprStmt(const ast::Stmt& s, std::vector<ir::Stmt>& out);
  void lowerFor(const ast::Stmt& s, std::vector<ir::Stmt>& out);
  void lowerWhile(const ast::Stmt& s, std::vector<ir::Stmt>& out);
  void lowerIf(const ast::Stmt& s, std::vector<ir::Stmt>& out);
  void lowerBarrier(const ast::Expr& call, const std::string& kind, std::vector<ir::Stmt>& out);
  int newVar(const std::string& name, ir::DType t, SourceSpan span, bool threadDep);

  // ---- tensors (sema_tensor.cpp) ----
  bool isTensorExpr(const ast::Expr& e);
  // ---- symbolic extents (sema_dynamic.cpp; decision "Dynamic shapes") ----
  /// The shape of a `T.Tensor` parameter, whose leading extent may be symbolic (`T.dynamic`, a
  /// module symbol, or an int scalar parameter declared before it); new symbols become trailing
  /// symbolic parameters in `pending`. False after an error.
  bool tensorParamShape(const ast::Expr& annotation, ir::Buffer& buf, ir::Kernel& k,
                        std::vector<ir::KernelParam>& pending);
  /// A runtime grid extent: an integer expression over scalar and symbolic parameters (E0120).
  ir::ExprPtr runtimeGridExtent(const ast::Expr& e, const ir::Kernel& k);
  // ---- affine forms through assigned variables (sema_affine.cpp) ----
  /// Counts, per name, the statements of a kernel body that bind it (a `for` target counts two).
  void countAssignments(const ast::Block& block);
  /// linearize(e) with every variable of one definition replaced by its form (stable) or its
  /// residue class (otherwise); what region extents and start divisors use.
  std::optional<LinearForm> affineForm(const ir::Expr& e) const;
  /// Records the form of `var`'s definition when `name` is bound by one statement only.
  void noteAffineDef(int var, const std::string& name, const ir::Expr& value);
  /// An atom whose value is the same at every point of the kernel (indices, unassigned scalar
  /// parameters, stable definitions).
  bool stableAtom(const std::string& key) const;
  /// A memory operand of a tensor with symbolic strides as sema checks it: the symbolic
  /// non-leading extent replaced by 2^16 (sema_tile_check.cpp).
  ir::TensorRef stridesProxy(const ir::TensorRef& t) const;
  /// Records that the symbolic non-leading extent of `buffer` must keep `atomBytes`-byte atoms
  /// aligned (Buffer::extentMultiple), checked per call by ir::bindSymbolicCall.
  void requireExtentMultiple(int buffer, int64_t atomBytes, const std::string& opText,
                             SourceSpan span);
  /// E0292 when a tile operand has a symbolic extent (tile shapes stay static).
  bool staticOperand(const ir::TensorRef& r, SourceSpan span);
  /// E0290 when `l` places elements on the tensor-memory axes TLane/TCol (not supported yet).
  bool rejectTensorMemoryAxes(const TileLayout& l, SourceSpan span);
  std::shared_ptr<const ir::TensorRef> lowerTensor(const ast::Expr& e);
  std::shared_ptr<const ir::TensorRef> lowerDtypeView(const ast::Expr& call, const ast::Expr& first,
                                                      const ir::TensorRef* base,
                                                      std::shared_ptr<ir::TensorRef> r);
  std::shared_ptr<const ir::TensorRef> lowerView(const ast::Expr& call,
                                                 std::shared_ptr<const ir::TensorRef> base);
  std::shared_ptr<const ir::TensorRef> lowerRegion(const ast::Expr& sub,
                                                   std::shared_ptr<const ir::TensorRef> base,
                                                   bool dropInts);
  int lowerAlloc(const ast::Expr& call, const std::string& name, SourceSpan nameSpan,
                 ir::MemScope scope);
  /// E0243 when a local allocation (with the kernel's earlier ones) exceeds
  /// kMaxLocalBytesPerThread, or has no storage.
  bool checkLocalBytes(const ir::Kernel& k, const ir::Buffer& buf, const ast::Expr& call);
  bool lowerElementIndices(const ast::Expr& sub, const ir::TensorRef& t,
                           std::vector<ir::ExprPtr>& indices);
  Scalar lowerLoad(const ast::Expr& sub);
  void lowerStore(const ast::Expr& target, const ast::Expr& value, SourceSpan span,
                  std::vector<ir::Stmt>& out);
  bool isWhole(const ir::TensorRef& t) const;
  /// E0291 when a view's layout places an element outside the storage of its buffer (register
  /// slots per thread, shared or global elements); false then (sema_view_bounds.cpp).
  bool checkViewFootprint(const ir::TensorRef& view, const ast::Expr& layoutExpr);

  // ---- tile operations (sema_tile.cpp, sema_tile_check.cpp) ----
  bool applyArityOk(const ast::Expr& call, const PtxInstruction& instr, int n);
  void lowerApply(const ast::Expr& call, std::vector<ir::Stmt>& out);
  // The parts of lowerApply (sema_tile.cpp).
  std::optional<PtxInstruction> applyInstruction(const ast::Expr& call);
  struct OperandCheck;
  bool applyScalarOperand(const PtxInstruction& instr, const PtxOperandSpec& spec,
                          const ast::Expr& oe, OperandCheck& oc);
  std::shared_ptr<const ir::TensorRef> applyTensorOperand(
      const ast::Expr& call, const PtxInstruction& instr, const PtxOperandSpec& spec,
      const ast::Expr& oe, ir::ExecScope scope, const std::vector<int64_t>& group, bool launchOk);
  void lowerEwise(const ast::Expr& call, std::vector<ir::Stmt>& out);
  int ewiseFunction(const ast::Expr& call);  ///< lowerEwise's scalar function, -1 after an error
  std::optional<ir::ExecScope> lowerScope(const ast::Expr& call);
  bool checkScopeLaunch(ir::ExecScope scope, const ast::Expr& call);
  struct OperandCheck {
    const ast::Expr* expr = nullptr;
    ir::TileOperand op;
    bool isDst = false, isMemory = false;
    int atom = 0;      ///< 0 for ewise operands
    std::string name;  ///< "destination", "a", ...
  };
  /// Enumerate every (thread, repeat, atom) of the operands: ownership, slots, memory atoms.
  void checkOwnershipAndMemory(const std::string& opText, ir::ExecScope scope,
                               const std::vector<int64_t>& group,
                               const std::vector<int64_t>& repeat, std::vector<OperandCheck>& ops);
  std::string describeThread(int64_t t) const;

  // ---- swizzled shared tiles (sema_swizzle.cpp; spec TC §9) ----
  /// True for `ComposeLayout(...)` / `T.ComposeLayout(...)` or a name bound to a ComposeLayout.
  bool isComposeLayoutExpr(const ast::Expr& e);
  /// A layout value: a TileLayout or a ComposeLayout (expression or constant); nullopt after an
  /// error.
  std::optional<LayoutValue> layoutValueArg(const ast::Expr& e);
  /// Binds a module-level `NAME = ComposeLayout(...)`.
  void bindComposeConstant(const std::string& name, const ast::Expr& value, SourceSpan nameSpan);
  /// `layout=ComposeLayout(...)` of an allocation: only shared tiles; sets the buffer's layout and
  /// swizzle (E0269, E0131, E0267). False after an error.
  bool applyComposeLayout(ir::Buffer& buf, const ast::Expr& layoutExpr, const ast::Expr& shape);
  /// After align= is known: the pattern alignment (E0268) and the storage span. False after an
  /// error.
  bool finishSwizzledAlloc(ir::Buffer& buf, const ast::Expr& call);
  /// `X.view(..., layout=L)`: the TileLayout of the view. On a swizzled tile L must be a
  /// ComposeLayout with the tile's swizzle (E0269); elsewhere a TileLayout.
  std::optional<TileLayout> viewLayoutArg(const ast::Expr& layoutExpr, const ir::TensorRef& base);

  // ---- TMA copies (sema_tma.cpp; spec TC §5) ----
  /// `T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor..."], ...)` ⇒ an ir::TmaCopy and its tensor
  /// map.
  void lowerTma(const ast::Expr& call, const PtxInstruction& instr, std::vector<ir::Stmt>& out);
  // The phases of lowerTma (sema_tma.cpp); each false (nullopt) after an error.
  struct TmaCopyArgs;
  bool tmaIssue(const ast::Expr& call, const PtxInstruction& instr);
  bool tmaArguments(const ast::Expr& call, const PtxInstruction& instr, TmaCopyArgs& a);
  bool tmaSharedBox(const ast::Expr& call, const PtxInstruction& instr, TmaCopyArgs& a);
  bool tmaSharedAlignment(const ast::Expr& call, const PtxInstruction& instr, const TmaCopyArgs& a);
  std::optional<ir::TensorMap> tmaGlobalMap(const PtxInstruction& instr, const TmaCopyArgs& a);
  /// `name=[...]`: static extents into `values` or int expressions into `exprs` (E0290).
  bool tmaIntList(const ast::Expr& call, const char* name, bool isStatic,
                  std::vector<int64_t>* values, std::vector<ir::ExprPtr>* exprs,
                  const ast::Expr** where);
  /// `bar.ptr_to([i, ...])`: an 8-byte shared element (E0298); its indices into `index`.

  // ---- warp collectives (sema_warp.cpp, sema_collective.cpp; spec TC §1.1, §6, §7, §10) ----
  /// Warp-uniformity of a scalar expression: true when every lane of a warp computes the same value
  /// (block/grid indices, constants, `warp_id`-like `tid // 32k`, vars assigned such values outside
  /// lane-dependent control flow).
  bool warpUniform(const ir::Expr& e) const;
  /// Records whether a variable's new value is lane-dependent (called where varThreadDep is).
  void noteVarValue(int var, const ir::Expr* value);
  /// Scope, control flow and pred= checks shared by every collective (E0260, E0261, E0262).
  bool checkCollectiveContext(const PtxInstruction& instr, ir::ExecScope scope,
                              const ast::Expr& call);
  /// ldmatrix / stmatrix / mma.sync: operands, repeats, fragment ownership, shared rows ⇒ IR.
  // ---- Hopper wgmma (sema_wgmma.cpp; spec TC §8, decision TC-2) ----
  /// `T.cuda.tile.apply(T.ptx["wgmma.mma_async..."], D, A, B, scope="warpgroup", ...)` ⇒ ir::Wgmma.
  void lowerWgmma(const ast::Expr& call, const PtxInstruction& instr, std::vector<ir::Stmt>& out);
  /// Appends a wgmma operand's fragment fact (when collecting) with the kernel and spans.
  void recordWgmmaFragment(FragmentFact f, const ast::Expr& call, const ast::Expr& operand);
  /// Appends the descriptor fact of an accepted shared operand (when collecting).
  void recordWgmmaDescriptors(const ast::Expr& call, const ast::Expr& e, char which,
                              const ir::WgmmaShared& op, int64_t originPre, int64_t subRows,
                              int64_t mRepeat, int64_t kSteps, const PtxInstruction& instr);
  /// One shared operand (A or B) of a wgmma: its region, descriptor tuple and sub-operand starts.
  bool wgmmaOperandTyped(const ast::Expr& e, const ir::TensorRef& t, const std::string& name,
                         const PtxInstruction& instr);
  bool wgmmaDynamicStartAligned(const ast::Expr& e, const ir::TensorRef& t, const ir::Buffer& buf,
                                int eb);
  std::optional<ir::WgmmaShared> wgmmaSharedOperand(const ast::Expr& call, const ast::Expr& e,
                                                    char which, int64_t rows, int64_t mRepeat,
                                                    bool mnMajor, const PtxInstruction& instr,
                                                    int64_t& kSteps);
  /// The `a_descriptor=` / `b_descriptor=` tuple of a shared operand (sema_wgmma.cpp).
  std::optional<std::array<int64_t, 3>> wgmmaDescriptorTuple(
      const ast::Expr& call, const ast::Expr& e, const std::string& kw, const std::string& op,
      const ir::TensorRef& t, const ir::Buffer& buf, const std::string& needText);
  /// scale_a/scale_b/trans_a/trans_b/scale_d= of wgmma into `w` (sema_wgmma.cpp).
  bool wgmmaKeywords(const ast::Expr& call, const std::string& op, ir::Wgmma& w);
  /// Fragment ownership of a register operand of wgmma (d, or a in registers) (E0221).
  bool wgmmaRegisterOwnership(const std::string& op, const ir::TensorRef& t, const ast::Expr& te,
                              const char* role, int64_t blocks, int regs,
                              const std::function<std::vector<int64_t>(int64_t, int, int)>& coordOf,
                              const std::string& mapLayout, std::vector<int64_t>& slots);
  /// Operand a of wgmma in registers (the rs form) (sema_wgmma.cpp).
  bool wgmmaRegisterA(const ast::Expr& call, const PtxInstruction& instr, const ast::Expr& ae,
                      const ir::TensorRef& A, ir::Wgmma& w, int64_t& kSteps);
  /// `T.ptx.setmaxnreg(inc, n)` and `T.cuda.warpgroup_sync(id)` (sema_wgmma.cpp).
  void lowerSetMaxNReg(const ast::Expr& call, std::vector<ir::Stmt>& out);
  void lowerWarpgroupSync(const ast::Expr& call, std::vector<ir::Stmt>& out);
  /// `T.ptx.bar.sync(id[, count])` and `T.ptx.bar.arrive(id, count)` (sema_barrier.cpp).
  void lowerNamedBarrier(const ast::Expr& call, bool arrive, std::vector<ir::Stmt>& out);
  /// One operand of a named barrier (id or thread count): an integer, warp-uniform; null on error.
  ir::ExprPtr namedBarrierOperand(const ast::Expr& e, const std::string& written, bool isId);
  void lowerMatrixCollective(const ast::Expr& call, const PtxInstruction& instr,
                             ir::ExecScope scope, std::vector<ir::Stmt>& out);
  // The parts of lowerMatrixCollective (sema_collective.cpp).
  struct CollectiveOperand;
  bool collectiveOperand(const ast::Expr& call, const PtxInstruction& instr, int i,
                         const std::vector<int64_t>& group, ir::ExecScope scope,
                         CollectiveOperand& o);
  bool collectiveRepeats(const PtxInstruction& instr, const std::vector<CollectiveOperand>& ops,
                         std::vector<int64_t>& repeat, std::vector<std::vector<int>>& repeatAxes);
  void checkCollectiveRows(const PtxInstruction& instr, const CollectiveOperand& o);
  void checkCollectiveFragment(const PtxInstruction& instr, const CollectiveOperand& o, int i,
                               int64_t warps, bool grouped);
  /// `T.cuda.__shfl_xor_sync(mask, var, lane_mask, width=32)` and the idx/up/down spellings: the
  /// call is hoisted into an assignment of a fresh variable before the statement (E0270-E0272).
  Scalar lowerShuffleCall(const ast::Expr& e, const std::string& path);

  // ---- asynchronous protocol statements (sema_async.cpp; spec TC §1.4, §2.5, §3) ----
  /// True for a call that names a cp.async/bulk group, mbarrier or fence statement (known or not).
  bool isAsyncStatement(const ast::Expr& call);
  /// Lowers one such statement (E0274-E0277, E0177 for the target, E0101 for unknown spellings).
  void lowerAsyncStatement(const ast::Expr& call, std::vector<ir::Stmt>& out);
  /// `bar.ptr_to([i, ...])`: the shared uint64 tensor and the element indices (E0274, E0137,
  /// E0138).
  std::shared_ptr<const ir::TensorRef> lowerBarrierPtr(const ast::Expr& e,
                                                       std::vector<ir::ExprPtr>& index);

  /// `T.cuda.tile.apply(T.ptx["cp.async..."], dst_shared, src_global, chunk_bytes=, ...)`
  /// (sema_cp_async.cpp; spec TC §2.3): direction, chunk bytes, atoms, ownership, zero-fill forms.
  void lowerCpAsync(const ast::Expr& call, const PtxInstruction& instr, ir::ExecScope scope,
                    std::vector<ir::Stmt>& out);
  /// src_size= / ignore_src= of cp.async (sema_cp_async.cpp); false after an error.
  std::optional<int64_t> cpAsyncChunk(const ast::Expr& call, const PtxInstruction& instr);
  bool cpAsyncZeroFill(const ast::Expr& call, const std::string& op, int64_t chunk,
                       ir::ExprPtr& srcSize, ir::ExprPtr& ignoreSrc);

  // ---- scalar functions (sema_function.cpp) ----
  void lowerFunctionBody(const ast::Block& block, std::vector<ir::Stmt>& out);
  bool returnsOnAllPaths(const ast::Block& block) const;
};

}  // namespace tirx::sema
