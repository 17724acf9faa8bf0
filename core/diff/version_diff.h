// Two versions of a kernel script compared at every level at once (`tirx diff A B`, the studio's
// Diff dock): the script (a line diff), the register-tile layouts (for every local buffer present
// in both, the elements whose owners — warp, lane, register — changed), the shared tiles (for
// every shared buffer present in both, the elements whose byte offset and bank changed, and each
// shared-memory statement's bank conflicts before and after when both ran on the simulator),
// the generated CUDA C++,
// PTX and SASS aligned by script line (each version's own script ↔ CUDA ↔ PTX ↔ SASS line maps,
// paired through the script diff), the resource report (registers, spills, shared memory), the
// verification results (pass/fail, max error) and the timings. A version is a script file, a
// script held in memory (the editor's buffer), or a `.tirxb` bundle: a bundle's script is
// compiled again here for its code and line maps, and its results and timings are the recorded
// ones (docs/decisions.md, DIFF-1). Everything is a value; the text and JSON forms are
// `diffToText` / `diffToJson` (schema: docs/cli.md, "tirx diff").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/diag/budget.h"
#include "core/diag/diagnostic.h"
#include "core/diag/result.h"
#include "core/diff/line_diff.h"
#include "core/layout/bank_model.h"
#include "core/toolchain/toolchain.h"
#include "core/verify/bundle.h"
#include "core/verify/verify.h"

