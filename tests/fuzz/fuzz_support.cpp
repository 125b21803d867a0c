#include "tests/fuzz/fuzz_target.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#ifndef TW_LIBFUZZER
#include "tests/fuzz/fuzz_registry.h"
#endif

namespace tw::fuzz {

std::string bytes(const uint8_t *data, size_t size) { return std::string(reinterpret_cast<const char *>(data), size); }

namespace {

void removeScratch() {
  std::error_code ignored;
  std::filesystem::remove_all(scratchDir(), ignored);
}

}  // namespace

const std::string &scratchDir() {
  // Never destroyed: the atexit handler that removes it runs after static destructors would.
  static const std::string *dir = [] {
    const std::string base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path().string();
    auto *d = new std::string(base + "/tw-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(*d);
    std::atexit(removeScratch);
    return d;
  }();
  return *dir;
}

std::string inputFile(const uint8_t *data, size_t size, const std::string &name) {
  const std::string path = scratchDir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
  if (!out) fail("cannot write the fuzz input to " + path);
  return path;
}

void fail(const std::string &what) {
#ifdef TW_LIBFUZZER
  std::fprintf(stderr, "fuzz contract broken: %s\n", what.c_str());
  std::abort();
#else
  throw ContractBroken(what);
#endif
}

void expectRefusalOnly(const std::string &mustName, const std::function<void()> &read) {
  try {
    read();
  } catch (const std::runtime_error &e) {
    const std::string message = e.what();
    if (message.find(mustName) == std::string::npos)
      fail("the refusal does not name '" + mustName + "': " + message);
  }
}

}  // namespace tw::fuzz
