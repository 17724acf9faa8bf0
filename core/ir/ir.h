// The typed Kernel IR: what sema produces from a script and what codegen, the simulator and the
// studio consume. A Program holds kernels (device entries with a static launch), private scalar
// functions (ewise bodies) and the named symbols of the script (layouts, tensors, views) with their
// spans, for the studio's layout view and hovers. Shapes, layouts and launch extents are static
// integers (decision D-1 in docs/decisions.md) except the leading extent of a tensor parameter and
// the grid, which may be symbolic and are bound per call (decision "Dynamic shapes", specialize.h).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/ir/dtype.h"
#include "core/layout/swizzle_layout.h"
#include "core/layout/tile_layout.h"
#include "core/ptx/ptx_table.h"

namespace tirx::ir {

/// Most dimensions of a tensor, view or region: sema rejects deeper ones (E0242), so the
/// simulator's fixed coordinate arrays always hold a whole coordinate.
constexpr int kMaxTensorRank = 16;

/// The extent a symbolic dimension (`T.Tensor((n, 64), ...)` with `n = T.dynamic("n")` or an int
/// parameter) holds in sema's IR: tensor refs of the parameter keep it (only the leading dimension
/// may be symbolic, so every stride stays static); executors bind the real value per call
/// (core/ir/specialize.h). It is larger than any tensor sema accepts statically (2^40 elements).
constexpr int64_t kSymbolicExtent = (int64_t{1} << 40) + 1;
/// The extent a symbolic *non-leading* dimension holds in sema's IR (`T.Tensor((m, n), ...)` with
/// `n` symbolic): the prime 2^16 + 1, so that the strides before it (multiples of it) stay in int64
/// next to a symbolic leading extent. At most one non-leading dimension is symbolic (E0292);
/// codegen computes the strides from the size parameters, the executors bind them per call
/// (specialize.h).
constexpr int64_t kSymbolicInnerExtent = (int64_t{1} << 16) + 1;
/// Is `e` one of the two symbolic-extent sentinels?
constexpr bool isSymbolicExtent(int64_t e) {
  return e == kSymbolicExtent || e == kSymbolicInnerExtent;
}

enum class MemScope { Global, Shared, Local };
std::string_view memScopeName(MemScope s);

/// An allocation: a kernel tensor parameter (global), `T.alloc_shared` or `T.alloc_local`.
struct Buffer {
  int id = -1;
  std::string name;
  MemScope scope = MemScope::Local;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  TileLayout layout;         ///< for global/shared: `m` = element offset; local: thread axes + slot
  int64_t alignBytes = 16;   ///< declared or default alignment of the data pointer (D-2)
  int paramIndex = -1;       ///< position in the kernel signature for parameters
  int64_t storageElems = 0;  ///< local: slots per thread; shared: elements; global: Π shape
  /// Per dimension of a global parameter: the kernel var holding a symbolic extent (shape[d] is
  /// then kSymbolicExtent until a call binds it), -1 for a static one. Empty when all are static.
  std::vector<int> shapeVars;
  /// Per dimension with a symbolic extent: the multiple a call's extent must be so that the
  /// memory atoms sema proved aligned stay aligned (1 when nothing needs it), and the operation
  /// that needs it (for the call-time diagnostic E0772). Empty when all extents are static.
  std::vector<int64_t> extentMultiple;
  std::vector<std::string> extentMultipleWhy;
  /// A bound copy (specialize.h) keeps the shape's variables here when a non-leading extent was
  /// symbolic, so that codegen still reads the strides from the size parameters and the CUDA does
  /// not change with the sizes. Empty otherwise.
  std::vector<int> boundShapeVars;
  /// Shared tiles declared with a ComposeLayout: the swizzle of the memory, in units of this
  /// buffer's dtype, applied to every byte address after the (view's) layout (decision TC-S1 in
  /// docs/decisions.md). Identity otherwise.
  Swizzle swizzle;
  SourceSpan span;
};

/// True when a dimension after the leading one of `b` is symbolic: its strides are only known
/// per call (codegen computes them from the size parameters). The variables of the shape (-1 for
/// a static dimension) are `symbolicStrideVars(b)`, also in a bound copy.
bool hasSymbolicStrides(const Buffer& b);
const std::vector<int>& symbolicStrideVars(const Buffer& b);

/// The byte offset inside `b` that byte offset `byte` (from the layout) lands on after the
/// buffer's swizzle (the identity for an unswizzled buffer; offsets < 0 unchanged).
int64_t swizzledByte(const Buffer& b, int64_t byte);

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

/// How a tensor value (a buffer, or a chain of views and regions of it) maps its coordinates
/// to the buffer. To resolve coordinate `c` (of `shape`):
///   layoutCoord[d] = lo[d] + (dimMap[d] >= 0 ? c[dimMap[d]] : 0)   for d in layoutShape
///   phys = layout.apply(layoutCoord, layoutShape);  phys["m"] += elemOffset
/// `m` is counted in elements of `dtype` (a dtype view rescales it). `lo[d]` may be a runtime
/// int32 expression (e.g. `bx * 1024`); null means 0. `loMultiple[d]` is a known divisor of lo[d]
/// (for alignment proofs; equals |lo| for constants, 0 meaning "lo is 0").
struct TensorRef {
  int buffer = -1;
  MemScope scope = MemScope::Local;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  TileLayout layout;
  std::vector<int64_t> layoutShape;
  std::vector<int> dimMap;
  std::vector<ExprPtr> lo;
  std::vector<int64_t> loMultiple;
  int64_t elemOffset = 0;
  std::string text;  ///< how the script spelled it, e.g. "registers.view(2, 32, 4, 1)"
  SourceSpan span;

