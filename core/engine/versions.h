#pragma once
// The library versions a run was built and run with, recorded with every run.

#include <string>

namespace tw::engine {

// "torchwright=0.1.0 libtorch=1.13.0 compiler=gcc-12.2.0 openblas=0.3.21" (openblas when loaded).
std::string libraryVersions();

}  // namespace tw::engine
