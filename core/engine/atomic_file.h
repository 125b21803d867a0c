#pragma once
// Files that are either the old version or the new one, never half of each, even when the
// process is killed or the machine loses power mid-write: write a temporary file in the same
// folder, fsync it, rename it over the target, fsync the folder. The rename also means a link
// at the target (symbolic or hard) is replaced, never written through (config/safe_path.h). No LibTorch.

#include <string>

namespace tw::engine {

// Throws std::runtime_error naming the path and the system's reason (a full disk says so).
void writeFileAtomically(const std::string &path, const std::string &bytes);
std::string readWholeFile(const std::string &path);  // throws std::runtime_error naming the path

// Temporaries left by a writer that was killed mid-write ("<folder>/.<name>.tmp-<pid>");
// removes them and returns how many.
int removeStaleTemporaries(const std::string &folder);

}  // namespace tw::engine
