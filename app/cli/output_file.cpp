#include "app/cli/output_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

namespace tw::cli {

namespace fs = std::filesystem;

std::string checkOutputFile(const std::string &out) {
  const fs::path target = fs::absolute(out).lexically_normal();
  const fs::path folder = target.parent_path();
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    std::fprintf(stderr, "torchwright: --out %s is a folder; give a file name\n", out.c_str());
    return {};
  }
  if (!fs::is_directory(folder, ec)) {
    std::fprintf(stderr, "torchwright: --out %s: the folder %s does not exist\n", out.c_str(), folder.c_str());
    return {};
  }
  if (::access(folder.c_str(), W_OK) != 0) {
    std::fprintf(stderr, "torchwright: --out %s: the folder %s is not writable\n", out.c_str(), folder.c_str());
    return {};
  }
  return target.string();
}

}  // namespace tw::cli
