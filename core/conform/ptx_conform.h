// PTX conformance through the real pipeline (`tirx ptx-conform`): every spelling of the
// instruction table becomes a small piece of a generated TIRx kernel that loads the case's input
// vectors (core/ptx/ptx_vectors.h) from global memory into register tiles, applies the
// instruction, and stores the result — so sema, codegen, NVRTC and the runner are exercised. The
// kernels run on an ir::Executor (the simulator, or the GPU through the runner child process) and
// every output is compared with the simulator's model of the instruction (sim::execPtx; memory
// instructions copy): exact spellings must give the same bits, approximate ones must stay within
// their documented bound (sim::checkApproximate). Device answers can be recorded as JSON, and a
// recorded file can be read back and replayed against the simulator (tests/core/tst_ptx_conform).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/result.h"
#include "core/ir/values.h"
#include "core/ptx/ptx_vectors.h"

namespace tirx::conform {

/// Input vectors per arithmetic case (4 warps × 32 lanes × 3 registers).
inline constexpr int kArithmeticVectors = 384;

struct ConformOptions {
  std::string prefix;  ///< only spellings starting with this (`--filter`)
  int sm = 90;         ///< target: spellings needing more are skipped
  int arithmeticPerKernel = 48;
  int memoryPerKernel = 96;
  bool compile = false;  ///< also compile every generated kernel (NVRTC + nvJitLink)
};

enum class Verdict {
  Match,        ///< same bits as the simulator on every vector
  WithinBound,  ///< approximate: every result within the documented bound
  Mismatch,     ///< some bits differ from the simulator
  BeyondBound,  ///< approximate: some result outside the bound
  Skipped,      ///< not run (target too old, not usable in a tile op)
  Failed,       ///< the kernel did not check, compile or run
};
std::string_view verdictName(Verdict v);

/// One differing vector: inputs, the simulator's bits, the device's bits.
struct VectorDiff {
  PtxVector inputs{};
  uint64_t model = 0, device = 0;
  std::string note;  ///< "NaN payload only", or the bound check's message
};

struct CaseResult {
  std::string opcode;
  int arity = 0;
  bool memory = false;
  int sources = 1;  ///< source operands per vector (memory: the element)
  Verdict verdict = Verdict::Skipped;
  std::string reason;                ///< why skipped or failed
  int differing = 0;                 ///< vectors that differ (or are beyond the bound)
  std::vector<VectorDiff> examples;  ///< the first few
  std::vector<PtxVector> inputs;     ///< the vectors run
  std::vector<uint64_t> deviceBits;  ///< the device's result per vector (empty unless ran)
};

struct ConformReport {
  std::string device;  ///< "simulator", "NVIDIA H200 (cuda:0)"
  int sm = 0;
  int kernels = 0;  ///< generated kernels run
  std::vector<CaseResult> cases;
  int count(Verdict v) const;
  bool passed() const;  ///< no mismatch, no result beyond its bound, nothing failed
};

/// One generated kernel: its script and the cases it covers (indices into the case list).
struct ConformKernel {
  std::string name, script;
  std::vector<size_t> cases;
};

/// The generated kernels for `cases` (cases that cannot run get a skip reason instead).
std::vector<ConformKernel> conformKernels(const std::vector<PtxConformCase>& cases,
                                          const ConformOptions& options,
                                          std::vector<std::string>& skipReasons);

using Progress = std::function<void(int done, int total)>;

/// Run the conformance cases on `device`. A Status only for an environment failure of the device
/// (no driver, no runner); kernel errors are Failed cases.
Result<ConformReport> runConformance(ir::Executor& device, const ConformOptions& options,
                                     const Progress& progress = {});

/// The report as JSON (`--json`): counts, and every case that is not a plain match.
std::string reportJson(const ConformReport& report);
/// The device's answers as JSON (`--record FILE`): per case a digest of the inputs (the vectors
/// are regenerated from the generator version) and of the result bits; the bits themselves
/// (base64, little-endian) only where they are needed to judge the simulator later — approximate
/// spellings and results that differ from the simulator at record time. Memory cases that copied
/// their elements (all of them, on a working device) are only counted; the others are listed.
/// Read back with readRecord().
std::string recordJson(const ConformReport& report);

/// A case of a recorded file: explicit inputs or regenerated ones (checked against the digest).
struct RecordedCase {
  std::string opcode;
  int arity = 0;
  std::vector<PtxVector> inputs;
  std::vector<uint64_t> outputs;  ///< the device's bits; empty when only the digest was kept
  uint64_t outputsDigest = 0;     ///< ptxResultsDigest of the device's bits
  bool memory = false, copied = true;
};

/// 64-bit FNV-1a over results of `bits` width each.
uint64_t ptxResultsDigest(const std::vector<uint64_t>& results, int bits);
struct Record {
  std::string device, source;
  int sm = 0;
  int memoryCasesCopied = 0;  ///< memory cases that copied (not listed individually)
  std::vector<RecordedCase> cases;
};
/// Parse a recorded file (recordJson's format, or the hand-derived format with explicit inputs).
/// Fails on malformed JSON, an unknown spelling, another generator version or a digest mismatch.
Result<Record> readRecord(std::string_view json);

/// Compare device results with the simulator's model for one case.
CaseResult compareCase(const PtxConformCase& c, const std::vector<PtxVector>& inputs,
                       const std::vector<uint64_t>& deviceBits);
/// Replay a recorded case against the simulator: compareCase() on the recorded bits, or, when only
/// their digest was kept, the digest of the simulator's bits (Mismatch, reason "digest", when it
/// differs). Memory cases: Match when the device copied.
CaseResult replayCase(const PtxConformCase& c, const RecordedCase& recorded);

}  // namespace tirx::conform
