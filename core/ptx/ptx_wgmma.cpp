// The wgmma.mma_async spellings (ptx_wgmma.h; spec TC §8.1, §8.2). A spelling is walked token by
// token in PTX's order: `wgmma` `.mma_async` `.sync` `.aligned` `.m64nNk16` `.f32` then the A and
// B types (one type for both). The first token that fits nowhere is reported with what was
// expected there; PTX shapes and types this table does not model say so.
#include "core/ptx/ptx_wgmma.h"

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

/// N of a `.m64nNk16` token, 0 when the token is not of that form (any N).
int shapeN(std::string_view t, int* k = nullptr) {
  if (t.rfind(".m64n", 0) != 0) return 0;
  size_t i = 5;
  int n = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9' && n < 100000) n = n * 10 + (t[i++] - '0');
  if (i >= t.size() || t[i] != 'k') return 0;
  int kk = 0;
  for (size_t j = i + 1; j < t.size(); ++j) {
    if (t[j] < '0' || t[j] > '9') return 0;
    kk = kk * 10 + (t[j] - '0');
    if (kk > 1000) return 0;
  }
  if (k) *k = kk;
  return n;
}

std::string_view tokenDescription(std::string_view t) {
  if (t == "wgmma")
    return "warpgroup matrix multiply-accumulate (sm_90a): four warps compute D (64 x N) together";
  if (t == ".mma_async")
    return "asynchronous MMA: it completes at a covering wgmma.wait_group; D and A registers are "
           "off limits until then";
  if (t == ".sync") return "the executing thread waits until every thread of the warp executes it";
  if (t == ".aligned")
    return "all threads of the warpgroup execute the same wgmma under uniform control flow";
  if (shapeN(t) > 0)
    return "D 64 x N += A 64 x 16 * B 16 x N (N/2 f32 accumulator registers per thread)";
  if (t == ".f32") return "f32 accumulators";
  if (t == ".bf16") return "bfloat16 A and B elements";
  if (t == ".f16") return "binary16 A and B elements";
  return "";
}

}  // namespace

bool isWgmmaSpelling(std::string_view opcode) {
  return opcode == "wgmma" || opcode.rfind("wgmma.", 0) == 0;
}

std::optional<PtxInstruction> parseWgmmaOpcode(std::string_view opcode, PtxParseError* error) {
  const std::vector<Tok> toks = split(opcode);
  const int len = static_cast<int>(opcode.size());
  auto at = [&](size_t k) -> const Tok* { return k < toks.size() ? &toks[k] : nullptr; };
  auto expected = [&](size_t k, const std::string& what) {
    const Tok* t = at(k);
    if (!t) return fail(error, "missing " + what + " at the end of " + std::string(opcode), len, 0);
    return fail(error,
                "expected " + what + " in " + std::string(opcode) + ", found '" + t->text + "'",
                t->column, static_cast<int>(t->text.size()));
  };
  for (const Tok& t : toks)
    if (t.text.empty() || t.text == ".")
      return fail(error, "empty qualifier after '.' in '" + std::string(opcode) + "'", t.column, 1),
             std::nullopt;
  if (const Tok* t = at(1);
      t && (t->text == ".fence" || t->text == ".commit_group" || t->text == ".wait_group"))
    return fail(error,
                "wgmma" + t->text + " is a statement, not a tile operation: write T.ptx.wgmma" +
                    t->text + ".sync.aligned(" + (t->text == ".wait_group" ? "N" : "") + ")",
                t->column, static_cast<int>(t->text.size())),
           std::nullopt;
  if (!at(1) || at(1)->text != ".mma_async") return expected(1, "'.mma_async'"), std::nullopt;
  if (const Tok* t = at(2); t && t->text == ".sp")
    return fail(error, "sparse wgmma (.sp) is not supported", t->column, 3), std::nullopt;
  if (!at(2) || at(2)->text != ".sync") return expected(2, "'.sync'"), std::nullopt;
  if (!at(3) || at(3)->text != ".aligned") return expected(3, "'.aligned'"), std::nullopt;
  const Tok* shape = at(4);
  int k = 0;
  const int n = shape ? shapeN(shape->text, &k) : 0;
  if (!shape || n == 0)
    return expected(4, "the shape '.m64nNk16' (N = 8..256 in steps of 8)"), std::nullopt;
  if (k != 16)
    return fail(error,
                "'" + shape->text +
                    "': only k16 shapes (f16/bf16 inputs) are supported; k8 (tf32), k32 (fp8, "
                    "integer) and k256 (b1) are not",
                shape->column, static_cast<int>(shape->text.size())),
           std::nullopt;
  if (n < 8 || n > 256 || n % 8 != 0)
    return fail(error,
                "N = " + std::to_string(n) + " is not a wgmma shape: N is 8..256 in steps of 8",
                shape->column, static_cast<int>(shape->text.size())),
           std::nullopt;
  const Tok* dt = at(5);
  if (dt && dt->text == ".f16")
    return fail(error,
                "f16 accumulators (.f16 D type) are not supported; write .f32 (f32 accumulators)",
                dt->column, 4),
           std::nullopt;
  if (!dt || dt->text != ".f32") return expected(5, "the D type '.f32'"), std::nullopt;
  const Tok* at6 = at(6);
  const Tok* at7 = at(7);
  if (!at6 || (at6->text != ".bf16" && at6->text != ".f16"))
    return expected(6, "the A type ('.bf16' or '.f16')"), std::nullopt;
  if (!at7) return expected(7, "the B type " + at6->text), std::nullopt;
  if (at7->text != at6->text)
    return fail(error,
                "wgmma takes A and B of one type: found A " + at6->text + " and B " + at7->text,
                at7->column, static_cast<int>(at7->text.size())),
           std::nullopt;
  if (at(8)) return expected(8, "the end of the instruction"), std::nullopt;
  PtxInstruction in;
  in.family = PtxFamily::Wgmma;
  in.opcode = std::string(opcode);
  for (size_t i = 1; i < toks.size(); ++i) in.qualifiers.push_back(toks[i].text);
  in.minSm = 90;
  in.wgmmaN = n;
  in.mmaK = 16;
  in.abType = at6->text;
  in.type = ".f32";
  in.minArity = in.maxArity = 3;
  PtxOperandSpec d{OperandRole::DstReg, "d", ".f32", 32, 1, {"float32"}, false, "f", {64, n}};
  PtxOperandSpec a{OperandRole::Address, "a", at6->text, 16, 1, {}, false, "l", {64, 16}};
  PtxOperandSpec b{OperandRole::Address, "b", at6->text, 16, 1, {}, false, "l", {n, 16}};
  in.operands = {d, a, b};
  in.description = "warpgroup MMA D (64 x " + std::to_string(n) +
                   ", f32) = A (64 x 16) * B (16 x " + std::to_string(n) + ") + D, A and B " +
                   at6->text.substr(1) +
                   "; A from shared memory or registers, B from shared memory";
  if (error) *error = PtxParseError{};
  return in;
}

