// TMA copies (spec TC §5.1, §5.2, §9.3): `T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor..."],
// dst, src, box=[..], coords=[..], mbar=bar.ptr_to([i]), swizzle=.., oob_fill=..)`. Checks, each
// with its own code (docs/diagnostics.md "TMA"): the keywords (E0280), ranks (E0281), the box and
// its shared image (E0282), the swizzle against the destination's ComposeLayout (E0283), the
// 128/1024-byte shared and 16-byte global alignments (E0284), the single issuer (E0285), dtypes
// (E0286), the global operand as an encodable tensor map (E0287) and the barrier operand (E0288).
// The result is an ir::TmaCopy plus, on the kernel, the deduplicated ir::TensorMap the host
// encodes (decisions TC-T1..TC-T4 in docs/decisions.md).
#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

// Keywords of the G2 table (§5.1) this checker does not model: refused with a reason.
struct Refused {
  const char* name;
  const char* why;
};
const Refused kRefused[] = {
    {"coord_steps",
     "coord_steps= needs group/repeat axes on the shared operand; write one apply per box"},
    {"format", "format= is not supported: the tensor map's type is the tensors' dtype"},
    {"element_strides", "element_strides= is not supported: every element stride is 1"},
    {"interleave", "interleave= is not supported: the map is not interleaved"},
    {"l2_promotion", "l2_promotion= is not supported: the map uses no L2 promotion"},
    {"cache_policy", "cache_policy= (L2 cache hints) is not supported"},
    {"cta_mask", "multicast (cta_mask=) needs a thread-block cluster, which is not supported"},
    {"pred", "pred= is not supported on a TMA copy: issue it under an if statement"},
    {"preserve_dst", "preserve_dst= has no meaning for a TMA copy"},
};

std::string ints(const std::vector<int64_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

/// The CUtensorMapDataType families TMA copies (decision TC-T2): every dtype but bool.
bool tmaDtype(ir::DType t) {
  return t != ir::DType::Bool && t != ir::DType::Void;
}

}  // namespace

bool Analyzer::tmaIntList(const ast::Expr& call, const char* name, bool isStatic,
                          std::vector<int64_t>* values, std::vector<ir::ExprPtr>* exprs,
                          const ast::Expr** where) {
  const ast::Expr* e = keyword(call, name);
  *where = e;
  if (!e) {
    error("E0280", call.span,
          std::string("a TMA copy needs ") + name + "=[...] (" +
              (isStatic ? "the box extents, outer to inner"
                        : "the start coordinates, outer to inner") +
              ")");
    return false;
  }
  if (e->kind != ast::ExprKind::List && e->kind != ast::ExprKind::Tuple) {
    error("E0280", e->span, std::string(name) + "= expects a list, found '" + text(e->span) + "'");
    return false;
  }
  bool ok = true;
  for (const auto& a : e->args) {
    if (isStatic) {
      auto v = staticInt(*a, false);
      if (!v) {
        error(
            "E0280", a->span,
            std::string(name) + "= extents must be static integers, found '" + text(a->span) + "'");
        ok = false;
        continue;
      }
      values->push_back(*v);
    } else {
      ir::ExprPtr x = lowerIndex(*a);
      if (!x) {
        ok = false;
        continue;
      }
      exprs->push_back(std::move(x));
    }
  }
  return ok;
}

/// The arguments of one TMA copy as lowerTma checks them, phase by phase.
struct Analyzer::TmaCopyArgs {
  const ast::Expr* sharedExpr = nullptr;
  const ast::Expr* globalExpr = nullptr;
  std::shared_ptr<const ir::TensorRef> shared, global;
  std::vector<int64_t> box;
  std::vector<ir::ExprPtr> coords;
  const ast::Expr *boxAt = nullptr, *coordsAt = nullptr, *swzAt = nullptr, *oobAt = nullptr;
  int swz = 0;
  bool oobNan = false;
  std::shared_ptr<const ir::TensorRef> mbar;
  std::vector<ir::ExprPtr> mbarIndex;
  // Set by tmaSharedBox: the layout starts with static starts only, the box's first element.
  std::vector<int64_t> loZero;
  int64_t sbase = 0;
  int64_t boxElems = 0;
};

