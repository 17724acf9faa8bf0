// Private to core/sim: the kernel runner's state and the pieces the executor files share. The
// statement tree is flattened into a small jump code so that a thread can stop at a barrier in the
// middle of a loop and resume later; tensor references are pre-digested into FastRef (integer
// iters, no maps) so that resolving an element costs a few multiplies.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/ir.h"
#include "core/ir/values.h"
#include "core/layout/compiled_layout.h"
#include "core/sim/async_state.h"
#include "core/sim/simulator.h"
#include "core/sim/step_observer.h"
#include "core/sim/timeline.h"

namespace tirx::sim {

/// A scalar value of a known dtype: floats in `f` (exactly the rounded value), integers and bools
/// in `i` (sign- or zero-extended to 64 bits).
struct Value {
  int64_t i = 0;
  double f = 0;
};

Value bitsToValue(uint64_t bits, ir::DType t);
uint64_t valueToBits(const Value& v, ir::DType t);
/// Round/wrap a value to its dtype (f32 rounding, int wrap-around).
Value normalize(Value v, ir::DType t);
/// Converts a value between dtypes (int <-> float with C conversion semantics, then normalize).
Value castTo(const Value& v, ir::DType from, ir::DType to);
/// A float binary operation (+ - * / min max) of dtype `t` as the generated CUDA computes it:
/// rounded once to nearest in f32 (f16/bf16 too: the caller rounds to the format) or f64.
double floatBinary(ir::BinOp op, double a, double b, ir::DType t);

enum class Op {
  Assign,
  Store,
  Apply,
  Ewise,
  Jump,
  JumpIfNot,
  ForInit,
  ForCheck,
  ForStep,
  Barrier,
  WarpSync,
  Collective,
  Tma,
  Halt,
  Async,         ///< a non-blocking AsyncOp (commit/wait_group, mbarrier init/arrive, fences)
  MbarWait,      ///< a blocking mbarrier parity wait: the thread stops until the phase completes
  Wgmma,         ///< a wgmma: the warpgroup issues it together (wgmma_exec.cpp)
  NamedBarrier,  ///< bar.sync id{, count} (T.ptx.bar.sync, T.cuda.warpgroup_sync = count 128)
  NamedArrive,   ///< bar.arrive id, count: counts the thread and goes on (named_barrier_exec.cpp)
};

/// The thread a register layout names for the executing thread `tid` at `scope`: layouts of a
/// warp-scope operand are lane-relative (every warp holds its own copy), warpgroup ones relative to
/// the warpgroup, CTA ones absolute — what sema checks (it enumerates the scope's group).
inline int64_t scopeOwner(ir::ExecScope s, int64_t tid) {
  return s == ir::ExecScope::Warp ? tid % 32 : s == ir::ExecScope::Warpgroup ? tid % 128 : tid;
}

/// ldmatrix/stmatrix/mma.sync/shfl/redux tile ops and `__shfl_*_sync` assignments: the warp
/// executes them together (collective_exec.cpp).
bool isCollectiveStmt(const ir::Stmt& s);
/// "0000ffff"
std::string hex32(uint32_t v);

struct Instr {
  Op op = Op::Halt;
  const ir::Stmt* stmt = nullptr;
  int target = -1;   ///< jump target
  int tmp = -1;      ///< For: first of two temp slots (stop, step)
  int64_t cost = 1;  ///< work units charged per execution: 1 + the nodes of its expressions
};

struct Resolved {
  int64_t m = 0;       ///< element index in the buffer (elements of the ref's dtype)
  int64_t thread = 0;  ///< owning thread (register refs with thread axes)
};

/// A digested TensorRef.
struct FastRef {
  const ir::TensorRef* ref = nullptr;
  /// The engine's one layout evaluator (core/layout/compiled_layout.h): resolve() walks its
  /// digits with overflow-checked arithmetic (a run-time region start can be any value).
  CompiledLayout layout;
  /// Some shard iter or offset of the layout is a thread axis (replicas do not count): the
  /// executing thread must own the element it resolves.
  bool hasThread = false;
  std::vector<int64_t> loConst;        ///< constant lo (0 where dynamic)
  std::vector<const ir::Expr*> loDyn;  ///< dynamic lo expressions (null where constant)
  bool dynamic = false;
  /// A tensor whose strides were symbolic (bound per call): every layout coordinate is checked
  /// against its dimension, since an index past a row's end would land in the next row.
  bool checkDims = false;
  int elemBytes = 4;
  /// Static refs memoise resolve() per logical coordinate (row-major index over the ref's shape):
  /// the same thread coordinates recur in every CTA.
  mutable std::vector<Resolved> memo;
  mutable std::vector<uint8_t> memoValid;
};

enum class ThreadState { Running, Waiting, Done };

struct Thread {
  int64_t tid = 0;
  int64_t idx[3] = {0, 0, 0};
  int pc = 0;
  ThreadState state = ThreadState::Running;
  std::vector<Value> vars, tmps;
  std::vector<std::vector<uint8_t>> regs;       ///< per buffer id (local buffers only)
  std::vector<std::vector<int32_t>> regWriter;  ///< per register byte: instr index + 1 (0: never)
  /// Kernels with wgmma, per local buffer byte: the in-flight wgmma (op + 1) that owns it, and the
  /// last statement (instr + 1) that accessed it since the thread's last wgmma.fence.
  std::vector<std::vector<int32_t>> regLock, regTouch;
  std::vector<int32_t> execCount;  ///< per instr: executions so far (kernels with shared memory)
  int32_t loadSeq = 0;             ///< shared element loads so far in the current instr
  int64_t clock = 0;  ///< simulated time: statements executed, advanced by synchronisation
};

/// Which warp instruction a lane's shared access belongs to: the statement, the access within it,
/// the warp, the lane's execution count of the statement and the repeat.
struct SharedKey {
  int32_t instr = 0, site = 0;
  int64_t warp = 0, occurrence = 0, rep = 0;
  bool operator==(const SharedKey&) const = default;
};
struct SharedKeyHash {
  size_t operator()(const SharedKey& k) const noexcept {
    uint64_t h = uint64_t(k.instr) * 0x9E3779B97F4A7C15ull ^ uint64_t(k.site) << 7;
    for (int64_t v : {k.warp, k.occurrence, k.rep}) h = (h ^ uint64_t(v)) * 0x100000001B3ull;
    return size_t(h ^ (h >> 29));
  }
};

/// One warp instruction's shared accesses being collected lane by lane (bank_stats.cpp).
struct PendingSharedAccess {
  std::array<int64_t, 32> addr{};
  uint32_t lanes = 0;
  int width = 4;
};

/// The next barrier epoch: wraps around (defined) instead of overflowing int32.
inline int32_t nextEpoch(int32_t e) {
  return static_cast<int32_t>(static_cast<uint32_t>(e) + 1u);
}

/// Shadow record of one shared-memory byte for the race and uninitialised-read detectors.
struct ShadowByte {
  int32_t writer = -1, writeInstr = -1, writeEpoch = -1, writeWarpEpoch = -1;
  int32_t reader = -1, readInstr = -1, readEpoch = -1, readWarpEpoch = -1;
  int32_t reader2 = -1, read2Instr = -1;
  /// The accessing thread's own vector-clock entry at the access (mbarrier happens-before).
  uint32_t writeClock = 0, readClock = 0, read2Clock = 0;
  bool written = false;
};

/// Runs one kernel over the whole grid. Lives for one Simulator::run().
class Runner {
 public:
  Runner(const ir::Program& p, const ir::Kernel& k, std::vector<ir::KernelArg>& args,
         const SimOptions& o, Provenance& prov, WorkBudget& budget);
  /// Checks the arguments against the signature; false (with a fault) when they do not fit.
  bool bindArgs();
  void runGrid();
  std::vector<ir::Fault> faults;
  bool fatal = false;
  /// The running CTA's threads (set by runCta, null outside it), for the hang report.
  std::vector<Thread>* ctaThreads = nullptr;
  ir::HangReport hang;
  /// Who waits where in the running CTA (hang_report.cpp): filled once, by the first fatal
  /// deadlock or budget fault.
  void captureHang(std::vector<Thread>& threads, const std::string& reason);
  int64_t elementOps = 0;

