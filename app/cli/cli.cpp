// Subcommand dispatch and the helpers every subcommand shares.
#include "app/cli/cli.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/driver/version.h"

namespace tirx::cli {

namespace {
// One usage line per command.
// clang-format off
const char* kUsage =
    "usage: tirx <command> [options]\n"
    "  check   FILE [--arch sm_90] [--json]\n"
    "  compile FILE [--kernel K] [--arch sm_90] --emit cuda|ptx|sass|resources|ir|map|regs [-o OUT]\n"
    "  run     FILE [--kernel K] [--device sim|cuda[:N]] [--input NAME=GEN ...] [--out DIR] [--json]\n"
    "          [--budget N] [--timeout S] [--sanitize TOOL]\n"
    "  verify  FILE [--device sim|cuda|both] [--json] [--budget N] [--timeout S] [--sanitize TOOL]\n"
    "  debug   FILE [--break LINE[:COND]]... [--when COND] [--stop K] [--step N] [--print BUF]... [--json]\n"
    "  layout  SPEC [--shape 2,32,4] [--json]\n"
    "  bundle  FILE -o OUT.tirxb [--device sim|cuda[:N]] [--arch sm_90] [--timeout S]\n"
    "  replay  BUNDLE.tirxb [--device sim|cuda[:N]] [--json]\n"
    "  diff    A B [--device sim|cuda[:N]] [--json] [--no-verify] [--max-cells N]   (files or bundles)\n"
    "  profile FILE [--kernel K] [--device cuda[:N]] [--json] [-o REPORT]   ncu counters per script line\n"
    "  bench   FILE ...\n"
    "  tune    FILE [--param NAME=v1,v2,...]... [--device sim|cuda[:N]|cuda:all|slurm[:PARTITION]] [--jobs N]\n"
    "          [--budget S] [--json] [--cache FILE] [--apply]\n"
    "  ptx-conform [--device sim|cuda[:N]] [--filter PREFIX] [--compile] [--json] [--record FILE]\n"
    "  scalar-conform [--device sim|cuda[:N]] [--count N] [--compile] [--record FILE] [--replay FILE]\n";
// clang-format on
}  // namespace

int runCli(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    (args.empty() ? err : out) << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string& cmd = args[0];
  const Args rest(args.begin() + 1, args.end());
  if (cmd == "check") return cmdCheck(rest, out, err);
  if (cmd == "layout") return cmdLayout(rest, out, err);
  if (cmd == "compile") return cmdCompile(rest, out, err);
  if (cmd == "run") return cmdRun(rest, out, err);
  if (cmd == "verify") return cmdVerify(rest, out, err);
  if (cmd == "debug") return cmdDebug(rest, out, err);
  if (cmd == "bench") return cmdBench(rest, out, err);
  if (cmd == "ptx-conform") return cmdPtxConform(rest, out, err);
  if (cmd == "scalar-conform") return cmdScalarConform(rest, out, err);
  if (cmd == "runner") return cmdRunner(rest, out, err);
  if (cmd == "bundle") return cmdBundle(rest, out, err);
  if (cmd == "replay") return cmdReplay(rest, out, err);
  if (cmd == "diff") return cmdDiff(rest, out, err);
  if (cmd == "tune") return cmdTune(rest, out, err);
  if (cmd == "tune-task") return cmdTuneTask(rest, out, err);
  if (cmd == "profile") return cmdProfile(rest, out, err);
  if (cmd == "--version") {
    out << "tirx " << kTirxVersion << "\n";
    return 0;
  }
  err << "tirx: unknown command '" << cmd << "'\n" << kUsage;
  return 2;
}

bool readFile(const std::string& path, std::string& text, std::ostream& err) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    err << "tirx: cannot read '" << path << "': it is a directory\n";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << "tirx: cannot read '" << path << "': " << std::strerror(errno) << "\n";
    return false;
  }
  text.clear();
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    if (text.size() + size_t(in.gcount()) > kMaxScriptBytes) {
      err << "tirx: cannot read '" << path << "': larger than the " << (kMaxScriptBytes >> 20)
          << " MiB limit of a script\n";
      return false;
    }
    text.append(buf, size_t(in.gcount()));
  }
  if (in.bad()) {
    err << "tirx: cannot read '" << path << "': read error\n";
    return false;
  }
  return true;
}

bool parseSeconds(const std::string& text, double& seconds, std::string& why) {
  char* end = nullptr;
  const double v = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                       ? NAN
                       : std::strtod(text.c_str(), &end);
  if (!end || *end || !std::isfinite(v) || v <= 0 || v > 1e6) {
    why = "expected a number of seconds in (0, 1000000], found '" + text + "'";
    return false;
  }
  seconds = v;
  return true;
}

