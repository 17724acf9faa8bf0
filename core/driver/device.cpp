// The device parser and the executor factory (device.h): the only place that reads device text
// (`sim`, `cuda[:N]`, `both`, `ssh://[user@]host[:port]/cuda[:N]`, `ssh://…/sim`) and the only
// place that constructs an executor for a device. Grammar:
//   device  := "sim" | "both" | "cuda" | "cuda:" N | "ssh://" [user "@"] host [":" port] "/" target
//   target  := "sim" | "cuda" | "cuda:" N          N in [0, 1023], port in [1, 65535]
//   user, host := [A-Za-z0-9._-]+, not starting with "-", at most 255 characters
#include "core/driver/device.h"

#include <cctype>
#include <charconv>

#include "core/driver/cuda_executor.h"
#include "core/sim/simulator.h"

namespace tirx::driver {

namespace {

constexpr int kMaxDeviceIndex = 1023;

Status bad(std::string message) {
  return Status{"device", std::move(message), 0};
}

std::string quoted(std::string_view text) {
  return "'" + std::string(text.substr(0, 200)) + "'";
}

bool nameChars(std::string_view s) {
  if (s.empty() || s[0] == '-' || s.size() > 255) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
      return false;
  return true;
}

bool allDigits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

/// "cuda" or "cuda:N" into `index`; nullopt when `text` is neither form, a Status when N is too
/// big.
std::optional<Result<int>> cudaIndex(std::string_view text, std::string_view whole) {
  if (text == "cuda") return Result<int>(0);
  if (text.rfind("cuda:", 0) != 0 || !allDigits(text.substr(5))) return std::nullopt;
  int n = 0;
  const std::string_view digits = text.substr(5);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || n > kMaxDeviceIndex)
    return Result<int>(
        bad("device index out of range in " + quoted(whole) + " (expected cuda:0 to cuda:1023)"));
  return Result<int>(n);
}

Result<SshTarget> parseSsh(std::string_view text) {
  const Status form =
      bad("expected ssh://[user@]host[:port]/cuda[:N] or ssh://[user@]host[:port]/sim, found " +
          quoted(text));
  std::string_view rest = text.substr(6);
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return form;
  std::string_view authority = rest.substr(0, slash), path = rest.substr(slash + 1);
  SshTarget r;
  if (const size_t at = authority.find('@'); at != std::string_view::npos) {
    r.user = std::string(authority.substr(0, at));
    authority.remove_prefix(at + 1);
    if (!nameChars(r.user)) return bad("bad user name in " + quoted(text));
  }
  if (const size_t colon = authority.find(':'); colon != std::string_view::npos) {
    const std::string_view port = authority.substr(colon + 1);
    authority = authority.substr(0, colon);
    int p = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (!allDigits(port) || ec != std::errc() || end != port.data() + port.size() || p < 1 ||
        p > 65535)
      return bad("bad port '" + std::string(port.substr(0, 20)) + "' (expected 1 to 65535)");
    r.port = p;
  }
  r.host = std::string(authority);
  if (!nameChars(r.host)) return bad("bad host name in " + quoted(text));
  if (path == "sim") {
    r.sim = true;
  } else if (auto n = cudaIndex(path, text)) {
    if (!*n) return n->error();
    r.device = **n;
  } else {
    return form;
  }
  return r;
}

Result<DeviceSpec> parseDeviceText(std::string_view text) {
  DeviceSpec d;
  if (text == "sim") return d;
  if (text == "both") {
    d.both = true;
    return d;
  }
  if (text.rfind("ssh://", 0) == 0) {
    auto t = parseSsh(text);
    if (!t) return t.error();
    d.kind = DeviceKind::Remote;
    d.index = t->device;
    d.remote = std::move(*t);
    return d;
  }
  if (auto n = cudaIndex(text, text)) {
    if (!*n) return n->error();
    d.kind = DeviceKind::Cuda;
    d.index = **n;
    return d;
  }
  return bad(
      "expected sim, cuda or cuda:N, both (verify) or ssh://[user@]host[:port]/cuda[:N] or …/sim, "
      "found " +
      quoted(text));
}

}  // namespace

std::string DeviceSpec::text() const {
  if (remote) return remote->text();
  if (both) return "both";
  return kind == DeviceKind::Cuda ? "cuda:" + std::to_string(index) : "sim";
}

DeviceSpec DeviceSpec::cuda(int index) {
  DeviceSpec d;
  d.kind = DeviceKind::Cuda;
  d.index = index;
  return d;
}

bool DeviceSpec::operator==(const DeviceSpec& o) const {
  return text() == o.text() && sanitize == o.sanitize;
}

Result<DeviceSpec> parseDevice(std::string_view text, std::optional<std::string_view> sanitizer) {
  auto d = parseDeviceText(text);
  if (!d || !sanitizer) return d;
  if (!parseSanitizerTool(*sanitizer, d->sanitize))
    return Status{"sanitizer",
                  "--sanitize: expected memcheck, racecheck, initcheck or synccheck, found " +
                      quoted(*sanitizer),
                  0};
  if (d->kind == DeviceKind::Remote)
    return Status{"sanitizer",
                  "--sanitize is not available for ssh:// devices (run tirx on the host)", 0};
  if (d->kind != DeviceKind::Cuda && !d->both)
    return Status{"sanitizer",
                  "--sanitize watches GPU runs: use it with --device cuda[:N] (or both for verify)",
                  0};
  return d;
}

Result<std::unique_ptr<ir::Executor>> makeExecutor(const DeviceSpec& device,
                                                   const ExecutorContext& c) {
  std::unique_ptr<ir::Executor> e;
  if (device.kind == DeviceKind::Sim && !device.both) {
    sim::SimOptions so;
    so.budget = c.budget;
    so.trackProvenance = c.simProvenance;
    e = std::make_unique<sim::Simulator>(so);
  } else {
    std::string why;
    if (device.kind == DeviceKind::Cuda || device.both)
      if (!gpuPathAvailable(&why)) return Status{"cuda", why, 0};
    CudaExecutorOptions o;
    o.device = device.index;
    o.remote = device.remote;
    o.sanitize = device.sanitize;
    o.sm = c.sm;
    o.scriptFile = c.scriptFile;
    o.scriptSource = c.scriptSource;
    o.timeoutMs = c.timeoutMs;
    o.warmup = c.warmup;
    o.repeats = c.repeats;
    o.trackDefined = c.trackDefined;
    o.runnerPath = c.runnerPath;
    o.onSanitizerReport = c.onSanitizerReport;
    e = std::make_unique<CudaExecutor>(std::move(o));
  }
  e->setBudget(c.budget);
  return e;
}

const SanitizerReport* lastSanitizerReport(const ir::Executor& exec) {
  const auto* cuda = dynamic_cast<const CudaExecutor*>(&exec);
  return cuda && cuda->lastSanitizerReport() ? &*cuda->lastSanitizerReport() : nullptr;
}

const LaunchTimings* lastLaunchTimings(const ir::Executor& exec) {
  const auto* cuda = dynamic_cast<const CudaExecutor*>(&exec);
  return cuda ? &cuda->lastTimings() : nullptr;
}

}  // namespace tirx::driver
