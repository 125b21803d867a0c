#include "core/engine/versions.h"

#include <dlfcn.h>

#include <sstream>

#include <torch/version.h>

namespace tw::engine {

namespace {

std::string compilerVersion() {
#if defined(__clang__)
  std::string version = "clang-" + std::string(__clang_version__);
#elif defined(__GNUC__)
  std::string version = "gcc-" + std::string(__VERSION__);
#else
  std::string version = __VERSION__;
#endif
  // The record is space-separated key=value pairs; clang's version text has spaces.
  for (char &c : version)
    if (c == ' ') c = '_';
  while (!version.empty() && version.back() == '_') version.pop_back();
  return version;
}

// The OpenBLAS LibTorch actually runs on (Debian's libblas.so.3 alternative may point elsewhere):
// openblas_get_config() reads "OpenBLAS 0.3.21 NO_AFFINITY ...".
std::string openBlasVersion() {
  using GetConfig = const char *(*)();
  auto fn = reinterpret_cast<GetConfig>(dlsym(RTLD_DEFAULT, "openblas_get_config"));
  if (!fn) return {};
  std::istringstream words(fn());
  std::string name, version;
  words >> name >> version;
  return version;
}

}  // namespace

std::string libraryVersions() {
  std::string text = std::string("torchwright=") + TW_VERSION + " libtorch=" + TORCH_VERSION +
                     " compiler=" + compilerVersion();
  const std::string blas = openBlasVersion();
  if (!blas.empty()) text += " openblas=" + blas;
  return text;
}

}  // namespace tw::engine
