// Whether a connection still reads the files at its path (Store::replacedFiles), and the
// process-wide bookkeeping a reader needs to reopen safely (Store::connectionsOnReplacedFiles).

#include "tracking/store.h"

#include <sys/stat.h>

#include <map>
#include <mutex>

namespace tw::tracking {

namespace {

struct PathConnections {
  std::map<uint64_t, int> openByEpoch;  // replacements counted when each open Store looked last
  uint64_t replacements = 0;            // how often a connection found the files replaced
  std::string reason;                   // what the last one found
};

std::mutex &registryMutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<std::string, PathConnections> &registry() {
  static std::map<std::string, PathConnections> paths;
  return paths;
}

}  // namespace

uint64_t Store::registerConnection(const std::string &path) {
  std::lock_guard lock(registryMutex());
  PathConnections &entry = registry()[path];
  ++entry.openByEpoch[entry.replacements];
  return entry.replacements;
}

void Store::unregisterConnection(const std::string &path, uint64_t epoch) {
  std::lock_guard lock(registryMutex());
  auto it = registry().find(path);
  if (it == registry().end()) return;
  auto &open = it->second.openByEpoch;
  auto count = open.find(epoch);
  if (count != open.end() && --count->second <= 0) open.erase(count);
  // The last one gone: a connection opened now starts from SQLite's fresh state of the file.
  if (open.empty()) registry().erase(it);
}

int Store::connectionsOnReplacedFiles(const std::string &path) {
  std::lock_guard lock(registryMutex());
  auto it = registry().find(path);
  if (it == registry().end()) return 0;
  int stale = 0;
  for (const auto &[epoch, count] : it->second.openByEpoch)
    if (epoch < it->second.replacements) stale += count;
  return stale;
}

std::string Store::replacedFiles() {
  if (!m_sqlite) return {};  // a server's database is not a file this process can lose
  {
    std::lock_guard lock(registryMutex());
    const PathConnections &entry = registry()[m_path];
    if (entry.replacements != m_replacedEpoch) return entry.reason;
  }
  std::string reason;
  struct stat db {};
  struct stat wal {};
  const std::string walPath = m_path + "-wal";
  if (::stat(m_path.c_str(), &db) != 0) {
    reason = "the database file " + m_path + " is gone";
  } else if (!m_identityKnown) {
    m_identityKnown = true;
    m_dbDevice = static_cast<uint64_t>(db.st_dev);
    m_dbInode = static_cast<uint64_t>(db.st_ino);
  } else if (static_cast<uint64_t>(db.st_dev) != m_dbDevice || static_cast<uint64_t>(db.st_ino) != m_dbInode) {
    reason = "the database file " + m_path + " was replaced by another file";
  }
  // An open connection keeps its WAL file open, and SQLite deletes the WAL only when the last
  // connection closes: while this one is open, a missing or different WAL means another process
  // deleted it, believing itself the last, and this connection reads an orphan.
  if (reason.empty()) {
    if (::stat(walPath.c_str(), &wal) != 0) {
      if (m_walInode != 0) reason = "its write-ahead log " + walPath + " was deleted by another process";
    } else if (m_walInode == 0) {
      m_walInode = static_cast<uint64_t>(wal.st_ino);
    } else if (static_cast<uint64_t>(wal.st_ino) != m_walInode) {
      reason = "its write-ahead log " + walPath + " was replaced by another process";
    }
  }
  if (reason.empty()) return {};
  // This connection stays counted under its old epoch until it closes: it is one of those a
  // reopening reader waits for.
  std::lock_guard lock(registryMutex());
  PathConnections &entry = registry()[m_path];
  ++entry.replacements;
  entry.reason = reason;
  return reason;
}

}  // namespace tw::tracking
