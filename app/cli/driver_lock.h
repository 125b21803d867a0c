#pragma once
// Which process drives a study: an exclusive flock on <study folder>/driver.lock holding the
// driver's pid. The kernel drops the lock when the process dies, however it dies (SIGKILL
// included), so a resume can tell at once, without waiting out a heartbeat's silence, whether
// the study's last driver is gone and its RUNNING trials are orphans.

#include <string>

namespace tw::cli {

class DriverLock {
 public:
  // Takes the lock without waiting; held() says whether it did. `holder` receives the pid the
  // file names when another process holds it.
  explicit DriverLock(const std::string &path, int *holder = nullptr);
  ~DriverLock();
  DriverLock(const DriverLock &) = delete;
  DriverLock &operator=(const DriverLock &) = delete;
  bool held() const { return m_fd >= 0; }
  void release();

 private:
  int m_fd = -1;
};

}  // namespace tw::cli
