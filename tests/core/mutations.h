// Deterministic mutations of script text for robustness tests: delete, insert, duplicate and
// swap characters or crude tokens, and truncate. The same (source, seed) always gives the same
// mutant, so a failing case can be replayed from the seed alone. Header-only, no dependencies on
// the engine, so any test (parser fuzz, front-end fuzz) can reuse it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tirx::testing {

/// xorshift64*: small, fast and identical on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : m_state(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {
    if (m_state == 0) m_state = 1;
  }
  uint64_t next() {
    m_state ^= m_state >> 12;
    m_state ^= m_state << 25;
    m_state ^= m_state >> 27;
    return m_state * 0x2545F4914F6CDD1Dull;
  }
  /// Uniform-ish in [0, n); 0 when n <= 0.
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }

 private:
  uint64_t m_state;
};

/// Crude token boundaries: identifier/number runs, whitespace runs, and single other bytes.
/// Returns [begin, end) byte ranges covering the whole text.
inline std::vector<std::pair<size_t, size_t>> crudeTokens(const std::string& s) {
  auto cls = [](unsigned char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
      return 1;
    if (c == ' ' || c == '\t') return 2;
    return 3;
  };
  std::vector<std::pair<size_t, size_t>> out;
  size_t i = 0;
  while (i < s.size()) {
    const int k = cls(static_cast<unsigned char>(s[i]));
    size_t j = i + 1;
    if (k != 3)
      while (j < s.size() && cls(static_cast<unsigned char>(s[j])) == k) ++j;
    out.emplace_back(i, j);
    i = j;
  }
  return out;
}

enum class MutationKind {
  DeleteChar,
  InsertChar,
  DuplicateChar,
  SwapChars,
  DeleteToken,
  InsertToken,
  DuplicateToken,
  SwapTokens,
  Truncate,
  Count
};

/// Apply one mutation of `kind` chosen with `rng` to `s`.
inline void applyMutation(std::string& s, MutationKind kind, Rng& rng) {
  // Bytes that stress a Python tokenizer: brackets, quotes, indentation, odd bytes.
  static const std::string kAlphabet =
      std::string("()[]{}:,.;'\"\\\n\r\t #=+-*/%@&|^~<>!0123456789xeEjbrf_aZ") +
      std::string("\0\x7f\xff\xc3\xa9\x80", 6);
  static const char* const kTokens[] = {"def ",   "if ",     "else:",   "elif ",  "for ",  " in ",
                                        "while ", "return ", "lambda ", "not ",   " and ", " or ",
                                        "**",     "@",       "(",       ")",      "[",     "]",
                                        ":",      "\n    ",  "\n",      "\"\"\"", "0x",    "1e",
                                        "...",    "import ", "from ",   "class ", "*",     ","};
  const size_t n = s.size();
  switch (kind) {
    case MutationKind::DeleteChar:
      if (n) s.erase(rng.below(n), 1);
      break;
    case MutationKind::InsertChar:
      s.insert(rng.below(n + 1), 1, kAlphabet[rng.below(kAlphabet.size())]);
      break;
    case MutationKind::DuplicateChar:
      if (n) {
        const size_t i = rng.below(n);
        s.insert(i, 1, s[i]);
      }
      break;
    case MutationKind::SwapChars:
      if (n >= 2) {
        const size_t i = rng.below(n - 1);
        std::swap(s[i], s[i + 1]);
      }
      break;
    case MutationKind::Truncate:
      s.resize(rng.below(n + 1));
      break;
    case MutationKind::InsertToken:
      s.insert(rng.below(n + 1), kTokens[rng.below(sizeof kTokens / sizeof kTokens[0])]);
      break;
    default: {
      const auto toks = crudeTokens(s);
      if (toks.size() < 2) break;
      const size_t t = rng.below(toks.size() - 1);
      const auto [b, e] = toks[t];
      if (kind == MutationKind::DeleteToken) {
        s.erase(b, e - b);
      } else if (kind == MutationKind::DuplicateToken) {
        s.insert(b, s.substr(b, e - b));
      } else {  // SwapTokens: this token with the next one
        const auto [b2, e2] = toks[t + 1];
        s = s.substr(0, b) + s.substr(b2, e2 - b2) + s.substr(b, e - b) + s.substr(e2);
      }
      break;
    }
  }
}

/// A mutant of `source`: one to three mutations, all determined by `seed`.
inline std::string mutate(const std::string& source, uint64_t seed) {
  Rng rng(seed);
  std::string s = source;
  const size_t count = 1 + rng.below(3);
  for (size_t i = 0; i < count; ++i) {
    auto kind = static_cast<MutationKind>(rng.below(static_cast<size_t>(MutationKind::Count)));
    // Truncation is kept rarer so most mutants stay long.
    if (kind == MutationKind::Truncate && rng.below(3) != 0) kind = MutationKind::SwapTokens;
    applyMutation(s, kind, rng);
  }
  return s;
}

}  // namespace tirx::testing
