// Subcommand dispatch and the helpers every subcommand shares.
#include "app/cli/cli.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace tirx::cli {

namespace {
const char* kUsage =
    "usage: tirx <command> [options]\n"
    "  check   FILE [--arch sm_90] [--json]\n"
    "  compile FILE [--kernel K] [--arch sm_90] --emit cuda|ptx|sass|resources|ir [-o OUT]\n"
    "  run     FILE [--kernel K] [--device sim|cuda[:N]] [--input NAME=GEN ...] [--out DIR] [--json]\n"
    "  verify  FILE [--device sim|cuda|both] [--json]\n"
    "  layout  SPEC [--shape 2,32,4] [--json]\n"
    "  bench   FILE ...\n"
    "  ptx-conform [--device sim|cuda[:N]] [--filter PREFIX] [--compile] [--json] [--record FILE]\n";
}

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
  if (cmd == "bench") return cmdBench(rest, out, err);
  if (cmd == "ptx-conform") return cmdPtxConform(rest, out, err);
  if (cmd == "runner") return cmdRunner(rest, out, err);
  if (cmd == "--version") {
    out << "tirx 0.1.0\n";
    return 0;
  }
  err << "tirx: unknown command '" << cmd << "'\n" << kUsage;
  return 2;
}

bool readFile(const std::string& path, std::string& text, std::ostream& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << "tirx: cannot read '" << path << "'\n";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
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
    if (a.size() > 1 && a[0] == '-' && !(a.size() > 1 && (std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.'))) {
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
