#include "core/data/shard_set.h"

#include "core/config/sha256.h"
#include "core/data/json_text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tw::data {

namespace fs = std::filesystem;

namespace {

std::string shardName(const std::string &split, size_t number, const char *ext) {
  char name[64];
  std::snprintf(name, sizeof name, "%s-%06zu.%s", split.c_str(), number, ext);
  return name;
}

std::string keyOf(int64_t number) {
  char key[32];
  std::snprintf(key, sizeof key, "%09lld", static_cast<long long>(number));
  return key;
}

std::string jsonList(const std::vector<std::string> &items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + jsonString(items[i]);
  return out + "]";
}

std::string jsonList(const std::vector<int64_t> &items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + std::to_string(items[i]);
  return out + "]";
}

// A file of the set, created afresh ("x": O_EXCL): a link planted at its name in OUT is refused
// instead of written through (config/safe_path.h says why links matter).
void writeNewFile(const std::string &path, const std::string &bytes) {
  std::FILE *out = std::fopen(path.c_str(), "wbx");
  if (!out) throw std::runtime_error(path + ": cannot create (" + std::strerror(errno) + ")");
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  const int error = errno;
  if (std::fclose(out) != 0 || !written)
    throw std::runtime_error(path + ": write failed (" + std::strerror(written ? errno : error) + ")");
}

void writeIndex(const std::string &path, const std::vector<uint64_t> &offsets) {
  std::string bytes(offsets.size() * 8, '\0');
  for (size_t i = 0; i < offsets.size(); ++i)
    for (int b = 0; b < 8; ++b) bytes[i * 8 + b] = static_cast<char>((offsets[i] >> (8 * b)) & 0xff);
  writeNewFile(path, bytes);
}

// A manifest field, or an error naming the file and the field.
YAML::Node field(const YAML::Node &node, const std::string &name, const std::string &file, const std::string &path) {
  const YAML::Node value = node[name];
  if (!value) throw std::runtime_error(file + ": " + path + name + " is missing");
  return value;
}

template <typename T>
T as(const YAML::Node &node, const std::string &name, const std::string &file, const std::string &path) {
  try {
    return field(node, name, file, path).as<T>();
  } catch (const YAML::Exception &) {
    throw std::runtime_error(file + ": " + path + name + " has the wrong type");
  }
}

}  // namespace

std::string memberKey(const std::string &name) {
  const size_t slash = name.rfind('/');
  const size_t dot = name.find('.', slash == std::string::npos ? 0 : slash + 1);
  return dot == std::string::npos ? name : name.substr(0, dot);
}

std::string memberExtension(const std::string &name) {
  const size_t slash = name.rfind('/');
  const size_t dot = name.find('.', slash == std::string::npos ? 0 : slash + 1);
  return dot == std::string::npos ? std::string() : name.substr(dot + 1);
}

// ---- writing --------------------------------------------------------------------------------

struct ShardSetWriter::Open {
  std::unique_ptr<TarWriter> tar;
  ShardInfo info;
  std::vector<uint64_t> offsets;
};

ShardSetWriter::ShardSetWriter(const std::string &dir, ShardSetInfo info, ShardWriterOptions options)
    : m_dir(dir), m_options(std::move(options)) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir + ": exists and is not a folder");
    for (const auto &entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (name == kShardManifestName || entry.path().extension() == ".tar")
        throw std::runtime_error(dir + ": already holds a shard set (" + name + "); pack into an empty or new folder");
    }
  } else if (!fs::create_directories(dir, ec)) {
    throw std::runtime_error(dir + ": cannot create (" + ec.message() + ")");
  }
  m_manifest.info = std::move(info);
  m_manifest.createdBy = m_options.createdBy;
}

ShardSetWriter::~ShardSetWriter() {
  if (!m_finished) removeOutput();
}

void ShardSetWriter::removeOutput() {
  m_open.clear();  // closes the files (TarWriter's destructor) before they are removed
  std::error_code ec;
  for (const std::string &file : m_written) fs::remove(fs::path(m_dir) / file, ec);
  fs::remove(fs::path(m_dir) / (std::string(kShardManifestName) + ".tmp"), ec);
}

