#pragma once
// Whether a named data source is on this machine, and how to get it when not: the one check
// the Launch page's dataset list, the Sweeps form and the validator's message rely on. It looks
// where the loader looks (defaultDatasetDir, findIdxFile), so "installed" means "would load".
//
//   if (!datasetInstalled("fashion-mnist")) show(datasetInstallHint("fashion-mnist"));

#include <string>

namespace tw::data {

// False only for a named dataset (fashion-mnist, mnist) whose four IDX files are not all in
// defaultDatasetDir; sources read from data.path (csv, image-folder) and generated ones are
// always "installed".
bool datasetInstalled(const std::string &dataset);
// What to do to get it: "sudo apt-get install dataset-fashion-mnist"; empty for other sources.
std::string datasetInstallHint(const std::string &dataset);

}  // namespace tw::data