  // --- used by the executor files ---
  const ir::Program& program;
  const ir::Kernel& kernel;
  std::vector<ir::KernelArg>& args;
  const SimOptions& opt;
  Provenance& prov;
  std::vector<Instr> code;
  int64_t cta = 0;
  int64_t ctaIdx[3] = {0, 0, 0};
  int32_t ctaEpoch = 0;
  std::vector<int32_t> warpEpoch;
  std::vector<uint8_t> shared;
  std::vector<ShadowByte> shadow;
  std::vector<int64_t> sharedOffset, bufferBytes;  ///< per buffer id
  std::vector<int> argOfBuffer;                    ///< global buffer -> kernel arg index
  std::vector<Value> initVars;  ///< every thread's vars at start (scalar params bound)
  std::unordered_map<const ir::TensorRef*, FastRef> fastRefs;
  int64_t memoBytes = 0;          ///< bytes of FastRef memo tables (capped)
  WorkBudget& budget;             ///< the job's budget (or the run's private one)
  std::vector<int64_t> funcCost;  ///< work units of one call, per scalar function
  std::vector<int64_t> funcOps;   ///< arithmetic nodes per function (elementOps), -1 unknown
  std::deque<std::vector<Value>> framePool;  ///< one frame per call depth (stable addresses)
  size_t callDepth = 0;
  // The debugger's lock step (step_exec.cpp; step_observer.h): on in the observed CTA only.
  bool observing = false;    ///< this launch is observed (SimOptions::observer accepted it)
  bool lockstep = false;     ///< the current CTA is the observed one
  int roundPc = -1;          ///< the round's tile op (the focus thread's when it ran one)
  int64_t roundThreads = 0;  ///< threads that executed a tile op in this round
  bool roundMixed = false;   ///< they executed different statements
  /// The observed CTA's global writes since the last step (GlobalWrite), one entry per chunk
  /// (globalLogged holds arg << 48 | chunk of each), cleared after every step.
  std::vector<GlobalWrite> globalLog;
  std::unordered_set<uint64_t> globalLogged;
  /// Logs the chunks of bytes [off, off + n) of argument `arg` before they are overwritten.
  void logGlobalWrite(int arg, int64_t off, int64_t n);
  int releasedPc = -1;        ///< the first collective / wgmma the scheduler released
  int64_t releasedLanes = 0;  ///< lanes the scheduler released at collectives
  /// A thread of the observed CTA finished a tile op at `pc` (its round ends for it).
  void noteTileOp(const Thread& t, int pc);
  /// Reports one step of the observed CTA to the observer.
  void emitStep(StepKind kind, int pc, int64_t threads, bool mixed, const std::vector<Thread>& all);
  // Source of the store in progress, for provenance.
  int32_t curRegBuffer = -1, curRegSlot = -1, curRegLine = 0;

