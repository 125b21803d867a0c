#include "core/engine/checkpoint.h"

#include "core/config/sha256.h"
#include "core/config/zip_archive_check.h"
#include "core/engine/atomic_file.h"

#include <ATen/CPUGeneratorImpl.h>
#include <caffe2/serialize/inline_container.h>

#include <cctype>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace tw::engine {

namespace {

// A version in the file, so that a later format can refuse an older one with a clear message.
constexpr int64_t kFormat = 1;

void put(torch::serialize::OutputArchive &a, const std::string &key, int64_t v) {
  a.write(key, torch::tensor(v, torch::kLong));
}
void put(torch::serialize::OutputArchive &a, const std::string &key, double v) {
  a.write(key, torch::tensor(v, torch::kDouble));
}

int64_t getInt(torch::serialize::InputArchive &a, const std::string &key) {
  torch::Tensor t;
  a.read(key, t);
  return t.item<int64_t>();
}
double getDouble(torch::serialize::InputArchive &a, const std::string &key) {
  torch::Tensor t;
  a.read(key, t);
  return t.item<double>();
}

// The TorchScript source LibTorch writes for an archive of tensors and plain values: class
// headers, the parameter and buffer name lists, and attribute declarations whose types nest
// shallowly. Anything else is refused before LibTorch parses it: its type parser crashes on some
// malformed declarations (tests/fuzz/checkpoint), and a method would run.
bool identifier(const std::string &s, size_t &i) {
  const size_t start = i;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
  return i > start && !std::isdigit(static_cast<unsigned char>(s[start]));
}
bool dotted(const std::string &s, size_t &i) {
  if (!identifier(s, i)) return false;
  while (i < s.size() && s[i] == '.') {
    ++i;
    if (!identifier(s, i)) return false;
  }
  return true;
}
bool typeExpr(const std::string &s, size_t &i, int depth) {
  if (depth > 4 || !dotted(s, i)) return false;
  if (i >= s.size() || s[i] != '[') return true;
  ++i;
  for (;;) {
    if (!typeExpr(s, i, depth + 1)) return false;
    if (s.compare(i, 2, ", ") == 0) {
      i += 2;
    } else if (i < s.size() && s[i] == ']') {
      ++i;
      return true;
    } else {
      return false;
    }
  }
}
bool quoted(const std::string &s, size_t &i) {
  if (i >= s.size() || s[i] != '"') return false;
  const size_t close = s.find('"', i + 1);
  if (close == std::string::npos || s.find('\\', i) < close) return false;
  i = close + 1;
  return true;
}
bool rest(const std::string &s, size_t i, const char *text) { return s.compare(i, std::string::npos, text) == 0; }
bool declarationLine(const std::string &line) {
  if (line.empty()) return true;
  size_t i = 0;
  if (line.compare(0, 6, "class ") == 0) {
    i = 6;
    return identifier(line, i) && rest(line, i, "(Module):");
  }
  if (line.compare(0, 2, "  ") != 0) return false;
  for (const char *list : {"  __parameters__ = [", "  __buffers__ = ["}) {
    if (line.compare(0, std::strlen(list), list) != 0) continue;
    i = std::strlen(list);
    while (quoted(line, i)) {
      if (line.compare(i, 2, ", ") != 0) return false;
      i += 2;
    }
    return rest(line, i, "]");
  }
  if (line == "  __annotations__ = []") return true;
  if (constexpr std::string_view key = "  __annotations__["; line.compare(0, key.size(), key) == 0) {
    i = key.size();
    if (!quoted(line, i) || line.compare(i, 4, "] = ") != 0) return false;
    i += 4;
    return typeExpr(line, i, 0) && i == line.size();
  }
  i = 2;
  if (!identifier(line, i) || line.compare(i, 3, " : ") != 0) return false;
  i += 3;
  return typeExpr(line, i, 0) && i == line.size();
}

}  // namespace

