// The two sides of `tirx profile --device ssh://…` (profile_remote.h): the request is
// {"protocol", "name", "source", "device", "kernel", "arch", "clock_control", "sass"}; the answer
// one line {"protocol", "exit", "err", "report", "ncu_rep_bytes"} and then that many bytes.
#include "app/cli/profile_remote.h"

#include <unistd.h>

#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/cli.h"
#include "core/driver/child_process.h"
#include "core/driver/device.h"
#include "core/driver/runner_protocol.h"
#include "core/driver/scratch_dir.h"
#include "core/toolchain/ncu_profile.h"

namespace tirx::cli {

namespace {

namespace fs = std::filesystem;

/// The whole file (empty when it cannot be read), through the runner protocol's helper.
std::string slurp(const std::string& path) {
  std::string text;
  driver::readWholeFile(path, text);
  return text;
}

bool spill(const std::string& path, std::string_view bytes) {
  return driver::writeWholeFile(path, bytes.data(), bytes.size());
}

/// A fresh private folder under $TMPDIR (or /tmp), removed with everything in it when the object
/// goes; `path` is empty when it could not be created.
/// The last lines of `text` (what ssh or a shell said), for a message.
std::string tail(const std::string& text, size_t lines = 6) {
  size_t pos = text.size();
  while (pos > 0 && (text[pos - 1] == '\n' || text[pos - 1] == '\r')) --pos;
  const size_t end = pos;
  for (size_t n = 0; pos > 0 && n < lines; --pos)
    if (text[pos - 1] == '\n' && ++n == lines) break;
  return text.substr(pos, end - pos);
}

}  // namespace

int profileOverSsh(const driver::SshTarget& target, const std::string& path,
                   const std::string& source, const Options& o, std::ostream& out,
                   std::ostream& err) {
  if (target.sim) {
    err << "tirx profile: the simulator has no hardware counters; name the host's GPU ("
        << "ssh://HOST/cuda[:N])\n";
    return 2;
  }
  driver::DeviceSpec hostGpu;  // the host's GPU, as its own tirx names it
  hostGpu.kind = driver::DeviceKind::Cuda;
  hostGpu.index = target.device;
  nlohmann::json req{{"protocol", kProfileStdioProtocol},
                     {"name", fs::path(path).filename().string()},
                     {"source", source},
                     {"device", hostGpu.text()},
                     {"kernel", o.get("--kernel", "")},
                     {"arch", o.get("--arch", "sm_90")},
                     {"clock_control", o.get("--clock-control", "none")}};
  if (!o.get("--sass").empty()) {
    std::string listing;
    if (!readFile(o.get("--sass"), listing, err)) return 2;
    req["sass"] = listing;
  }
  const driver::ScratchDir scratch("tirx_profile_ssh");
  const std::string& dir = scratch.path();
  if (dir.empty()) {
    err << "tirx profile: cannot create a temporary folder\n";
    return 2;
  }
  if (!spill(dir + "/request.json", req.dump())) {
    err << "tirx profile: cannot write the request in " << dir << "\n";
    return 2;
  }
  const std::vector<std::string> argv = driver::sshArgv(target, "profile --stdio");
  const driver::ChildResult r = driver::runChildIo(
      argv[0], argv, {dir + "/request.json", dir + "/answer", dir + "/ssh.log"}, 1800000, nullptr);
  const std::string answer = slurp(dir + "/answer"), said = slurp(dir + "/ssh.log");
  const std::string where = target.text();
  if (!r.started) {
    err << "tirx profile: cannot start " << argv[0] << " for " << where << "\n";
    return 3;
  }
  if (r.stop != driver::ChildStop::None) {
    err << "tirx profile: " << where << " did not answer within 30 minutes\n";
    return 1;
  }
  const size_t eol = answer.find('\n');
  const nlohmann::json a = nlohmann::json::parse(answer.substr(0, eol), nullptr, false);
  if (eol == std::string::npos || !a.is_object() || !a.contains("exit")) {
    if (r.exitCode == 255)
      err << "tirx profile: ssh to " << where << " failed:\n" << tail(said) << "\n";
    else
      err << "tirx profile: the tirx on " << where
          << " did not answer the profile request (not installed, or another version: "
             "$TIRX_REMOTE_TIRX names it)"
          << (said.empty() ? "" : ":\n" + tail(said)) << "\n";
    return 3;
  }
  if (a.value("protocol", 0) != kProfileStdioProtocol) {
    err << "tirx profile: the tirx on " << where << " speaks profile protocol "
        << a.value("protocol", 0) << ", this one " << kProfileStdioProtocol << "\n";
    return 3;
  }
  const int code = a.value("exit", 1);
  if (code != 0) {
    std::string msg = a.value("err", std::string());
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    err << msg << "\n(on " << where << ")\n";
    return code;
  }
  toolchain::Profile p;
  std::string why;
  if (!a.contains("report") || !toolchain::profileFromJson(a["report"], p, why)) {
    err << "tirx profile: the answer of " << where << " holds no readable report: " << why << "\n";
    return 1;
  }
  const size_t bytes = a.value("ncu_rep_bytes", size_t(0));
  if (answer.size() - (eol + 1) != bytes) {
    err << "tirx profile: the report from " << where << " arrived cut short ("
        << answer.size() - (eol + 1) << " of " << bytes << " bytes)\n";
    return 1;
  }
  const std::string rep = o.get("-o", fs::path(path).stem().string() + ".profile");
  if (!spill(rep + ".json", a["report"].dump(2) + "\n") ||
      !spill(rep + ".ncu-rep", std::string_view(answer).substr(eol + 1))) {
    err << "tirx profile: cannot write '" << rep << ".json' or '" << rep << ".ncu-rep'\n";
    return 2;
  }
  if (o.has("--json"))
    out << a["report"].dump(2) << "\n";
  else
    out << toolchain::formatProfile(p, path) << "profiled on " << where << "; saved " << rep
        << ".json and " << rep << ".ncu-rep\n";
  return 0;
}

int profileStdio(std::istream& in, std::ostream& out) {
  const std::string text(std::istreambuf_iterator<char>(in), {});
  const nlohmann::json req = nlohmann::json::parse(text, nullptr, false);
  nlohmann::json a{{"protocol", kProfileStdioProtocol}, {"ncu_rep_bytes", 0}};
  auto answer = [&](int code, const std::string& message, const std::string& rep = {}) {
    a["exit"] = code;
    a["err"] = message;
    a["ncu_rep_bytes"] = rep.size();
    out << a.dump() << "\n";
    out.write(rep.data(), std::streamsize(rep.size()));
    out.flush();
    return 0;
  };
  if (!req.is_object() || req.value("protocol", 0) != kProfileStdioProtocol ||
      !req.contains("source") || !req["source"].is_string())
    return answer(2, "tirx profile --stdio: expected a profile request of protocol " +
                         std::to_string(kProfileStdioProtocol) + "\n");
  const driver::ScratchDir scratch("tirx_profile");
  const std::string& dir = scratch.path();
  if (dir.empty()) return answer(2, "tirx profile: cannot create a temporary folder on the host\n");
  std::string name = fs::path(req.value("name", std::string("script.py"))).filename().string();
  if (name.empty() || name == "." || name == "..") name = "script.py";
  const std::string script = dir + "/" + name;
  if (!spill(script, req["source"].get<std::string>()))
    return answer(2, "tirx profile: cannot write the script on the host\n");
  Args args{script,
            "--device",
            req.value("device", std::string("cuda:0")),
            "--arch",
            req.value("arch", std::string("sm_90")),
            "--clock-control",
            req.value("clock_control", std::string("none")),
            "-o",
            dir + "/report",
            "--json"};
  if (const std::string k = req.value("kernel", std::string()); !k.empty())
    args.insert(args.end(), {"--kernel", k});
  if (req.contains("sass") && req["sass"].is_string()) {
    if (!spill(dir + "/listing.sass", req["sass"].get<std::string>()))
      return answer(2, "tirx profile: cannot write the SASS listing on the host\n");
    args.insert(args.end(), {"--sass", dir + "/listing.sass"});
  }
  std::ostringstream o, e;
  const int code = cmdProfile(args, o, e);
  // The messages name the script as the user does, not by the host's temporary path.
  std::string msg = e.str();
  for (size_t at; (at = msg.find(dir + "/")) != std::string::npos;) msg.erase(at, dir.size() + 1);
  if (code != 0) return answer(code, msg);
  a["report"] = nlohmann::json::parse(o.str(), nullptr, false);
  return answer(0, msg, slurp(dir + "/report.ncu-rep"));
}

}  // namespace tirx::cli
