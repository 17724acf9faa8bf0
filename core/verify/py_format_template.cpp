// The template syntax of str.format() (py_format.h), after CPython 3.11's
// Objects/stringlib/unicode_format.h: literal text with `{{` and `}}`, fields
// `{name!conv:spec}` found by counting braces, names split into a first part (empty: the next
// automatic number; digits: an index; otherwise a keyword) and the `.attr` / `[key]` rest, and
// specs expanded recursively (a field inside a spec inside a spec is CPython's "max string
// recursion exceeded"). Values are the caller's: each field goes through `render`.
#include <cstdint>

#include "core/verify/py_format.h"

namespace tirx::verify {

namespace {

class TemplateExpander {
 public:
  TemplateExpander(const RenderField& render, FormatError* err) : m_render(render), m_err(err) {}

  std::optional<std::string> expand(std::string_view s, int depth) {
    if (depth <= 0) return fail(FormatError::Kind::ValueError, "max string recursion exceeded");
    std::string out;
    size_t i = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c != '{' && c != '}') {
        out += c;
        ++i;
        continue;
      }
      if (i + 1 < s.size() && s[i + 1] == c) {  // `{{` or `}}`
        out += c;
        i += 2;
        continue;
      }
      if (c == '}')
        return fail(FormatError::Kind::ValueError, "single '}' encountered in format string");
      if (i + 1 >= s.size())
        return fail(FormatError::Kind::ValueError, "single '{' encountered in format string");
      i += 1;
      auto text = field(s, i, depth);
      if (!text) return std::nullopt;
      out += *text;
    }
    return out;
  }

 private:
  std::optional<std::string> fail(FormatError::Kind kind, std::string message) {
    if (m_err) *m_err = FormatError{kind, std::move(message)};
    return std::nullopt;
  }

  /// One field from s[i] (just past its '{') to its '}', which `i` is left after (CPython's
  /// parse_field): the name (a '[...]' in it may hold anything), '!' and one conversion
  /// character, ':' and a spec that runs to the '}' balancing the field's '{'.
  std::optional<std::string> field(std::string_view s, size_t& i, int depth) {
    const size_t nameStart = i;
    char c = 0;  // the character that ended the name, 0 at the end of the string
    while (i < s.size()) {
      const char x = s[i++];
      if (x == '{') return fail(FormatError::Kind::ValueError, "unexpected '{' in field name");
      if (x == '[') {
        while (i < s.size() && s[i] != ']') ++i;
      } else if (x == '}' || x == ':' || x == '!') {
        c = x;
        break;
      }
    }
    const std::string_view name = s.substr(nameStart, i - nameStart - (c ? 1 : 0));
    TemplateField tf;
    std::string_view spec;
    if (c == '!' || c == ':') {
      bool specFollows = true;
      if (c == '!') {
        if (i >= s.size())
          return fail(FormatError::Kind::ValueError,
                      "end of string while looking for conversion specifier");
        tf.conversion = s[i++];
        if (i < s.size()) {
          const char after = s[i++];
          if (after == '}')
            specFollows = false;
          else if (after != ':')
            return fail(FormatError::Kind::ValueError, "expected ':' after conversion specifier");
        }
      }
      if (specFollows) {
        const size_t specStart = i;
        int count = 1;
        while (i < s.size()) {
          const char x = s[i++];
          if (x == '{') ++count;
          if (x == '}' && --count == 0) break;
        }
        if (count != 0) return fail(FormatError::Kind::ValueError, "unmatched '{' in format spec");
        spec = s.substr(specStart, i - 1 - specStart);
      }
    } else if (c != '}') {
      return fail(FormatError::Kind::ValueError, "expected '}' before end of string");
    }
    if (!splitName(name, tf)) return std::nullopt;
    std::string expanded(spec);
    if (spec.find('{') != std::string_view::npos) {
      auto e = expand(spec, depth - 1);
      if (!e) return std::nullopt;
      expanded = std::move(*e);
    }
    return m_render(tf, expanded, m_err);
  }

  /// The first part of a field name and where the rest starts; automatic numbering.
  bool splitName(std::string_view name, TemplateField& tf) {
    size_t n = 0;
    while (n < name.size() && name[n] != '.' && name[n] != '[') ++n;
    const std::string_view first = name.substr(0, n);
    tf.rest = std::string(name.substr(n));
    if (first.empty()) {
      if (m_manual)
        return fail(FormatError::Kind::ValueError,
                    "cannot switch from manual field specification to automatic field numbering")
            .has_value();
      m_auto = true;
      tf.positional = true;
      tf.index = m_next++;
      return true;
    }
    bool digits = true;
    for (char c : first) digits = digits && c >= '0' && c <= '9';
    if (!digits) {
      tf.positional = false;
      tf.key = std::string(first);
      return true;
    }
    if (m_auto)
      return fail(FormatError::Kind::ValueError,
                  "cannot switch from automatic field numbering to manual field specification")
          .has_value();
    m_manual = true;
    int64_t v = 0;
    for (char c : first) {
      if (v > (INT64_MAX - (c - '0')) / 10)
        return fail(FormatError::Kind::ValueError, "too many decimal digits in format string")
            .has_value();
      v = v * 10 + (c - '0');
    }
    tf.positional = true;
    tf.index = v;
    return true;
  }

  const RenderField& m_render;
  FormatError* m_err;
  bool m_auto = false, m_manual = false;
  int64_t m_next = 0;
};

}  // namespace

std::optional<std::string> expandTemplate(std::string_view tmpl, const RenderField& render,
                                          FormatError* err) {
  TemplateExpander x(render, err);
  return x.expand(tmpl, 2);
}

}  // namespace tirx::verify