/// The parts of a TMA copy call that come before its operands: refused keywords and mbar= on a
/// store (E0280), the operand count (E0162), the target (E0177), scope= and a single issuer
/// (E0285); false after an error.
bool Analyzer::tmaIssue(const ast::Expr& call, const PtxInstruction& instr) {
  std::vector<std::string> keys = {"box", "coords", "swizzle", "oob_fill", "scope", "loc"};
  if (!instr.tmaStore) keys.push_back("mbar");
  for (const ast::Keyword& k : call.keywords) {
    for (const Refused& r : kRefused)
      if (k.name == r.name) {
        error("E0280", k.span, r.why);
        return false;
      }
    if (k.name == "mbar" && instr.tmaStore) {
      auto& d =
          error("E0280", k.span,
                "a TMA store completes in the issuing thread's bulk group and takes no mbar=");
      note(d, call.args[1]->span,
           "wait for it with cp.async.bulk.commit_group and cp.async.bulk.wait_group");
      return false;
    }
  }
  if (!checkCallShape(call, "T.cuda.tile.apply", 2, 3, keys)) return false;
  const std::string& op = instr.opcode;
  if (call.args.size() != 4) {
    error("E0162", call.span,
          op + " takes 2 operands (" + (instr.tmaStore ? "global, shared" : "shared, global") +
              "), found " + std::to_string(call.args.size() - 2));
    return false;
  }
  if (instr.minSm > m_options.sm) {
    auto& d =
        error("E0177", call.span, op + " is not available on sm_" + std::to_string(m_options.sm));
    note(d, call.args[1]->span,
         "TMA needs sm_90; this check targets sm_" + std::to_string(m_options.sm));
    return false;
  }
  if (const ast::Expr* s = keyword(call, "scope");
      s && !(s->kind == ast::ExprKind::Str && s->text == "thread")) {
    error("E0285", s->span,
          "a TMA copy is issued by one thread: scope= must be \"thread\" (the default), found '" +
              text(s->span) + "'");
    return false;
  }
  // The single issuer (§1.1: scope never elects a thread).
  if (m_body->launchOk && m_body->blockThreads > 1 && m_body->divergence.empty()) {
    auto& d = error("E0285", call.span,
                    "a TMA copy issued by every thread of the block (" +
                        std::to_string(m_body->blockThreads) +
                        " copies of the same box); issue it from one thread");
    note(d, call.span, "guard it with `if tid == 0:` (or `if lane == 0:` in a one-warp block)");
    return false;
  }
  return true;
}

