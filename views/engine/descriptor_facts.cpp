// Formatting of the engine's wgmma descriptor facts (see descriptor_facts.h).
#include "views/engine/descriptor_facts.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "core/layout/swizzle_layout.h"

namespace tirx::views {

namespace {

bool contains(const SourceSpan& s, int offset) {
  return s.valid() && offset >= s.offset && offset < s.offset + std::max(1, s.length);
}

}  // namespace

int descriptorFactAt(const std::vector<DescriptorFact>& facts, int offset) {
  for (size_t i = 0; i < facts.size(); ++i)
    if (contains(facts[i].operandSpan, offset) || contains(facts[i].keywordSpan, offset))
      return int(i);
  return -1;
}

std::string descriptorHex(uint64_t bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(bits));
  return buf;
}

std::string describeDescriptorSub(const DescriptorFact& f, int sub) {
  if (sub < 0 || size_t(sub) >= f.subs.size()) return {};
  const DescriptorSubOperand& s = f.subs[size_t(sub)];
  std::ostringstream o;
  if (f.operand == 'a' && int64_t(f.subs.size()) > f.kSteps) o << "m-repeat " << s.repeat << ", ";
  o << "k-step " << s.kStep << ": start +" << s.fields.startAddress << " B · LBO "
    << s.fields.leadingByteOffset << " B · SBO " << s.fields.strideByteOffset << " B · base offset "
    << s.fields.baseOffset << " · swizzle " << swizzleModeName(s.fields.swizzle) << " · "
    << descriptorHex(s.bits);
  return o.str();
}

std::string describeDescriptorFact(const DescriptorFact& f) {
  std::ostringstream o;
  o << f.operand << "_descriptor of '" << f.tensor << "' (shared '" << f.buffer << "', "
    << (f.major == MatrixMajor::K ? "K-major" : "MN-major") << ", " << f.rows
    << " × 16 elements per instruction, " << f.subs.size()
    << (f.subs.size() == 1 ? " instruction)" : " instructions)");
  for (size_t i = 0; i < f.subs.size(); ++i) o << "\n" << describeDescriptorSub(f, int(i));
  if (!f.subs.empty()) {
    const DescriptorSubOperand& s = f.subs[0];
    const int t = 16 / std::max(1, f.elemBytes);
    o << "\nbytes read by the first core matrices (from the start of '" << f.buffer << "'):";
    for (size_t c = 0; c < s.coreMatrixBytes.size(); ++c) {
      const int i = int(c / 2), j = int(c % 2);
      if (f.major == MatrixMajor::K)
        o << "\n  rows " << 8 * i << "–" << 8 * i + 7 << " × k " << t * j << "–" << t * j + t - 1
          << ":";
      else
        o << "\n  k " << 8 * j << "–" << 8 * j + 7 << " × rows " << t * i << "–" << t * i + t - 1
          << ":";
      for (size_t q = 0; q < s.coreMatrixBytes[c].size(); ++q)
        o << (q ? ", " : " ") << s.coreMatrixBytes[c][q];
    }
    o << "\n(the start adds the allocation's shared address at run time; dynamic region starts "
         "taken as 0)";
  }
  return o.str();
}

std::string describeDescriptorPick(const DescriptorFact& f) {
  std::ostringstream o;
  o << "line " << f.opSpan.line << " · " << f.opcode << " · " << f.operand << " descriptor ('"
    << f.tensor << "')";
  return o.str();
}

}  // namespace tirx::views
