#include "core/data/dataset_presence.h"

#include "core/data/idx.h"

namespace tw::data {

bool datasetInstalled(const std::string &dataset) {
  const std::string dir = defaultDatasetDir(dataset);
  if (dir.empty()) return true;  // not a named dataset: nothing to install
  for (const std::string &stem : idxFileStems())
    if (findIdxFile(dir, stem).empty()) return false;
  return true;
}

std::string datasetInstallHint(const std::string &dataset) {
  const std::string dir = defaultDatasetDir(dataset);
  if (dir.empty()) return {};
  const std::string ownCopy = "put its four IDX files (train-images-idx3-ubyte, ...; .gz too) in " + dir;
  // Debian packages Fashion-MNIST; MNIST has no package, its files go where the loader looks.
  if (dataset == "fashion-mnist")
    return dir == TW_DEFAULT_FASHION_MNIST ? "sudo apt-get install dataset-fashion-mnist"
                                           : "sudo apt-get install dataset-fashion-mnist, or " + ownCopy;
  return ownCopy + ", or give data.path";
}

}  // namespace tw::data
