// The TMA spellings (ptx_tma.h; spec TC §5.1, §5.3). A spelling is walked token by token in PTX's
// order: `cp` `.async` `.bulk` `.tensor` `.Nd` then, for a load, `.shared::cta|.shared::cluster`
// `.global` [`.tile`] `.mbarrier::complete_tx::bytes`, and for a store `.global` `.shared::cta`
// [`.tile`] `.bulk_group`. The first token that fits nowhere is reported with what was expected
// there; known but unsupported qualifiers (multicast, im2col, cache hints, ...) say so.
#include "core/ptx/ptx_tma.h"

#include <array>

#include "core/ptx/ptx_tokens.h"

namespace tirx {
namespace {

using Tok = PtxToken;

std::vector<Tok> split(std::string_view op) {
  return splitPtxTokens(op);
}

bool fail(PtxParseError* e, std::string msg, int column, int length) {
  return ptxTokenError(e, std::move(msg), column, length);
}

struct Unsupported {
  std::string_view prefix;
  std::string_view why;
};

// Qualifiers of the PTX grammar this table does not model, with the reason given to the user.
const std::array<Unsupported, 6> kUnsupported = {{
    {".multicast::cluster",
     "multicast TMA needs a thread-block cluster launch, which TIRx Studio does not support"},
    {".im2col", "im2col load mode is not supported (tile mode only)"},
    {".tile::gather4", "gather4 is an sm_100 load mode and is not supported"},
    {".tile::scatter4", "scatter4 is an sm_100 store mode and is not supported"},
    {".L2::cache_hint", "cache hints (.L2::cache_hint) are not supported"},
    {".cta_group", "cta_group is an sm_100 qualifier and is not supported"},
}};

const char* kLoadTail = ".mbarrier::complete_tx::bytes";

std::string_view tokenDescription(std::string_view t, bool store) {
  if (t == "cp") return "copy";
  if (t == ".async") return "asynchronous: the copy completes later, in the async proxy";
  if (t == ".bulk") return "bulk copy by the Tensor Memory Accelerator, issued by one thread";
  if (t == ".tensor")
    return "a box of a tensor described by a tensor map (CUtensorMap) the host encodes";
  if (t.size() == 3 && t[0] == '.' && t[1] >= '1' && t[1] <= '5' && t[2] == 'd')
    return "the tensor rank: the box and the coordinates have this many dimensions";
  if (t == ".shared::cta")
    return store ? "source: shared memory of the issuing CTA"
                 : "destination: shared memory of the issuing CTA (PTX ISA 8.6+)";
  if (t == ".shared::cluster")
    return "destination: shared memory of a CTA in the cluster (the issuing CTA without a cluster "
           "launch)";
  if (t == ".global")
    return store ? "destination: global memory through the tensor map"
                 : "source: global memory through the tensor map";
  if (t == ".tile")
    return "tile load mode: the box is a dense rectangle of the tensor (the default)";
  if (t == kLoadTail)
    return "completion: the copied bytes complete transactions on the mbarrier given by mbar=";
  if (t == ".bulk_group")
    return "completion: the store joins the issuing thread's bulk async group "
           "(cp.async.bulk.commit_group / wait_group)";
  return "";
}

}  // namespace

bool isTmaSpelling(std::string_view opcode) {
  return opcode.rfind("cp.async.bulk.tensor", 0) == 0 ||
         opcode.rfind("cp.reduce.async.bulk.tensor", 0) == 0;
}

std::optional<PtxInstruction> parseTmaOpcode(std::string_view opcode, PtxParseError* error) {
  const std::vector<Tok> toks = split(opcode);
  const int len = static_cast<int>(opcode.size());
  if (opcode.rfind("cp.reduce", 0) == 0)
    return fail(error,
                "cp.reduce.async.bulk.tensor (TMA reduction) is not supported; TMA loads and "
                "stores are",
                0, 9),
           std::nullopt;
  size_t i = 4;  // after cp .async .bulk .tensor
  auto at = [&](size_t k) -> const Tok* { return k < toks.size() ? &toks[k] : nullptr; };
  auto expected = [&](size_t k, const std::string& what) {
    const Tok* t = at(k);
    if (!t) return fail(error, "missing " + what + " at the end of " + std::string(opcode), len, 0);
    for (const Unsupported& u : kUnsupported)
      if (t->text.rfind(u.prefix, 0) == 0)
        return fail(error, std::string(u.why), t->column, static_cast<int>(t->text.size()));
    return fail(error,
                "expected " + what + " in " + std::string(opcode) + ", found '" + t->text + "'",
                t->column, static_cast<int>(t->text.size()));
  };
  if (toks.size() < 4 || toks[1].text != ".async" || toks[2].text != ".bulk" ||
      toks[3].text != ".tensor")
    return expected(std::min<size_t>(toks.size(), 3), "'cp.async.bulk.tensor'"), std::nullopt;
  const Tok* dim = at(i);
  if (!dim || dim->text.size() != 3 || dim->text[1] < '1' || dim->text[1] > '5' ||
      dim->text[2] != 'd')
    return expected(i, "the rank ('.1d' to '.5d')"), std::nullopt;
  PtxInstruction in;
  in.family = PtxFamily::BulkTensor;
  in.opcode = std::string(opcode);
  in.tensorRank = dim->text[1] - '0';
  ++i;
  const Tok* first = at(i);
  if (first && first->text == ".global") {
    in.tmaStore = true;
    ++i;
    if (!at(i) || at(i)->text != ".shared::cta")
      return expected(i, "the source '.shared::cta' of a store"), std::nullopt;
    in.space = "shared::cta";
    ++i;
  } else if (first && (first->text == ".shared::cta" || first->text == ".shared::cluster")) {
    in.space = first->text.substr(1);
    ++i;
    if (!at(i) || at(i)->text != ".global")
      return expected(i, "the source '.global' of a load"), std::nullopt;
    ++i;
  } else {
    return expected(i,
                    "the destination ('.shared::cta' or '.shared::cluster' for a load, '.global' "
                    "for a store)"),
           std::nullopt;
  }
  if (at(i) && at(i)->text == ".tile") ++i;
  const std::string tail = in.tmaStore ? ".bulk_group" : kLoadTail;
  if (!at(i) || at(i)->text != tail)
    return expected(i, in.tmaStore ? "the completion '.bulk_group'"
                                   : "the completion '.mbarrier::complete_tx::bytes'"),
           std::nullopt;
  ++i;
  if (at(i)) return expected(i, "the end of the instruction"), std::nullopt;
  for (size_t k = 1; k < toks.size(); ++k) in.qualifiers.push_back(toks[k].text);
  in.minSm = 90;
  in.minArity = in.maxArity = 2;
  PtxOperandSpec sh{OperandRole::Address, in.tmaStore ? "src" : "dst", "", 8, 1, {}, false, "", {}};
  PtxOperandSpec gl{OperandRole::Address, in.tmaStore ? "dst" : "src", "", 8, 1, {}, false, "", {}};
  in.operands =
      in.tmaStore ? std::vector<PtxOperandSpec>{gl, sh} : std::vector<PtxOperandSpec>{sh, gl};
  in.description =
      in.tmaStore
          ? "TMA store: copy a box of shared memory to a global tensor through its tensor map"
          : "TMA load: copy a box of a global tensor into shared memory, completing bytes on an "
            "mbarrier";
  return in;
}

std::vector<std::string> tmaSpellings() {
  std::vector<std::string> out;
  for (int r = 1; r <= 5; ++r) {
    const std::string base = "cp.async.bulk.tensor." + std::to_string(r) + "d";
    for (const char* dst : {".shared::cluster", ".shared::cta"})
      for (const char* tile : {"", ".tile"})
        out.push_back(base + dst + ".global" + tile + kLoadTail);
    for (const char* tile : {"", ".tile"})
      out.push_back(base + ".global.shared::cta" + tile + ".bulk_group");
  }
  return out;
}

PtxFamilyInfo tmaFamilyInfo() {
  return {PtxFamily::BulkTensor,
          "cp.async.bulk.tensor",
          "TMA tensor copies between global memory (a host-encoded tensor map) and shared memory "
          "(sm_90)",
          {"cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
           "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"}};
}

std::vector<PtxTokenInfo> describeTmaTokens(std::string_view opcode) {
  std::vector<PtxTokenInfo> out;
  const bool store = opcode.find(".bulk_group") != std::string_view::npos;
  for (const Tok& t : split(opcode))
    out.push_back({t.text, t.column, std::string(tokenDescription(t.text, store))});
  return out;
}

std::string tmaMarkdown() {
  return "\n## TMA (cp.async.bulk.tensor)\n\n"
         "Tile-mode tensor copies of rank 1 to 5 (spec TC §5), sm_90+. Operands: load `dst` "
         "(shared), `src` "
         "(global tensor or region); store `dst` (global), `src` (shared). Keywords: `box=`, "
         "`coords=`, "
         "`mbar=` (loads), `swizzle=`, `oob_fill=` (\"TMA copies\" above).\n\n"
         "| direction | syntax | completion |\n|---|---|---|\n"
         "| load | "
         "`cp.async.bulk.tensor.{1..5}d.{shared::cta\\|shared::cluster}.global[.tile].mbarrier::"
         "complete_tx::bytes` | "
         "complete_tx of the full box bytes on `mbar` |\n"
         "| store | `cp.async.bulk.tensor.{1..5}d.global.shared::cta[.tile].bulk_group` | the "
         "issuing thread's bulk "
         "async group |\n\n"
         "Refused: multicast, im2col, gather4/scatter4, L2 cache hints, cta_group and "
         "`cp.reduce.async.bulk.tensor`.\n";
}

}  // namespace tirx
