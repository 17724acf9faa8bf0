// Diagnostic helpers: construction, gcc-style formatting and ordering.
#include "core/diag/diagnostic.h"

#include <algorithm>
#include <tuple>

namespace tirx {

SourceSpan SourceSpan::cover(const SourceSpan& a, const SourceSpan& b) {
  if (!a.valid()) return b;
  if (!b.valid()) return a;
  SourceSpan s = a;
  s.length = std::max(a.length, b.offset + b.length - a.offset);
  return s;
}

Diagnostic makeError(std::string code, SourceSpan span, std::string message) {
  return Diagnostic{Severity::Error, std::move(code), span, std::move(message), {}, {}};
}

Diagnostic makeWarning(std::string code, SourceSpan span, std::string message) {
  return Diagnostic{Severity::Warning, std::move(code), span, std::move(message), {}, {}};
}

bool hasErrors(const Diagnostics& diags) {
  return std::any_of(diags.begin(), diags.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::string_view severityName(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

static std::string location(std::string_view file, const SourceSpan& span) {
  std::string out(file);
  if (span.valid()) out += ":" + std::to_string(span.line) + ":" + std::to_string(span.col);
  return out;
}

std::string formatGcc(const Diagnostic& d, std::string_view fileName) {
  std::string out =
      location(fileName, d.span) + ": " + std::string(severityName(d.severity)) + ": " + d.message;
  if (!d.code.empty()) out += " [" + d.code + "]";
  out += "\n";
  for (const auto& n : d.notes) out += location(fileName, n.span) + ": note: " + n.message + "\n";
  return out;
}

std::string formatGcc(const Diagnostics& ds, std::string_view fileName) {
  std::string out;
  for (const auto& d : ds) out += formatGcc(d, fileName);
  return out;
}

void sortAndUnique(Diagnostics& ds) {
  std::stable_sort(ds.begin(), ds.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.span.line, a.span.col) < std::tie(b.span.line, b.span.col);
  });
  ds.erase(std::unique(ds.begin(), ds.end(),
                       [](const Diagnostic& a, const Diagnostic& b) {
                         return a.code == b.code && a.span == b.span && a.message == b.message;
                       }),
           ds.end());
}

}  // namespace tirx