  void compile(const std::vector<ir::Stmt>& body, std::vector<int>& breaks,
               std::vector<int>& continues);
  void computeFunctionCosts();
  int64_t instrCost(const Instr& in) const;
  void runCta();
  // The parts of runCta (executor.cpp).
  std::vector<Thread> makeCtaThreads();
  bool releaseWarpSyncs(std::vector<Thread>& threads);
  void reportBarrierDeadlock(std::vector<Thread>& threads, bool divergent, int64_t atCta);
  void runThread(Thread& t);
  int line(int instr) const;
  SourceSpan span(int instr) const;
  void fault(const std::string& kind, const std::string& code, int instr, std::string message,
             bool isFatal, std::vector<DiagNote> notes = {});
  /// Charges `units` of work to the budget; once it is spent (or the time is up, or the job was
  /// cancelled) reports E0740 at `instr` with the budget's message, stops the run, returns false.
  bool charge(int64_t units, const Thread& t, int instr) {
    if (budget.charge(units)) [[likely]]
      return true;
    budgetStop(t, instr);
    return false;
  }
  void budgetStop(const Thread& t, int instr);
  /// After `done` of the launch's `n` CTAs, which took `spent` work units: whether the rest would
  /// overrun the budget by far (then it reports E0740 with the projection and returns true).
  bool outOfBudgetAhead(int64_t done, int64_t n, int64_t spent);
  /// Work units of evaluating `e` once (nodes, with the cost of called functions); saturating.
  int64_t exprCost(const ir::Expr& e) const;
  /// Checks what the launch needs against SimOptions::maxMemoryBytes (E0771).
  bool checkMemory();
  void faultAt(const std::string& kind, const std::string& code, SourceSpan sp, std::string message,
               bool isFatal);

