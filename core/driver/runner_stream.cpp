// The remote side of a remote run, `tirx runner --stdio` (remote.h, docs/runner.md "Stream
// mode"): greet with the tirx version, read one request frame into a fresh directory, run it in a
// runner child exactly as a local parent would (`tirx runner REQUEST RESPONSE`; the simulator's
// requests in this binary, GPU ones in findRunner()'s), and send back the response with its output
// files. A thread watches stdin: when it closes — the local side was cancelled or timed out and
// killed its ssh, or the connection dropped — the runner child is killed and nothing is sent.
#include <unistd.h>

#include <filesystem>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/driver/child_process.h"
#include "core/driver/cuda_executor.h"
#include "core/driver/remote.h"
#include "core/driver/runner_protocol.h"
#include "core/driver/scratch_dir.h"
#include "core/driver/stream_io.h"
#include "core/driver/version.h"

namespace tirx::driver {

namespace {

int sendError(StreamIo& out, const std::string& message) {
  std::string why;
  writeFrame(out, nlohmann::json{{"type", "error"}, {"message", message}}.dump(), ".", {}, why);
  return 2;
}

}  // namespace

int runStream(int inFd, int outFd) {
  StreamIo in(inFd), out(outFd);
  const std::string hello = nlohmann::json{{"type", "hello"},
                                           {"protocol", kStreamProtocol},
                                           {"tirx", kTirxVersion},
                                           {"pid", int64_t(::getpid())}}
                                .dump() +
                            "\n";
  if (out.writeAll(hello.data(), hello.size()) != IoResult::Ok) return 1;
  const ScratchDir dir("tirx_remote");
  if (dir.path().empty()) return sendError(out, "cannot create a temporary directory");
  std::string header, why;
  std::vector<std::string> files;
  const IoResult r = readFrame(in, header, dir.path(), files, why);
  if (r == IoResult::Eof) return 0;  // the local side went away before asking anything
  if (r != IoResult::Ok) return sendError(out, "bad request frame: " + why);
  const nlohmann::json h = nlohmann::json::parse(header, nullptr, false);
  if (!h.is_object()) return sendError(out, "bad request frame: not a JSON object");
  const auto version = h.value("tirx", nlohmann::json());
  if (h.value("type", nlohmann::json()) != "request" || !version.is_string())
    return sendError(out, "bad request frame: not a request");
  if (version.get<std::string>() != kTirxVersion ||
      h.value("protocol", nlohmann::json()) != kStreamProtocol)
    return sendError(out, "version skew: the request comes from tirx " +
                              version.get<std::string>() + ", this is " + kTirxVersion);
  std::string text;
  if (!readWholeFile(dir.path() + "/request.json", text, kMaxProtocolText))
    return sendError(out, "the request frame has no request.json");
  auto req = parseRequest(text);
  if (!req) return sendError(out, "malformed request: " + req.error().message);
  std::string exe;
  if (req->mode == "sim") {
    std::error_code ec;
    exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  } else {
    exe = findRunner();
  }
  if (exe.empty())
    return sendError(out, "cannot find the tirx binary to run kernels in (set TIRX_RUNNER)");
  // Nothing more comes on stdin: its end means the local side is gone.
  const auto cancel = std::make_shared<CancelToken>();
  std::thread([inFd, cancel] {
    char c[256];
    while (::read(inFd, c, sizeof c) > 0) {
    }
    cancel->cancel();
  }).detach();
  WorkBudget budget({}, cancel);
  const ChildResult child =
      runChild(exe, {exe, "runner", dir.path() + "/request.json", dir.path() + "/response.json"},
               dir.path() + "/runner.log", std::numeric_limits<int>::max(), &budget);
  if (!child.started) return sendError(out, "cannot start the runner process");
  if (child.stop != ChildStop::None) return 1;
  std::vector<std::string> back;
  std::error_code ec;
  if (std::filesystem::exists(dir.path() + "/response.json", ec)) {
    back.push_back("response.json");
    std::string resp;
    if (readWholeFile(dir.path() + "/response.json", resp, kMaxProtocolText))
      if (auto parsed = parseResponse(resp))
        for (const auto& o : parsed->outputs)
          for (const std::string& f : {o.file, o.maskFile})
            if (!f.empty() && safeStreamName(f) &&
                std::filesystem::exists(dir.path() + "/" + f, ec))
              back.push_back(f);
  }
  // The log's head is enough for a message (the parent quotes 300 characters of it).
  if (std::filesystem::exists(dir.path() + "/runner.log", ec) &&
      std::filesystem::file_size(dir.path() + "/runner.log", ec) <= (1u << 20))
    back.push_back("runner.log");
  const nlohmann::json resp = {
      {"type", "response"}, {"exit", child.exitCode}, {"signal", child.signal}};
  return writeFrame(out, resp.dump(), dir.path(), back, why) == IoResult::Ok ? 0 : 1;
}

}  // namespace tirx::driver
