// The sweep of a tune: the candidates of a space, the cached ones taken from the cache and the
// others evaluated on parallel lanes (threads, each with its own device: simulator lanes for
// --jobs, one lane per GPU for cuda:all), each finished result appended to the cache at once so
// that an interrupted tune keeps what it finished. Also the tune device forms.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "core/device/cuda_driver.h"
#include "core/driver/cuda_executor.h"
#include "core/tune/tune.h"

namespace tirx::tune {

Result<TuneDevice> parseTuneDevice(std::string_view text) {
  TuneDevice d;
  if (text == "cuda:all") {
    d.kind = TuneDevice::Kind::AllGpus;
    return d;
  }
  if (text == "slurm" || text.substr(0, 6) == "slurm:") {
    d.kind = TuneDevice::Kind::Slurm;
    d.partition = std::string(text.size() > 6 ? text.substr(6) : std::string_view());
    if (text.size() == 6 && text == "slurm:")
      return Status{"device", "expected slurm or slurm:PARTITION, found 'slurm:'"};
    return d;
  }
  auto single = driver::parseDevice(text);
  if (!single) return single.error();
  if (single->both) return Status{"device", "'both' is for tirx verify; tune one device"};
  d.single = *single;
  return d;
}

Result<std::vector<driver::DeviceSpec>> localGpuLanes() {
  int count = 0;
  const char* fake = std::getenv("TIRX_TUNE_GPU_COUNT");
  if (driver::runnerOverridden() && fake && *fake) {
    count = std::atoi(fake);
  } else {
    auto devices = device::enumerateDevices();
    if (!devices) return devices.error();
    count = int(devices->size());
  }
  if (count <= 0) return Status{"cuda", "cuda:all: the driver sees no GPU"};
  std::vector<driver::DeviceSpec> lanes;
  for (int i = 0; i < count; ++i) lanes.push_back(driver::DeviceSpec::cuda(i));
  return lanes;
}

std::pair<std::string, std::string> deviceIdentity(const driver::DeviceSpec& device) {
  if (device.kind != driver::DeviceKind::Cuda || driver::runnerOverridden())
    return {device.text(), ""};
  auto api = device::driver();
  auto devices = device::enumerateDevices();
  if (!api || !devices || device.index >= int(devices->size())) return {device.text(), ""};
  int version = 0;
  if ((*api)->cuDriverGetVersion) (*api)->cuDriverGetVersion(&version);
  return {"cuda:" + (*devices)[size_t(device.index)].name, std::to_string(version)};
}

const CandidateResult* TuneReport::best() const {
  for (const auto& r : results)
    if (r.outcome == Outcome::Ranked) return &r;
  return nullptr;
}

std::string applyValues(std::string_view source, const TuneSpace& space,
                        const std::map<std::string, int64_t>& values) {
  Candidate c;
  for (const auto& p : space.params) {
    const auto it = values.find(p.name);
    c.push_back(it != values.end() ? it->second : p.values.front());
  }
  return substitute(source, space, c);
}

CacheSplit splitByCache(std::string_view source, const TuneSpace& space, const std::string& path,
                        CacheContext& ctx) {
  ctx.scriptHash = scriptHash(source, space);
  ctx.shapes = shapeText(source, space);
  const auto cache = path.empty() ? std::map<std::string, CandidateResult>{} : readCache(path);
  CacheSplit split;
  for (const auto& c : enumerateCandidates(space)) {
    std::map<std::string, int64_t> values;
    for (size_t i = 0; i < c.size(); ++i) values[space.params[i].name] = c[i];
    const std::string key = cacheKey(ctx, values);
    const auto hit = cache.find(key);
    if (hit != cache.end() && hit->second.outcome != Outcome::Failed) {
      split.hits.push_back(hit->second);
      continue;
    }
    split.todo.push_back(c);
    split.keys.push_back(key);
  }
  return split;
}

TuneReport runTune(std::string_view source, const TuneSpace& space, const TuneOptions& options) {
  TuneReport report;
  const std::vector<Candidate> all = enumerateCandidates(space);
  report.total = all.size();
  CacheContext ctx = options.cache;
  CacheSplit split = splitByCache(source, space, options.cachePath, ctx);
  std::mutex mutex;  // guards report, the callback and the cache appends
  for (auto& hit : split.hits) {
    report.results.push_back(hit);
    ++report.cacheHits;
    if (options.onResult) options.onResult(hit, report.results.size(), all.size());
  }
  const std::vector<Candidate>& todo = split.todo;
  const std::vector<std::string>& keys = split.keys;
  const auto start = std::chrono::steady_clock::now();
  const CancelTokenPtr& cancel = options.evaluate.cancel;
  std::atomic<size_t> next{0};
  auto lane = [&](const driver::DeviceSpec& device) {
    EvaluateOptions eo = options.evaluate;
    eo.device = device;
    while (true) {
      if (cancel && cancel->cancelled()) return;
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (options.budgetSeconds > 0 && elapsed > options.budgetSeconds) return;
      const size_t i = next.fetch_add(1);
      if (i >= todo.size()) return;
      CandidateResult r = evaluateCandidate(substitute(source, space, todo[i]), space, todo[i], eo);
      r.lane = device.text();
      // A cancelled candidate did not finish: it is neither reported nor cached.
      if (cancel && cancel->cancelled()) return;
      std::lock_guard lock(mutex);
      std::string why;
      if (!options.cachePath.empty() && r.outcome != Outcome::Failed &&
          !appendCache(options.cachePath, keys[i], r, why))
        report.cacheErrors.push_back(why);
      report.results.push_back(r);
      if (options.onResult) options.onResult(r, report.results.size(), all.size());
    }
  };
  std::vector<std::thread> threads;
  for (size_t l = 1; l < options.lanes.size(); ++l) threads.emplace_back(lane, options.lanes[l]);
  lane(options.lanes.empty() ? driver::DeviceSpec::simulator() : options.lanes[0]);
  for (auto& t : threads) t.join();
  report.cancelled = cancel && cancel->cancelled();
  report.skipped = all.size() - report.results.size();
  rankResults(report.results, options.lanes.empty() || options.lanes[0].isSim());
  return report;
}

}  // namespace tirx::tune
