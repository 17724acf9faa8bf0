// The facts of a tile at a stop: for every logical element of a register, shared or global buffer
// its value (decoded from the state image), whether it was never written (registers, shared) or is
// undefined (global), NaN or infinite, its first owner (thread and register slot from the layout's
// ownership table; the byte for memory), and its error against the checked reference when the
// script's check code compared this output (registers: through the element they were stored to).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/debug/debug_impl.h"
#include "core/ir/half.h"

namespace tirx::debug {

double decodeValue(const uint8_t* p, ir::DType t, uint64_t* bits) {
  uint64_t raw = 0;
  const int n = ir::dtypeBytes(t);
  std::memcpy(&raw, p, size_t(std::clamp(n, 0, 8)));
  if (bits) *bits = raw;
  switch (t) {
    case ir::DType::Float16:
      return ir::halfBitsToFloat(static_cast<uint16_t>(raw));
    case ir::DType::BFloat16: {
      const uint32_t w = static_cast<uint32_t>(raw) << 16;
      float f;
      std::memcpy(&f, &w, 4);
      return f;
    }
    case ir::DType::Float32: {
      float f;
      const uint32_t w = static_cast<uint32_t>(raw);
      std::memcpy(&f, &w, 4);
      return f;
    }
    case ir::DType::Float64: {
      double d;
      std::memcpy(&d, &raw, 8);
      return d;
    }
    case ir::DType::Bool:
      return raw != 0;
    case ir::DType::Int8:
      return static_cast<int8_t>(raw);
    case ir::DType::Int16:
      return static_cast<int16_t>(raw);
    case ir::DType::Int32:
      return static_cast<int32_t>(raw);
    case ir::DType::Int64:
      return static_cast<double>(static_cast<int64_t>(raw));
    default:
      return static_cast<double>(raw);  // unsigned integers
  }
}

int DebugSession::Impl::bufferIndex(const std::string& name) const {
  for (size_t b = 0; b < rec.buffers.size(); ++b)
    if (rec.buffers[b].name == name) return static_cast<int>(b);
  return -1;
}

namespace {

/// The thread that holds owner thread `t` of a register layout for the focus thread: a layout whose
/// threads span one warp (or warpgroup) names lanes of the focus thread's warp (warpgroup); one
/// without thread axes is every thread's own copy.
int64_t threadBase(int64_t span, int64_t threads, int64_t focus) {
  if (span <= 1) return focus;
  const int64_t unit = span <= 32 ? 32 : span <= 128 ? 128 : threads;
  return unit >= threads ? 0 : focus / unit * unit;
}

}  // namespace

OwnershipTable DebugSession::Impl::tableOf(const ir::Buffer& buf, int64_t flat) const {
  OwnershipTable table = ownership(buf.layout, buf.shape);
  if (!table.tooLarge || buf.shape.empty()) return table;
  // Past the cap: a window of whole rows (folded by the last dimension), from the top or the one
  // row holding `flat`.
  TableWindow w;
  w.foldCols = std::max<int64_t>(1, buf.shape.back());
  w.cols = flat >= 0 ? 1 : w.foldCols;
  w.row0 = flat >= 0 ? flat / w.foldCols : 0;
  w.col0 = flat >= 0 ? flat % w.foldCols : 0;
  w.rows = flat >= 0 ? 1 : product(buf.shape) / w.foldCols;
  return ownershipWindow(buf.layout, buf.shape, w);
}

ElementFact DebugSession::Impl::element(int b, int64_t flat, const OwnershipTable& table) const {
  ElementFact f;
  const ir::Buffer& buf = rec.buffers[size_t(b)];
  const StateLayout& L = rec.trace.layout;
  const int eb = ir::dtypeBytes(buf.dtype);
  const auto owners = table.ownersOf(flat);
  if (owners.empty()) {
    f.uninit = true;
    return f;
  }
  const Owner o = owners.front();
  f.owners = static_cast<int>(owners.size());
  const uint8_t* bytes = nullptr;
  bool written = false;
  if (buf.scope == ir::MemScope::Local) {
    const int64_t t = threadBase(table.threadCount, rec.threads, opt.thread) + o.thread;
    const int64_t off = o.slot * eb;
    if (t < 0 || t >= rec.threads || off < 0 || off + eb > L.regBytes[size_t(b)]) {
      f.uninit = true;
      return f;
    }
    f.thread = t;
    f.slot = o.slot;
    bytes = image.data() + L.regs[size_t(b)][size_t(t)] + off;
    written = image[size_t(L.regFlags[size_t(b)][size_t(t)] + off)] != 0;
    if (auto it = rec.storedTo.find({b, t, o.slot}); it != rec.storedTo.end()) {
      const auto& ref = reference[size_t(it->second.first)];
      if (it->second.second < static_cast<int64_t>(ref.size())) {
        f.hasReference = true;
        f.reference = ref[size_t(it->second.second)];
      }
    }
  } else if (buf.scope == ir::MemScope::Shared) {
    const int64_t phys = L.sharedBuffer[size_t(b)] + ir::swizzledByte(buf, o.slot * eb);
    if (L.sharedBuffer[size_t(b)] < 0 || phys < 0 || phys + eb > L.sharedBytes) {
      f.uninit = true;
      return f;
    }
    f.byte = phys;
    bytes = image.data() + L.shared + phys;
    written = image[size_t(L.sharedFlags + phys)] != 0;
  } else {
    const int a = buf.paramIndex;
    const int64_t off = o.slot * eb;
    if (a < 0 || size_t(a) >= L.arg.size() || L.arg[size_t(a)] < 0 || off < 0 ||
        off + eb > L.argBytes[size_t(a)]) {
      f.uninit = true;
      return f;
    }
    f.byte = off;
    bytes = argBytes(a, off);
    written = argWritten(a, o.slot);
    const auto& ref = reference[size_t(a)];
    if (o.slot < static_cast<int64_t>(ref.size())) {
      f.hasReference = true;
      f.reference = ref[size_t(o.slot)];
    }
  }
  f.value = decodeValue(bytes, buf.dtype, &f.bits);
  f.uninit = !written;
  f.nan = written && std::isnan(f.value);
  f.inf = written && std::isinf(f.value);
  // An element nobody wrote yet has no value to compare: its reference shows, without an error.
  if (f.hasReference && !f.uninit) f.absErr = std::fabs(f.value - f.reference);
  return f;
}

TileFacts DebugSession::Impl::facts(int b) const {
  TileFacts t;
  const ir::Buffer& buf = rec.buffers[size_t(b)];
  t.buffer = buf.name;
  t.scope = buf.scope == ir::MemScope::Local    ? "local"
            : buf.scope == ir::MemScope::Shared ? "shared"
                                                : "global";
  t.dtype = std::string(ir::dtypeName(buf.dtype));
  t.shape = buf.shape;
  t.layout = buf.layout;
  const OwnershipTable table = tableOf(buf, -1);
  if (table.windowed)
    t.note =
        "rows " + std::to_string(table.window.row0) + "-" +
        std::to_string(table.window.row0 + table.window.rows - 1) + " of " +
        std::to_string(table.window.foldCols ? product(buf.shape) / table.window.foldCols : 0) +
        " (by the last dimension): the tile's " + std::to_string(product(buf.shape)) +
        " elements are more than the debugger tabulates";
  if (buf.scope == ir::MemScope::Local && table.threadCount <= 32 && rec.threads > 32)
    t.note =
        table.threadCount <= 1
            ? "thread " + std::to_string(opt.thread) + "'s copy (the layout has no thread axes)"
            : "warp " + std::to_string(opt.thread / 32) + "'s copy (the layout names lanes only)";
  t.min = std::numeric_limits<double>::infinity();
  t.max = -t.min;
  bool any = false;
  for (int64_t e = 0; e < table.elementCount; ++e) {
    ElementFact f = element(b, e, table);
    f.coord = unflatten(table.elementOf(e), buf.shape);
    t.uninit += f.uninit;
    t.nans += f.nan;
    t.infs += f.inf;
    if (!f.uninit && std::isfinite(f.value)) {
      t.min = std::min(t.min, f.value);
      t.max = std::max(t.max, f.value);
      any = true;
    }
    if (f.hasReference) t.hasReference = true;
    if (f.hasReference && !f.uninit) {
      if (!(f.absErr <= t.maxAbsErr)) t.maxAbsErr = f.absErr;  // NaN errors propagate
    }
    t.elements.push_back(std::move(f));
  }
  if (!any) t.min = t.max = 0;
  return t;
}

std::optional<TileFacts> DebugSession::tile(const std::string& name, Diagnostic* diag) const {
  const int b = m->bufferIndex(name);
  if (b < 0) {
    if (diag) {
      std::string known;
      for (const auto& n : bufferNames()) known += (known.empty() ? "" : ", ") + n;
      *diag = makeError("E0845", {},
                        "kernel '" + kernelName() + "' has no buffer named '" + name +
                            "' (it has " + known + ")");
    }
    return std::nullopt;
  }
  return m->facts(b);
}

std::string DebugSession::Impl::checkCondition(const Condition& c) const {
  const int b = bufferIndex(c.buffer);
  if (b < 0)
    return "the condition names '" + c.buffer + "', which is not a buffer of kernel '" +
           rec.kernelName + "'";
  const ir::Buffer& buf = rec.buffers[size_t(b)];
  if (c.index.empty()) return {};
  if (c.index.size() != buf.shape.size())
    return "'" + c.buffer + "' has " + std::to_string(buf.shape.size()) +
           " dimensions, the condition indexes " + std::to_string(c.index.size());
  for (size_t d = 0; d < c.index.size(); ++d)
    if (c.index[d] < 0 || c.index[d] >= buf.shape[d])
      return "index " + std::to_string(c.index[d]) + " of dimension " + std::to_string(d) +
             " is outside '" + c.buffer + "' (extent " + std::to_string(buf.shape[d]) + ")";
  return {};
}

namespace {
bool holds(const Condition& c, const ElementFact& f) {
  switch (c.kind) {
    case Condition::Kind::Nan:
      return f.nan;
    case Condition::Kind::Inf:
      return f.inf;
    case Condition::Kind::Uninit:
      return f.uninit;
    case Condition::Kind::Compare:
      break;
  }
  if (f.uninit) return false;  // an unwritten element has no value to compare
  const double v = f.value, x = c.number;
  if (c.op == "<") return v < x;
  if (c.op == "<=") return v <= x;
  if (c.op == ">") return v > x;
  if (c.op == ">=") return v >= x;
  if (c.op == "==") return v == x;
  return v != x;
}
}  // namespace

bool DebugSession::Impl::evalCondition(const Condition& c) const {
  const int b = bufferIndex(c.buffer);
  if (b < 0) return false;
  const ir::Buffer& buf = rec.buffers[size_t(b)];
  if (!c.index.empty()) {
    const int64_t flat = flatten(c.index, buf.shape);
    const OwnershipTable table = tableOf(buf, flat);
    return holds(c, element(b, table.windowed ? 0 : flat, table));
  }
  const OwnershipTable table = tableOf(buf, -1);  // a huge tile: its first rows
  for (int64_t e = 0; e < table.elementCount; ++e)
    if (holds(c, element(b, e, table))) return true;
  return false;
}

}  // namespace tirx::debug
