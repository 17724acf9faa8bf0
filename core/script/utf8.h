// UTF-8 code points for the script's strings: the lexer decodes `\u`/`\x` escapes into UTF-8 and
// the check harness's format() counts widths in code points, as Python does. One encoder and one
// decoder for both (core/script/utf8.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tirx::script {

/// Appends code point `cp` (at most 0x10FFFF) to `out` in UTF-8.
void appendUtf8(std::string& out, uint32_t cp);

/// The code point starting at s[i] and its length in bytes; an invalid or truncated sequence is
/// its first byte, length 1.
uint32_t codePointAt(std::string_view s, size_t i, size_t* len);

}  // namespace tirx::script