bool parseInteger(const std::string& text, int64_t lo, int64_t hi, int64_t& value,
                  std::string& why) {
  int64_t v = 0;
  const char* first = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(first, text.data() + text.size(), v);
  if (text.empty() || end != text.data() + text.size() || ec != std::errc() || v < lo || v > hi) {
    why = "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
          "], found '" + text + "'";
    return false;
  }
  value = v;
  return true;
}

std::optional<driver::DeviceSpec> deviceOption(const Options& o, const std::string& command,
                                               std::ostream& err, const std::string& fallback,
                                               DeviceForms forms) {
  const std::string text = o.get("--device", fallback);
  std::optional<std::string> tool;
  if (forms.sanitize && !o.getAll("--sanitize").empty()) tool = o.get("--sanitize");
  auto d = driver::parseDevice(text, tool ? std::optional<std::string_view>(*tool) : std::nullopt);
  std::string why;
  if (!d)
    why = d.error().api == "device" ? "--device: " + d.error().message : d.error().message;
  else if (d->both && !forms.both)
    why = "--device: 'both' is for tirx verify; expected sim, cuda or cuda:N";
  else if (d->isSim() && !forms.sim)
    why = "--device: expected cuda or cuda:N, found 'sim'";
  else if (d->remote && !forms.remote)
    why = std::string("--device: ssh:// devices are not available here; expected ") +
          (forms.sim ? "sim, " : "") + "cuda or cuda:N";
  if (why.empty()) return *d;
  err << "tirx " << command << ": " << why << "\n";
  return std::nullopt;
}

namespace {
std::atomic<CancelToken*> g_interruptToken{nullptr};
std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int) {
  // Async-signal-safe only: atomics, write, signal.
  g_interrupted.store(true);
  if (CancelToken* t = g_interruptToken.load()) t->cancel();
  static const char msg[] = "tirx: interrupted, stopping (Ctrl-C again to kill)\n";
  [[maybe_unused]] const auto n = ::write(2, msg, sizeof msg - 1);
  std::signal(SIGINT, SIG_DFL);
}
}  // namespace

InterruptCancels::InterruptCancels(CancelTokenPtr token) : m_token(std::move(token)) {
  g_interrupted.store(false);
  g_interruptToken.store(m_token.get());
  m_previous = std::signal(SIGINT, onInterrupt);
  if (m_previous == SIG_ERR) m_previous = SIG_DFL;
}

InterruptCancels::~InterruptCancels() {
  std::signal(SIGINT, m_previous == onInterrupt ? SIG_DFL : m_previous);
  g_interruptToken.store(nullptr);
}

bool InterruptCancels::interrupted() const {
  return g_interrupted.load();
}

bool Options::has(const std::string& flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

std::string Options::get(const std::string& name, const std::string& fallback) const {
  for (auto it = named.rbegin(); it != named.rend(); ++it)
    if (it->first == name) return it->second;
  return fallback;
}

std::vector<std::string> Options::getAll(const std::string& name) const {
  std::vector<std::string> v;
  for (const auto& [k, val] : named)
    if (k == name) v.push_back(val);
  return v;
}

Options parseOptions(const Args& args, const std::vector<std::string>& valueOptions,
                     const std::vector<std::string>& flagOptions) {
  Options o;
  auto isValue = [&](const std::string& n) {
    return std::find(valueOptions.begin(), valueOptions.end(), n) != valueOptions.end();
  };
  auto isFlag = [&](const std::string& n) {
    return std::find(flagOptions.begin(), flagOptions.end(), n) != flagOptions.end();
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 1 && a[0] == '-' &&
        !(a.size() > 1 && (std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.'))) {
      std::string name = a, value;
      const auto eq = a.find('=');
      const bool hasEq = eq != std::string::npos;
      if (hasEq) {
        name = a.substr(0, eq);
        value = a.substr(eq + 1);
      }
      if (isValue(name)) {
        if (!hasEq) {
          if (i + 1 >= args.size()) {
            o.error = "option " + name + " needs a value";
            return o;
          }
          value = args[++i];
        }
        o.named.emplace_back(name, value);
      } else if (isFlag(name) && !hasEq) {
        o.flags.push_back(name);
      } else {
        o.error = "unknown option '" + a + "'";
        return o;
      }
    } else {
      o.positional.push_back(a);
    }
  }
  return o;
}

}  // namespace tirx::cli
