// A private temporary folder that is removed, with everything in it, when the object goes away:
// the request folder of a run (cuda_executor), the folder a remote runner or profile host unpacks
// a request into (runner_stream, profile_remote). Made with mkdtemp (mode 0700) under $TMPDIR,
// else /tmp, as STEM_XXXXXX. `keep` leaves it in place (the executor's keepTemp option, for
// looking at a request).
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace tirx::driver {

class ScratchDir {
 public:
  /// Makes $TMPDIR/STEM_XXXXXX (or /tmp/…); path() is empty when that failed (errno says why).
  explicit ScratchDir(const std::string& stem, bool keep = false) : m_keep(keep) {
    const char* root = std::getenv("TMPDIR");
    std::string tmpl = std::string(root && *root ? root : "/tmp") + "/" + stem + "_XXXXXX";
    if (::mkdtemp(tmpl.data())) m_path = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!m_keep && !m_path.empty()) std::filesystem::remove_all(m_path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
  bool m_keep = false;
};

}  // namespace tirx::driver