/// The operands (shared and global tensors, E0169, E0176, E0292) and keywords (box=, coords=,
/// swizzle=, oob_fill=, mbar=; E0280) of a TMA copy into `a`; false after an error.
bool Analyzer::tmaArguments(const ast::Expr& call, const PtxInstruction& instr, TmaCopyArgs& a) {
  const std::string& op = instr.opcode;
  const ast::Expr& sharedExpr = *call.args[instr.tmaStore ? 3 : 2];
  const ast::Expr& globalExpr = *call.args[instr.tmaStore ? 2 : 3];
  bool ok = true;
  auto operand = [&](const ast::Expr& e, ir::MemScope want,
                     const char* role) -> std::shared_ptr<const ir::TensorRef> {
    if (!isTensorExpr(e)) {
      error("E0169", e.span,
            std::string("the ") + role + " operand of " + op + " must be a " +
                std::string(ir::memScopeName(want)) + " tensor, found '" + text(e.span) + "'");
      return nullptr;
    }
    auto r = lowerTensor(e);
    if (r && r->scope != want) {
      auto& d = error("E0176", e.span,
                      std::string("the ") + role + " operand of " + op + " is " +
                          std::string(ir::memScopeName(want)) + " memory, but '" + r->text +
                          "' is a " + std::string(ir::memScopeName(r->scope)) + " tensor");
      note(d, call.args[1]->span,
           instr.tmaStore ? "a TMA store's operands are (global, shared)"
                          : "a TMA load's operands are (shared, global)");
      return nullptr;
    }
    return r;
  };
  auto sharedRef =
      operand(sharedExpr, ir::MemScope::Shared, instr.tmaStore ? "source" : "destination");
  auto globalRef =
      operand(globalExpr, ir::MemScope::Global, instr.tmaStore ? "destination" : "source");
  ok = sharedRef && globalRef;
  if (globalRef && !m_body->kernel->buffers[size_t(globalRef->buffer)].shapeVars.empty()) {
    // The tensor map is encoded once per launch from static dims and strides.
    auto& d = error(
        "E0292", globalExpr.span,
        "a TMA copy of '" + globalRef->text + "', which has a symbolic extent, is not supported");
    note(d, globalExpr.span,
         "the tensor map's dimensions and strides are static (decision \"Dynamic shapes\"); copy "
         "regions with tile operations");
    ok = false;
  }
  std::vector<int64_t> box;
  std::vector<ir::ExprPtr> coords;
  const ast::Expr *boxAt = nullptr, *coordsAt = nullptr;
  ok &= tmaIntList(call, "box", true, &box, nullptr, &boxAt);
  ok &= tmaIntList(call, "coords", false, nullptr, &coords, &coordsAt);
  int swz = 0;
  const ast::Expr* swzAt = keyword(call, "swizzle");
  if (swzAt) {
    auto v = staticInt(*swzAt, false);
    if (!v || *v < 0 || *v > 3) {
      error("E0280", swzAt->span,
            "swizzle= expects 0, 1, 2 or 3 (none, 32B, 64B, 128B), found '" + text(swzAt->span) +
                "'");
      ok = false;
    } else {
      swz = static_cast<int>(*v);
    }
  }
  bool oobNan = false;
  const ast::Expr* oobAt = keyword(call, "oob_fill");
  if (oobAt) {
    if (oobAt->kind == ast::ExprKind::Str && (oobAt->text == "zero" || oobAt->text == "nan")) {
      oobNan = oobAt->text == "nan";
    } else if (auto v = staticInt(*oobAt, false); v && (*v == 0 || *v == 1)) {
      oobNan = *v == 1;
    } else {
      error("E0280", oobAt->span,
            "oob_fill= expects \"zero\" (0) or \"nan\" (1), found '" + text(oobAt->span) + "'");
      ok = false;
    }
  }
  std::shared_ptr<const ir::TensorRef> mbar;
  std::vector<ir::ExprPtr> mbarIndex;
  if (!instr.tmaStore) {
    const ast::Expr* m = keyword(call, "mbar");
    if (!m) {
      auto& d = error("E0280", call.span,
                      "a TMA load needs mbar=bar.ptr_to([i]): the barrier its bytes complete on");
      note(d, call.args[1]->span, ".mbarrier::complete_tx::bytes");
      ok = false;
    } else {
      mbar = lowerBarrierPtr(*m, mbarIndex);  // the mbarrier operand parser of sema_async.cpp
      ok &= mbar != nullptr;
    }
  }
  a.sharedExpr = &sharedExpr;
  a.globalExpr = &globalExpr;
  a.shared = std::move(sharedRef);
  a.global = std::move(globalRef);
  a.box = std::move(box);
  a.coords = std::move(coords);
  a.boxAt = boxAt;
  a.coordsAt = coordsAt;
  a.swz = swz;
  a.swzAt = swzAt;
  a.oobNan = oobNan;
  a.oobAt = oobAt;
  a.mbar = std::move(mbar);
  a.mbarIndex = std::move(mbarIndex);
  return ok;
}

