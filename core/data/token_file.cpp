#include "core/data/token_file.h"

#include "core/data/random.h"
#include "core/data/splits.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace tw::data {

namespace fs = std::filesystem;

namespace {

std::string withSeparators(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

struct OpenedFile {
  std::shared_ptr<const int> fd;
  std::string path;
  int64_t tokens = 0;
  int64_t mtimeNs = 0;
};

OpenedFile openTokens(const std::string &path, int bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open the token file (" + std::strerror(errno) + ")");
  auto owned = std::shared_ptr<const int>(new int(fd), [](const int *p) {
    ::close(*p);
    delete p;
  });
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw std::runtime_error(path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw std::runtime_error(path + ": not a file of token ids");
  const int64_t size = static_cast<int64_t>(st.st_size);
  if (size % bytes != 0)
    throw std::runtime_error(path + ": " + withSeparators(size) + " bytes is not a whole number of " +
                             std::to_string(bytes * 8) + "-bit tokens (data.token_dtype: uint" +
                             std::to_string(bytes * 8) + "); is it the other width, or cut short?");
  OpenedFile f;
  f.fd = std::move(owned);
  f.path = path;
  f.tokens = size / bytes;
  f.mtimeNs = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return f;
}

void requireWindow(const TokenWindows &w, const std::string &split, const std::string &why) {
  if (w.windows() > 0) return;
  throw std::runtime_error(w.path() + ": the " + split + " split holds " + withSeparators(w.tokens()) +
                           " tokens, fewer than one window of data.seq_len + 1 = " + std::to_string(w.seqLen() + 1) +
                           " (" + why + ")");
}

}  // namespace

int tokenBytes(const std::string &dtype) {
  if (dtype == "uint16") return 2;
  if (dtype == "uint32") return 4;
  throw std::runtime_error("data.token_dtype: '" + dtype + "' is not a token width (uint16 or uint32)");
}

TokenWindows::TokenWindows(std::shared_ptr<const int> fd, std::string path, int bytesPerToken, int64_t first,
                           int64_t count, int64_t seqLen)
    : m_fd(std::move(fd)), m_path(std::move(path)), m_bytes(bytesPerToken), m_first(first), m_count(count),
      m_seqLen(seqLen) {}

int64_t TokenWindows::windows() const {
  const int64_t all = m_count > m_seqLen ? (m_count - 1) / m_seqLen : 0;
  return m_limit > 0 ? std::min(all, m_limit) : all;
}

void TokenWindows::limit(int64_t n) { m_limit = n; }

int64_t TokenWindows::randomStart(uint64_t seed, int64_t position) const {
  const uint64_t starts = static_cast<uint64_t>(m_count - m_seqLen);  // every start with a whole window after it
  const uint64_t h = mixSeed(mixSeed(seed, kTokenWindowStream), static_cast<uint64_t>(position));
  // The high half of the 128-bit product: uniform over [0, starts) without modulo's bias.
  return static_cast<int64_t>((static_cast<unsigned __int128>(h) * starts) >> 64);
}

void TokenWindows::readAt(int64_t start, int64_t *out, int64_t limit) const {
  if (start < 0 || start + m_seqLen >= m_count)
    throw std::out_of_range(m_path + ": a window at token " + std::to_string(start) + " is outside the split");
  const int64_t first = m_first + start, n = m_seqLen + 1;
  std::vector<unsigned char> bytes(static_cast<size_t>(n * m_bytes));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::pread(*m_fd, bytes.data() + done, bytes.size() - done,
                                static_cast<off_t>(first * m_bytes + static_cast<int64_t>(done)));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error(m_path + ": reading tokens at " + withSeparators(first) + ": " + std::strerror(errno));
    if (got == 0)
      throw std::runtime_error(m_path + ": ends before token " + withSeparators(first + n) +
                               "; the file shrank after the run started");
    done += static_cast<size_t>(got);
  }
  for (int64_t i = 0; i < n; ++i) {
    const unsigned char *b = bytes.data() + i * m_bytes;
    const int64_t v = m_bytes == 2 ? int64_t(b[0]) | int64_t(b[1]) << 8
                                   : int64_t(b[0]) | int64_t(b[1]) << 8 | int64_t(b[2]) << 16 | int64_t(b[3]) << 24;
    if (limit > 0 && v >= limit)
      throw std::runtime_error(m_path + ": token " + withSeparators(first + i) + " is " + std::to_string(v) +
                               ", outside the model's vocabulary 0.." + std::to_string(limit - 1) +
                               " (the Embedding's num_embeddings)");
    out[i] = v;
  }
}

TokenFileSplits openTokenFile(const config::DataOptions &o) {
  if (o.path.empty())
    throw std::runtime_error("the token-file dataset needs data.path: a file of token ids, or a folder with train.bin");
  const int bytes = tokenBytes(o.tokenDtype);
  const int64_t seqLen = o.seqLen;
  TokenFileSplits s;
  Fingerprint fp;
  fp.addOption("source", std::string("token-file"));
  fp.addOption("token_dtype", o.tokenDtype);
  fp.addOption("seq_len", seqLen);
  fp.addOption("val_fraction", o.valFraction);
  fp.addOption("test_fraction", o.testFraction);
  fp.addOption("train_limit", o.trainLimit);
  fp.addOption("test_limit", o.testLimit);
  auto stamp = [&](const OpenedFile &f, const std::string &name) {
    // Names, sizes and times, as an image folder's: a run never reads every token up front.
    fp.addOption(name, std::to_string(f.tokens) + "@" + std::to_string(f.mtimeNs));
  };

  std::error_code ec;
  if (fs::is_directory(o.path, ec)) {
    const fs::path dir(o.path);
    if (!fs::exists(dir / "train.bin", ec))
      throw std::runtime_error(o.path + ": no train.bin (a token folder holds train.bin and optionally val.bin and test.bin)");
    const OpenedFile train = openTokens((dir / "train.bin").string(), bytes);
    stamp(train, "train.bin");
    const bool ownVal = fs::exists(dir / "val.bin", ec), ownTest = fs::exists(dir / "test.bin", ec);
    // What train.bin lends to the splits without a file of their own, as shares of it.
    const SplitSizes held = splitSizes(train.tokens, ownVal ? 0.0 : o.valFraction, ownTest ? 0.0 : o.testFraction);
    const int64_t trainCount = train.tokens - held.val - held.test;
    auto own = [&](const char *name) {
      const OpenedFile f = openTokens((dir / name).string(), bytes);
      stamp(f, name);
      return TokenWindows(f.fd, f.path, bytes, 0, f.tokens, seqLen);
    };
    s.val = ownVal ? own("val.bin") : TokenWindows(train.fd, train.path, bytes, trainCount, held.val, seqLen);
    s.test = ownTest ? own("test.bin")
                     : TokenWindows(train.fd, train.path, bytes, trainCount + held.val, held.test, seqLen);
    s.train = TokenWindows(train.fd, train.path, bytes, 0, trainCount, seqLen);
    s.source = o.path + " (" + withSeparators(train.tokens) + " " + o.tokenDtype + " tokens in train.bin)";
  } else {
    const OpenedFile f = openTokens(o.path, bytes);
    stamp(f, fs::path(o.path).filename().string());
    // The same rounding as every other source's splits (splits.h), over tokens: validation
    // then test at the end of the file, in file order.
    const SplitSizes held = splitSizes(f.tokens, o.valFraction, o.testFraction);
    const int64_t trainCount = f.tokens - held.val - held.test;
    s.train = TokenWindows(f.fd, f.path, bytes, 0, trainCount, seqLen);
    s.val = TokenWindows(f.fd, f.path, bytes, trainCount, held.val, seqLen);
    s.test = TokenWindows(f.fd, f.path, bytes, trainCount + held.val, held.test, seqLen);
    s.source = o.path + " (" + withSeparators(f.tokens) + " " + o.tokenDtype + " tokens)";
  }
  requireWindow(s.train, "training", "a longer file, or a shorter data.seq_len");
  if (o.valFraction > 0.0 || s.val.tokens() > 0)
    requireWindow(s.val, "validation", "raise data.val_fraction, or give a longer val.bin");
  if (o.testFraction > 0.0 || s.test.tokens() > 0)
    requireWindow(s.test, "test", "raise data.test_fraction, or give a longer test.bin");
  s.train.limit(o.trainLimit);
  s.test.limit(o.testLimit);
  s.fingerprint = fp.hexDigest();
  return s;
}

}  // namespace tw::data
