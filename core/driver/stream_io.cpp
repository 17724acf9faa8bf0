// Frames of the runner's stream mode (stream_io.h): buffered line and byte reads with an optional
// polling wait, writes that never raise SIGPIPE on sockets, and file transfer in 1 MiB chunks.
#include "core/driver/stream_io.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace tirx::driver {

namespace {
constexpr size_t kChunk = 1u << 20;

/// Waits until `fd` is ready for `events`, asking keepGoing every 5 ms.
IoResult waitFor(int fd, short events, const std::function<bool()>& keepGoing) {
  if (!keepGoing) return IoResult::Ok;
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, 5);
    if (n > 0) return IoResult::Ok;
    if (n < 0 && errno != EINTR) return IoResult::Error;
    if (!keepGoing()) return IoResult::Stopped;
  }
}
}  // namespace

IoResult StreamIo::fill() {
  if (const IoResult w = waitFor(m_fd, POLLIN, m_keepGoing); w != IoResult::Ok) return w;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(m_fd, buf, sizeof buf);
    if (n > 0) {
      m_buf.append(buf, size_t(n));
      return IoResult::Ok;
    }
    if (n == 0) return IoResult::Eof;
    if (errno == EINTR) continue;
    if (errno == EAGAIN)
      return waitFor(m_fd, POLLIN, m_keepGoing) == IoResult::Ok ? fill() : IoResult::Stopped;
    return errno == ECONNRESET ? IoResult::Eof : IoResult::Error;
  }
}

IoResult StreamIo::readLine(std::string& line, size_t max) {
  size_t scanned = 0;
  for (;;) {
    const size_t nl = m_buf.find('\n', scanned);
    if (nl != std::string::npos) {
      if (nl > max) return IoResult::TooLong;
      line = m_buf.substr(0, nl);
      m_buf.erase(0, nl + 1);
      return IoResult::Ok;
    }
    scanned = m_buf.size();
    if (m_buf.size() > max) return IoResult::TooLong;
    if (const IoResult r = fill(); r != IoResult::Ok) return r;
  }
}

IoResult StreamIo::readExact(uint64_t n, const std::function<bool(const char*, size_t)>& sink) {
  while (n > 0) {
    if (m_buf.empty())
      if (const IoResult r = fill(); r != IoResult::Ok) return r;
    const size_t take = size_t(std::min<uint64_t>(n, m_buf.size()));
    if (!sink(m_buf.data(), take)) return IoResult::Error;
    m_buf.erase(0, take);
    n -= take;
  }
  return IoResult::Ok;
}

IoResult StreamIo::writeAll(const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    if (const IoResult w = waitFor(m_fd, POLLOUT, m_keepGoing); w != IoResult::Ok) return w;
    // send() with MSG_NOSIGNAL on a socket (the local side); write() on a pipe (remote stdout).
    ssize_t k = ::send(m_fd, p, n, MSG_NOSIGNAL);
    if (k < 0 && errno == ENOTSOCK) k = ::write(m_fd, p, n);
    if (k < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return errno == EPIPE || errno == ECONNRESET ? IoResult::Eof : IoResult::Error;
    }
    p += k;
    n -= size_t(k);
  }
  return IoResult::Ok;
}

bool safeStreamName(const std::string& name) {
  if (name.empty() || name.size() > 64 || name[0] == '.') return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
      return false;
  return true;
}

IoResult writeFrame(StreamIo& io, const std::string& headerJson, const std::string& dir,
                    const std::vector<std::string>& files, std::string& why) {
  nlohmann::json h = nlohmann::json::parse(headerJson, nullptr, false);
  if (!h.is_object()) return why = "internal: the frame header is not an object", IoResult::Error;
  nlohmann::json list = nlohmann::json::array();
  std::vector<uint64_t> sizes;
  for (const auto& f : files) {
    FILE* fp = std::fopen((dir + "/" + f).c_str(), "rb");
    if (!fp) return why = "cannot read " + f, IoResult::Error;
    std::fseek(fp, 0, SEEK_END);
    const long size = std::ftell(fp);
    std::fclose(fp);
    if (size < 0) return why = "cannot read " + f, IoResult::Error;
    list.push_back({{"name", f}, {"bytes", uint64_t(size)}});
    sizes.push_back(uint64_t(size));
  }
  h["files"] = list;
  const std::string line = h.dump() + "\n";
  if (const IoResult r = io.writeAll(line.data(), line.size()); r != IoResult::Ok) return r;
  std::vector<char> buf(kChunk);
  for (size_t i = 0; i < files.size(); ++i) {
    FILE* fp = std::fopen((dir + "/" + files[i]).c_str(), "rb");
    if (!fp) return why = "cannot read " + files[i], IoResult::Error;
    uint64_t left = sizes[i];
    while (left > 0) {
      const size_t n = std::fread(buf.data(), 1, size_t(std::min<uint64_t>(left, buf.size())), fp);
      if (n == 0) break;
      if (const IoResult r = io.writeAll(buf.data(), n); r != IoResult::Ok) {
        std::fclose(fp);
        return r;
      }
      left -= n;
    }
    std::fclose(fp);
    if (left > 0) return why = files[i] + " changed while it was sent", IoResult::Error;
  }
  return IoResult::Ok;
}

IoResult readFrame(StreamIo& io, std::string& header, const std::string& dir,
                   std::vector<std::string>& files, std::string& why) {
  if (const IoResult r = io.readLine(header, kMaxFrameHeader); r != IoResult::Ok) {
    if (r == IoResult::TooLong) why = "a frame header is longer than 16 MiB";
    return r;
  }
  const nlohmann::json h = nlohmann::json::parse(header, nullptr, false);
  if (!h.is_object()) return why = "not JSON: '" + header.substr(0, 80) + "'", IoResult::Error;
  auto it = h.find("files");
  if (it == h.end()) return IoResult::Ok;
  if (!it->is_array() || it->size() > kMaxStreamFiles)
    return why = "'files' must be an array", IoResult::Error;
  for (const auto& f : *it) {
    auto n = f.find("name");
    auto b = f.find("bytes");
    if (!f.is_object() || n == f.end() || !n->is_string() || b == f.end() ||
        !b->is_number_unsigned())
      return why = "each file needs a 'name' and 'bytes'", IoResult::Error;
    const std::string name = n->get<std::string>();
    const uint64_t bytes = b->get<uint64_t>();
    if (!safeStreamName(name))
      return why = "unsafe file name '" + name.substr(0, 80) + "'", IoResult::Error;
    if (bytes > kMaxStreamFileBytes) return why = name + " is larger than 64 GiB", IoResult::Error;
    FILE* fp = std::fopen((dir + "/" + name).c_str(), "wb");
    if (!fp) return why = "cannot write " + name, IoResult::Error;
    const IoResult r =
        io.readExact(bytes, [&](const char* p, size_t k) { return std::fwrite(p, 1, k, fp) == k; });
    const bool closed = std::fclose(fp) == 0;
    if (r != IoResult::Ok) {
      if (r == IoResult::Error) why = "cannot write " + name;
      return r;
    }
    if (!closed) return why = "cannot write " + name, IoResult::Error;
    files.push_back(name);
  }
  return IoResult::Ok;
}

}  // namespace tirx::driver