std::vector<std::string> wgmmaSpellings() {
  std::vector<std::string> out;
  for (const char* t : {"bf16", "f16"})
    for (int n = 8; n <= 256; n += 8)
      out.push_back("wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32." + t + "." +
                    t);
  return out;
}

PtxFamilyInfo wgmmaFamilyInfo() {
  return {
      PtxFamily::Wgmma,
      "wgmma",
      "warpgroup MMA (sm_90a): D (64 x N, f32) += A (64 x 16) * B (16 x N), bf16/f16, asynchronous",
      {"wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
       "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16",
       "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
       "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"}};
}

std::vector<PtxTokenInfo> describeWgmmaTokens(std::string_view opcode) {
  std::vector<PtxTokenInfo> out;
  for (const Tok& t : split(opcode))
    out.push_back({t.text, t.column, std::string(tokenDescription(t.text))});
  return out;
}

std::string wgmmaMarkdown() {
  return "\n## wgmma (warpgroup MMA)\n\n"
         "Hopper warpgroup matrix multiply-accumulate (spec TC §8), sm_90a only. Operands: `d` (a "
         "local f32 tile "
         "(64·R, N) owned by the accumulator map), `a` (a shared (64·R, K) region through "
         "`a_descriptor=`, or a local "
         "uint32 tile (64·R, K/2) of bf16/f16 pairs owned by the A map), `b` (a shared (N, K) "
         "region through "
         "`b_descriptor=`); K is a multiple of 16. Keywords: `scope=\"warpgroup\"`, "
         "`a_descriptor=`/`b_descriptor=` "
         "`(ldo_bytes, sdo_bytes, swizzle)`, `scale_d=`, `scale_a=`, `scale_b=`, `trans_a=`, "
         "`trans_b=` (\"wgmma calls\" "
         "above).\n\n"
         "| syntax | meaning |\n|---|---|\n"
         "| `wgmma.mma_async.sync.aligned.m64n{8..256 step 8}k16.f32.{bf16.bf16\\|f16.f16}` | D "
         "(64 x N) = A (64 x 16) "
         "· B (16 x N) + D, f32 accumulators |\n\n"
         "Refused: f16 accumulators, tf32/fp8/integer/b1 shapes, sparse `.sp`. `wgmma.fence`, "
         "`wgmma.commit_group` "
         "and `wgmma.wait_group` are statements (`T.ptx.wgmma.fence.sync.aligned()`).\n";
}

}  // namespace tirx