void refuseArchiveCode(const std::string &bytes, const std::string &path) {
  // Not by its first bytes: LibTorch's reader finds an archive by its directory at the end, and
  // the fuzzer got damaged code past this check with "PK\x03\x4f" at the start.
  if (!config::looksLikeZip(bytes)) return;
  if (const std::string problem = config::zipMembersProblem(bytes); !problem.empty())
    throw std::runtime_error("'" + path + "' is damaged: " + problem);
  std::istringstream in(bytes);
  std::unique_ptr<caffe2::serialize::PyTorchStreamReader> zip;
  try {
    zip = std::make_unique<caffe2::serialize::PyTorchStreamReader>(&in);
  } catch (const c10::Error &) {
    return;  // not an archive LibTorch reads either
  }
  for (const std::string &name : zip->getAllRecords()) {
    const bool code = name.rfind("code/", 0) == 0 || name.find("/code/") != std::string::npos;
    if (!code || name.size() < 3 || name.compare(name.size() - 3, 3, ".py") != 0) continue;
    auto [data, size] = zip->getRecord(name);
    const std::string text(static_cast<const char *>(data.get()), size);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      const size_t first = line.find_first_not_of(" \t");
      if (first != std::string::npos && line.compare(first, 4, "def ") == 0)
        throw std::runtime_error("'" + path + "' holds TorchScript code (" + name + " defines a method), which loading "
                                 "would run; a checkpoint or weights file holds tensors only, so it is not loaded");
      if (!declarationLine(line))
        throw std::runtime_error("'" + path + "' holds TorchScript source other than the declarations saved tensors "
                                 "need (" + name + "), so it is not loaded");
    }
  }
}

void saveCheckpoint(const std::string &path, torch::nn::Module &model, torch::optim::Optimizer &optimizer,
                    const TrainProgress &p) {
  torch::serialize::OutputArchive archive;
  put(archive, "format", kFormat);
  torch::serialize::OutputArchive modelArchive, optimizerArchive;
  model.save(modelArchive);
  optimizer.save(optimizerArchive);
  archive.write("model", modelArchive);
  archive.write("optimizer", optimizerArchive);
  put(archive, "epoch", p.epoch);
  put(archive, "batch", p.batch);
  put(archive, "step", p.step);
  put(archive, "epoch_loss_sum", p.epochLossSum);
  put(archive, "epoch_seen", p.epochSeen);
  put(archive, "best", p.best);
  put(archive, "have_best", int64_t(p.haveBest));
  put(archive, "bad_epochs", p.badEpochs);
  put(archive, "best_epoch", p.bestEpoch);
  put(archive, "plateau_scale", p.plateau.scale);
  put(archive, "plateau_best", p.plateau.best);
  put(archive, "plateau_have_best", int64_t(p.plateau.haveBest));
  put(archive, "plateau_bad_epochs", p.plateau.badEpochs);
  put(archive, "loss_scale", p.lossScale);
  put(archive, "scale_good_steps", p.scaleGoodSteps);
  put(archive, "train_seconds", p.trainSeconds);
  put(archive, "trained_samples", p.trainedSamples);
  // Dropout and any other random op draw from the default generator: its state is part of the
  // position. Shuffling and augmentation use their own (seed, epoch, batch) streams.
  archive.write("rng_cpu", at::detail::getDefaultCPUGenerator().get_state());
  std::ostringstream bytes;
  archive.save_to(bytes);
  writeFileAtomically(path, bytes.str());
}

void saveModelWeights(const std::string &path, torch::nn::Module &model) {
  torch::serialize::OutputArchive archive, modelArchive;
  put(archive, "format", kFormat);
  model.save(modelArchive);
  archive.write("model", modelArchive);
  std::ostringstream bytes;
  archive.save_to(bytes);
  writeFileAtomically(path, bytes.str());
}

