// The one-line form of a kernel's resource report (toolchain.h: resourceLine, parseResourceLine):
// written into bundles and shown by the studio, read back when a bundle is opened.
#include <charconv>
#include <sstream>

#include "core/toolchain/toolchain.h"

namespace tirx::toolchain {

namespace {

struct Field {
  const char* label;
  int KernelResources::*member;
};

// In the order resourceLine writes them; bundles written before the last two existed lack them.
constexpr Field kFields[] = {
    {"registers", &KernelResources::registers},
    {"bytes shared", &KernelResources::sharedBytes},
    {"bytes stack", &KernelResources::stackBytes},
    {"spill stores", &KernelResources::spillStores},
    {"spill loads", &KernelResources::spillLoads},
    {"bytes constant", &KernelResources::constantBytes},
    {"barriers", &KernelResources::barriers},
};

}  // namespace

std::string resourceLine(const KernelResources& r) {
  std::ostringstream s;
  s << r.kernel << ":";
  bool first = true;
  for (const Field& f : kFields) {
    if (r.*f.member < 0) continue;
    s << (first ? " " : ", ") << r.*f.member << " " << f.label;
    first = false;
  }
  return s.str();
}

std::optional<KernelResources> parseResourceLine(std::string_view line) {
  const size_t colon = line.find(": ");
  if (colon == 0 || colon == std::string_view::npos) return std::nullopt;
  KernelResources r;
  r.kernel = std::string(line.substr(0, colon));
  r.constantBytes = r.barriers = -1;
  bool registers = false;
  std::string_view rest = line.substr(colon + 2);
  while (!rest.empty()) {
    const size_t comma = rest.find(", ");
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    int value = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || end == item.data() + item.size() || *end != ' ') return std::nullopt;
    const std::string_view label = item.substr(size_t(end - item.data()) + 1);
    const Field* field = nullptr;
    for (const Field& f : kFields)
      if (label == f.label) field = &f;
    if (!field) return std::nullopt;
    r.*field->member = value;
    registers = registers || field->member == &KernelResources::registers;
  }
  if (!registers) return std::nullopt;
  return r;
}

}  // namespace tirx::toolchain