void ShardSetWriter::add(const std::string &split, const ShardExample &example) {
  if (split.empty() || !std::all_of(split.begin(), split.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
    throw std::logic_error("shard split names are lowercase letters: '" + split + "'");
  if (example.members.empty()) throw std::logic_error("an example without members");
  ShardSplit &s = m_manifest.splits[split];
  std::unique_ptr<Open> &open = m_open[split];
  if (!open) {
    open = std::make_unique<Open>();
    open->info.file = shardName(split, s.shards.size(), "tar");
    open->info.index = shardName(split, s.shards.size(), "idx");
    m_written.push_back(open->info.file);
    open->tar = std::make_unique<TarWriter>((fs::path(m_dir) / open->info.file).string());
  }
  const std::string key = keyOf(s.examples);
  uint64_t first = 0;
  for (size_t m = 0; m < example.members.size(); ++m) {
    const uint64_t at = open->tar->add(key + "." + example.members[m].first, example.members[m].second);
    if (m == 0) first = at;
  }
  open->offsets.push_back(first);
  ++open->info.examples;
  ++s.examples;
  if (m_manifest.info.task == "classification" && example.label >= 0) {
    if (s.classCounts.size() <= static_cast<size_t>(example.label)) s.classCounts.resize(example.label + 1, 0);
    ++s.classCounts[example.label];
  }
  if (open->tar->bytes() >= m_options.targetBytes) closeShard(split);
}

void ShardSetWriter::closeShard(const std::string &split) {
  auto found = m_open.find(split);
  if (found == m_open.end() || !found->second) return;
  Open &open = *found->second;
  open.info.sha256 = open.tar->finish();
  open.info.bytes = open.tar->bytes() + 2 * kTarBlock;
  m_written.push_back(open.info.index);
  writeIndex((fs::path(m_dir) / open.info.index).string(), open.offsets);
  m_closedBytes += open.info.bytes;
  m_manifest.splits[split].shards.push_back(open.info);
  m_open.erase(found);
}

uint64_t ShardSetWriter::bytesWritten() const {
  uint64_t bytes = m_closedBytes;
  for (const auto &entry : m_open)
    if (entry.second) bytes += entry.second->tar->bytes();
  return bytes;
}

ShardManifest ShardSetWriter::finish() {
  std::vector<std::string> open;
  for (const auto &entry : m_open) open.push_back(entry.first);
  for (const std::string &split : open) closeShard(split);
  for (auto &entry : m_manifest.splits)
    if (m_manifest.info.task == "classification")
      entry.second.classCounts.resize(static_cast<size_t>(m_manifest.info.classes), 0);
  const fs::path tmp = fs::path(m_dir) / (std::string(kShardManifestName) + ".tmp");
  std::error_code ec;
  fs::remove(tmp, ec);  // one a killed pack left
  writeNewFile(tmp.string(), manifestJson(m_manifest));
  fs::rename(tmp, fs::path(m_dir) / kShardManifestName, ec);
  if (ec) throw std::runtime_error(tmp.string() + ": cannot rename into place (" + ec.message() + ")");
  m_finished = true;
  return m_manifest;
}

// ---- the manifest ---------------------------------------------------------------------------

std::string manifestJson(const ShardManifest &m) {
  const ShardSetInfo &i = m.info;
  std::string out = "{\n";
  out += "  \"format\": \"torchwright-shards\",\n";
  out += "  \"version\": " + std::to_string(m.version) + ",\n";
  out += "  \"created_by\": " + jsonString(m.createdBy) + ",\n";
  out += "  \"layout\": \"webdataset\",\n";
  out += "  \"kind\": " + jsonString(i.kind) + ",\n";
  out += "  \"task\": " + jsonString(i.task) + ",\n";
  out += "  \"classes\": " + std::to_string(i.classes) + ",\n";
  out += "  \"class_names\": " + jsonList(i.classNames) + ",\n";
  out += "  \"feature_shape\": " + jsonList(i.featureShape) + ",\n";
  out += "  \"dtype\": " + jsonString(i.dtype) + ",\n";
  out += "  \"target_dim\": " + std::to_string(i.targetDim) + ",\n";
  out += "  \"feature_names\": " + jsonList(i.featureNames) + ",\n";
  out += "  \"scale_columns\": " + jsonList(std::vector<int64_t>(i.scaleColumns.begin(), i.scaleColumns.end())) + ",\n";
  out += "  \"source\": " + jsonString(i.source) + ",\n";
  out += "  \"source_kind\": " + jsonString(i.sourceKind) + ",\n";
  out += "  \"splits\": {";
  bool firstSplit = true;
  for (const auto &[name, split] : m.splits) {
    out += std::string(firstSplit ? "" : ",") + "\n    " + jsonString(name) + ": {\n";
    firstSplit = false;
    out += "      \"examples\": " + std::to_string(split.examples) + ",\n";
    out += "      \"class_counts\": " + jsonList(split.classCounts) + ",\n";
    out += "      \"shards\": [";
    for (size_t s = 0; s < split.shards.size(); ++s) {
      const ShardInfo &shard = split.shards[s];
      out += std::string(s ? "," : "") + "\n        {\"file\": " + jsonString(shard.file) +
             ", \"index\": " + jsonString(shard.index) + ", \"examples\": " + std::to_string(shard.examples) +
             ", \"bytes\": " + std::to_string(shard.bytes) + ", \"sha256\": " + jsonString(shard.sha256) + "}";
    }
    out += "\n      ]\n    }";
  }
  out += "\n  }\n}\n";
  return out;
}

ShardManifest readShardManifest(const std::string &dir) {
  const std::string file = (fs::path(dir) / kShardManifestName).string();
  std::error_code ec;
  if (!fs::exists(file, ec))
    throw std::runtime_error(file + ": missing (not a packed shard set; make one with `torchwright pack`)");
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::Exception &e) {
    throw std::runtime_error(file + ":" + std::to_string(e.mark.line + 1) + ": not valid JSON (" + e.msg + ")");
  }
  if (as<std::string>(root, "format", file, "") != "torchwright-shards")
    throw std::runtime_error(file + ": format is not \"torchwright-shards\"");
  ShardManifest m;
  m.version = as<int>(root, "version", file, "");
  if (m.version < 1 || m.version > kShardFormatVersion)
    throw std::runtime_error(file + ": version " + std::to_string(m.version) + " (this Torchwright reads 1 to " +
                             std::to_string(kShardFormatVersion) + ")");
  m.createdBy = as<std::string>(root, "created_by", file, "");
  ShardSetInfo &i = m.info;
  i.kind = as<std::string>(root, "kind", file, "");
  if (i.kind != "image" && i.kind != "array") throw std::runtime_error(file + ": kind is '" + i.kind + "' (image or array)");
  i.task = as<std::string>(root, "task", file, "");
  if (i.task != "classification" && i.task != "regression")
    throw std::runtime_error(file + ": task is '" + i.task + "' (classification or regression)");
  i.classes = as<int64_t>(root, "classes", file, "");
  i.classNames = as<std::vector<std::string>>(root, "class_names", file, "");
  i.featureShape = as<std::vector<int64_t>>(root, "feature_shape", file, "");
  i.dtype = as<std::string>(root, "dtype", file, "");
  i.targetDim = as<int64_t>(root, "target_dim", file, "");
  i.featureNames = as<std::vector<std::string>>(root, "feature_names", file, "");
  for (int64_t flag : as<std::vector<int64_t>>(root, "scale_columns", file, "")) i.scaleColumns.push_back(flag != 0);
  i.source = as<std::string>(root, "source", file, "");
  i.sourceKind = as<std::string>(root, "source_kind", file, "");
  const YAML::Node splits = field(root, "splits", file, "");
  if (!splits.IsMap() || splits.size() == 0) throw std::runtime_error(file + ": splits is empty");
  for (const auto &entry : splits) {
    const std::string name = entry.first.as<std::string>();
    const std::string path = "splits." + name + ".";
    ShardSplit split;
    split.examples = as<int64_t>(entry.second, "examples", file, path);
    split.classCounts = as<std::vector<int64_t>>(entry.second, "class_counts", file, path);
    const YAML::Node shards = field(entry.second, "shards", file, path);
    int64_t total = 0;
    for (size_t s = 0; s < shards.size(); ++s) {
      const std::string at = path + "shards[" + std::to_string(s) + "].";
      ShardInfo shard;
      shard.file = as<std::string>(shards[s], "file", file, at);
      shard.index = as<std::string>(shards[s], "index", file, at);
      shard.examples = as<int64_t>(shards[s], "examples", file, at);
      shard.bytes = as<uint64_t>(shards[s], "bytes", file, at);
      shard.sha256 = as<std::string>(shards[s], "sha256", file, at);
      if (shard.file.find('/') != std::string::npos || shard.index.find('/') != std::string::npos)
        throw std::runtime_error(file + ": " + at + "file names a path outside the set's folder");
      total += shard.examples;
      split.shards.push_back(shard);
    }
    if (total != split.examples)
      throw std::runtime_error(file + ": " + path + "examples is " + std::to_string(split.examples) +
                               ", its shards hold " + std::to_string(total));
    if (i.task == "classification") {
      int64_t counted = 0;
      for (int64_t c : split.classCounts) counted += c;
      if (counted != split.examples || static_cast<int64_t>(split.classCounts.size()) != i.classes)
        throw std::runtime_error(file + ": " + path + "class_counts do not add up to its " +
                                 std::to_string(split.examples) + " examples in " + std::to_string(i.classes) + " classes");
    }
    m.splits[name] = std::move(split);
  }
  return m;
}

void verifyShard(const std::string &dir, const ShardInfo &shard) {
  const std::string path = (fs::path(dir) / shard.file).string();
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw std::runtime_error(path + ": missing (listed in the manifest)");
  if (size != shard.bytes)
    throw std::runtime_error(path + ": " + std::to_string(size) + " bytes, the manifest says " +
                             std::to_string(shard.bytes) + (size < shard.bytes ? " (truncated)" : " (changed)"));
  if (config::fileSha256Hex(path) != shard.sha256)
    throw std::runtime_error(path + ": checksum mismatch: its SHA-256 is not the manifest's (the shard changed)");
  const std::vector<uint64_t> index = readShardIndex((fs::path(dir) / shard.index).string(), shard.examples);
  std::vector<uint64_t> firsts;
  std::string lastKey;
  for (const TarMember &member : listTar(path)) {
    const std::string key = memberKey(member.name);
    if (firsts.empty() || key != lastKey) firsts.push_back(member.headerOffset);
    lastKey = key;
  }
  if (firsts != index)
    throw std::runtime_error((fs::path(dir) / shard.index).string() + ": stale index: its offsets are not " + path +
                             "'s examples");
}

// ---- reading --------------------------------------------------------------------------------

std::vector<uint64_t> readShardIndex(const std::string &path, int64_t examples) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": missing (the shard's index; pack the set again)");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() != static_cast<size_t>(examples) * 8)
    throw std::runtime_error(path + ": stale index: " + std::to_string(bytes.size() / 8) + " entries for a shard of " +
                             std::to_string(examples) + " examples");
  std::vector<uint64_t> offsets(static_cast<size_t>(examples));
  for (size_t i = 0; i < offsets.size(); ++i)
    for (int b = 0; b < 8; ++b)
      offsets[i] |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i * 8 + b])) << (8 * b);
  return offsets;
}