/// The ranks (E0281), dtypes (E0286) and box (E0282) of a TMA copy, and its shared operand as the
/// dense row-major box (E0282); the shared start and box size into `a`. False after an error.
bool Analyzer::tmaSharedBox(const ast::Expr& call, const PtxInstruction& instr, TmaCopyArgs& a) {
  const std::string& op = instr.opcode;
  const ast::Expr& sharedExpr = *a.sharedExpr;
  const ast::Expr& globalExpr = *a.globalExpr;
  const std::vector<int64_t>& box = a.box;
  const ast::Expr* boxAt = a.boxAt;
  const ast::Expr* coordsAt = a.coordsAt;
  const std::vector<ir::ExprPtr>& coords = a.coords;
  const ast::Expr* swzAt = a.swzAt;
  const int swz = a.swz;
  const ast::Expr* oobAt = a.oobAt;
  const bool oobNan = a.oobNan;
  const ir::TensorRef& sh = *a.shared;
  const ir::TensorRef& gl = *a.global;
  const int rank = instr.tensorRank;
  // Ranks (E0281).
  auto rankError = [&](const SourceSpan& at, const std::string& what, size_t n) {
    auto& d = error("E0281", at,
                    op + " is a " + std::to_string(rank) + "-d copy, but " + what + " has " +
                        std::to_string(n) + (n == 1 ? " dimension" : " dimensions"));
    note(d, call.args[1]->span, "the rank is the opcode's ." + std::to_string(rank) + "d");
  };
  if (box.size() != size_t(rank)) return rankError(boxAt->span, "box=", box.size()), false;
  if (coords.size() != size_t(rank))
    return rankError(coordsAt->span, "coords=", coords.size()), false;
  if (gl.shape.size() != size_t(rank))
    return rankError(globalExpr.span, "'" + gl.text + "'", gl.shape.size()), false;
  if (sh.shape.size() != size_t(rank))
    return rankError(sharedExpr.span, "'" + sh.text + "'", sh.shape.size()), false;
  // Dtypes (E0286).
  if (sh.dtype != gl.dtype) {
    error("E0286", sharedExpr.span,
          "a TMA copy moves bytes unchanged: '" + sh.text + "' is " +
              std::string(ir::dtypeName(sh.dtype)) + " but '" + gl.text + "' is " +
              std::string(ir::dtypeName(gl.dtype)));
    return false;
  }
  if (!tmaDtype(gl.dtype)) {
    error("E0286", globalExpr.span,
          "TMA has no tensor-map data type for " + std::string(ir::dtypeName(gl.dtype)));
    return false;
  }
  if (oobNan && !ir::isFloat(gl.dtype)) {
    error("E0286", oobAt->span,
          "oob_fill=\"nan\" needs a floating-point tensor, '" + gl.text + "' is " +
              std::string(ir::dtypeName(gl.dtype)));
    return false;
  }
  const int64_t eb = ir::dtypeBytes(gl.dtype);
  // The box (E0282): 1..256 per dimension, inner bytes a multiple of 16, swizzled inner ≤ span.
  for (int d = 0; d < rank; ++d)
    if (box[d] < 1 || box[d] > 256) {
      error("E0282", boxAt->args[d]->span,
            "box extent " + std::to_string(box[d]) + " is outside 1..256");
      return false;
    }
  const int64_t innerBytes = box.back() * eb;
  if (innerBytes % 16 != 0) {
    error("E0282", boxAt->args.back()->span,
          "the inner box dimension is " + std::to_string(innerBytes) + " bytes (" +
              std::to_string(box.back()) + " x " + std::to_string(eb) +
              "); TMA needs a multiple of 16 bytes");
    return false;
  }
  const SwizzleMode mode = static_cast<SwizzleMode>(swz);
  if (swz != 0 && innerBytes > swizzleModeBytes(mode)) {
    auto& d = error("E0282", boxAt->args.back()->span,
                    "the inner box dimension is " + std::to_string(innerBytes) +
                        " bytes, more than the " + swizzleModeName(mode) + " swizzle span (" +
                        std::to_string(swizzleModeBytes(mode)) + " bytes)");
    note(d, swzAt->span,
         "split the row: a wider tile is several boxes (a 3-d view: group, row, column)");
    return false;
  }
  if (sh.shape != box) {
    error("E0282", sharedExpr.span,
          "the shared operand '" + sh.text + "' has shape " + ints(sh.shape) + ", the box is " +
              ints(box));
    return false;
  }
  // The shared image: the dense row-major box at a fixed start (before the buffer's swizzle).
  std::vector<int64_t> loZero(sh.layoutShape.size(), 0);
  for (size_t d = 0; d < sh.lo.size() && d < loZero.size(); ++d)
    if (sh.lo[d] && sh.lo[d]->kind == ir::ExprKind::IntImm) loZero[d] = sh.lo[d]->intValue;
  const int64_t boxElems = [&] {
    int64_t n = 1;
    for (int64_t b : box) n *= b;
    return n;
  }();
  std::vector<int64_t> c(size_t(rank), 0);
  const int64_t sbase = sh.resolve(c, loZero)["m"];
  for (int64_t f = 0; f < boxElems; ++f) {
    int64_t r = f;
    for (int d = rank - 1; d >= 0; --d) {
      c[size_t(d)] = r % box[size_t(d)];
      r /= box[size_t(d)];
    }
    const int64_t m = sh.resolve(c, loZero)["m"];
    if (m != sbase + f) {
      std::string at = "(";
      for (int d = 0; d < rank; ++d) at += (d ? ", " : "") + std::to_string(c[size_t(d)]);
      auto& dg = error("E0282", sharedExpr.span,
                       "the shared operand of a TMA copy is the dense row-major box, but element " +
                           at + ") of '" + sh.text + "' is at offset " + std::to_string(m - sbase) +
                           ", not " + std::to_string(f));
      note(dg, sharedExpr.span,
           "use a region of a tile whose rows are the box rows (e.g. As[0:64, 0:64] of a (64, 64) "
           "tile)");
      return false;
    }
  }
  a.loZero = std::move(loZero);
  a.sbase = sbase;
  a.boxElems = boxElems;
  return true;
}

