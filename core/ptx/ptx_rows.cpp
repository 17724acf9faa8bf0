// The data of the PTX instruction table (spec §2.4, §2.5 and the PTX ISA): one FormRow per
// family form. Minimum targets were checked against ptxas 13.0 (tests/core/tst_ptx_table.cpp
// assembles every enumerated spelling when ptxas is found); forms below sm_75 cannot be checked
// with CUDA 13 and follow the PTX ISA text.
#include "core/ptx/ptx_rows.h"

#include <string>

namespace tirx::ptxrows {
namespace {

using OR = OperandRole;

struct TypeInfo {
  std::string_view token;
  int bits;
  char kind;  // 'b' bits, 'u' unsigned, 's' signed, 'f' float, 'p' packed
  std::string_view description;
};

const TypeInfo kTypes[] = {
    {".b8", 8, 'b', "8 untyped bits (uint8/int8 tensors)"},
    {".b16", 16, 'b', "16 untyped bits (uint16, int16, float16 or bfloat16 tensors)"},
    {".b32", 32, 'b', "32 untyped bits (uint32, int32 or float32 tensors)"},
    {".b64", 64, 'b', "64 untyped bits (uint64, int64 or float64 tensors)"},
    {".u8", 8, 'u', "unsigned 8-bit integer"},
    {".u16", 16, 'u', "unsigned 16-bit integer"},
    {".u32", 32, 'u', "unsigned 32-bit integer"},
    {".u64", 64, 'u', "unsigned 64-bit integer"},
    {".s8", 8, 's', "signed 8-bit integer"},
    {".s16", 16, 's', "signed 16-bit integer"},
    {".s32", 32, 's', "signed 32-bit integer"},
    {".s64", 64, 's', "signed 64-bit integer"},
    {".f16", 16, 'f', "IEEE binary16 half, carried in a uint16 register"},
    {".bf16", 16, 'f', "bfloat16, carried in a uint16 register"},
    {".f32", 32, 'f', "IEEE binary32 float"},
    {".f64", 64, 'f', "IEEE binary64 double"},
    {".f16x2", 32, 'p', "two binary16 halves packed in a uint32 (low half = element 0)"},
    {".bf16x2", 32, 'p', "two bfloat16 values packed in a uint32 (low half = element 0)"},
    {".u16x2", 32, 'p', "two unsigned 16-bit integers packed in a uint32"},
    {".s16x2", 32, 'p', "two signed 16-bit integers packed in a uint32"},
    {".f32x2", 64, 'p', "two float32 values packed in a uint64 (low word = element 0)"},
};

const TypeInfo* findType(std::string_view t) {
  for (const TypeInfo& i : kTypes)
    if (i.token == t) return &i;
  return nullptr;
}

Qual ty(std::string_view t, int minSm = 50) {
  return Qual{t, minSm, typeDescription(t)};
}

std::vector<Qual> tys(std::initializer_list<std::string_view> ts, int minSm = 50) {
  std::vector<Qual> out;
  for (std::string_view t : ts) out.push_back(ty(t, minSm));
  return out;
}

std::vector<Qual> cat(std::vector<Qual> a, const std::vector<Qual>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Shared qualifier tokens.
const Qual kRn{".rn", 50, "round to nearest, ties to even"};
const Qual kRz{".rz", 50, "round toward zero"};
const Qual kRm{".rm", 50, "round toward minus infinity"};
const Qual kRp{".rp", 50, "round toward plus infinity"};
const Qual kRni{".rni", 50, "round to the nearest integer, ties to even"};
const Qual kRzi{".rzi", 50, "round toward zero to an integer"};
const Qual kRmi{".rmi", 50, "round toward minus infinity to an integer"};
const Qual kRpi{".rpi", 50, "round toward plus infinity to an integer"};
const Qual kFtz{".ftz", 50, "flush subnormal inputs and results to sign-preserving zero"};
const Qual kSatF{".sat", 50, "clamp the result to [0.0, 1.0] (NaN becomes +0.0)"};
const Qual kApprox{".approx", 50, "fast approximation, not IEEE-rounded"};
const Qual kFull{".full", 50, "full-range approximation (at most 2 ulp error)"};
const Qual kNaN{".NaN", 80, "return the canonical NaN when any input is NaN"};
const Qual kXorsign{".xorsign", 86, "the result's sign is the XOR of the input signs (with .abs)",
                    ".abs"};
const Qual kAbs{".abs", 86, "compare absolute values (with .xorsign)", ".xorsign"};
const Qual kRelu{".relu", 80, "clamp negative results to +0 (NaN stays canonical NaN)"};
const Qual kSatfinite{".satfinite", 75,
                      "saturate out-of-range results to the largest finite value (NaN stays NaN)"};

Slot rounding(bool required, std::vector<Qual> t = {kRn, kRz, kRm, kRp}) {
  return Slot{SlotKind::Rounding, required, std::move(t)};
}
Slot intRounding(bool required) {
  return Slot{SlotKind::Rounding, required, {kRni, kRzi, kRmi, kRpi}};
}
Slot ftz() {
  return Slot{SlotKind::Ftz, false, {kFtz}};
}
Slot satF() {
  return Slot{SlotKind::Sat, false, {kSatF}};
}
Slot approx(std::vector<Qual> t = {kApprox}) {
  return Slot{SlotKind::Approx, true, std::move(t)};
}

const std::vector<std::string_view> kIntAll = {".u16", ".u32", ".u64", ".s16", ".s32", ".s64"};
std::vector<Qual> intTypes() {
  std::vector<Qual> out;
  for (std::string_view t : kIntAll) out.push_back(ty(t));
  return out;
}
std::vector<Qual> cvtInts() {
  return tys({".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64"});
}

const OperandTpl kD{OR::DstReg, "d"};
OperandTpl src(std::string_view name, TypeFrom t = TypeFrom::Dst) {
  return OperandTpl{OR::SrcReg, name, t, true};
}
const std::vector<OperandTpl> kUnary = {kD, src("a")};
const std::vector<OperandTpl> kBinary = {kD, src("a"), src("b")};
const std::vector<OperandTpl> kTernary = {kD, src("a"), src("b"), src("c")};

std::vector<Qual> memTypes() {
  return tys({".b16", ".b32", ".b64", ".b8", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32",
              ".s64", ".f32", ".f64"});
}

Slot space() {
  return Slot{SlotKind::Space,
              true,
              {{".global", 50, "global memory (a kernel tensor parameter)"},
               {".shared", 50, "shared memory of the CTA (T.alloc_shared)"},
               {".shared::cta", 50, "shared memory of the executing CTA, explicitly"}}};
}
Slot vectorSlot() {
  return Slot{SlotKind::Vector,
              false,
              {{".v2", 50, "two consecutive elements per instruction (atom of 2)"},
               {".v4", 50, "four consecutive elements per instruction (atom of 4)"},
               {".v8", 100, "eight 32-bit elements, a 256-bit access (.global only)", ".global"}}};
}
Slot evictL1() {
  return Slot{
      SlotKind::EvictL1,
      false,
      {{".L1::evict_normal", 70, "L1 eviction priority: normal", ".global"},
       {".L1::evict_unchanged", 70, "L1 eviction priority: keep the current priority", ".global"},
       {".L1::evict_first", 70, "L1 eviction priority: evict first (streaming data)", ".global"},
       {".L1::evict_last", 70, "L1 eviction priority: evict last (reused data)", ".global"},
       {".L1::no_allocate", 70, "do not allocate the data in L1", ".global"}},
      1};
}

FormRow row(PtxFamily f, std::string_view summary, std::vector<Slot> slotSpecs,
            std::vector<Qual> types, std::vector<OperandTpl> ops, std::string_view description,
            int minSm = 50) {
  FormRow r;
  r.family = f;
  r.summary = summary;
  r.slotSpecs = std::move(slotSpecs);
  r.types = std::move(types);
  r.operands = std::move(ops);
  r.description = description;
  r.minSm = minSm;
  return r;
}

FormRow cvtRow(std::string_view summary, Pair pair, std::vector<Slot> slotSpecs,
               std::vector<Qual> dst, std::vector<Qual> srcs, std::string_view description) {
  FormRow r = row(PtxFamily::Cvt, summary, std::move(slotSpecs), std::move(dst),
                  {kD, src("a", TypeFrom::Src)}, description);
  r.srcTypes = std::move(srcs);
  r.pair = pair;
  return r;
}

void addMemoryRows(std::vector<FormRow>& rows) {
  Slot ldCache{SlotKind::Cache,
               false,
               {{".ca", 50, "cache at all levels (L1 and L2)"},
                {".cg", 50, "cache in L2 only, bypass L1"},
                {".cs", 50, "streaming: likely accessed once"},
                {".lu", 50, "last use: the line will not be read again", {}, ".nc"},
                {".cv", 50, "volatile: fetch again, do not cache", {}, ".nc"}},
               1};
  Slot nc{SlotKind::NonCoherent,
          false,
          {{".nc", 50, "non-coherent read-only data path (texture cache)", ".global"}}};
  Slot prefetch{SlotKind::Prefetch,
                false,
                {{".L2::64B", 75, "prefetch hint: 64 bytes into L2", ".global"},
                 {".L2::128B", 75, "prefetch hint: 128 bytes into L2", ".global"},
                 {".L2::256B", 80, "prefetch hint: 256 bytes into L2", ".global"}}};
  rows.push_back(row(PtxFamily::Ld, "load",
                     {space(), ldCache, nc, evictL1(), prefetch, vectorSlot()}, memTypes(),
                     {{OR::DstReg, "d", TypeFrom::Dst, false, true},
                      {OR::Address, "a", TypeFrom::Dst, false, true}},
                     "load 1, 2, 4 or 8 consecutive elements from memory into registers"));
  Slot stCache{SlotKind::Cache,
               false,
               {{".wb", 50, "write back at all coherent levels"},
                {".cg", 50, "cache in L2 only, bypass L1"},
                {".cs", 50, "streaming: likely accessed once"},
                {".wt", 50, "write through to system memory"}},
               1};
  rows.push_back(row(PtxFamily::St, "store", {space(), stCache, evictL1(), vectorSlot()},
                     memTypes(),
                     {{OR::Address, "a", TypeFrom::Dst, false, true},
                      {OR::SrcReg, "b", TypeFrom::Dst, false, true}},
                     "store 1, 2, 4 or 8 consecutive register elements to memory"));
}

void addArithmeticRows(std::vector<FormRow>& rows) {
  struct Fam {
    PtxFamily f;
    std::string_view f32, f64;
  };
  for (Fam fam : {Fam{PtxFamily::Add, "float32 addition d = a + b, never fused",
                      "float64 addition d = a + b"},
                  Fam{PtxFamily::Sub, "float32 subtraction d = a - b, never fused",
                      "float64 subtraction d = a - b"},
                  Fam{PtxFamily::Mul, "float32 multiplication d = a * b, never fused",
                      "float64 multiplication d = a * b"}}) {
    rows.push_back(
        row(fam.f, "float32", {rounding(false), ftz(), satF()}, tys({".f32"}), kBinary, fam.f32));
    rows.push_back(row(fam.f, "float64", {rounding(false)}, tys({".f64"}), kBinary, fam.f64));
    rows.push_back(row(fam.f, "half", {rounding(false, {kRn}), ftz(), satF()},
                       cat(tys({".f16"}, 53), tys({".f16x2"}, 53)), kBinary,
                       "half-precision arithmetic; .f16x2 operates on both packed halves"));
    rows.push_back(row(fam.f, "bfloat16", {rounding(false, {kRn})},
                       cat(tys({".bf16"}, 90), tys({".bf16x2"}, 90)), kBinary,
                       "bfloat16 arithmetic; .bf16x2 operates on both packed values", 90));
    rows.push_back(row(fam.f, "packed float32", {rounding(false), ftz()}, tys({".f32x2"}, 100),
                       kBinary, "two float32 operations on a uint64 carrier (sm_100+)", 100));
    if (fam.f == PtxFamily::Mul) {
      rows.push_back(row(fam.f, "integer",
                         {Slot{SlotKind::Mode,
                               true,
                               {{".lo", 50, "keep the low half of the product"},
                                {".hi", 50, "keep the high half of the product"}}}},
                         intTypes(), kBinary,
                         "integer multiplication keeping the low or high half"));
      FormRow wide = row(fam.f, "integer widening",
                         {Slot{SlotKind::Mode,
                               true,
                               {{".wide", 50, "full product in a destination twice as wide"}}}},
                         tys({".u16", ".u32", ".s16", ".s32"}),
                         {{OR::DstReg, "d", TypeFrom::DstWide}, src("a"), src("b")},
                         "widening integer multiplication: d has twice the width of a and b");
      rows.push_back(wide);
    } else {
      std::vector<Qual> ints = intTypes();
      rows.push_back(row(
          fam.f, "integer",
          {Slot{SlotKind::Sat, false, {{".sat", 50, "clamp to the signed 32-bit range", ".s32"}}}},
          ints, kBinary,
          fam.f == PtxFamily::Add ? "integer addition (wraps unless .sat)"
                                  : "integer subtraction (wraps unless .sat)"));
    }
  }

  rows.push_back(row(PtxFamily::Fma, "float32", {rounding(true), ftz(), satF()}, tys({".f32"}),
                     kTernary, "fused multiply-add d = a * b + c with a single rounding"));
  rows.push_back(row(PtxFamily::Fma, "float64", {rounding(true)}, tys({".f64"}), kTernary,
                     "float64 fused multiply-add d = a * b + c with a single rounding"));
  Slot halfSat = satF();
  halfSat.exclusiveGroup = 2;  // .sat and .relu do not combine
  rows.push_back(
      row(PtxFamily::Fma, "half",
          {rounding(true, {kRn}), ftz(), halfSat, Slot{SlotKind::Relu, false, {kRelu}, 2}},
          cat(tys({".f16"}, 53), tys({".f16x2"}, 53)), kTernary,
          "half-precision fused multiply-add; .f16x2 on both packed halves"));
  rows.push_back(row(PtxFamily::Fma, "bfloat16",
                     {rounding(true, {kRn}), Slot{SlotKind::Relu, false, {kRelu}}},
                     cat(tys({".bf16"}, 80), tys({".bf16x2"}, 80)), kTernary,
                     "bfloat16 fused multiply-add; .bf16x2 on both packed values", 80));
  rows.push_back(row(PtxFamily::Fma, "packed float32", {rounding(true), ftz()},
                     tys({".f32x2"}, 100), kTernary,
                     "two float32 fused multiply-adds on a uint64 carrier (sm_100+)", 100));

  rows.push_back(row(PtxFamily::Div, "float32 approximate", {approx({kApprox, kFull}), ftz()},
                     tys({".f32"}), kBinary,
                     "float32 division d = a / b by approximation (.approx fast, .full 2 ulp)"));
  rows.push_back(row(PtxFamily::Div, "float32 IEEE", {rounding(true), ftz()}, tys({".f32"}),
                     kBinary, "IEEE float32 division d = a / b with the named rounding"));
  rows.push_back(row(PtxFamily::Div, "float64", {rounding(true)}, tys({".f64"}), kBinary,
                     "IEEE float64 division d = a / b with the named rounding"));
  rows.push_back(row(PtxFamily::Div, "integer", {}, intTypes(), kBinary,
                     "integer division d = a / b, truncating toward zero"));

  rows.push_back(row(PtxFamily::Rcp, "float32 approximate", {approx(), ftz()}, tys({".f32"}),
                     kUnary, "fast approximate float32 reciprocal d = 1 / a"));
  rows.push_back(row(PtxFamily::Rcp, "float32 IEEE", {rounding(true), ftz()}, tys({".f32"}), kUnary,
                     "IEEE float32 reciprocal d = 1 / a with the named rounding"));
  rows.push_back(row(PtxFamily::Rcp, "float64", {rounding(true)}, tys({".f64"}), kUnary,
                     "IEEE float64 reciprocal d = 1 / a with the named rounding"));

  rows.push_back(row(PtxFamily::Sqrt, "float32 approximate", {approx(), ftz()}, tys({".f32"}),
                     kUnary, "fast approximate float32 square root"));
  rows.push_back(row(PtxFamily::Sqrt, "float32 IEEE", {rounding(true), ftz()}, tys({".f32"}),
                     kUnary, "IEEE float32 square root with the named rounding"));
  rows.push_back(row(PtxFamily::Sqrt, "float64", {rounding(true)}, tys({".f64"}), kUnary,
                     "IEEE float64 square root with the named rounding"));
}

void addMinMaxRows(std::vector<FormRow>& rows) {
  for (PtxFamily f : {PtxFamily::Min, PtxFamily::Max}) {
    bool isMax = f == PtxFamily::Max;
    std::vector<OperandTpl> ops = {kD, src("a"), src("b"), src("c")};
    ops.back().optional = true;
    FormRow f32 =
        row(f, "float32",
            {ftz(), Slot{SlotKind::NaN, false, {kNaN}}, Slot{SlotKind::Xorsign, false, {kXorsign}},
             Slot{SlotKind::Abs, false, {kAbs}}},
            tys({".f32"}), ops,
            isMax ? "elementwise float32 maximum of 2 inputs, or 3 inputs on sm_100+"
                  : "elementwise float32 minimum of 2 inputs, or 3 inputs on sm_100+");
    f32.extendedMinSm = 100;
    rows.push_back(f32);
    rows.push_back(row(f, "float64", {}, tys({".f64"}), kBinary,
                       isMax ? "elementwise float64 maximum" : "elementwise float64 minimum"));
    rows.push_back(
        row(f, "half",
            {ftz(), Slot{SlotKind::NaN, false, {kNaN}}, Slot{SlotKind::Xorsign, false, {kXorsign}},
             Slot{SlotKind::Abs, false, {kAbs}}},
            cat(tys({".f16"}, 80), tys({".f16x2"}, 80)), kBinary,
            isMax ? "half-precision maximum; .f16x2 on both packed halves"
                  : "half-precision minimum; .f16x2 on both packed halves",
            80));
    rows.push_back(
        row(f, "bfloat16",
            {Slot{SlotKind::NaN, false, {kNaN}}, Slot{SlotKind::Xorsign, false, {kXorsign}},
             Slot{SlotKind::Abs, false, {kAbs}}},
            cat(tys({".bf16"}, 80), tys({".bf16x2"}, 80)), kBinary,
            isMax ? "bfloat16 maximum; .bf16x2 on both packed values"
                  : "bfloat16 minimum; .bf16x2 on both packed values",
            80));
    rows.push_back(
        row(f, "integer",
            {Slot{SlotKind::Relu, false, {{".relu", 90, "clamp negative results to 0", ".s32"}}}},
            intTypes(), kBinary, isMax ? "integer maximum" : "integer minimum"));
    rows.push_back(row(f, "packed integer", {}, tys({".u16x2", ".s16x2"}, 90), kBinary,
                       isMax ? "maximum of two packed 16-bit integers in a uint32"
                             : "minimum of two packed 16-bit integers in a uint32",
                       90));
  }
}

void addUnaryRows(std::vector<FormRow>& rows) {
  rows.push_back(row(PtxFamily::Ex2, "float32", {approx(), ftz()}, tys({".f32"}), kUnary,
                     "approximate base-2 exponential d = 2^a"));
  rows.push_back(row(PtxFamily::Ex2, "half", {approx()},
                     cat(tys({".f16"}, 75), tys({".f16x2"}, 75)), kUnary,
                     "approximate half-precision base-2 exponential", 75));
  rows.push_back(row(PtxFamily::Ex2, "bfloat16", {approx(), Slot{SlotKind::Ftz, true, {kFtz}}},
                     cat(tys({".bf16"}, 90), tys({".bf16x2"}, 90)), kUnary,
                     "approximate bfloat16 base-2 exponential (.ftz required)", 90));
  rows.push_back(row(PtxFamily::Lg2, "float32", {approx(), ftz()}, tys({".f32"}), kUnary,
                     "approximate base-2 logarithm d = log2(a)"));

  for (PtxFamily f : {PtxFamily::Abs, PtxFamily::Neg}) {
    bool isAbs = f == PtxFamily::Abs;
    rows.push_back(row(f, "float32", {ftz()}, tys({".f32"}), kUnary,
                       isAbs ? "float32 absolute value (clears the sign bit)"
                             : "float32 negation (flips the sign bit)"));
    rows.push_back(row(f, "float64", {}, tys({".f64"}), kUnary,
                       isAbs ? "float64 absolute value" : "float64 negation"));
    rows.push_back(row(f, "half", {ftz()}, cat(tys({".f16"}, 53), tys({".f16x2"}, 53)), kUnary,
                       isAbs ? "half-precision absolute value; .f16x2 on both packed halves"
                             : "half-precision negation; .f16x2 on both packed halves",
                       53));
    rows.push_back(row(f, "bfloat16", {}, cat(tys({".bf16"}, 80), tys({".bf16x2"}, 80)), kUnary,
                       isAbs ? "bfloat16 absolute value; .bf16x2 on both packed values"
                             : "bfloat16 negation; .bf16x2 on both packed values",
                       80));
    rows.push_back(row(f, "integer", {}, tys({".s16", ".s32", ".s64"}), kUnary,
                       isAbs ? "signed integer absolute value" : "signed integer negation"));
  }

  rows.push_back(row(
      PtxFamily::Mov, "copy", {},
      tys({".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f32", ".f64"}),
      kUnary, "copy register bits (a scalar source fills), no conversion"));
}

void addCvtRows(std::vector<FormRow>& rows) {
  // 8-bit integers do not convert to or from bfloat16, and .sat never applies to bfloat16.
  const std::vector<Qual> wideInts = tys({".u16", ".u32", ".u64", ".s16", ".s32", ".s64"});
  Slot relu{SlotKind::Relu, false, {kRelu}};
  Slot satfinite{SlotKind::Satfinite, false, {kSatfinite}};
  Slot intSat{
      SlotKind::Sat, false, {{".sat", 50, "clamp to the destination range instead of wrapping"}}};
  rows.push_back(cvtRow("float narrowing", Pair::FloatNarrow, {rounding(true), ftz(), satF()},
                        tys({".f16", ".f32"}), tys({".f32", ".f64"}),
                        "narrowing float conversion with the named rounding"));
  rows.push_back(cvtRow("bfloat16 narrowing", Pair::FloatNarrow, {rounding(true), ftz()},
                        tys({".bf16"}, 80), tys({".f32"}),
                        "float32 to bfloat16 with the named rounding"));
  FormRow bf64 =
      cvtRow("bfloat16 from float64", Pair::FloatNarrow, {rounding(true)}, tys({".bf16"}, 90),
             tys({".f64"}), "float64 to bfloat16 with the named rounding");
  bf64.minSm = 90;
  rows.push_back(bf64);
  rows.push_back(cvtRow("finite narrowing", Pair::FloatNarrow,
                        {rounding(true, {kRn, kRz}), relu, satfinite},
                        {ty(".f16"), ty(".bf16", 80)}, tys({".f32"}),
                        "float32 to half or bfloat16 with .relu (sm_80+) or .satfinite"));
  rows.push_back(cvtRow("float widening", Pair::FloatWiden, {ftz(), satF()}, tys({".f32", ".f64"}),
                        tys({".f16", ".f32"}),
                        "exact widening float conversion (no rounding modifier)"));
  rows.push_back(cvtRow("bfloat16 widening", Pair::FloatWiden,
                        {Slot{SlotKind::Ftz, false, {{".ftz", 90, kFtz.description}}}},
                        {ty(".f32"), ty(".f64", 90)}, tys({".bf16"}, 80),
                        "exact widening of bfloat16 (no rounding modifier)"));
  rows.push_back(cvtRow("float to integral float", Pair::FloatSame,
                        {intRounding(false), ftz(), satF()}, tys({".f16", ".f32", ".f64"}),
                        tys({".f16", ".f32", ".f64"}),
                        "round a float to an integral value of the same type (.rni ...)"));
  rows.push_back(cvtRow("float to integer", Pair::IntFromFloat, {intRounding(true), ftz(), satF()},
                        cvtInts(), tys({".f16", ".f32", ".f64"}),
                        "float to integer conversion with an integer rounding (.rni, .rzi, ...); "
                        "out-of-range values saturate"));
  rows.push_back(cvtRow("bfloat16 to integer", Pair::IntFromFloat, {intRounding(true)}, wideInts,
                        tys({".bf16"}, 90),
                        "bfloat16 to integer conversion with an integer rounding (sm_90+)"));
  rows.push_back(cvtRow("integer to float", Pair::FloatFromInt, {rounding(true), satF()},
                        tys({".f16", ".f32", ".f64"}), cvtInts(),
                        "integer to float conversion with the named rounding"));
  rows.push_back(cvtRow("integer to bfloat16", Pair::FloatFromInt, {rounding(true)},
                        tys({".bf16"}, 90), wideInts,
                        "integer to bfloat16 conversion with the named rounding (sm_90+)"));
  rows.push_back(cvtRow("integer to integer", Pair::IntFromInt, {intSat}, cvtInts(), cvtInts(),
                        "integer width or signedness conversion (.sat only where the value can "
                        "be out of range)"));
  FormRow packed = cvtRow("float32 pair to packed half", Pair::Any,
                          {rounding(true, {kRn, kRz}), relu, satfinite},
                          tys({".f16x2", ".bf16x2"}, 80), tys({".f32"}),
                          "convert two float32 values into one packed uint32: hi -> bits "
                          "[31:16], lo -> bits [15:0]");
  packed.operands = {kD, src("hi", TypeFrom::Src), src("lo", TypeFrom::Src)};
  packed.minSm = 80;
  rows.push_back(packed);
}

std::vector<FormRow> buildRows() {
  std::vector<FormRow> rows;
  addMemoryRows(rows);
  addArithmeticRows(rows);
  addMinMaxRows(rows);
  addUnaryRows(rows);
  addCvtRows(rows);
  return rows;
}

}  // namespace

int typeBits(std::string_view token) {
  const TypeInfo* t = findType(token);
  return t ? t->bits : 0;
}
bool isFloatType(std::string_view token) {
  const TypeInfo* t = findType(token);
  return t && t->kind == 'f';
}
bool isIntType(std::string_view token) {
  const TypeInfo* t = findType(token);
  return t && (t->kind == 'u' || t->kind == 's');
}
std::string_view typeDescription(std::string_view token) {
  const TypeInfo* t = findType(token);
  return t ? t->description : std::string_view{};
}
bool isTypeToken(std::string_view token) {
  return findType(token) != nullptr || token == ".b128" || token == ".pred" || token == ".tf32" ||
         token == ".e4m3x2" || token == ".e5m2x2";
}

const std::vector<FormRow>& formRows() {
  static const std::vector<FormRow> rows = buildRows();
  return rows;
}

const std::vector<FamilyRow>& familyRows() {
  static const std::vector<FamilyRow> fams = {
      {PtxFamily::Ld,
       "ld",
       "load from global or shared memory into registers",
       {"ld.global.v4.b32", "ld.global.b32", "ld.shared.v4.b32", "ld.shared::cta.v2.b32",
        "ld.global.cg.v4.f32", "ld.global.nc.v2.b64", "ld.global.v4.b16",
        "ld.global.L1::evict_last.v4.b32", "ld.global.f32"}},
      {PtxFamily::St,
       "st",
       "store registers to global or shared memory",
       {"st.global.v4.b32", "st.global.b32", "st.shared.v4.b32", "st.global.v4.b16",
        "st.global.cs.v4.b32", "st.global.f32"}},
      {PtxFamily::Mov,
       "mov",
       "register bit copy or scalar fill; no numeric conversion",
       {"mov.b32", "mov.b16", "mov.b64", "mov.u32", "mov.f32"}},
      {PtxFamily::Add,
       "add",
       "elementwise addition d = a + b",
       {"add.rn.f32", "add.f32", "add.rz.ftz.f32", "add.rn.f64", "add.rn.f16x2", "add.rn.bf16x2",
        "add.rn.f32x2", "add.u32", "add.s32"}},
      {PtxFamily::Sub,
       "sub",
       "elementwise subtraction d = a - b",
       {"sub.rn.f32", "sub.rn.f64", "sub.rn.f16x2", "sub.s32"}},
      {PtxFamily::Mul,
       "mul",
       "elementwise multiplication d = a * b",
       {"mul.rn.f32", "mul.rn.f64", "mul.rn.f16x2", "mul.rn.bf16x2", "mul.lo.u32", "mul.wide.s32"}},
      {PtxFamily::Fma,
       "fma",
       "fused multiply-add d = a * b + c, rounded once",
       {"fma.rn.f32", "fma.rn.ftz.sat.f32", "fma.rn.f64", "fma.rn.f16x2", "fma.rn.bf16x2",
        "fma.rn.f32x2"}},
      {PtxFamily::Div,
       "div",
       "division d = a / b (operand order is never swapped)",
       {"div.rn.f32", "div.approx.f32", "div.full.f32", "div.rn.f64", "div.s32"}},
      {PtxFamily::Rcp,
       "rcp",
       "reciprocal d = 1 / a",
       {"rcp.approx.ftz.f32", "rcp.approx.f32", "rcp.rn.f32", "rcp.rn.f64"}},
      {PtxFamily::Sqrt,
       "sqrt",
       "square root d = sqrt(a)",
       {"sqrt.rn.f32", "sqrt.approx.f32", "sqrt.approx.ftz.f32", "sqrt.rn.f64"}},
      {PtxFamily::Min,
       "min",
       "elementwise minimum of 2 (or, on sm_100+, 3) inputs; no reduction",
       {"min.f32", "min.ftz.f32", "min.NaN.f32", "min.f16x2", "min.bf16x2", "min.s32", "min.u32"}},
      {PtxFamily::Max,
       "max",
       "elementwise maximum of 2 (or, on sm_100+, 3) inputs; no reduction",
       {"max.f32", "max.ftz.f32", "max.NaN.f32", "max.f16x2", "max.bf16x2", "max.s32", "max.u32"}},
      {PtxFamily::Ex2,
       "ex2",
       "approximate base-2 exponential d = 2^a",
       {"ex2.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.f16x2"}},
      {PtxFamily::Lg2,
       "lg2",
       "approximate base-2 logarithm d = log2(a)",
       {"lg2.approx.ftz.f32", "lg2.approx.f32"}},
      {PtxFamily::Abs,
       "abs",
       "absolute value d = |a|",
       {"abs.f32", "abs.ftz.f32", "abs.f64", "abs.f16", "abs.bf16x2", "abs.s32"}},
      {PtxFamily::Neg,
       "neg",
       "negation d = -a",
       {"neg.f32", "neg.ftz.f32", "neg.f64", "neg.f16", "neg.bf16x2", "neg.s32"}},
      {PtxFamily::Cvt,
       "cvt",
       "numeric conversion selected by the destination and source types",
       {"cvt.rn.f16.f32", "cvt.rn.bf16.f32", "cvt.rn.f16x2.f32", "cvt.rn.bf16x2.f32", "cvt.f32.f16",
        "cvt.f32.bf16", "cvt.rni.s32.f32", "cvt.rzi.s32.f32", "cvt.rn.f32.s32", "cvt.rn.f32.f64",
        "cvt.f64.f32", "cvt.u32.u16"}},
  };
  return fams;
}

std::string_view slotPhrase(SlotKind k) {
  switch (k) {
    case SlotKind::Space:
      return "a state space";
    case SlotKind::Cache:
      return "a cache operator";
    case SlotKind::NonCoherent:
      return "a non-coherent load qualifier";
    case SlotKind::EvictL1:
    case SlotKind::EvictL2:
      return "an eviction priority";
    case SlotKind::Prefetch:
      return "a prefetch size";
    case SlotKind::Vector:
      return "a vector width";
    case SlotKind::Rounding:
      return "a rounding modifier";
    case SlotKind::Approx:
      return "an approximation modifier";
    case SlotKind::Ftz:
      return "a flush-to-zero modifier";
    case SlotKind::Sat:
      return "a saturation modifier";
    case SlotKind::Satfinite:
      return "a finite-saturation modifier";
    case SlotKind::Relu:
      return "a relu modifier";
    case SlotKind::NaN:
      return "a NaN modifier";
    case SlotKind::Xorsign:
      return "a sign modifier";
    case SlotKind::Abs:
      return "an absolute-value modifier";
    case SlotKind::Mode:
      return "a mode (.lo, .hi, .wide)";
  }
  return "a qualifier";
}

}  // namespace tirx::ptxrows
