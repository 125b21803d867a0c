#pragma once
// One harness per reader of untrusted bytes, built two ways from the same file:
//  - with clang's libFuzzer, AddressSanitizer and UBSan (TW_LIBFUZZER; packaging/fuzz.sh builds
//    build-fuzz/ and runs each harness), where every harness is its own fuzzer executable;
//  - in the normal build, where they all link into test_fuzz_regressions, which replays the seed
//    corpus and every input a fuzzer ever crashed on (tests/fuzz/corpus, tests/fuzz/regressions).
//
//   TW_FUZZ_TARGET(npy) {
//     tw::fuzz::expectRefusalOnly("fuzz.npy", [&] { tw::data::parseNpy(bytes(data, size), "fuzz.npy"); });
//     return 0;
//   }
//
// The contract every reader is held to: bad bytes are refused with a std::runtime_error whose
// message names what was read; nothing else escapes (no other exception type, no crash, no
// sanitizer report, no allocation the input's size does not justify).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace tw::fuzz {

using Harness = int (*)(const uint8_t *data, size_t size);

// Replay build only: the table test_fuzz_regressions walks.
bool registerHarness(const char *name, Harness harness);

std::string bytes(const uint8_t *data, size_t size);

// A file holding exactly these bytes, for readers that take a path: `name` inside this process's
// own scratch folder (under /dev/shm when there is one), rewritten on every call.
std::string inputFile(const uint8_t *data, size_t size, const std::string &name);
// This process's scratch folder, created on first use and removed at exit.
const std::string &scratchDir();

// A broken contract: libFuzzer records the input as a crash (abort); the replay test fails the
// row with `what`.
[[noreturn]] void fail(const std::string &what);

// Runs `read`. A std::runtime_error is the reader refusing bad input, as it must; its message has
// to contain `mustName` (the file or name given to the reader) so the user knows what was wrong.
// Any other exception breaks the contract.
void expectRefusalOnly(const std::string &mustName, const std::function<void()> &read);

}  // namespace tw::fuzz

#ifdef TW_LIBFUZZER
#define TW_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#else
#define TW_FUZZ_TARGET(name)                                                                          \
  static int twFuzz_##name(const uint8_t *data, size_t size);                                        \
  [[maybe_unused]] static const bool twFuzzRegistered_##name = ::tw::fuzz::registerHarness(#name, twFuzz_##name); \
  static int twFuzz_##name(const uint8_t *data, size_t size)
#endif