/// The shared operand of a TMA copy against its buffer: the swizzle the copy writes is the tile's
/// (E0283, §9.2) and the start is aligned to 128 bytes or the swizzle period (E0284, decision
/// TC-T4); false after an error.
bool Analyzer::tmaSharedAlignment(const ast::Expr& call, const PtxInstruction& instr,
                                  const TmaCopyArgs& a) {
  const ast::Expr& sharedExpr = *a.sharedExpr;
  const ast::Expr* swzAt = a.swzAt;
  const int swz = a.swz;
  const ir::TensorRef& sh = *a.shared;
  const ir::Buffer& sbuf = m_body->kernel->buffers[size_t(a.shared->buffer)];
  const int64_t eb = ir::dtypeBytes(a.shared->dtype);
  const SwizzleMode mode = static_cast<SwizzleMode>(a.swz);
  std::vector<int64_t> c(size_t(instr.tensorRank), 0);
  const std::vector<int64_t>& loZero = a.loZero;
  const int64_t sbase = a.sbase;
  // Swizzle agreement (E0283; §9.2).
  std::string why;
  auto bufMode = hardwareSwizzleMode(sbuf.swizzle, int(eb), &why);
  if (!bufMode) {
    error("E0283", sharedExpr.span,
          "'" + sbuf.name + "' has a swizzle no TMA mode produces: " + why);
    return false;
  }
  if (*bufMode != mode) {
    auto& d = error("E0283", swzAt ? swzAt->span : call.span,
                    std::string("swizzle=") + std::to_string(swz) + " (" + swizzleModeName(mode) +
                        ") writes a different image than '" + sbuf.name + "' is laid out with (" +
                        swizzleModeName(*bufMode) + ")");
    int perElement = 0;
    while ((int64_t(1) << perElement) * eb < 16) ++perElement;
    note(d, sbuf.span,
         *bufMode == SwizzleMode::None
             ? "declare the tile with layout=ComposeLayout(" + std::to_string(perElement) + ", " +
                   std::to_string(swz) + ", 3, ...)"
             : "pass swizzle=" + std::to_string(swizzleModeTirx(*bufMode)) +
                   " to match the tile's ComposeLayout");
    return false;
  }
  // Alignment (E0284; decision TC-T4): shared start 128 B (the pattern period when swizzled),
  // global view start and row strides 16 B.
  const int64_t period = std::max<int64_t>(128, swizzlePatternBytes(sbuf.swizzle, int(eb)));
  std::vector<std::pair<int, int64_t>> dynLo;  // (layout dim, known multiple)
  for (size_t d = 0; d < sh.lo.size(); ++d)
    if (sh.lo[d] && sh.lo[d]->kind != ir::ExprKind::IntImm)
      dynLo.push_back({int(d), d < sh.loMultiple.size() ? sh.loMultiple[d] : 1});
  int64_t startBytes = sbase * eb;
  auto alignErr = [&](const std::string& msg) {
    auto& d = error("E0284", sharedExpr.span, msg);
    note(d, sbuf.span,
         "'" + sbuf.name + "' is declared " + std::to_string(sbuf.alignBytes) + "-byte aligned");
  };
  if (sbuf.alignBytes % period != 0 && startBytes % period == 0) {
    alignErr(
        "the shared " + std::string(instr.tmaStore ? "source" : "destination") +
        " of a TMA copy must start " + std::to_string(period) + "-byte aligned" +
        (period > 128 ? " (the " + std::string(swizzleModeName(mode)) + " swizzle period)" : "") +
        "; declare '" + sbuf.name + "' with align=" + std::to_string(period));
    return false;
  }
  if (startBytes % period != 0) {
    alignErr(
        "the shared " + std::string(instr.tmaStore ? "source" : "destination") +
        " of a TMA copy must start " + std::to_string(period) + "-byte aligned" +
        (period > 128 ? " (the " + std::string(swizzleModeName(mode)) + " swizzle period)" : "") +
        "; '" + sh.text + "' starts at byte " + std::to_string(startBytes) + " of '" + sbuf.name +
        "'");
    return false;
  }
  for (auto [d, mult] : dynLo) {
    std::vector<int64_t> lo1 = loZero;
    lo1[size_t(d)] = mult == 0 ? 1 : mult;
    std::fill(c.begin(), c.end(), 0);
    const int64_t step = (sh.resolve(c, lo1)["m"] - sbase) * eb;
    if (step % period != 0) {
      alignErr("the runtime start of '" + sh.text + "' moves in steps of " + std::to_string(step) +
               " bytes; a TMA shared operand must stay " + std::to_string(period) +
               "-byte aligned");
      return false;
    }
  }
  return true;
}

