#pragma once
// An output file a command will write (export, predict): refused before any work when its folder
// does not exist or is not writable, or when it names a folder.

#include <string>

namespace tw::cli {

// The absolute path; empty after printing the reason on stderr.
std::string checkOutputFile(const std::string &out);

}  // namespace tw::cli