namespace tirx::diff {

/// One side of the comparison.
struct Version {
  std::string path;        ///< as given (may be empty for an editor buffer)
  std::string label;       ///< "a.py", "a.tirxb (bundle)", "editor buffer"
  std::string scriptFile;  ///< the name the script is compiled under (its #line file)
  std::string script;
  std::optional<verify::Bundle> bundle;  ///< set for a bundle: results and timings come from it
};

/// Reads a script file or a bundle (a `.tirxb` name, or text that starts with '{'). A Status for
/// an unreadable file, one over the script or bundle limit, or a malformed or newer bundle.
Result<Version> loadVersion(const std::string& path);
/// A script held in memory (the studio's editor buffer).
Version versionFromText(std::string script, std::string scriptFile, std::string label);

struct DiffOptions {
  /// Where file versions are verified: the simulator, or a GPU (cuda:N, an ssh host) whose
  /// executor each side's verify makes with that side's script (results name it by its text).
  driver::DeviceSpec device;
  std::string arch = "sm_90";
  bool verify = true;       ///< run both versions (off: results and run timings are left empty)
  int maxCells = 64;        ///< moved cells listed per buffer (all are counted)
  int maxCodeLines = 4000;  ///< changed generated lines listed per language (all are counted)
  BudgetLimits budget;      ///< per verify
  CancelTokenPtr cancel;
};

/// What happened to one side in the pipeline.
struct SideInfo {
  std::string path, label, kind;  ///< kind: "file", "buffer" or "bundle"
  std::string recordedOn;         ///< a bundle's device name
  bool checked = false;           ///< the front end accepted the script (layouts compared)
  bool compiled = false;          ///< CUDA and PTX exist
  std::string compileStatus;      ///< why not (a tool could not run), empty otherwise
  Diagnostics errors;             ///< the script's errors (front end, codegen, toolchain)
};

/// One owner of an element of a register tile: thread (warp, lane) and register slot.
struct CellOwner {
  int64_t thread = -1, slot = -1;
  int64_t warp() const { return thread < 0 ? -1 : thread / 32; }
  int64_t lane() const { return thread < 0 ? -1 : thread % 32; }
  int replicas = 0;          ///< further owners beyond this one (replicated layouts)
  std::string text() const;  ///< "w1 l5 r2", "+1" appended when replicated
};

struct MovedCell {
  int64_t flat = 0;
  std::vector<int64_t> coord;
  CellOwner before, after;
};

/// The largest tile whose per-element owners a LayoutDiff carries (64K elements).
inline constexpr int64_t kMaxGridCells = int64_t(1) << 16;

/// One register tile (a `T.alloc_local` buffer) of one kernel.
struct LayoutDiff {
  enum class Status { Compared, OnlyA, OnlyB, ShapeChanged, NotTabulated };
  Status status = Status::Compared;
  std::string kernel, buffer;
  std::vector<int64_t> shape, shapeB;  ///< shapeB differs only for ShapeChanged
  std::string layoutA, layoutB;        ///< TileLayout::toString
  int lineA = 0, lineB = 0;            ///< the allocation's script line
  int64_t cells = 0, moved = 0;        ///< elements compared, elements whose owners changed
  std::vector<int64_t> movedFlat;      ///< every moved element (row-major), for the grid
  std::vector<MovedCell> listed;       ///< the first maxCells of them
  /// Every element's first owner in A and in B (row-major; the studio's grid), for compared
  /// tiles of at most kMaxGridCells elements; empty otherwise.
  std::vector<CellOwner> ownersA, ownersB;
  std::string note;  ///< why not compared, for the other statuses
};

/// Where an element of a shared tile lives: its byte offset from the tile's start (the layout's
/// element offset, swizzled, times the element size) and the 4-byte bank of that byte counted
/// from the tile's start (docs/decisions.md, DIFF-5).
struct SharedPlace {
  int64_t byte = -1;
  int bank() const { return byte < 0 ? -1 : bankOfByte(byte); }
  std::string text() const;  ///< "byte 144 bank 4"
};

struct MovedElement {
  int64_t flat = 0;
  std::vector<int64_t> coord;
  SharedPlace before, after;
};

/// One shared-memory statement's traffic on one tile, summed over the launches of a simulator
/// verify (verify::KernelRun::sharedAccesses): warp instructions, wavefronts, the wavefronts
/// without conflicts, and the worst conflict degree of one phase (1 = none).
struct BankCounts {
  int64_t instructions = 0, wavefronts = 0, idealWavefronts = 0;
  int maxWays = 0;
};

/// A statement of A and its counterpart in B (paired through the script diff's line pairs and
/// the op), or a statement of one version only.
struct SharedAccessDelta {
  int lineA = 0, lineB = 0;  ///< 0 on a side that has no such statement
  std::string opA, opB;      ///< "ld.shared.b32", "store tile", …
  bool inA = false, inB = false;
  BankCounts a, b;
  bool changed() const;
};

/// One shared tile (a `T.alloc_shared` buffer) of one kernel.
struct SharedLayoutDiff {
  LayoutDiff::Status status = LayoutDiff::Status::Compared;
  std::string kernel, buffer;
  std::vector<int64_t> shape, shapeB;  ///< shapeB differs only for ShapeChanged
  std::string dtypeA, dtypeB;
  std::string layoutA, layoutB;      ///< the TileLayout, or the ComposeLayout with its swizzle
  int lineA = 0, lineB = 0;          ///< the allocation's script line
  int64_t cells = 0;                 ///< elements compared
  int64_t moved = 0;                 ///< elements whose byte offset changed
  int64_t bankMoved = 0;             ///< of those, the elements whose bank changed
  std::vector<int64_t> movedFlat;    ///< every moved element (row-major), for the grid
  std::vector<MovedElement> listed;  ///< the first maxCells of them
  /// Every element's place in A and in B (row-major; the studio's grid), for compared tiles of at
  /// most kMaxGridCells elements; empty otherwise.
  std::vector<SharedPlace> placesA, placesB;
  std::string note;  ///< why not compared, for the other statuses
  /// Bank conflicts per statement, when both versions ran on the simulator (accessesCounted);
  /// accessNote says why not otherwise.
  bool accessesCounted = false;
  std::string accessNote;
  std::vector<SharedAccessDelta> accesses;
  bool changed() const;
};

/// The generated lines of one pair of script lines (0: lines no script line produced) that differ.
struct CodeGroup {
  int scriptA = 0, scriptB = 0;     ///< 0 on a side that has no such line
  std::vector<int> linesA, linesB;  ///< generated line numbers (1-based), in order
  std::vector<std::string> textA, textB;
  std::vector<LineEdit> edits;  ///< over linesA/linesB by position (1-based)
};

struct CodeDiff {
  std::string language;    ///< "cuda", "ptx", "sass"
  bool available = false;  ///< both versions have this text
  std::string note;        ///< why not
  int added = 0, removed = 0, changedScriptLines = 0;
  std::vector<CodeGroup> groups;  ///< only differing groups, in version B's script order
  bool truncated = false;         ///< more than maxCodeLines changed lines: later groups left out
};

struct ResourceDelta {
  std::string kernel;
  bool inA = false, inB = false;
  toolchain::KernelResources a, b;
  bool changed() const;
};

struct ResultSide {
  bool ran = false, passed = false;
  std::string source;  ///< "verified on sim", "recorded on NVIDIA H200 (cuda:0)", "not verified: …"
  int checks = 0, failed = 0, faults = 0, errors = 0;
  double maxAbs = 0, maxRel = 0;
  std::string firstProblem;  ///< the first failed check, fault or error, one line
  /// The device could not run it (no driver, an unreachable host): `tirx diff` exits 3.
  bool unavailable = false;
};

struct CheckDelta {
  std::string nameA, nameB;
  bool inA = false, inB = false, passA = false, passB = false;
  double maxAbsA = 0, maxAbsB = 0, maxRelA = 0, maxRelB = 0;
  int64_t mismatchesA = 0, mismatchesB = 0;
};

struct TimingSide {
  double compileMs = 0;  ///< script → PTX/cubin/SASS in this process
  double runMs = 0;      ///< kernel runs (sum over launches)
  double verifyMs = 0;   ///< the whole verify
  std::string device;
};

struct DiffReport {
  SideInfo a, b;
  std::vector<std::string> scriptA, scriptB;
  std::vector<LineEdit> scriptEdits;
  std::vector<LayoutDiff> layouts;
  std::vector<SharedLayoutDiff> shared;
  CodeDiff cuda, ptx, sass;
  std::vector<ResourceDelta> resources;
  ResultSide resultA, resultB;
  std::vector<CheckDelta> checks;
  TimingSide timingA, timingB;
  bool cancelled = false;
  /// Nothing differs but the timings: same script, owners, code, resources and results.
  bool identical() const;
};

/// Compare two versions. Slow (compiles both, verifies both): a worker thread in the studio. Never
/// throws; a side that does not compile still gets its script and whatever sections it reaches.
DiffReport diffVersions(const Version& a, const Version& b, const DiffOptions& options = {});

/// The script line of every SASS line of nvdisasm's `-g` output (1-based, [0] unused) from its
/// `//## File "…", line N` records whose file's base name is that of `scriptFile`; 0 elsewhere.
std::vector<int> sassLineToScriptLine(const std::string& sass, const std::string& scriptFile);

/// `tirx diff`'s text (sections in a fixed order, each headed `== name`) and JSON.
std::string diffToText(const DiffReport& r);
std::string diffToJson(const DiffReport& r, int indent = 2);

}  // namespace tirx::diff