/// The global operand of a TMA copy as a tensor map: a kernel tensor parameter (or a region of
/// one) at a static start, an affine view with a contiguous inner dimension and positive strides
/// (E0287), 16-byte aligned (E0284); nullopt after an error.
std::optional<ir::TensorMap> Analyzer::tmaGlobalMap(const PtxInstruction& instr,
                                                    const TmaCopyArgs& a) {
  const ast::Expr& globalExpr = *a.globalExpr;
  const std::vector<int64_t>& box = a.box;
  const ast::Expr* coordsAt = a.coordsAt;
  const int swz = a.swz;
  const bool oobNan = a.oobNan;
  const ir::TensorRef& gl = *a.global;
  const ir::Kernel& k = *m_body->kernel;
  const int64_t eb = ir::dtypeBytes(a.global->dtype);
  const int rank = instr.tensorRank;
  std::vector<int64_t> c(size_t(instr.tensorRank), 0);
  // The global view as a tensor map (E0287, E0284).
  const ir::Buffer& gbuf = k.buffers[size_t(gl.buffer)];
  if (gbuf.paramIndex < 0) {
    error(
        "E0287", globalExpr.span,
        "the global operand of a TMA copy must be a kernel tensor parameter (or a region of one)");
    return std::nullopt;
  }
  for (size_t d = 0; d < gl.lo.size(); ++d)
    if (gl.lo[d] && gl.lo[d]->kind != ir::ExprKind::IntImm) {
      auto& dg = error("E0287", globalExpr.span,
                       "the host encodes the tensor map once per launch, so the global view '" +
                           gl.text + "' cannot start at a runtime offset");
      note(dg, coordsAt->span, "pass the whole tensor and add the offset to coords=");
      return std::nullopt;
    }
  std::fill(c.begin(), c.end(), 0);
  const int64_t gbase = gl.resolve(c)["m"];
  std::vector<int64_t> stride(size_t(rank), 0);
  for (int d = 0; d < rank; ++d) {
    if (gl.shape[size_t(d)] == 1) continue;
    c[size_t(d)] = 1;
    stride[size_t(d)] = gl.resolve(c)["m"] - gbase;
    c[size_t(d)] = 0;
  }
  // Affine check over the view (every element of small views, the corners of large ones).
  int64_t total = 1;
  for (int64_t s : gl.shape)
    total = std::min<int64_t>(total * s, int64_t(1) << 40);  // shapes are ≤ 2^40 elements
  auto affineAt = [&](const std::vector<int64_t>& at) {
    int64_t want = gbase;
    for (int d = 0; d < rank; ++d) want += at[size_t(d)] * stride[size_t(d)];
    return gl.resolve(at)["m"] == want;
  };
  bool affine = true;
  if (total <= (int64_t(1) << 16)) {
    for (int64_t f = 0; f < total && affine; ++f) {
      int64_t r = f;
      for (int d = rank - 1; d >= 0; --d) {
        c[size_t(d)] = r % gl.shape[size_t(d)];
        r /= gl.shape[size_t(d)];
      }
      affine = affineAt(c);
    }
  } else {
    for (int64_t corner = 0; corner < (int64_t(1) << rank) && affine; ++corner) {
      for (int d = 0; d < rank; ++d) c[size_t(d)] = (corner >> d) & 1 ? gl.shape[size_t(d)] - 1 : 0;
      affine = affineAt(c);
    }
  }
  if (!affine || (gl.shape.back() > 1 && stride.back() != 1)) {
    auto& dg =
        error("E0287", globalExpr.span,
              "a tensor map describes a strided view whose innermost dimension is contiguous; '" +
                  gl.text + "' is not such a view");
    note(dg, globalExpr.span,
         "use the tensor parameter or a slice region of it, without a reordering view");
    return std::nullopt;
  }
  for (int d = 0; d + 1 < rank; ++d)
    if (stride[size_t(d)] <= 0 && gl.shape[size_t(d)] > 1) {
      error("E0287", globalExpr.span,
            "dimension " + std::to_string(d) + " of '" + gl.text + "' has stride " +
                std::to_string(stride[size_t(d)]) + "; a tensor map needs positive strides");
      return std::nullopt;
    }
  if (gbuf.alignBytes % 16 != 0 || (gbase * eb) % 16 != 0) {
    auto& dg =
        error("E0284", globalExpr.span,
              "the global view of a TMA copy must start 16-byte aligned; '" + gl.text +
                  "' starts at byte " + std::to_string(gbase * eb) + " of '" + gbuf.name + "'");
    note(dg, gbuf.span,
         "'" + gbuf.name + "' is " + std::to_string(gbuf.alignBytes) + "-byte aligned");
    return std::nullopt;
  }
  ir::TensorMap map;
  map.param = gbuf.paramIndex;
  map.buffer = gbuf.id;
  map.dtype = gl.dtype;
  map.baseElems = gbase;
  map.swizzle = swz;
  map.oobNan = oobNan;
  int64_t innerSpan = eb;  // bytes spanned by the dimensions inside d (a size-1 dimension's stride)
  for (int d = rank - 1; d >= 0; --d) {
    map.dims.push_back(gl.shape[size_t(d)]);
    map.box.push_back(box[size_t(d)]);
    const int64_t inner = innerSpan;
    innerSpan = (gl.shape[size_t(d)] == 1 ? inner : stride[size_t(d)] * eb) * gl.shape[size_t(d)];
    if (d != rank - 1) {
      const int64_t sb = gl.shape[size_t(d)] == 1 ? (inner + 15) / 16 * 16 : stride[size_t(d)] * eb;
      if (sb % 16 != 0) {
        error("E0284", globalExpr.span,
              "dimension " + std::to_string(d) + " of '" + gl.text + "' is " + std::to_string(sb) +
                  " bytes apart; a tensor map's strides must be multiples of 16 bytes");
        return std::nullopt;
      }
      map.strideBytes.push_back(sb);
    }
  }
  return map;
}

