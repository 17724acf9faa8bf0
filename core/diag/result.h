// Result<T>: the channel for environment and tool failures (no driver, NVRTC failed, file
// unreadable). User errors in scripts are Diagnostics, not Results; internal bugs use TIRX_ASSERT.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tirx {

/// A failure of the environment or of an external tool. `api` names what failed
/// ("nvrtcCompileProgram", "cuInit", "open"), `message` says why. A function that returns a
/// Status returns an empty one (no message) on success. [[nodiscard]]: a caller handles it, or
/// discards it explicitly with `(void)` and a comment saying why that is safe.
struct [[nodiscard]] Status {
  std::string api;
  std::string message;
  int code = 0;
  std::string text() const { return api.empty() ? message : api + ": " + message; }
  /// Success: no message (the convention of functions that return a bare Status).
  bool ok() const { return message.empty(); }
};

/// A value or the Status that kept it from being made. [[nodiscard]], as Status.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_v(std::move(value)) {}
  Result(Status error) : m_v(std::move(error)) {}
  bool ok() const { return m_v.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(m_v); }
  const T& value() const { return std::get<0>(m_v); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Status& error() const { return std::get<1>(m_v); }

 private:
  std::variant<T, Status> m_v;
};

[[noreturn]] inline void assertFail(const char* expr, const char* file, int line) {
  std::fprintf(stderr, "internal error: assertion `%s` failed at %s:%d\n", expr, file, line);
  std::abort();
}

}  // namespace tirx

/// Internal invariants only (bugs), never user errors.
#define TIRX_ASSERT(cond) ((cond) ? (void)0 : ::tirx::assertFail(#cond, __FILE__, __LINE__))
