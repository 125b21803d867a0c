#include "core/config/safe_path.h"

#include <sys/stat.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace tw::config {

namespace {

constexpr int kMaxLinks = 40;  // the kernel's own limit (ELOOP)

// Every symbolic link on the way resolved, also a dangling one at the end (fs::weakly_canonical
// leaves that one unresolved, and a later write through it would land wherever it points).
fs::path resolveLinks(const fs::path &absolute, int &links) {
  fs::path out = absolute.root_path();
  for (const fs::path &part : absolute.relative_path()) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      out = out.parent_path();
      continue;
    }
    fs::path next = out / part;
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(next, ec))) {
      if (++links > kMaxLinks) throw std::runtime_error("too many levels of symbolic links");
      const fs::path target = fs::read_symlink(next, ec);
      if (ec) throw std::runtime_error("cannot read the symbolic link " + next.string() + ": " + ec.message());
      next = resolveLinks(target.is_absolute() ? target : out / target, links);
    }
    out = next;
  }
  return out;
}

bool within(const fs::path &path, const fs::path &folder) {
  const std::string p = path.string(), f = folder.string();
  if (f == "/") return true;
  return p.size() > f.size() && p.compare(0, f.size(), f) == 0 && p[f.size()] == '/';
}

}  // namespace

InsidePath resolveInside(const std::string &folder, const std::string &name, HardLinks hardLinks) {
  InsidePath out;
  int links = 0;
  fs::path base;
  try {
    base = resolveLinks(fs::absolute(folder), links);
  } catch (const std::exception &e) {
    out.problem = "cannot be resolved in " + folder + ": " + e.what();
    return out;
  }
  const fs::path rel(name);
  if (name.empty()) {
    out.problem = "names no file";
    return out;
  }
  if (rel.has_root_name() || rel.has_root_directory()) {
    out.problem = "is an absolute path; it must name a file in " + base.string();
    return out;
  }
  for (const fs::path &part : rel) {
    if (part == "..") {
      out.problem = "climbs out of " + base.string() + " with '..'";
      return out;
    }
  }
  fs::path resolved;
  try {
    resolved = resolveLinks(base / rel, links);
  } catch (const std::exception &e) {
    out.problem = "cannot be resolved in " + base.string() + ": " + e.what();
    return out;
  }
  if (!within(resolved, base)) {
    out.problem = "leads out of " + base.string() + " through a symbolic link (to " + resolved.string() + ")";
    return out;
  }
  struct stat st {};
  if (hardLinks == HardLinks::Refuse && ::lstat(resolved.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) && st.st_nlink > 1) {
    out.problem = "is a hard link (one file with " + std::to_string(st.st_nlink) +
                  " names), so its content may be a file outside " + base.string();
    return out;
  }
  out.path = resolved.string();
  return out;
}

std::string pathInside(const std::string &folder, const std::string &name, const std::string &field, HardLinks links) {
  InsidePath inside = resolveInside(folder, name, links);
  if (!inside.problem.empty()) throw std::runtime_error(field + " '" + name + "' " + inside.problem);
  return inside.path;
}

}  // namespace tw::config