void Analyzer::lowerTma(const ast::Expr& call, const PtxInstruction& instr,
                        std::vector<ir::Stmt>& out) {
  if (!tmaIssue(call, instr)) return;
  TmaCopyArgs a;
  if (!tmaArguments(call, instr, a) || !tmaSharedBox(call, instr, a) ||
      !tmaSharedAlignment(call, instr, a))
    return;
  const std::optional<ir::TensorMap> map = tmaGlobalMap(instr, a);
  if (!map) return;
  const ir::TensorRef& sh = *a.shared;
  const ir::TensorRef& gl = *a.global;
  const int64_t eb = ir::dtypeBytes(gl.dtype);
  ir::Kernel& km = *m_body->kernel;
  auto found = std::find(km.tensorMaps.begin(), km.tensorMaps.end(), *map);
  const int mapIndex = static_cast<int>(found - km.tensorMaps.begin());
  if (found == km.tensorMaps.end()) km.tensorMaps.push_back(*map);
  auto tma = std::make_shared<ir::TmaCopy>();
  tma->instr = instr;
  tma->store = instr.tmaStore;
  tma->map = mapIndex;
  tma->shared = sh;
  tma->global = gl;
  tma->box = a.box;
  tma->coords = std::move(a.coords);
  tma->boxBytes = a.boxElems * eb;
  tma->mbar = a.mbar;
  tma->mbarIndex = std::move(a.mbarIndex);
  ir::Stmt st;
  st.kind = ir::StmtKind::Tma;
  st.span = call.span;
  st.tma = std::move(tma);
  out.push_back(std::move(st));
}

}  // namespace tirx::sema
