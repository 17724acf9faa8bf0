// The tune cache (decision TUNE-2): a JSON-lines file, one object per finished candidate
// ({"key", "values", "outcome", "reason", "time_ms", ...}). Appends are one write(2) of one whole
// line on an O_APPEND descriptor, so concurrent appenders (several users, Slurm tasks on a shared
// file system) never interleave inside a line; a reader skips a torn or malformed line. The key
// names the script hash with the tuned literals normalised, the values, the shapes, the arch and
// the device, so a changed script misses only its own entries.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/tune/tune.h"

namespace tirx::tune {

namespace {

Outcome outcomeFromName(const std::string& n) {
  if (n == "ranked") return Outcome::Ranked;
  if (n == "rejected_check") return Outcome::RejectedCheck;
  if (n == "rejected_verify") return Outcome::RejectedVerify;
  return Outcome::Failed;
}

}  // namespace

std::string cacheKey(const CacheContext& ctx, const std::map<std::string, int64_t>& values) {
  std::string k = ctx.scriptHash + "|" + ctx.arch + "|" + ctx.device + "|" + ctx.driver + "|" +
                  ctx.shapes + "|";
  for (const auto& [name, v] : values) k += name + "=" + std::to_string(v) + ";";
  return k;
}

std::string resultLine(const std::string& key, const CandidateResult& r) {
  const nlohmann::json j = {{"key", key},
                            {"values", r.values},
                            {"outcome", outcomeName(r.outcome)},
                            {"reason", r.reason},
                            {"time_ms", r.timeMs},
                            {"sim_work", r.simWork},
                            {"bytes", r.bytes},
                            {"registers", r.registers},
                            {"shared_bytes", r.sharedBytes},
                            {"occupancy", r.occupancy},
                            {"device", r.device},
                            {"lane", r.lane}};
  return j.dump();
}

bool parseResultLine(const std::string& line, std::string& key, CandidateResult& r) {
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("key") || !j["key"].is_string() || !j.contains("values") ||
      !j["values"].is_object())
    return false;  // a torn last line (a writer died mid-line) or foreign text
  r = {};
  for (const auto& [name, v] : j["values"].items())
    if (v.is_number_integer()) r.values[name] = v.get<int64_t>();
  const auto text = [&](const char* k) {
    return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
  };
  const auto number = [&](const char* k) {
    return j.contains(k) && j[k].is_number() ? j[k].get<double>() : 0.0;
  };
  r.outcome = outcomeFromName(text("outcome"));
  r.reason = text("reason");
  r.timeMs = number("time_ms");
  r.simWork = int64_t(number("sim_work"));
  r.bytes = number("bytes");
  r.registers = int(number("registers"));
  r.sharedBytes = int(number("shared_bytes"));
  r.occupancy = number("occupancy");
  r.device = text("device");
  r.lane = text("lane");
  key = j["key"].get<std::string>();
  return true;
}

std::map<std::string, CandidateResult> readCache(const std::string& path) {
  std::map<std::string, CandidateResult> out;
  std::ifstream in(path);
  std::string line, key;
  while (std::getline(in, line)) {
    CandidateResult r;
    if (!parseResultLine(line, key, r)) continue;
    r.cached = true;
    out[key] = std::move(r);
  }
  return out;
}

bool appendCache(const std::string& path, const std::string& key, const CandidateResult& r,
                 std::string& why) {
  const std::string line = resultLine(key, r) + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    why = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  const ssize_t n = ::write(fd, line.data(), line.size());
  const int saved = errno;
  ::close(fd);
  if (n != ssize_t(line.size())) {
    why = "cannot append to '" + path + "': " + (n < 0 ? std::strerror(saved) : "short write");
    return false;
  }
  return true;
}

}  // namespace tirx::tune
