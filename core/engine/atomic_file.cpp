#include "core/engine/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace tw::engine {

namespace {

constexpr const char *kTempMarker = ".tmp-";

[[noreturn]] void fail(const std::string &what, const std::string &path, int error) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(error));
}

void fsyncFolder(const fs::path &folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;  // some filesystems refuse; the rename itself is still atomic
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void writeFileAtomically(const std::string &path, const std::string &bytes) {
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const fs::path temp = folder / ("." + target.filename().string() + kTempMarker + std::to_string(::getpid()));
  // The name is replaced by rename, never written through: a symbolic or hard link planted at
  // `path` is swapped for the new file and what it pointed at stays as it was. The temporary
  // itself is created afresh (O_EXCL, O_NOFOLLOW), so a link planted at its name is refused too.
  ::unlink(temp.c_str());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create", temp.string(), errno);
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      ::close(fd);
      ::unlink(temp.c_str());
      fail("cannot write", path, error);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail("cannot flush", path, error);
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail("cannot rename a temporary file onto", path, error);
  }
  fsyncFolder(folder);
}

std::string readWholeFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open", path, errno);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

int removeStaleTemporaries(const std::string &folder) {
  int removed = 0;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 1 && name[0] == '.' && name.find(kTempMarker) != std::string::npos) {
      std::error_code removeError;
      if (fs::remove(entry.path(), removeError)) ++removed;
    }
  }
  return removed;
}

}  // namespace tw::engine
