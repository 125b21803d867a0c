#include "core/data/csv_rows.h"

#include "core/data/csv_parser.h"
#include "core/data/parallel_for.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace tw::data {

namespace {

int64_t mtimeNs(const struct stat &st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

}  // namespace

CsvRows::CsvRows(std::string path, char delimiter, CsvLayout layout, std::vector<uint64_t> blockOffsets,
                 uint64_t endOffset, int64_t count)
    : m_path(std::move(path)), m_delimiter(delimiter), m_layout(std::move(layout)),
      m_offsets(std::move(blockOffsets)), m_end(endOffset), m_count(count) {
  if (m_offsets.size() != static_cast<size_t>((m_count + kCsvBlockRows - 1) / kCsvBlockRows))
    throw std::logic_error(m_path + ": the row index does not match the row count");
  m_fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (m_fd < 0) throw std::runtime_error(m_path + ": cannot open (" + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(m_fd, &st) != 0) {
    const int error = errno;
    ::close(m_fd);
    throw std::runtime_error(m_path + ": " + std::strerror(error));
  }
  m_size = static_cast<int64_t>(st.st_size);
  m_mtimeNs = mtimeNs(st);
}

CsvRows::~CsvRows() {
  if (m_fd >= 0) ::close(m_fd);
}

void CsvRows::checkUnchanged() const {
  // The scan's index points into the file as it was; a file rewritten since would be read as other
  // rows without a word, so a different size or time stops the read (the run names the file).
  struct stat st {};
  if (::stat(m_path.c_str(), &st) != 0)
    throw std::runtime_error(m_path + ": gone since the run opened it (" + std::strerror(errno) + ")");
  if (static_cast<int64_t>(st.st_size) != m_size || mtimeNs(st) != m_mtimeNs)
    throw std::runtime_error(m_path + ": changed since the run opened it (size or modification time differ); "
                             "start the run again to read it anew");
}

std::runtime_error CsvRows::changed(uint64_t byte, int64_t row, const std::string &what) const {
  // Where a message can point: line numbers are not kept (they would double the index), the
  // byte offset of the row's block is.
  return std::runtime_error(m_path + ": " + what + " at byte " + std::to_string(byte) + " (row " +
                            std::to_string(row + 1) + "): the file changed since the run opened it");
}

void CsvRows::readBlocks(int64_t first, int64_t last, std::string &bytes) const {
  const uint64_t begin = m_offsets[static_cast<size_t>(first)];
  const uint64_t end = static_cast<size_t>(last) < m_offsets.size() ? m_offsets[static_cast<size_t>(last)] : m_end;
  bytes.resize(static_cast<size_t>(end - begin));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::pread(m_fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(begin + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw changed(begin, first * kCsvBlockRows, std::strerror(errno));
    if (got == 0) throw changed(begin, first * kCsvBlockRows, "the file ends early");
    done += static_cast<size_t>(got);
  }
  m_bytesRead.fetch_add(done, std::memory_order_relaxed);
}

void CsvRows::readOne(int64_t row, float *out, std::string &block, std::vector<std::string> &fields) const {
  if (row < 0 || row >= m_count)
    throw std::out_of_range(m_path + ": row " + std::to_string(row) + " of " + std::to_string(m_count));
  const int64_t b = row / kCsvBlockRows;
  readBlocks(b, b + 1, block);
  const uint64_t at = m_offsets[static_cast<size_t>(b)];
  CsvRecordReader records(block, m_path, m_delimiter, 0);
  int64_t skip = row % kCsvBlockRows;
  while (records.next(fields)) {
    if (fields.size() != m_layout.fieldCount()) throw changed(at, row, "a row of another width");
    if (m_layout.drops(fields)) continue;
    if (skip-- > 0) continue;
    if (!m_layout.encode(fields, out)) throw changed(at, row, "a value the scan did not see");
    return;
  }
  throw changed(at, row, "fewer rows");
}

void CsvRows::readRange(int64_t begin, int64_t end, float *out, int workers) const {
  if (begin < 0 || end > m_count || begin > end)
    throw std::out_of_range(m_path + ": rows " + std::to_string(begin) + ".." + std::to_string(end) + " of " +
                            std::to_string(m_count));
  if (begin == end) return;
  checkUnchanged();
  const int64_t w = width();
  const int64_t firstBlock = begin / kCsvBlockRows, blocks = (end + kCsvBlockRows - 1) / kCsvBlockRows - firstBlock;
  const int threads = decodeWorkers(workers);
  // Each thread one contiguous run of blocks: one pread, then its records in order.
  const int64_t runs = std::min<int64_t>(blocks, threads);
  parallelFor(runs, threads, [&](int64_t t) {
    const int64_t b0 = firstBlock + blocks * t / runs, b1 = firstBlock + blocks * (t + 1) / runs;
    std::string bytes;
    std::vector<std::string> fields;
    readBlocks(b0, b1, bytes);
    const uint64_t at = m_offsets[static_cast<size_t>(b0)];
    CsvRecordReader records(bytes, m_path, m_delimiter, 0);
    int64_t row = b0 * kCsvBlockRows;
    const int64_t last = std::min(end, b1 * kCsvBlockRows);
    while (row < last && records.next(fields)) {
      if (fields.size() != m_layout.fieldCount()) throw changed(at, row, "a row of another width");
      if (m_layout.drops(fields)) continue;
      if (row >= begin && !m_layout.encode(fields, out + (row - begin) * w))
        throw changed(at, row, "a value the scan did not see");
      ++row;
    }
    if (row < last) throw changed(at, row, "fewer rows");
  });
}

void CsvRows::read(const int64_t *rows, int64_t n, float *out, int workers) const {
  checkUnchanged();
  const int64_t w = width();
  const int threads = decodeWorkers(workers);
  // Rows go to threads in contiguous runs, so each thread keeps one buffer for its blocks.
  const int64_t runs = std::min<int64_t>(n, threads);
  parallelFor(runs, threads, [&](int64_t t) {
    std::string block;
    std::vector<std::string> fields;
    for (int64_t k = n * t / runs; k < n * (t + 1) / runs; ++k) readOne(rows[k], out + k * w, block, fields);
  });
}

void CsvRows::addToFingerprint(Fingerprint &fp) const {
  fp.addOption("store", std::string("csv-rows"));
  fp.addOption(std::filesystem::path(m_path).filename().string(), std::to_string(m_size) + "@" + std::to_string(m_mtimeNs));
  fp.addOption("rows", m_count);
  fp.addOption("width", width());
}

std::shared_ptr<const CsvRows> openCsvRows(const std::string &path, char delimiter, CsvScan &scan) {
  return std::make_shared<const CsvRows>(path, delimiter, std::move(scan.layout), std::move(scan.blockOffsets),
                                         scan.endOffset, scan.table.examples.count);
}

}  // namespace tw::data
