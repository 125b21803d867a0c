#include "core/engine/weight_transfer.h"

#include "core/data/json_text.h"
#include "core/engine/atomic_file.h"
#include "core/engine/checkpoint.h"
#include "core/engine/state_dict_reader.h"


#include <map>
#include <sstream>
#include <stdexcept>

namespace tw::engine {

namespace {

// A Torchwright checkpoint keeps the model as nested archives, one per submodule; their tensors
// are parameters or buffers, which the archive makes us ask for by kind.
void collectArchive(torch::serialize::InputArchive &archive, const std::string &prefix, NamedTensors &out) {
  for (const std::string &key : archive.keys()) {
    torch::Tensor tensor;
    bool found = false;
    for (const bool buffer : {false, true}) {
      try {
        found = archive.try_read(key, tensor, buffer);
      } catch (const c10::Error &) {
        found = false;
      }
      if (found) break;
    }
    if (found) {
      out.emplace_back(prefix + key, tensor);
      continue;
    }
    torch::serialize::InputArchive child;
    if (archive.try_read(key, child)) collectArchive(child, prefix + key + ".", out);
  }
}

bool readCheckpoint(const std::string &bytes, const std::string &path, NamedTensors &out) {
  refuseArchiveCode(bytes, path);
  torch::serialize::InputArchive archive;
  try {
    std::istringstream in(bytes);
    archive.load_from(in, torch::Device(torch::kCPU));
  } catch (const c10::Error &) {
    return false;  // not a TorchScript archive: perhaps a torch.save file
  }
  torch::serialize::InputArchive model;
  if (!archive.try_read("model", model)) return false;
  collectArchive(model, "", out);
  return true;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string jsonShape(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

const char *kindName(WeightMatch::Kind kind) {
  switch (kind) {
    case WeightMatch::Kind::Taken: return "taken";
    case WeightMatch::Kind::ShapeMismatch: return "shape mismatch";
    case WeightMatch::Kind::Missing: return "missing";
    case WeightMatch::Kind::Unexpected: return "unexpected";
  }
  return "";
}

// The model's tensors by the names a file may use for them: node-id form first.
struct ModelTensor {
  std::string nodeName, moduleName;
  torch::Tensor tensor;
  bool frozen = false;
};

std::vector<ModelTensor> modelTensors(const GraphModule &model) {
  std::map<std::string, GraphModule::NodeModule> byModule;
  for (const GraphModule::NodeModule &m : model.nodeModules()) byModule[m.moduleName] = m;
  std::vector<ModelTensor> out;
  auto add = [&](const std::string &name, const torch::Tensor &tensor) {
    ModelTensor t{name, name, tensor, false};
    const size_t dot = name.find('.');
    if (auto it = byModule.find(name.substr(0, dot)); it != byModule.end() && dot != std::string::npos) {
      t.nodeName = it->second.nodeId + name.substr(dot);
      t.frozen = !it->second.trainable;
    }
    out.push_back(std::move(t));
  };
  for (const auto &item : model.named_parameters()) add(item.key(), item.value());
  for (const auto &item : model.named_buffers()) add(item.key(), item.value());
  return out;
}

}  // namespace

NamedTensors readWeightsFile(const std::string &path) {
  NamedTensors out;
  if (!readCheckpoint(readWholeFile(path), path, out)) {
    try {
      out = readStateDict(path);
    } catch (const std::runtime_error &e) {
      throw std::runtime_error(std::string(e.what()) + "; it is neither a Torchwright checkpoint nor a PyTorch state_dict "
                               "saved with torch.save");
    }
  }
  if (out.empty()) throw std::runtime_error("weights file " + path + ": holds no tensors");
  return out;
}

int64_t WeightTransfer::count(WeightMatch::Kind kind) const {
  int64_t n = 0;
  for (const WeightMatch &row : rows) n += row.kind == kind;
  return n;
}

std::string WeightTransfer::table(const std::string &source) const {
  const int64_t model = static_cast<int64_t>(rows.size()) - count(WeightMatch::Kind::Unexpected);
  std::string text = "weights from " + source + ": " + std::to_string(count(WeightMatch::Kind::Taken)) + " of " +
                     std::to_string(model) + " tensors taken, " + std::to_string(count(WeightMatch::Kind::ShapeMismatch)) +
                     " of another shape, " + std::to_string(count(WeightMatch::Kind::Missing)) + " not in the file, " +
                     std::to_string(count(WeightMatch::Kind::Unexpected)) + " in the file unused\n";
  for (const WeightMatch &row : rows) {
    switch (row.kind) {
      case WeightMatch::Kind::Taken: continue;
      case WeightMatch::Kind::ShapeMismatch:
        text += "  shape mismatch  " + row.name + ": model " + shapeText(row.modelShape) + ", file " +
                shapeText(row.fileShape) + " (starts from the seed)";
        break;
      case WeightMatch::Kind::Missing:
        text += "  missing         " + row.name + " " + shapeText(row.modelShape) + " (starts from the seed)";
        break;
      case WeightMatch::Kind::Unexpected:
        text += "  unexpected      " + row.name + " " + shapeText(row.fileShape) + " (not used)";
        break;
    }
    // A frozen node that did not get its weights would train nothing and keep random values.
    if (row.frozen) text += "; its node is frozen (trainable: false) and stays at these values";
    text += "\n";
  }
  return text;
}

std::string WeightTransfer::json(const std::string &source, const std::string &file) const {
  std::string text = "{\"init_from\":" + data::jsonString(source) + ",\"file\":" + data::jsonString(file) + ",\"counts\":{";
  const WeightMatch::Kind kinds[] = {WeightMatch::Kind::Taken, WeightMatch::Kind::ShapeMismatch,
                                     WeightMatch::Kind::Missing, WeightMatch::Kind::Unexpected};
  for (size_t i = 0; i < 4; ++i)
    text += std::string(i ? "," : "") + data::jsonString(kindName(kinds[i])) + ":" + std::to_string(count(kinds[i]));
  text += "},\"tensors\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const WeightMatch &row = rows[i];
    text += std::string(i ? "," : "") + "{\"name\":" + data::jsonString(row.name) + ",\"status\":" +
            data::jsonString(kindName(row.kind));
    if (!row.fileName.empty()) text += ",\"file_name\":" + data::jsonString(row.fileName);
    if (row.kind != WeightMatch::Kind::Unexpected) text += ",\"model_shape\":" + jsonShape(row.modelShape);
    if (row.kind != WeightMatch::Kind::Missing) text += ",\"file_shape\":" + jsonShape(row.fileShape);
    if (row.frozen) text += ",\"frozen\":true";
    text += "}";
  }
  return text + "]}\n";
}

WeightTransfer planWeightTransfer(const GraphModule &model, const NamedTensors &file) {
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < file.size(); ++i) byName.emplace(file[i].first, i);
  std::vector<bool> used(file.size(), false);
  WeightTransfer plan;
  for (const ModelTensor &t : modelTensors(model)) {
    WeightMatch row;
    row.name = t.nodeName;
    row.modelShape = t.tensor.sizes().vec();
    row.frozen = t.frozen;
    auto it = byName.find(t.nodeName);
    if (it == byName.end()) it = byName.find(t.moduleName);
    if (it == byName.end()) {
      row.kind = WeightMatch::Kind::Missing;
    } else {
      used[it->second] = true;
      row.fileName = it->first;
      row.fileShape = file[it->second].second.sizes().vec();
      row.kind = row.fileShape == row.modelShape ? WeightMatch::Kind::Taken : WeightMatch::Kind::ShapeMismatch;
      if (row.kind == WeightMatch::Kind::Taken) row.frozen = false;  // it has its weights
    }
    plan.rows.push_back(std::move(row));
  }
  for (size_t i = 0; i < file.size(); ++i) {
    if (used[i]) continue;
    WeightMatch row;
    row.kind = WeightMatch::Kind::Unexpected;
    row.name = row.fileName = file[i].first;
    row.fileShape = file[i].second.sizes().vec();
    plan.rows.push_back(std::move(row));
  }
  return plan;
}

void applyWeightTransfer(GraphModule &model, const NamedTensors &file, const WeightTransfer &plan,
                         const std::string &source) {
  if (plan.count(WeightMatch::Kind::Taken) == 0) {
    auto names = [](auto begin, auto end, auto nameOf) {
      std::string text;
      int shown = 0;
      for (auto it = begin; it != end && shown < 4; ++it, ++shown) text += (shown ? ", " : "") + nameOf(*it);
      return text;
    };
    std::vector<WeightMatch> modelRows;
    for (const WeightMatch &row : plan.rows)
      if (row.kind != WeightMatch::Kind::Unexpected) modelRows.push_back(row);
    throw std::runtime_error(
        "train.init_from " + source + ": none of the model's " + std::to_string(modelRows.size()) +
        " tensors matches the file's " + std::to_string(file.size()) + " by name and shape; is it another "
        "architecture? The file has " + names(file.begin(), file.end(), [](const auto &t) { return t.first; }) +
        "...; the model has " + names(modelRows.begin(), modelRows.end(), [](const auto &r) { return r.name; }) + "...");
  }
  std::map<std::string, torch::Tensor> byName(file.begin(), file.end());
  const std::vector<ModelTensor> tensors = modelTensors(model);
  torch::NoGradGuard noGrad;
  for (size_t i = 0; i < tensors.size() && i < plan.rows.size(); ++i) {
    const WeightMatch &row = plan.rows[i];
    if (row.kind != WeightMatch::Kind::Taken) continue;
    torch::Tensor target = tensors[i].tensor;
    target.copy_(byName.at(row.fileName));
  }
}

}  // namespace tw::engine
