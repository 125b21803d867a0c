#include "app/cli/driver_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace tw::cli {

DriverLock::DriverLock(const std::string &path, int *holder) {
  // O_CLOEXEC: trial processes must not inherit the lock and keep it after the driver died.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (holder) {
      char buffer[32] = {};
      const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
      *holder = n > 0 ? std::atoi(buffer) : 0;
    }
    ::close(fd);
    return;
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, pid.data(), pid.size(), 0);
  m_fd = fd;
}

DriverLock::~DriverLock() { release(); }

void DriverLock::release() {
  if (m_fd >= 0) ::close(m_fd);  // closing the last descriptor drops the flock
  m_fd = -1;
}

}  // namespace tw::cli
