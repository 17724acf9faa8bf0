// HostCudaExecutor: tirx's CUDA for one kernel, compiled as host C++ with the intrinsics of
// host_cuda_shim.h and run once per thread in a child process (host_cuda_executor.h says why).
// The prelude's inline-PTX helpers (tirx_fminf …) are replaced by the shim's; any other device-
// only construct is refused before compiling.
#include "tests/support/host_cuda_executor.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/codegen/codegen.h"
#include "core/diag/diagnostic.h"
#include "core/driver/child_process.h"
#include "core/ir/ir.h"

namespace tirx::testing {

namespace fs = std::filesystem;

namespace {

Status refuse(const std::string& why) {
  return Status{"host", "host C++ executor: " + why, 0};
}

/// The generated CUDA made host C++: no CUDA headers, no inline-PTX helper definitions (the shim
/// has them). Empty, with `why` set, when something device-only is left.
std::string hostSource(const std::string& cuda, std::string& why) {
  std::istringstream in(cuda);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.rfind("#include <cuda_", 0) == 0) continue;
    if (line.rfind("__device__ __forceinline__", 0) == 0 && line.find(" asm(") != std::string::npos)
      continue;
    out += line + "\n";
  }
  for (const char* device : {"asm(", "asm volatile", "__syncthreads", "__shared__", "__shfl",
                             "atomic", "cuda::", "__nanosleep", "tirx_elect_sync"})
    if (out.find(device) != std::string::npos) {
      why = std::string("the kernel uses `") + device + "`, which only a GPU or the simulator runs";
      return {};
    }
  return out;
}

/// The argument file of parameter `n` as a C string literal (the child runs in any folder).
std::string quoted(const fs::path& dir, const std::string& n) {
  std::string out = "\"";
  for (char c : (dir / ("arg" + n + ".bin")).string()) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

/// main(): loads every tensor argument, calls the kernel for each thread of the launch (blocks
/// and threads in x-fastest order), stores the tensors back.
std::string driverSource(const ir::Kernel& k, const std::vector<ir::KernelArg>& args,
                         const fs::path& dir) {
  std::ostringstream m;
  m << "#include <cstdio>\n#include <vector>\n#include \"host_cuda_shim.h\"\n"
       "#define powf tirx_host_powf\n#define pow tirx_host_pow\n#include \"kernel.cu\"\n"
       "struct AnyPtr { void* p; template <class T> operator T*() const { return "
       "static_cast<T*>(p); "
       "} };\n"
       "struct AnyScalar { unsigned long long bits; template <class T> operator T() const { T v; "
       "std::memcpy(&v, &bits, sizeof v); return v; } };\n"
       "static std::vector<unsigned char> load(const char* p) { std::vector<unsigned char> v; "
       "FILE* f = std::fopen(p, \"rb\"); if (!f) return v; int c; while ((c = std::fgetc(f)) != "
       "EOF) v.push_back((unsigned char)c); std::fclose(f); return v; }\n"
       "static bool save(const char* p, const std::vector<unsigned char>& v) { FILE* f = "
       "std::fopen(p, \"wb\"); if (!f) return false; bool ok = std::fwrite(v.data(), 1, v.size(), "
       "f) == v.size(); return std::fclose(f) == 0 && ok; }\n"
       "int main() {\n";
  std::string call;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string n = std::to_string(i);
    if (args[i].isTensor) {
      m << "  std::vector<unsigned char> a" << n << " = load(" << quoted(dir, n) << ");\n";
      call += std::string(i ? ", " : "") + "AnyPtr{a" + n + ".data()}";
    } else {
      call +=
          std::string(i ? ", " : "") + "AnyScalar{" + std::to_string(args[i].scalarBits) + "ull}";
    }
  }
  const auto& g = k.launch.grid;
  const auto& b = k.launch.block;
  m << "  gridDim = {" << g[0] << "u, " << g[1] << "u, " << g[2] << "u};\n"
    << "  blockDim = {" << b[0] << "u, " << b[1] << "u, " << b[2] << "u};\n"
    << "  for (unsigned bz = 0; bz < gridDim.z; ++bz) for (unsigned by = 0; by < gridDim.y; ++by)\n"
    << "  for (unsigned bx = 0; bx < gridDim.x; ++bx) for (unsigned tz = 0; tz < blockDim.z; "
       "++tz)\n"
    << "  for (unsigned ty = 0; ty < blockDim.y; ++ty) for (unsigned tx = 0; tx < blockDim.x; "
       "++tx) "
       "{\n"
    << "    blockIdx = {bx, by, bz}; threadIdx = {tx, ty, tz};\n"
    << "    " << k.name << "(" << call << ");\n  }\n";
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].isTensor)
      m << "  if (!save(" << quoted(dir, std::to_string(i)) << ", a" << i << ")) return 3;\n";
  m << "  return 0;\n}\n";
  return m.str();
}

