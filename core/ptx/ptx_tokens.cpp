// Splitting PTX opcode spellings into dotted tokens (ptx_tokens.h).
#include "core/ptx/ptx_tokens.h"

namespace tirx {

std::vector<PtxToken> splitPtxTokens(std::string_view op) {
  std::vector<PtxToken> out;
  size_t start = 0;
  for (size_t i = 0; i <= op.size(); ++i)
    if (i == op.size() || (op[i] == '.' && i > 0)) {
      out.push_back({std::string(op.substr(start, i - start)), static_cast<int>(start)});
      start = i;
    }
  return out;
}

bool ptxTokenError(PtxParseError* err, std::string msg, int column, int length) {
  if (err) *err = PtxParseError{std::move(msg), column, length};
  return false;
}

}  // namespace tirx
