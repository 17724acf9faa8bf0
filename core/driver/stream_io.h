// Private to core/driver: framed messages of the runner's stream mode over a file descriptor (a
// socket to the local ssh, or the remote runner's stdin/stdout). A frame is one JSON line of at
// most kMaxFrameHeader bytes whose "files" member lists {"name", "bytes"}, followed by the bytes
// of those files in order. Reads and writes either block, or — with `keepGoing` — poll every few
// milliseconds and give up once keepGoing() returns false (timeout, cancellation).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tirx::driver {

inline constexpr size_t kMaxFrameHeader = 16u << 20;
inline constexpr uint64_t kMaxStreamFileBytes = uint64_t(64) << 30;
inline constexpr size_t kMaxStreamFiles = 10000;

enum class IoResult { Ok, Eof, Stopped, TooLong, Error };

class StreamIo {
 public:
  StreamIo(int fd, std::function<bool()> keepGoing = {})
      : m_fd(fd), m_keepGoing(std::move(keepGoing)) {}
  /// One line without its '\n'; TooLong past `max` bytes.
  IoResult readLine(std::string& line, size_t max);
  /// Exactly `n` bytes, handed to `sink` in chunks (sink returns false to fail with Error).
  IoResult readExact(uint64_t n, const std::function<bool(const char*, size_t)>& sink);
  IoResult writeAll(const void* data, size_t n);

 private:
  IoResult fill();  ///< reads more into m_buf
  int m_fd;
  std::function<bool()> m_keepGoing;
  std::string m_buf;
};

/// A file name a frame may carry: 1–64 of [A-Za-z0-9._-], not starting with '.'.
bool safeStreamName(const std::string& name);

/// Writes a frame: `header` (a JSON object's text without "files", e.g. {"type":"response"}) gets
/// "files" listing `files` (relative to `dir`), then their bytes. Error when a file is unreadable.
IoResult writeFrame(StreamIo& io, const std::string& headerJson, const std::string& dir,
                    const std::vector<std::string>& files, std::string& why);
/// Reads a frame's header line (JSON text into `header`) and its files into `dir`. `why` says what
/// was wrong on Error (a bad name, a size over the limits, not JSON).
IoResult readFrame(StreamIo& io, std::string& header, const std::string& dir,
                   std::vector<std::string>& files, std::string& why);

}  // namespace tirx::driver