  // expressions (expr_eval.cpp)
  Value eval(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr);
  // The larger cases of eval (expr_eval.cpp).
  Value evalLoad(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr);
  Value evalBinary(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr);
  Value evalIntrinsic(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr);
  Value evalCall(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr);
  Value callFunction(int func, const Value* argv, int argc, Thread& t, int instr);

  // memory (memory.cpp)
  const FastRef& fast(const ir::TensorRef& r);
  bool resolve(const FastRef& f, const int64_t* coord, int rank, Thread& t, int instr,
               Resolved& out);
  /// Byte offset of element `m` of `r`; an E0710-E0712 fault when it overflows 64 bits.
  bool byteOffset(const Thread& t, const ir::TensorRef& r, int64_t m, int instr, int64_t& off);
  bool checkAccess(const Thread& t, int b, int64_t off, int64_t nbytes, int64_t alignBytes,
                   int instr, const char* verb);
  /// E0702/E0703: an access to shared bytes an in-flight async copy writes (or, for a store,
  /// reads). False (after the fault) when the access touches such bytes.
  bool checkAsyncPending(const Thread& t, const ir::Buffer& buf, int64_t base, int64_t off,
                         int64_t nbytes, int instr, bool store);
  bool loadElem(Thread& t, const ir::TensorRef& r, int64_t m, int64_t nbytes, uint8_t* out,
                int instr, int64_t alignBytes);
  bool storeElem(Thread& t, const ir::TensorRef& r, int64_t m, int64_t nbytes, const uint8_t* in,
                 int instr, int64_t alignBytes);

  // statements (tile_exec.cpp)
  void execApply(const ir::TileApply& a, Thread& t, int instr);
  void execEwise(const ir::TileEwise& e, Thread& t, int instr);
  void execStore(const ir::Stmt& s, Thread& t, int instr);

