// Diagnostics as values. Every user-facing problem the engine finds (syntax errors, illegal tile
// operations, simulator faults, failed checks) is a Diagnostic with a severity, a stable code
// (E0xxx errors, W0xxx warnings, see docs/diagnostics.md), a source span and optional notes and
// fix-its. Nothing in the engine throws for a user error; functions return these in lists.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tirx {

/// A half-open range of script text. Lines and columns are 1-based, columns count bytes.
/// `offset` is the 0-based byte offset of the first character; `length` is in bytes.
/// A default-constructed span (line 0) means "no location".
struct SourceSpan {
  int line = 0;
  int col = 0;
  int length = 0;
  int offset = 0;

  bool valid() const { return line > 0; }
  /// The span from the start of `a` to the end of `b` (both valid, `a` before `b`).
  static SourceSpan cover(const SourceSpan& a, const SourceSpan& b);
  bool operator==(const SourceSpan&) const = default;
};

enum class Severity { Error, Warning, Note };

/// A secondary location that explains a diagnostic ("the barrier is here").
struct DiagNote {
  SourceSpan span;
  std::string message;
};

/// A suggested edit: replace `span` with `replacement`.
struct FixIt {
  SourceSpan span;
  std::string replacement;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;  ///< stable code, e.g. "E0201"
  SourceSpan span;
  std::string message;  ///< lower-case start, no trailing period
  std::vector<DiagNote> notes;
  std::vector<FixIt> fixits;
};

using Diagnostics = std::vector<Diagnostic>;

/// Convenience constructors.
Diagnostic makeError(std::string code, SourceSpan span, std::string message);
Diagnostic makeWarning(std::string code, SourceSpan span, std::string message);

bool hasErrors(const Diagnostics& diags);

/// gcc-style text: `FILE:LINE:COL: error: MESSAGE [CODE]`, then one `FILE:LINE:COL: note: …`
/// line per note. Diagnostics without a location print `FILE: error: …`.
std::string formatGcc(const Diagnostic& d, std::string_view fileName);
std::string formatGcc(const Diagnostics& ds, std::string_view fileName);

std::string_view severityName(Severity s);

/// Sort by (line, col) and drop exact duplicates (same code and span).
void sortAndUnique(Diagnostics& ds);

}  // namespace tirx
