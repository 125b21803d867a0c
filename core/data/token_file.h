#pragma once
// A language model's data as its users keep it (nanoGPT's train.bin and val.bin): a flat file of
// token ids, uint16 or uint32, little-endian, with no header. It is never read whole: a split is
// a range of the file cut into windows of seq_len + 1 tokens, and window k is read when a batch
// asks for it. A window's first seq_len tokens are the input and its last seq_len the targets,
// each position's next token. The `token-file` source.
//
//   TokenFileSplits s = openTokenFile(options);    // data.path: a file, or a folder with train.bin
//   std::vector<int64_t> w(s.train.seqLen() + 1);
//   s.train.read(k, w.data(), /*limit=*/vocab);   // one pread; a token >= vocab names the file and offset
//
// Windows are read with pread, not through a mapping: a mapping counts every page it has touched
// in the process's resident memory, so an epoch over a file larger than memory would be charged
// to the process; pread leaves the caching to the kernel's page cache and the process holds one
// batch. Windows start every seq_len tokens (the last target of one window is the first input of
// the next), so a split of n tokens has (n - 1) / seq_len windows; the epoch's order shuffles them.

#include "core/config/run_config.h"
#include "core/data/fingerprint.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tw::data {

class TokenWindows {
 public:
  TokenWindows() = default;
  // Tokens [first, first + count) of `path`, already opened as `fd` (shared by the splits of one
  // file and closed with the last of them).
  TokenWindows(std::shared_ptr<const int> fd, std::string path, int bytesPerToken, int64_t first, int64_t count,
               int64_t seqLen);

  int64_t windows() const;
  int64_t seqLen() const { return m_seqLen; }
  int64_t firstToken() const { return m_first; }
  int64_t tokens() const { return m_count; }
  const std::string &path() const { return m_path; }
  // Keeps only the first `n` windows (data.train_limit, data.test_limit); 0 keeps all.
  void limit(int64_t n);

  // Window k's seq_len + 1 token ids into `out`. Throws std::runtime_error naming the file when
  // the read fails or comes back short (the file shrank), and the file, the token's offset and
  // its value when a token is not below `limit` (the Embedding's table; 0 = no check).
  void read(int64_t k, int64_t *out, int64_t limit = 0) const { readAt(k * m_seqLen, out, limit); }
  // The window that starts `start` tokens into the split (0 <= start <= tokens() - seq_len - 1).
  void readAt(int64_t start, int64_t *out, int64_t limit = 0) const;
  // data.windows_per_epoch: where random window `position` starts, drawn from (seed, position)
  // alone, uniform over every start in the split, not only multiples of seq_len (as nanoGPT draws
  // its batches).
  int64_t randomStart(uint64_t seed, int64_t position) const;

 private:
  std::shared_ptr<const int> m_fd;
  std::string m_path;
  int m_bytes = 2;
  int64_t m_first = 0, m_count = 0, m_seqLen = 1, m_limit = 0;
};

struct TokenFileSplits {
  TokenWindows train, val, test;
  std::string source;       // what was read, for the log: "corpus.bin (1,000,000 uint16 tokens)"
  std::string fingerprint;  // SHA-256 hex over each file's name, size and time, and the options
};

// data.path is a token file, whose tokens split in file order: training, then data.val_fraction
// of them for validation, then data.test_fraction for the test (rounded as splits.h rounds); or a
// folder with train.bin and optionally val.bin and test.bin, a missing one held out of
// train.bin's tail by its fraction. data.token_dtype
// says uint16 or uint32. Throws std::runtime_error naming the file when it is missing, its size
// is not a whole number of tokens, or a split is too short for one window of data.seq_len + 1.
TokenFileSplits openTokenFile(const config::DataOptions &options);

// The bytes per token for data.token_dtype ("uint16" 2, "uint32" 4).
int tokenBytes(const std::string &dtype);

}  // namespace tw::data