  // asynchronous protocol (async_exec.cpp; the API for async families is in async_state.h)
  AsyncState async;
  void resetAsync(int64_t nThreads);
  void execAsync(const ir::AsyncOp& a, Thread& t, int pc);
  /// A blocking mbarrier wait at `pc`: true (and the phase's clocks acquired) when it passes.
  bool tryMbarWait(Thread& t, int pc);
  /// Issues an in-flight operation of thread `t` at `pc` (see async_state.h); returns its id.
  int32_t issueAsync(Thread& t, int pc, AsyncOpRec op);
  /// One cp.async instance: element `dstM` of the shared destination, `srcM` of the global source
  /// (spec §2.5): the source bytes are captured now (src_size / ignore_src zero-fill), the op
  /// joins the thread's open set. False after a fatal fault.
  bool issueCpAsync(const ir::TileApply& a, Thread& t, int instr, int64_t dstM, int64_t srcM);
  /// E0703 when a global store hits the source bytes of an in-flight cp.async.
  void checkGlobalSourceWrite(const Thread& t, int b, int64_t off, int64_t nbytes, int instr);
  /// Lands op `id` (writes its bytes, signals its barrier); `pc` is the landing statement or -1.
  void landOp(int32_t id, int pc);
  /// Writes `n` landed bytes of `op` at shared byte `byte` with the shadow of an async write.
  void landShared(const AsyncOpRec& op, int64_t byte, const uint8_t* data, int64_t n);
  /// Lands the oldest mbarrier-bound operation; false when none is in flight.
  bool retireOneAsync();
  bool waitsOnBarrier(const Thread& t) const;
  void reportAsyncDeadlock(std::vector<Thread>& threads);
  /// W0700 lints at the end of a CTA: async copies never committed or waited on.
  void asyncExitChecks();
  MbarState* barrierOf(const ir::AsyncOp& a, Thread& t, int pc, bool forInit);
  // the asynchronous timeline (timeline_exec.cpp; recorded only when timeline.on)
  TimelineRecorder timeline;
  /// The lane event of kind `k` for `t`'s current execution of `pc` (merged per warp), -1 when
  /// full.
  int32_t tlEvent(ir::AsyncEventKind k, const Thread& t, int pc, int64_t start, int64_t end,
                  bool& fresh);
  /// An instant mbarrier event of `t` at `pc` on `m` (init, arrive, expect_tx).
  void tlMbar(ir::AsyncEventKind k, const Thread& t, int pc, const MbarState& m, int64_t count,
              int64_t bytes);
  /// A commit_group of `t` at `pc`: the group's number and its bytes (`open`: the ops it closes).
  void tlCommit(ir::AsyncEventKind k, const Thread& t, int pc, const std::vector<int32_t>& open,
                int64_t group);
  /// Timeline facts of an issued async copy: its interval, bytes, buffer and stage, barrier.
  void tlIssue(const Thread& t, int pc, AsyncOpRec& op);
  /// A TMA load's box image (ir::TmaBoxImage), linked to the copy's event.
  void tlTmaImage(const ir::TmaCopy& c, const std::vector<int64_t>& coords, int pc, int32_t event);
  /// The lanes in `mask` of `lanes` leave a synchronisation together: their clocks become the
  /// latest.
  static void syncClocks(Thread* const* lanes, uint32_t mask);
  // TMA copies (tma_exec.cpp; spec TC §5.4)
  void execTma(const ir::TmaCopy& c, Thread& t, int pc);
  /// The shared byte address of a TMA load's live mbarrier (E0711, E0790 otherwise).
  bool tmaBarrier(const ir::TmaCopy& c, Thread& t, int pc, int64_t& addr);
  void releaseInto(MbarState& m, Thread& t);
  /// mbarrier.inval: the object dies until the next init (E0799 while an async copy completes on
  /// it).
  void invalidate(MbarState& m, Thread& t, int pc);
  bool checkTxRange(MbarState& m, int pc);
  void tryCompletePhase(MbarState& m, int pc);
  void arriveOn(MbarState& m, int64_t count, Thread& t, int pc);
  void completeTx(MbarState& m, int64_t bytes, int pc);
  /// `who`'s own clock entry (threads, then async-proxy slots); 0 without clocks.
  uint32_t clockOf(int64_t who) const;
  /// True when `other`'s access at `clock` happens before thread `me` through mbarriers.
  bool hbOrdered(int64_t me, int32_t other, uint32_t clock) const;
  /// "thread 5" or "the async proxy".
  std::string actorName(int32_t who) const;
  /// A non-fatal warning fault (deduplicated like fault()).
  void warnAt(const std::string& kind, const std::string& code, int instr, std::string message);

