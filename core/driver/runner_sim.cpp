// The runner child's simulator requests (`"mode": "sim"`, request version 3): the remote side of
// `--device ssh://host/sim`. The request carries the script and the kernel's name instead of a
// cubin; the child checks the script, rebuilds the arguments from the argument files (undefined
// elements poisoned, as on a GPU), runs the kernel on the simulator and answers like a GPU run —
// outputs with their definedness masks — plus the simulator's faults as diagnostics.
#include <algorithm>

#include "core/driver/runner_protocol.h"
#include "core/ir/values.h"
#include "core/sema/sema.h"
#include "core/sim/simulator.h"

namespace tirx::driver {

int runSimRequest(const RunnerRequest& req, const std::string& dir,
                  const std::string& responsePath) {
  RunnerResponse resp;
  resp.kernel = req.kernel;
  resp.device = "simulator";
  auto finish = [&](int code) {
    const std::string text = responseToJson(resp);
    return writeWholeFile(responsePath, text.data(), text.size()) ? code : 2;
  };
  auto fail = [&](const std::string& api, const std::string& message) {
    resp.ok = resp.ran = false;
    resp.error = {api, message, "request", "request", 0};
    return finish(2);
  };
  SemaOptions so;
  so.sm = req.sm;
  const FrontEndResult fe = checkScript(req.script, req.scriptFile, so);
  if (!fe.ok())
    return fail("sema", "the script does not check on the remote side:\n" +
                            formatGcc(fe.diagnostics, req.scriptFile));
  const ir::Kernel* k = fe.program.findKernel(req.kernel);
  if (!k || k->params.size() != req.args.size())
    return fail("sema", "the script has no kernel '" + req.kernel + "' with " +
                            std::to_string(req.args.size()) + " parameters");
  std::vector<ir::KernelArg> args;
  for (size_t i = 0; i < req.args.size(); ++i) {
    const RunnerArg& a = req.args[i];
    ir::KernelArg ka;
    ka.isTensor = a.isTensor;
    if (!a.isTensor) {
      ka.scalarType = k->params[i].dtype;
      ka.scalarBits = a.bits;
      args.push_back(std::move(ka));
      continue;
    }
    auto bytes = argumentBytes(a, dir, 0);
    if (!bytes) return fail("open", bytes.error().message);
    ka.tensor.dtype = a.dtype;
    ka.tensor.shape = a.shape;
    ka.tensor.data = std::move(*bytes);
    if (a.undefined == Undefined::All) ka.tensor.markAllUndefined();
    if (a.undefined == Undefined::Some) {
      std::string mask;
      if (!readWholeFile(dir + "/" + a.maskFile, mask, size_t(ka.tensor.numel())) ||
          mask.size() != size_t(ka.tensor.numel()))
        return fail("open", "mask '" + a.maskFile + "' is missing or of the wrong size");
      ka.tensor.defined.assign(mask.begin(), mask.end());
    }
    args.push_back(std::move(ka));
  }
  sim::Simulator simulator;
  auto out = simulator.run(fe.program, req.kernel, args);
  if (!out) {
    resp.error = {out.error().api, out.error().message, "run", "cuda-error", out.error().code};
    return finish(0);
  }
  resp.ok = true;
  resp.ran = out->ran;
  resp.firstLaunchMs = out->runMs;
  for (const auto& f : out->faults) resp.faults.push_back({f.kind, f.diag});
  if (!out->ran) return finish(0);
  for (size_t i = 0; i < req.args.size(); ++i) {
    if (!req.args[i].isTensor || !req.args[i].download) continue;
    const ir::HostTensor& t = args[i].tensor;
    RunnerOutput o;
    o.index = i;
    o.file = "out" + std::to_string(i) + ".bin";
    if (!writeWholeFile(dir + "/" + o.file, t.data.data(), t.data.size()))
      return fail("write", "cannot write " + o.file);
    o.undefined = t.undefinedCount();
    if (o.undefined > 0) {
      o.maskFile = "def" + std::to_string(i) + ".bin";
      if (!writeWholeFile(dir + "/" + o.maskFile, t.defined.data(), t.defined.size()))
        return fail("write", "cannot write " + o.maskFile);
    }
    resp.outputs.push_back(std::move(o));
  }
  return finish(0);
}

}  // namespace tirx::driver
