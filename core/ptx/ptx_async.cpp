// cp.async spellings (see ptx_async.h): `cp.async` + `.ca|.cg` + `.shared|.shared::cta` +
// `.global` + an optional `.L2::64B|.L2::128B|.L2::256B` prefetch hint. `.L2::cache_hint`
// (a runtime cache policy operand) and the bulk forms are refused with a message naming them.
#include "core/ptx/ptx_async.h"

#include <vector>

#include "core/ptx/ptx_tokens.h"

namespace tirx {

namespace {

using Tok = PtxToken;

std::vector<Tok> split(std::string_view s) {
  return splitPtxTokens(s);
}

std::nullopt_t fail(PtxParseError* e, std::string msg, int col, int len) {
  if (e) *e = {std::move(msg), col, len};
  return std::nullopt;
}

}  // namespace

bool isAsyncCopyFamilyName(std::string_view family) {
  return family == "cp";
}

std::optional<PtxInstruction> parseCpAsyncOpcode(std::string_view opcode, PtxParseError* error) {
  const std::vector<Tok> t = split(opcode);
  const int end = static_cast<int>(opcode.size());
  auto at = [&](size_t i) { return i < t.size() ? t[i].column : end; };
  auto len = [&](size_t i) { return i < t.size() ? static_cast<int>(t[i].text.size()) : 0; };
  if (t.size() < 2 || t[1].text != ".async")
    return fail(error, "expected 'cp.async' (the only cp family here)", at(1), len(1));
  if (t.size() > 2 && t[2].text == ".bulk")
    return fail(error,
                "cp.async.bulk is not a cp.async tile op: bulk copies are issued by one thread on "
                "an mbarrier",
                at(2), len(2));
  if (t.size() < 3 || (t[2].text != ".ca" && t[2].text != ".cg"))
    return fail(
        error,
        "cp.async needs a cache operator: .ca (L1 and L2, 4/8/16 bytes) or .cg (L2 only, 16 bytes)",
        at(2), len(2));
  if (t.size() < 4 || (t[3].text != ".shared" && t[3].text != ".shared::cta"))
    return fail(error, "cp.async copies into shared memory: expected .shared or .shared::cta",
                at(3), len(3));
  if (t.size() < 5 || t[4].text != ".global")
    return fail(error,
                "cp.async copies from global memory: expected .global after the destination space",
                at(4), len(4));
  PtxInstruction in;
  in.opcode = std::string(opcode);
  in.family = PtxFamily::CpAsync;
  for (size_t i = 1; i < t.size(); ++i) in.qualifiers.push_back(t[i].text.substr(1));
  in.space = t[3].text.substr(1);
  for (size_t i = 5; i < t.size(); ++i) {
    const std::string& q = t[i].text;
    if (q == ".L2::cache_hint")
      return fail(
          error,
          ".L2::cache_hint (a runtime cache-policy operand) is not supported by this checker",
          at(i), len(i));
    if (i == 5 && (q == ".L2::64B" || q == ".L2::128B" || q == ".L2::256B")) continue;
    return fail(error,
                "unexpected qualifier '" + q +
                    "' of cp.async: only an .L2::64B/128B/256B prefetch hint may follow .global",
                at(i), len(i));
  }
  in.type = t[2].text;  // the cache operator decides the chunk sizes
  PtxOperandSpec dst{OperandRole::Address, "dst", ".b8", 8, 1, {}, false, "r", {}};
  PtxOperandSpec src{OperandRole::Address, "src", ".b8", 8, 1, {}, false, "l", {}};
  in.operands = {dst, src};
  in.minArity = in.maxArity = 2;
  in.minSm = 80;
  in.description =
      t[2].text == ".cg"
          ? "asynchronous copy of 16 bytes global -> shared, cached in L2 only (sm_80)"
          : "asynchronous copy of 4, 8 or 16 bytes global -> shared, cached in L1 and L2 (sm_80)";
  return in;
}

PtxFamilyInfo cpAsyncFamilyInfo() {
  return {PtxFamily::CpAsync,
          "cp",
          "cp.async: asynchronous global -> shared copy of chunk_bytes per atom, completed by "
          "commit/wait groups (sm_80)",
          {"cp.async.cg.shared.global", "cp.async.ca.shared.global",
           "cp.async.cg.shared.global.L2::128B", "cp.async.ca.shared::cta.global.L2::64B"}};
}

}  // namespace tirx