  // wgmma (wgmma_exec.cpp; spec TC §8.7)
  struct WgmmaOp {
    int pc = -1;
    int64_t group = 0;  ///< the issuing warpgroup
    const ir::Wgmma* w = nullptr;
    int64_t r = 0;  ///< m-repeat
    bool accumulate = true;
    std::vector<double> a, b;      ///< A 64 x 16, B 16 x N (b[k·N + n]), scale_a/b applied
    std::vector<Thread*> threads;  ///< the warpgroup's 128 threads
    std::vector<std::pair<int, int64_t>> locked;  ///< (buffer, byte offset) of its 4-byte registers
    std::vector<int64_t> sharedBytes;             ///< shared window bytes it reads
    int waitersLeft = 128;                        ///< threads whose covering wait has not run
    bool done = false;                            ///< D computed
  };
  struct WgmmaThread {
    std::vector<int32_t> open;
    std::deque<std::vector<int32_t>> groups;
    bool fenced = false;
  };
  bool wgmmaUsed = false;
  bool namedBarriers = false;
  std::vector<WgmmaOp> wgOps;
  std::vector<WgmmaThread> wgThreads;
  std::vector<int32_t> wgShared,
      wgSharedOp;  ///< per shared byte: pending wgmma readers, last op + 1
  void wgmmaReset(int64_t nThreads);
  void execWgmmaSync(const ir::AsyncOp& a, Thread& t, int pc);
  /// E0786 (and the fence bookkeeping) for a register access of thread `t`.
  void wgmmaRegisterAccess(Thread& t, int b, int64_t off, int64_t nbytes, int instr, bool store);
  /// E0788 for a write of shared window bytes [byte, byte + n) that an in-flight wgmma reads.
  void wgmmaSharedWrite(int64_t byte, int64_t n, int instr, const std::string& who);
  void completeWgmma(int32_t id);
  /// W0700 at the end of a CTA: a wgmma that some thread issued but never waited for.
  void wgmmaExitChecks();
  bool wgmmaGather(const ir::Wgmma& w, const ir::WgmmaShared& o, bool isA, int64_t r, int64_t k,
                   Thread* const* wg, int pc, std::vector<double>& out,
                   std::vector<int64_t>& bytesRead);
  void execWgmma(const ir::Wgmma& w, int pc, Thread* const* wg);
  /// Issues every wgmma whose warpgroup has fully arrived; true when one ran.
  bool releaseWgmma(std::vector<Thread>& threads);
  // named barriers (named_barrier_exec.cpp; PTX bar.sync / bar.arrive)
  /// One of the CTA's 16 named barriers: the phase in progress (expected == 0: none).
  struct NamedBarrierPhase {
    int64_t expected = 0;          ///< the phase's thread count, fixed by its first arrival
    int64_t arrived = 0;           ///< threads arrived so far
    int openInstr = -1;            ///< the statement of the first arrival
    int64_t openTid = -1;          ///< its thread
    int lastInstr = -1;            ///< the last arrival's statement
    std::vector<Thread*> waiters;  ///< threads stopped at bar.sync
    std::vector<uint32_t> joined;  ///< vector clocks of the arrivals, joined (race detection)
    int64_t latest = 0;            ///< simulated time: the latest arrival
  };
  std::array<NamedBarrierPhase, 16> namedBars{};
  bool ctaSyncUsed = false;  ///< the kernel calls T.cuda.cta_sync (named barrier 0, every thread)
  /// A phase completed during the scheduler's round and released waiters it had already passed.
  bool namedReleased = false;
  void namedBarrierReset();
  /// A thread arrives at named barrier `pc` (bar.sync when `wait`, else bar.arrive). False when it
  /// stops (it waits, or a fault: bad id or count, E0735); true when it goes on (bar.arrive, or the
  /// arrival that completed the phase). Completing a phase releases every waiter of the barrier.
  bool arriveNamedBarrier(Thread& t, int pc, bool wait);
  /// E0734 when a thread waits at a named barrier and nothing can run: names the barrier, the
  /// arrivals against the count, the waiting warps and what the others are doing. True if reported.
  bool reportNamedBarrierDeadlock(std::vector<Thread>& threads);
  /// E0789 when a warpgroup waits at a wgmma some of its threads will never reach.
  bool reportWgmmaParticipation(std::vector<Thread>& threads);

