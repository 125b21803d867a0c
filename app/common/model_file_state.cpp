#include "app/common/model_file_state.h"

#include "core/config/sha256.h"

#include <filesystem>

namespace tw::app {

std::string modelFileState(const tracking::ModelVersionRecord &version) {
  std::error_code ec;
  if (!std::filesystem::exists(version.path, ec)) return "missing";
  return config::fileSha256Hex(version.path) == version.sha256 ? "unchanged" : "modified since registration";
}

}  // namespace tw::app