bool writeFile(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out);
}

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

HostCudaExecutor::HostCudaExecutor(std::string compiler, std::string shimDir, std::string workDir)
    : m_compiler(std::move(compiler)),
      m_shimDir(std::move(shimDir)),
      m_workDir(std::move(workDir)) {}

Result<ir::RunOutcome> HostCudaExecutor::run(const ir::Program& program, const std::string& kernel,
                                             std::vector<ir::KernelArg>& args) {
  m_log.clear();
  const ir::Kernel* k = nullptr;
  for (const ir::Kernel& c : program.kernels)
    if (c.name == kernel) k = &c;
  if (!k) return refuse("no kernel '" + kernel + "'");
  if (k->params.size() != args.size()) return refuse("argument count differs from the kernel's");
  for (const auto& p : k->params)
    if (p.symbolic) return refuse("symbolic extents are not supported");
  for (const auto& e : k->launch.gridExprs)
    if (e) return refuse("runtime grid extents are not supported");
  if (!k->tensorMaps.empty()) return refuse("TMA tensor maps are not supported");

  codegen::CodegenOptions co;
  co.kernel = kernel;
  co.scriptFile = kernel + ".py";
  const codegen::CodegenResult gen = codegen::generateCuda(program, co);
  if (hasErrors(gen.diagnostics)) return refuse("codegen failed");
  std::string why;
  const std::string source = hostSource(gen.cuda, why);
  if (source.empty()) return refuse(why);

  const fs::path dir = fs::path(m_workDir) / ("run" + std::to_string(m_runs++));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status{"host", "cannot create " + dir.string(), 0};
  if (!writeFile(dir / "kernel.cu", source) ||
      !writeFile(dir / "main.cpp", driverSource(*k, args, fs::absolute(dir))))
    return Status{"host", "cannot write the sources in " + dir.string(), 0};
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].isTensor) {
      const auto& d = args[i].tensor.data;
      if (!writeFile(dir / ("arg" + std::to_string(i) + ".bin"), std::string(d.begin(), d.end())))
        return Status{"host", "cannot write an argument file", 0};
    }

  ir::RunOutcome out;
  out.device = name();
  const std::string bin = (dir / "kernel").string();
  // UBSan stops at the first undefined operation of the generated code (its #line names the
  // script line); float-cast-overflow is not part of -fsanitize=undefined in GCC.
  const std::vector<std::string> cc = {m_compiler,
                                       "-std=c++20",
                                       "-O1",
                                       "-ffp-contract=off",
                                       "-fsanitize=undefined,float-cast-overflow",
                                       "-fno-sanitize-recover=all",
                                       "-w",
                                       "-I",
                                       m_shimDir,
                                       "-o",
                                       bin,
                                       (dir / "main.cpp").string()};
  const driver::ChildResult built =
      driver::runChild(m_compiler, cc, (dir / "compile.log").string(), 600000, m_budget);
  if (!built.started || built.stop != driver::ChildStop::None || built.exitCode != 0) {
    m_log = readText(dir / "compile.log");
    return refuse("the host compiler failed:\n" + m_log.substr(0, 4000));
  }
  const driver::ChildResult ran =
      driver::runChild(bin, {bin}, (dir / "run.log").string(), 120000, m_budget);
  m_log = readText(dir / "run.log");
  if (!ran.started || ran.stop != driver::ChildStop::None || ran.exitCode != 0) {
    ir::Fault f;
    f.kind = ran.stop == driver::ChildStop::None ? "illegal-address" : "timeout";
    f.diag = makeError("E0999", SourceSpan{},
                       "the host run failed (exit " + std::to_string(ran.exitCode) +
                           (ran.signal ? ", " + driver::signalName(ran.signal) : "") +
                           "): " + m_log.substr(0, 2000));
    out.faults.push_back(f);
    return out;
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].isTensor) {
      const std::string bytes = readText(dir / ("arg" + std::to_string(i) + ".bin"));
      if (bytes.size() != args[i].tensor.data.size())
        return Status{"host", "an output file has the wrong size", 0};
      args[i].tensor.data.assign(bytes.begin(), bytes.end());
      args[i].tensor.defined.clear();
    }
  out.ran = true;
  return out;
}

}  // namespace tirx::testing