  // warp collectives (collective_exec.cpp)
  /// Runs every warp collective whose lanes have all arrived; reports a warp that waits at one that
  /// can never complete. True when some collective ran.
  bool releaseCollectives(std::vector<Thread>& threads);
  std::string opName(int pc) const;
  bool collectiveElem(const ir::TileApply& a, int i, const int64_t* own, const int64_t* atom,
                      Thread& t, int pc, Resolved& out);
  /// One 32-bit fragment register `m` of operand `i` in lane `t` (E0783 when never written).
  bool readFragment(const ir::TileApply& a, int i, int64_t m, Thread& t, int pc, int reg,
                    uint32_t& word);
  bool writeFragment(const ir::TileApply& a, int i, int64_t m, Thread& t, int pc, const void* word);
  /// Per collective statement: the slots (shared offsets) of its static operands for every warp,
  /// repeat, lane and register (row), resolved once with the ownership checked.
  struct CollectivePlan {
    bool built = false;
    int64_t warps = 1;
    std::vector<int64_t> reps, per;       ///< per operand: own repeats, entries per repeat
    std::vector<std::vector<int64_t>> m;  ///< per operand; empty when its start is dynamic
  };
  std::unordered_map<const ir::TileApply*, CollectivePlan> collectivePlans;
  bool planCollective(const ir::TileApply& a, int pc, Thread& ctx, CollectivePlan& plan);
  void execMatrix(const ir::TileApply& a, int pc, Thread* const* lanes, int64_t warp);
  void execLaneCollective(const ir::TileApply& a, int pc, Thread* const* lanes, int64_t warp);
  void execShuffleIntrinsic(const ir::Stmt& st, int pc, Thread* const* lanes, uint32_t group,
                            int64_t warp);

  // shared-memory bank counts (bank_stats.cpp)
  /// One lane's part of a thread-level shared access (`site`: which access of the statement,
  /// `rep`: the repeat): physical byte address in the CTA's shared window, width in bytes.
  void recordShared(const Thread& t, int instr, int site, int64_t rep, int64_t physByte, int width,
                    const ir::TensorRef& ref, bool store);
  /// One ldmatrix/stmatrix warp instruction of `warp` (repeat `rep` of its lanes' `execution`):
  /// its 8·count row addresses into shared buffer `buffer`.
  void recordMatrixAccess(int instr, int64_t warp, int64_t execution, int64_t rep, int buffer,
                          std::span<const int64_t> rowAddresses);
  /// Counts every collected warp instruction (called whenever all threads have stopped).
  void flushShared();
  /// The counts in program order (after the run).
  std::vector<ir::SharedAccessCount> sharedCounts() const;
  /// Physical shared byte of element `m` of `r` (the buffer's swizzle applied).
  int64_t sharedByte(const ir::TensorRef& r, int64_t m) const;
  bool trackShared = false;
  int64_t sampleCta = -1;  ///< the CTA whose warp instructions are sampled (the first to flush)
  std::unordered_map<SharedKey, PendingSharedAccess, SharedKeyHash> pendingShared;
  struct SharedStat {
    ir::SharedAccessCount count;
    int instr = 0, site = 0;
    std::unordered_map<int64_t, int> sampledPerWarp;  ///< samples kept so far per warp
  };
  /// Whether to keep `warp`'s next instruction of `s` in `s.count.samples`: the sampled CTA only,
  /// kSharedSamplesPerWarp per warp (counted here).
  bool keepSample(SharedStat& s, int64_t warp);
  std::vector<SharedStat> sharedStats;

 private:
  int64_t m_sharedBytes = 0;
  int64_t m_faultsSeen = 0;
  std::vector<std::string> m_faultKeys;
};

}  // namespace tirx::sim