ShardReader::ShardReader(const std::string &dir, const std::string &split) : m_dir(dir), m_manifest(readShardManifest(dir)) {
  auto found = m_manifest.splits.find(split);
  if (found == m_manifest.splits.end()) {
    std::string have;
    for (const auto &entry : m_manifest.splits) have += (have.empty() ? "" : ", ") + entry.first;
    throw std::runtime_error(dir + ": no split '" + split + "' (the set has " + have + ")");
  }
  m_split = found->second;
  int64_t first = 0;
  for (const ShardInfo &shard : m_split.shards) {
    m_firstExample.push_back(first);
    first += shard.examples;
    m_index.push_back(readShardIndex((fs::path(dir) / shard.index).string(), shard.examples));
    m_files.push_back(nullptr);
  }
}

ShardReader::~ShardReader() {
  for (std::FILE *file : m_files)
    if (file) std::fclose(file);
}

ShardExample ShardReader::read(int64_t i) {
  if (i < 0 || i >= m_split.examples)
    throw std::out_of_range(m_dir + ": example " + std::to_string(i) + " outside 0.." + std::to_string(m_split.examples - 1));
  const size_t s = static_cast<size_t>(std::upper_bound(m_firstExample.begin(), m_firstExample.end(), i) -
                                       m_firstExample.begin() - 1);
  const ShardInfo &shard = m_split.shards[s];
  const std::string path = (fs::path(m_dir) / shard.file).string();
  if (!m_files[s]) {
    m_files[s] = std::fopen(path.c_str(), "rb");
    if (!m_files[s]) throw std::runtime_error(path + ": cannot open (" + std::strerror(errno) + ")");
  }
  std::FILE *file = m_files[s];
  ShardExample example;
  uint64_t at = m_index[s][static_cast<size_t>(i - m_firstExample[s])];
  std::string key;
  while (at + kTarBlock <= shard.bytes) {
    unsigned char probe[kTarBlock];
    if (fseeko(file, static_cast<off_t>(at), SEEK_SET) != 0 || std::fread(probe, 1, kTarBlock, file) != kTarBlock)
      throw std::runtime_error(path + ": truncated at byte " + std::to_string(at));
    if (std::all_of(probe, probe + kTarBlock, [](unsigned char c) { return c == 0; })) break;
    const TarMember member = readTarHeader(file, path, at);
    const std::string memberKeyText = memberKey(member.name);
    if (key.empty()) key = memberKeyText;
    else if (memberKeyText != key) break;
    std::string bytes(member.size, '\0');
    if (std::fread(bytes.data(), 1, member.size, file) != member.size)
      throw std::runtime_error(path + ": truncated inside '" + member.name + "'");
    const std::string ext = memberExtension(member.name);
    if (ext == "cls") {
      try {
        example.label = std::stoll(bytes);
      } catch (const std::exception &) {
        throw std::runtime_error(path + ": '" + member.name + "' is not a class number");
      }
    }
    example.members.emplace_back(ext, std::move(bytes));
    at = member.dataOffset + (member.size + kTarBlock - 1) / kTarBlock * kTarBlock;
  }
  if (example.members.empty()) throw std::runtime_error(path + ": the index points at no example for #" + std::to_string(i));
  return example;
}

}  // namespace tw::data