TrainProgress loadCheckpoint(const std::string &path, torch::nn::Module &model, torch::optim::Optimizer &optimizer) {
  TrainProgress p;
  try {
    const std::string whole = readWholeFile(path);
    refuseArchiveCode(whole, path);
    std::istringstream bytes(whole);
    torch::serialize::InputArchive archive;
    archive.load_from(bytes);
    if (getInt(archive, "format") != kFormat)
      throw std::runtime_error("written by another version of Torchwright");
    torch::serialize::InputArchive modelArchive, optimizerArchive;
    archive.read("model", modelArchive);
    archive.read("optimizer", optimizerArchive);
    model.load(modelArchive);
    optimizer.load(optimizerArchive);
    p.epoch = getInt(archive, "epoch");
    p.batch = getInt(archive, "batch");
    p.step = getInt(archive, "step");
    p.epochLossSum = getDouble(archive, "epoch_loss_sum");
    p.epochSeen = getInt(archive, "epoch_seen");
    p.best = getDouble(archive, "best");
    p.haveBest = getInt(archive, "have_best") != 0;
    p.badEpochs = getInt(archive, "bad_epochs");
    p.bestEpoch = getInt(archive, "best_epoch");
    p.plateau.scale = getDouble(archive, "plateau_scale");
    p.plateau.best = getDouble(archive, "plateau_best");
    p.plateau.haveBest = getInt(archive, "plateau_have_best") != 0;
    p.plateau.badEpochs = getInt(archive, "plateau_bad_epochs");
    p.lossScale = getDouble(archive, "loss_scale");
    p.scaleGoodSteps = getInt(archive, "scale_good_steps");
    p.trainSeconds = getDouble(archive, "train_seconds");
    p.trainedSamples = getInt(archive, "trained_samples");
    torch::Tensor rng;
    archive.read("rng_cpu", rng);
    at::Generator generator = at::detail::getDefaultCPUGenerator();  // a handle on the global one
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_state(rng);
  } catch (const c10::Error &e) {
    throw std::runtime_error("checkpoint '" + path + "': " + e.what_without_backtrace());
  } catch (const std::exception &e) {
    throw std::runtime_error("checkpoint '" + path + "': " + e.what());
  }
  return p;
}

std::pair<int64_t, int64_t> checkpointPosition(const std::string &path) {
  try {
    const std::string whole = readWholeFile(path);
    refuseArchiveCode(whole, path);
    std::istringstream bytes(whole);
    torch::serialize::InputArchive archive;
    archive.load_from(bytes, torch::Device(torch::kCPU));
    if (getInt(archive, "format") != kFormat) throw std::runtime_error("written by another version of Torchwright");
    return {getInt(archive, "epoch"), getInt(archive, "batch")};
  } catch (const c10::Error &e) {
    throw std::runtime_error("checkpoint '" + path + "': " + e.what_without_backtrace());
  } catch (const std::exception &e) {
    throw std::runtime_error("checkpoint '" + path + "': " + e.what());
  }
}

int64_t loadCheckpointWeights(const std::string &path, torch::nn::Module &model) {
  try {
    const std::string whole = readWholeFile(path);
    refuseArchiveCode(whole, path);
    std::istringstream bytes(whole);
    torch::serialize::InputArchive archive;
    // A run trained on a GPU is exported and predicted on the CPU: its tensors load there.
    archive.load_from(bytes, torch::Device(torch::kCPU));
    if (getInt(archive, "format") != kFormat)
      throw std::runtime_error("written by another version of Torchwright");
    torch::serialize::InputArchive modelArchive;
    archive.read("model", modelArchive);
    model.load(modelArchive);
    return getInt(archive, "epoch");
  } catch (const c10::Error &e) {
    throw std::runtime_error("checkpoint '" + path + "': " + e.what_without_backtrace());
  } catch (const std::exception &e) {
    throw std::runtime_error("checkpoint '" + path + "': " + e.what());
  }
}

std::string weightsDigest(const torch::nn::Module &model) {
  config::Sha256 hash;
  auto add = [&](const std::string &name, const torch::Tensor &t) {
    const torch::Tensor c = t.detach().to(torch::kCPU).contiguous();
    hash.update(name);
    for (int64_t d : c.sizes()) hash.update(&d, sizeof d);
    hash.update(c.data_ptr(), static_cast<size_t>(c.numel()) * c.element_size());
  };
  for (const auto &item : model.named_parameters()) add("p:" + item.key(), item.value());
  for (const auto &item : model.named_buffers()) add("b:" + item.key(), item.value());
  return hash.hexDigest();
}

}  // namespace tw::engine