  /// Static resolution (all lo constant or given): physical coordinate of `coord`.
  /// `loValues` supplies runtime lo values (same length as layoutShape) when some are dynamic.
  AxisCoord resolve(std::span<const int64_t> coord, std::span<const int64_t> loValues = {}) const;
  bool hasDynamicOffset() const;
};

enum class ExprKind {
  IntImm,
  FloatImm,
  BoolImm,
  Var,        ///< a scalar variable (loop variable, binding, parameter): `var`
  ThreadIdx,  ///< threadIdx.{x,y,z}: `dim`
  BlockIdx,
  BlockDim,
  GridDim,
  Load,       ///< element load `tensor[indices]` (global/shared/default-layout local)
  Unary,      ///< op ∈ {Neg, Not, Invert}
  Binary,     ///< op ∈ {Add, Sub, Mul, Div, FloorDiv, Mod, TruncDiv, TruncMod, Min, Max, BitAnd,
              ///< BitOr, BitXor, Shl, Shr}
  Compare,    ///< op ∈ {Eq, Ne, Lt, Le, Gt, Ge}; dtype Bool
  Logical,    ///< op ∈ {And, Or}
  Select,     ///< args: cond, a, b  (T.if_then_else)
  Intrinsic,  ///< name ∈ {exp, exp2, log, log2, sqrt, rsqrt, tanh, sigmoid, abs, floor, ceil,
              ///< round, sin, cos, pow, fabs, ...}
  Cast,       ///< numeric conversion to `dtype` (T.Cast, T.float32(x) on a non-literal)
  Call,       ///< call of a private scalar function: `func`
};

enum class BinOp {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  TruncDiv,
  TruncMod,
  Min,
  Max,
  BitAnd,
  BitOr,
  BitXor,
  Shl,
  Shr,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  Neg,
  Not,
  Invert,
};

struct Expr {
  ExprKind kind = ExprKind::IntImm;
  DType dtype = DType::Int32;
  int64_t intValue = 0;
  double floatValue = 0;
  int var = -1;   ///< Var
  int dim = 0;    ///< ThreadIdx/BlockIdx/BlockDim/GridDim: 0=x, 1=y, 2=z
  int func = -1;  ///< Call: index into Program::functions
  BinOp op = BinOp::Add;
  std::string name;  ///< Intrinsic name
  std::vector<ExprPtr> args;
  std::shared_ptr<const TensorRef> tensor;  ///< Load
  SourceSpan span;
};

/// The scalar variables of a kernel or function body.
struct Var {
  int id = -1;
  std::string name;
  DType dtype = DType::Int32;
  SourceSpan span;
};

enum class ExecScope { Thread, Warp, Warpgroup, Cta, Cluster };
std::string_view execScopeName(ExecScope s);

/// A tile-op operand: a tensor region or a broadcast scalar.
struct TileOperand {
  bool isScalar = false;
  TensorRef tensor;
  ExprPtr scalar;
  SourceSpan span;
};

/// Group coordinate extents of a scope for a CTA of `blockThreads` threads (spec §1.9):
/// thread: {}, warp: {32}, warpgroup: {4, 32}, cta: {blockThreads/32, 32}.
std::vector<int64_t> groupExtents(ExecScope s, int64_t blockThreads);
/// The group coordinate of linear thread `tid` (same order as groupExtents).
std::vector<int64_t> groupCoord(ExecScope s, int64_t tid);

/// `T.cuda.tile.apply(T.ptx[...], dst, *srcs, scope=...)`, checked and split.
struct TileApply {
  PtxInstruction instr;
  std::vector<TileOperand> operands;  ///< destination first, call order
  ExecScope scope = ExecScope::Thread;
  std::vector<int64_t> group;   ///< group extents
  std::vector<int64_t> repeat;  ///< repeat extents (may be empty = one repeat)
  std::vector<int64_t> atom;    ///< per operand: trailing atom extent (1 for scalar ops)
  ExprPtr pred;                 ///< `pred=` or null
  bool preserveDst = false;
  /// ldmatrix, stmatrix and mma.sync (the lane is inside the atom, spec TC §1.1): per operand, the
  /// index in `repeat` of each of its repeat axes (mma: repeat = (m, n, k); D and C use (0, 1),
  /// A (0, 2), B (1, 2)) and the rank of its atom (the last atomRank axes). Empty otherwise.
  std::vector<std::vector<int>> repeatAxes;
  std::vector<int> atomRank;
  /// cp.async (spec TC §2): bytes per atom (4, 8 or 16), and the zero-fill forms: `src_size=`
  /// (bytes read from the source, the rest zero-filled) or `ignore_src=` (a predicate: when true
  /// the whole chunk is zero-filled). Null when absent.
  int chunkBytes = 0;
  ExprPtr srcSize, ignoreSrc;
};

/// `T.cuda.tile.ewise(fn, dst, *inputs, scope=...)`.
struct TileEwise {
  int func = -1;  ///< Program::functions index
  TensorRef dst;
  std::vector<TileOperand> inputs;
  ExecScope scope = ExecScope::Thread;
  std::vector<int64_t> group, repeat;
};

/// A tensor map (CUtensorMap) the host encodes once per launch for a TMA copy (spec TC §5.2,
/// §5.3; decision TC-T1 in docs/decisions.md): the global view of one tensor parameter, the box
/// and the swizzle, in cuTensorMapEncodeTiled's order (dimension 0 innermost). The kernel takes it
/// as a `const __grid_constant__ CUtensorMap` parameter after the script's parameters.
struct TensorMap {
  int param = -1;                    ///< Kernel::params index of the tensor argument
  int buffer = -1;                   ///< its buffer
  DType dtype = DType::Float32;      ///< element type (the map's data type, decision TC-T2)
  int64_t baseElems = 0;             ///< the view's start in the buffer, elements (a static region)
  std::vector<int64_t> dims;         ///< innermost first: globalDim
  std::vector<int64_t> strideBytes;  ///< dims 1..rank-1: globalStrides in bytes
  std::vector<int64_t> box;          ///< innermost first: boxDim
  int swizzle = 0;                   ///< CU_TENSOR_MAP_SWIZZLE_*: 0 none, 1 32B, 2 64B, 3 128B
  bool oobNan = false;               ///< CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
  bool operator==(const TensorMap&) const = default;
};

/// `T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor..."], ...)`: one TMA box copy issued by one
/// thread (spec TC §5). Coordinates and box are outer-to-inner as written; the shared operand is
/// the dense box (row-major) before its buffer's swizzle.
struct TmaCopy {
  PtxInstruction instr;
  bool store = false;           ///< shared → global (bulk group); else global → shared
  int map = -1;                 ///< Kernel::tensorMaps index
  TensorRef shared;             ///< the box image in shared memory
  TensorRef global;             ///< the global operand as written (the map's view)
  std::vector<int64_t> box;     ///< outer-to-inner
  std::vector<ExprPtr> coords;  ///< outer-to-inner, int32, relative to the view
  int64_t boxBytes = 0;         ///< Π box · element bytes: the transaction bytes
  /// Loads: the mbarrier, `bar.ptr_to([i, ...])`: its tensor and element indices.
  std::shared_ptr<const TensorRef> mbar;
  std::vector<ExprPtr> mbarIndex;
};

/// One shared-memory operand of a wgmma (spec TC §8.5): the region as written, its descriptor
/// fields (validated against the region's layout by sema, element by element) and the start of
/// each 64 x 16 (A) or N x 16 (B) sub-operand the statement's repeats read.
struct WgmmaShared {
  TensorRef ref;
  bool mnMajor = false;      ///< trans 1: the region is (K, rows), M/N contiguous
  int64_t lbo = 0, sbo = 0;  ///< leading / stride byte offsets as written (bytes)
  SwizzleMode mode = SwizzleMode::None;
  /// Per sub-operand (A: m-repeat · kSteps + k-step; B: k-step): the byte offset of its first
  /// element from the region's origin (element (0, 0)), before the buffer's swizzle. The descriptor
  /// start is the origin's shared-window address plus this.
  std::vector<int64_t> start;
  uint64_t highBits = 0;  ///< encodeDescriptor of the fields with start address 0
};

/// `T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T"], D, A, B,
/// scope="warpgroup", ...)` (decision TC-2): one wgmma per (k-step, m-repeat), k outer. D is a
/// (64·mRepeat, N) f32 register tile, A a shared (64·mRepeat, 16·kSteps) region or a uint32
/// register tile (64·mRepeat, 8·kSteps), B a shared (N, 16·kSteps) region (transposed when trans).
struct Wgmma {
  PtxInstruction instr;
  int n = 0;
  int64_t mRepeat = 1, kSteps = 1;
  TensorRef d;
  std::vector<int64_t> dSlots;  ///< [r·(n/2) + j]: the per-thread slot of accumulator j of repeat r
  bool aRegisters = false;      ///< RS form
  TensorRef aRegs;
  std::vector<int64_t> aSlots;  ///< RS: [(r·kSteps + k)·4 + i]: the slot of A register i
  WgmmaShared a, b;             ///< a unused in the RS form
  /// scale-d of the first k-step of each m-repeat (0: D = A·B, 1: D += A·B; a runtime int32
  /// expression); later k-steps always accumulate.
  ExprPtr scaleD;
  int scaleA = 1, scaleB = 1, transA = 0, transB = 0;
};

/// Asynchronous-copy bookkeeping, mbarrier operations and proxy fences: the raw `T.ptx` /
/// `T.cuda` statements of spec TC §1.4 (decision ASYNC-1 in docs/decisions.md).
enum class AsyncKind {
  CpAsyncCommit,       ///< cp.async.commit_group
  CpAsyncWait,         ///< cp.async.wait_group n
  BulkCommit,          ///< cp.async.bulk.commit_group
  BulkWait,            ///< cp.async.bulk.wait_group n (readOnly: .read)
  MbarInit,            ///< mbarrier.init.shared::cta.b64 [bar], value
  MbarArrive,          ///< mbarrier.arrive.shared::cta.b64 _, [bar] (value: count or null = 1)
  MbarArriveExpectTx,  ///< mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], value
  MbarExpectTx,        ///< mbarrier.expect_tx.shared::cta.b64 [bar], value
  MbarWait,            ///< blocking parity wait: try_wait.parity loop on [bar], value
  FenceProxyAsync,     ///< fence.proxy.async.shared::cta
  FenceMbarrierInit,   ///< fence.mbarrier_init.release.cluster
  WgmmaFence,          ///< wgmma.fence.sync.aligned
  WgmmaCommit,         ///< wgmma.commit_group.sync.aligned
  WgmmaWait,           ///< wgmma.wait_group.sync.aligned n
  SetMaxNReg,          ///< setmaxnreg.{inc|dec}.sync.aligned.u32 n (increase: inc)
  MbarInval,  ///< mbarrier.inval.shared::cta.b64 [bar]: the object is dead until the next init
};

/// One asynchronous-protocol statement.
struct AsyncOp {
  AsyncKind kind = AsyncKind::CpAsyncCommit;
  int64_t n = 0;          ///< wait_group N
  bool readOnly = false;  ///< bulk wait_group.read
  bool increase = false;  ///< setmaxnreg.inc (else .dec)
  /// The mbarrier: element `barIndex` of a shared uint64 tensor (`bar.ptr_to([i])`).
  std::shared_ptr<const TensorRef> barrier;
  std::vector<ExprPtr> barIndex;
  ExprPtr value;         ///< init count, arrive count, tx bytes or wait parity (null: none)
  std::string spelling;  ///< the call as written, e.g. "T.ptx.mbarrier.init.shared.b64"
};

enum class StmtKind {
  Assign,  ///< vars[var] = value (first assignment declares it)
  Store,   ///< tensor[indices] = value
  Apply,
  Ewise,
  Tma,      ///< a TMA copy: `tma`
  For,      ///< for var in range(start, stop, step): body  (unroll hint in `unroll`)
  While,    ///< while cond: body
  If,       ///< if cond: body else: orelse
  Barrier,  ///< barrier: "cta_sync" | "warp_sync" | "warpgroup_sync" (bar.sync value, 128) |
            ///< "bar_sync" | "bar_arrive" (named barrier `value` with `barrierCount` threads)
  Break,
  Continue,
  Return,  ///< scalar functions only: value
  Async,   ///< an AsyncOp (commit/wait groups, mbarrier operations, proxy fences)
  Wgmma,   ///< a warpgroup MMA: `wgmma`
};

struct Stmt {
  StmtKind kind = StmtKind::Assign;
  SourceSpan span;
  int var = -1;
  ExprPtr value;                            ///< Assign/Store value, Return value, If/While cond
  std::shared_ptr<const TensorRef> tensor;  ///< Store
  std::vector<ExprPtr> indices;             ///< Store
  std::shared_ptr<const TileApply> apply;
  std::shared_ptr<const TileEwise> ewise;
  std::shared_ptr<const TmaCopy> tma;
  std::shared_ptr<const AsyncOp> async;
  std::shared_ptr<const Wgmma> wgmma;
  ExprPtr start, stop, step;  ///< For
  bool unroll = false;
  std::string barrier;
  /// bar_sync / bar_arrive: the thread count (null: bar.sync without one, every thread of the
  /// block)
  ExprPtr barrierCount;
  std::vector<Stmt> body, orelse;
};

struct LaunchConfig {
  std::array<int64_t, 3> grid{1, 1, 1};  ///< 1 where gridExprs[d] is set, until a call binds it
  /// Runtime grid extents (`grid=T.ceildiv(n, 256)`): integer expressions over scalar and
  /// symbolic parameters, evaluated on the host per call; null for a static extent.
  std::array<ExprPtr, 3> gridExprs{};
  std::array<int64_t, 3> block{1, 1, 1};
  int64_t dynamicSmemBytes = 0;
  int64_t threads() const { return block[0] * block[1] * block[2]; }
  int64_t ctas() const { return grid[0] * grid[1] * grid[2]; }
};

struct KernelParam {
  std::string name;
  bool isTensor = true;
  /// A `T.dynamic` extent: a trailing int32 scalar parameter that no call writes; its value comes
  /// from the argument tensors' shapes (core/ir/specialize.h).
  bool symbolic = false;
  int buffer = -1;  ///< tensor parameters
  int var = -1;     ///< scalar parameters
  DType dtype = DType::Float32;
  SourceSpan span;
};

struct Kernel {
  std::string name;
  SourceSpan span;  ///< the `def` line
  std::vector<KernelParam> params;
  LaunchConfig launch;
  SourceSpan launchSpan;
  std::vector<Buffer> buffers;  ///< params first, then allocations in program order
  std::vector<Var> vars;
  std::vector<Stmt> body;
  std::vector<TensorMap> tensorMaps;  ///< TMA tensor maps, kernel parameters after `params`
};

struct ScalarFunction {
  std::string name;
  SourceSpan span;
  std::vector<int> params;  ///< var ids
  DType ret = DType::Float32;
  std::vector<Var> vars;
  std::vector<Stmt> body;  ///< Assign, If and Return only
};

/// A named thing in the script, for the studio (layout view, hovers, go-to-definition).
struct Symbol {
  enum class Kind { Layout, Tensor, View, Function, Kernel, Scalar } kind = Kind::Layout;
  std::string name;
  std::string kernel;  ///< owning kernel, empty at module scope
  SourceSpan span;     ///< the definition
  std::vector<SourceSpan> uses;
  TileLayout layout;
  Swizzle swizzle;  ///< a ComposeLayout's swizzle (layout constants, swizzled shared tiles)
  std::vector<int64_t> shape;
  DType dtype = DType::Float32;
  MemScope scope = MemScope::Local;
  int64_t blockThreads = 0;  ///< launch of the owning kernel (0 at module scope)
  /// Tensor: its buffer in the owning kernel (Kernel::buffers index); View: the buffer it views;
  /// -1 otherwise. Uses of the symbol in the IR are found by this id, never by name.
  int buffer = -1;
};

/// A `T.ptx["…"]` opcode string as sema resolved it (the studio's opcode boxes and hovers): the
/// instruction of a tile op, or the spelling of an asynchronous statement (`T.ptx["cp.async.
/// commit_group"]()`).
struct OpcodeSite {
  SourceSpan span;     ///< the spelling inside the quotes
  std::string opcode;  ///< as written
  bool valid = false;  ///< a PTX-table instruction, or an asynchronous statement sema knows
  std::optional<PtxInstruction> instr;  ///< the table's instruction (tile ops)
  std::string info;  ///< the parse error when invalid; an asynchronous statement's description
};

/// A layout written in place (`S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]` inside a call or a
/// constant's definition) as sema evaluated it, for the studio's hover.
struct LayoutLiteral {
  SourceSpan span;
  TileLayout layout;
};

struct Program {
  std::vector<Kernel> kernels;
  std::vector<ScalarFunction> functions;
  std::vector<Symbol> symbols;
  std::vector<OpcodeSite> opcodeSites;        ///< in the order sema met them
  std::vector<LayoutLiteral> layoutLiterals;  ///< in the order sema met them
  int targetSm = 90;
  const Kernel* findKernel(const std::string& name) const;
  int findFunction(const std::string& name) const;
};

/// A readable dump of the IR (`tirx compile --emit ir`).
std::string printProgram(const Program& p);

}  // namespace tirx::ir
