#include "core/spec/model_files.h"

#include <filesystem>

namespace tw::spec {

std::string modelNameOf(const std::string &modelFile) {
  std::string name = std::filesystem::path(modelFile).filename().string();
  for (const std::string suffix : {".model.yaml", ".model.yml", ".yaml", ".yml"})
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return name.substr(0, name.size() - suffix.size());
  return name;
}

std::string weightsFileFor(const std::string &modelFile) {
  return (std::filesystem::path(modelFile).parent_path() / (modelNameOf(modelFile) + ".weights.pt")).string();
}

}  // namespace tw::spec
