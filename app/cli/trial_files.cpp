#include "app/cli/trial_files.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tw::cli {

std::string trialFile(const std::string &studyFolder, int number, const std::string &suffix) {
  return (std::filesystem::path(studyFolder) / ("trial-" + std::to_string(number) + suffix)).string();
}

void writeTrialFile(const std::string &path, const std::string &text, mode_t mode) {
  {
    std::ofstream out(path, std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write '" + path + "'");
  }
  ::chmod(path.c_str(), mode);
}

}  // namespace tw::cli
