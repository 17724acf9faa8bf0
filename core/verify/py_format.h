// Python's string formatting for the harness, where no C++ facility matches CPython's output:
// the format-spec mini-language of format(), f-strings and str.format()
// ([[fill]align][sign][z][#][0][width][grouping][.precision][type], as CPython 3.11 parses and
// renders it for int, bool, float and str, errors included), the str.format() template syntax,
// and repr() / ascii() of a str. Floats are converted with correctly rounded digits (the same
// digits as CPython's dtoa) and laid out by CPython's rules (shortest repr switching to an
// exponent at 1e16, 'g' trimming zeros, '%', '#', 'z'). Independent of the interpreter: values
// come in as FormatArg, failures go out as FormatError with Python's message in lower case.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tirx::verify {

/// A value as format() sees it. Int holds a sign and a magnitude so that every int64 and uint64
/// value (a numpy uint64 item) is exact.
struct FormatArg {
  enum class Kind { Int, Bool, Float, Str, None, Other };
  Kind kind = Kind::None;
  bool negative = false;   ///< Int
  uint64_t magnitude = 0;  ///< Int; Bool: 0 or 1
  double f = 0;            ///< Float
  std::string s;           ///< Str: the text; Other: str() of the value
  std::string typeName;    ///< for messages: "int", "float", "list", "numpy.ndarray", ...
  static FormatArg integer(int64_t v);
  static FormatArg real(double v);
  static FormatArg boolean(bool v);
  static FormatArg string(std::string v);
};

/// Why formatting failed: the Python exception it stands for and its message.
struct FormatError {
  enum class Kind { ValueError, TypeError, OverflowError, IndexError, KeyError, Limit };
  Kind kind = Kind::ValueError;
  std::string message;  ///< lower-case, no trailing period
};

/// The largest width or precision the harness formats (Python would build the string).
constexpr int64_t kMaxFormatWidth = 1'000'000;

/// format(value, spec) as CPython 3.11: the text, or nullopt with `err` set.
std::optional<std::string> pyFormat(const FormatArg& value, std::string_view spec,
                                    FormatError* err);

/// repr() of a str: single quotes unless the text holds a ' and no ", escapes for backslash,
/// the quote, \n \r \t, other control characters and U+007F..U+00A0, U+00AD (\xNN); other
/// non-ASCII characters are kept (Python keeps every printable one; the harness has no Unicode
/// database and treats the rest of U+00A1.. as printable).
std::string pyStrRepr(std::string_view s);

/// ascii() of a repr() text: every non-ASCII character as \xNN, \uNNNN or \UNNNNNNNN.
std::string pyAsciiEscape(std::string_view repr);

/// Python's length of a UTF-8 text: its code points (invalid bytes count one each).
int64_t pyCodePoints(std::string_view s);

/// One replacement field of a str.format() template, its name resolved as far as the template
/// can: automatic numbering (`{}`) is already turned into an index.
struct TemplateField {
  bool positional = true;  ///< `{0}` / `{}`: `index`; else `key` (`{name}`)
  int64_t index = 0;
  std::string key;
  std::string rest;     ///< what follows the first name: ".attr", "[0]", ... (raw)
  char conversion = 0;  ///< 0 or the character after '!' (not validated)
};

/// Expands a str.format() template: literal text, `{{`/`}}`, and replacement fields, each
/// `render(field, spec)` with the spec's own nested fields already expanded (two levels, as
/// CPython). nullopt with `err` set on a malformed template ("single '}' encountered in format
/// string", manual/automatic numbering mixed, ...) or when `render` fails (it sets `err`).
using RenderField = std::function<std::optional<std::string>(const TemplateField&,
                                                             const std::string&, FormatError*)>;
std::optional<std::string> expandTemplate(std::string_view tmpl, const RenderField& render,
                                          FormatError* err);

}  // namespace tirx::verify
