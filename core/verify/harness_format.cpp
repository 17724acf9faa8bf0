// How the harness prints and formats values: str() and repr() of its values, f-strings, the
// builtins format(), repr() and ascii(), str.format(), and the str operators (`*` repeats, a
// printf-style `%` is refused). The formatting itself is py_format.h's (CPython's format-spec
// mini-language); this file maps the interpreter's values onto it. As in Python, a numpy or torch
// 0-d array formats as its item (`f"{err:.2e}"` with `err = np.abs(d).max()`), any other array or
// container accepts only the empty spec (its str()), and a failure is the Python exception's
// diagnostic at the replacement field or the call.
#include "core/verify/array_print.h"
#include "core/verify/harness_interp.h"
#include "core/verify/py_format.h"
#include "core/verify/py_numbers.h"

namespace tirx::verify {

namespace {

/// The type name in object.__format__'s TypeError ("unsupported format string passed to X").
std::string formatTypeName(const Interp& in, const Py& v) {
  switch (v->kind) {
    case PyKind::None:
      return "NoneType";
    case PyKind::Tuple:
      return "tuple";
    case PyKind::List:
      return "list";
    case PyKind::Dict:
      return "dict";
    case PyKind::Slice:
      return "slice";
    case PyKind::Array:
      return v->flavor == Flavor::Torch ? "Tensor" : "numpy.ndarray";
    default:
      return in.typeName(v);
  }
}

/// A value as the formatter sees it: scalars as themselves, a 0-d array as its item (numpy's
/// and torch's __format__ forward to it), anything else by its str().
FormatArg formatArgOf(const Interp& in, const Py& v) {
  switch (v->kind) {
    case PyKind::Str:
      return FormatArg::string(v->s);
    case PyKind::Int:
      return FormatArg::integer(v->i);
    case PyKind::Bool:
      return FormatArg::boolean(v->b);
    case PyKind::Float:
      return FormatArg::real(v->f);
    case PyKind::Array: {
      const Array& a = *v->arr;
      if (a.ndim() != 0 || a.size() != 1) break;
      if (ir::isFloat(a.dtype)) return FormatArg::real(a.get(0));
      if (a.dtype == DType::Bool) return FormatArg::boolean(a.getInt(0) != 0);
      FormatArg i = FormatArg::integer(a.getInt(0));
      if (a.dtype == DType::UInt64) {  // the item is a Python int, exact beyond int64 too
        i.negative = false;
        i.magnitude = static_cast<uint64_t>(a.getInt(0));
      }
      return i;
    }
    default:
      break;
  }
  FormatArg o;
  o.kind = v->kind == PyKind::None ? FormatArg::Kind::None : FormatArg::Kind::Other;
  o.s = in.strOf(v);
  o.typeName = formatTypeName(in, v);
  return o;
}

const char* codeOf(const FormatError& e) {
  switch (e.kind) {
    case FormatError::Kind::IndexError:
    case FormatError::Kind::KeyError:
      return "E0806";
    case FormatError::Kind::Limit:
      return "E0803";
    default:
      return "E0804";
  }
}

/// The value of a conversion `!s`, `!r`, `!a` (0: none); nullopt for another character.
std::optional<Py> convert(const Interp& in, const Py& v, char conversion) {
  switch (conversion) {
    case 0:
      return v;
    case 's':
      return Interp::str(in.strOf(v));
    case 'r':
      return Interp::str(in.reprOf(v));
    case 'a':
      return Interp::str(pyAsciiEscape(in.reprOf(v)));
    default:
      return std::nullopt;
  }
}

}  // namespace

std::string Interp::strOf(const Py& v) const {
  switch (v->kind) {
    case PyKind::None:
      return "None";
    case PyKind::Bool:
      return v->b ? "True" : "False";
    case PyKind::Int:
      return std::to_string(v->i);
    case PyKind::Float:
      return pyFloatRepr(v->f);
    case PyKind::Str:
      return v->s;
    case PyKind::Tuple:
    case PyKind::List: {
      std::string t = v->kind == PyKind::Tuple ? "(" : "[";
      for (size_t i = 0; i < v->items.size(); ++i) t += (i ? ", " : "") + reprOf(v->items[i]);
      if (v->kind == PyKind::Tuple && v->items.size() == 1) t += ",";
      return t + (v->kind == PyKind::Tuple ? ")" : "]");
    }
    case PyKind::Dict: {
      std::string t = "{";
      for (size_t i = 0; i + 1 < v->items.size(); i += 2)
        t += (i ? ", " : "") + reprOf(v->items[i]) + ": " + reprOf(v->items[i + 1]);
      return t + "}";
    }
    case PyKind::Array:
      return arrayStr(*v->arr);
    case PyKind::DType:
      return std::string(ir::dtypeName(v->dtype));
    default:
      return "<" + typeName(v) + ">";
  }
}

std::string Interp::reprOf(const Py& v) const {
  if (v->kind == PyKind::Array) return arrayRepr(*v->arr);
  return v->kind == PyKind::Str ? pyStrRepr(v->s) : strOf(v);
}

std::optional<std::string> Interp::formatValue(const Py& v, const std::string& spec,
                                               SourceSpan span) {
  FormatError err;
  std::optional<std::string> text = pyFormat(formatArgOf(*this, v), spec, &err);
  if (!text) {
    error(codeOf(err), span, err.message);
    return std::nullopt;
  }
  // A wide field costs like the elements of an array operation (a loop of 1,000,000-wide
  // fields must meet the verify's budget).
  if (ctx.budget && !ctx.budget->charge(static_cast<int64_t>(text->size() / 16))) {
    error("E0807", span, ctx.budget->message());
    return std::nullopt;
  }
  return text;
}

std::optional<Py> Interp::strOperator(ast::Op op, const Py& a, const Py& b, SourceSpan span) {
  // printf-style formatting, whatever the right operand (a tuple, a dict, a numpy scalar).
  if (a->kind == PyKind::Str && op == ast::Op::Mod)
    return error("E0803", span,
                 "printf-style formatting ('%' on a str) is not supported by the harness: use an "
                 "f-string or str.format()");
  const auto isInt = [](const Py& v) { return v->kind == PyKind::Int || v->kind == PyKind::Bool; };
  if (op != ast::Op::Mul ||
      !((a->kind == PyKind::Str && isInt(b)) || (isInt(a) && b->kind == PyKind::Str)))
    return std::nullopt;
  const Py& s = a->kind == PyKind::Str ? a : b;
  const int64_t n = a->kind == PyKind::Str ? b->i : a->i;
  if (n <= 0 || s->s.empty()) return str("");
  if (static_cast<uint64_t>(n) > (uint64_t{1} << 30) / s->s.size())
    return error("E0803", span, "a string of more than 2^30 bytes is beyond the harness");
  if (ctx.budget && !ctx.budget->charge(n * static_cast<int64_t>(s->s.size()) / 16))
    return error("E0807", span, ctx.budget->message());
  std::string r;
  r.reserve(static_cast<size_t>(n) * s->s.size());
  for (int64_t k = 0; k < n; ++k) r += s->s;
  return str(std::move(r));
}

Py Interp::evalFString(const ast::Expr& e) {
  std::string out;
  for (const ast::ExprPtr& part : e.args) {
    if (part->kind == ast::ExprKind::Str) {
      out += part->text;
      continue;
    }
    if (part->kind != ast::ExprKind::FormattedValue || part->args.empty())
      return error("E0803", part->span, "unsupported f-string part");
    // CPython's order: the value, then the spec's own fields, then conversion and format.
    Py v = eval(*part->args[0]);
    if (!v) return nullptr;
    std::string spec;
    if (part->args.size() > 1) {
      Py s = evalFString(*part->args[1]);
      if (!s) return nullptr;
      spec = s->s;
    }
    const std::optional<Py> c = convert(*this, v, part->text.empty() ? char(0) : part->text[0]);
    if (!c) return error("E0803", part->span, "unsupported f-string conversion");
    auto text = formatValue(*c, spec, part->span);
    if (!text) return nullptr;
    out += *text;
  }
  return str(std::move(out));
}

Py Interp::formatBuiltin(const std::string& name, const std::vector<Py>& args, SourceSpan span) {
  if (name == "format") {
    if (args.empty() || args.size() > 2)
      return error("E0805", span,
                   "format expected " + std::string(args.empty() ? "at least 1" : "at most 2") +
                       (args.empty() ? " argument" : " arguments") + ", got " +
                       std::to_string(args.size()));
    if (args.size() == 2 && args[1]->kind != PyKind::Str)
      return error("E0804", span,
                   "format() argument 2 must be str, not " + formatTypeName(*this, args[1]));
    auto text = formatValue(args[0], args.size() == 2 ? args[1]->s : std::string(), span);
    return text ? str(std::move(*text)) : nullptr;
  }
  if (args.size() != 1)
    return error(
        "E0805", span,
        name + "() takes exactly one argument (" + std::to_string(args.size()) + " given)");
  return str(name == "ascii" ? pyAsciiEscape(reprOf(args[0])) : reprOf(args[0]));
}

Py Interp::getItemByKey(const Py& obj, const Py& key, SourceSpan span) {
  if (obj->kind == PyKind::Dict) {
    for (size_t k = 0; k + 1 < obj->items.size(); k += 2) {
      Py eq = binop(ast::Op::Eq, obj->items[k], key, span);
      if (!eq) return nullptr;
      if (eq->kind == PyKind::Bool && eq->b) return obj->items[k + 1];
    }
    return error("E0806", span, "key " + reprOf(key) + " not found");
  }
  const bool seq = obj->kind == PyKind::List || obj->kind == PyKind::Tuple;
  if (!seq && obj->kind != PyKind::Str && obj->kind != PyKind::Array)
    return error("E0804", span, "'" + typeName(obj) + "' object is not subscriptable");
  if (key->kind != PyKind::Int)
    return error("E0804", span,
                 typeName(obj) + " indices must be integers or slices, not " + typeName(key));
  if (obj->kind == PyKind::Array) {
    std::string err;
    auto r = getItem(*obj->arr, {IndexItem::at(key->i)}, &err);
    if (!r) return error("E0806", span, err);
    r->origin = -1;
    return array(std::move(*r));
  }
  const int64_t n =
      seq ? static_cast<int64_t>(obj->items.size()) : static_cast<int64_t>(obj->s.size());
  if (key->i >= n) return error("E0806", span, typeName(obj) + " index out of range");
  return seq ? obj->items[static_cast<size_t>(key->i)]
             : str(std::string(1, obj->s[size_t(key->i)]));
}

Py Interp::strFormat(const Py& self, const std::vector<Py>& args, const Kwargs& kw,
                     SourceSpan span) {
  const RenderField render = [&](const TemplateField& f, const std::string& spec,
                                 FormatError* err) -> std::optional<std::string> {
    auto failWith = [&](FormatError::Kind kind, std::string message) {
      *err = FormatError{kind, std::move(message)};
      return std::optional<std::string>();
    };
    Py v;
    if (f.positional) {
      if (f.index >= static_cast<int64_t>(args.size()))
        return failWith(FormatError::Kind::IndexError,
                        "replacement index " + std::to_string(f.index) +
                            " out of range for positional args tuple");
      v = args[static_cast<size_t>(f.index)];
    } else {
      for (const auto& [k, x] : kw)
        if (k == f.key) v = x;
      if (!v)
        return failWith(
            FormatError::Kind::KeyError,
            "key '" + f.key + "' not found: str.format() got no keyword argument '" + f.key + "'");
    }
    // `.attr` and `[key]` after the name.
    std::string_view rest = f.rest;
    while (!rest.empty()) {
      if (rest[0] == '.') {
        size_t n = 1;
        while (n < rest.size() && rest[n] != '.' && rest[n] != '[') ++n;
        if (n == 1)
          return failWith(FormatError::Kind::ValueError, "empty attribute in format string");
        v = attribute(v, std::string(rest.substr(1, n - 1)), span);
        if (!v) return std::nullopt;
        rest.remove_prefix(n);
      } else if (rest[0] == '[') {
        const size_t close = rest.find(']');
        if (close == std::string_view::npos)
          return failWith(FormatError::Kind::ValueError, "missing ']' in format string");
        const std::string key(rest.substr(1, close - 1));
        if (key.empty())
          return failWith(FormatError::Kind::ValueError, "empty attribute in format string");
        bool digits = true;
        for (char c : key) digits = digits && c >= '0' && c <= '9';
        v = getItemByKey(v, digits && key.size() < 18 ? integer(std::stoll(key)) : str(key), span);
        if (!v) return std::nullopt;
        rest.remove_prefix(close + 1);
        if (!rest.empty() && rest[0] != '.' && rest[0] != '[')
          return failWith(FormatError::Kind::ValueError,
                          "only '.' or '[' may follow ']' in format field specifier");
      } else {
        return failWith(FormatError::Kind::ValueError,
                        "only '.' or '[' may follow ']' in format field specifier");
      }
    }
    const std::optional<Py> c = convert(*this, v, f.conversion);
    if (!c) {
      const unsigned char u = static_cast<unsigned char>(f.conversion);
      char buf[16];
      std::snprintf(buf, sizeof buf, u > 32 && u < 128 ? "%c" : "\\x%x", u);
      return failWith(FormatError::Kind::ValueError,
                      std::string("unknown conversion specifier ") + buf);
    }
    return pyFormat(formatArgOf(*this, *c), spec, err);
  };
  FormatError err;
  std::optional<std::string> text = expandTemplate(self->s, render, &err);
  if (!text) return failed() ? nullptr : error(codeOf(err), span, err.message);
  return str(std::move(*text));
}

}  // namespace tirx::verify
