#include "core/engine/import/onnx_file.h"

#include "core/config/safe_path.h"
#include "core/engine/atomic_file.h"
#include "core/engine/import/import_error.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace tw::engine {

namespace fs = std::filesystem;

namespace {

struct ExternalData {
  std::string location;
  int64_t offset = 0;
  int64_t length = -1;  // -1: to the end of what the tensor needs
};

int64_t byteCount(const std::string &text, const std::string &file, const onnx::TensorProto &t, const char *key) {
  char *end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 0)
    throw ImportError(file + ": tensor '" + t.name() + "': external data " + key + " '" + text + "' is not a byte count");
  return value;
}

ExternalData externalData(const onnx::TensorProto &t, const std::string &file) {
  ExternalData d;
  for (const auto &entry : t.external_data()) {
    if (entry.key() == "location") d.location = entry.value();
    if (entry.key() == "offset") d.offset = byteCount(entry.value(), file, t, "offset");
    if (entry.key() == "length") d.length = byteCount(entry.value(), file, t, "length");
  }
  return d;
}

int64_t elementSize(int32_t type) {
  switch (type) {
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::INT64: return 8;
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::INT32: return 4;
    case onnx::TensorProto::FLOAT16: return 2;
    default: return 1;
  }
}

// The external file a tensor names, inside the model's folder by config::resolveInside's rule
// (no absolute path, no `..`, no link out, no hard link): a model file must not make the importer
// read what lies elsewhere on the machine.
fs::path insideFolder(const std::string &file, const fs::path &folder, const std::string &tensor,
                      const std::string &location) {
  const std::string what = file + ": tensor '" + tensor + "' keeps its data in '" + location + "'";
  const config::InsidePath inside = config::resolveInside(folder.string(), location, config::HardLinks::Refuse);
  if (!inside.problem.empty()) throw ImportError(what + ", which " + inside.problem);
  std::error_code ec;
  if (!fs::is_regular_file(inside.path, ec)) throw ImportError(what + ", which does not exist");
  return inside.path;
}

void loadExternal(onnx::TensorProto &t, const std::string &file, const fs::path &folder) {
  const ExternalData d = externalData(t, file);
  const fs::path source = insideFolder(file, folder, t.name(), d.location);
  int64_t needed = elementSize(t.data_type());
  for (int64_t dim : t.dims()) needed *= dim;
  const int64_t length = d.length >= 0 ? d.length : needed;
  if (length != needed) {
    throw ImportError(file + ": tensor '" + t.name() + "' names " + std::to_string(length) + " bytes of '" +
                      d.location + "' where its shape needs " + std::to_string(needed));
  }
  std::ifstream in(source, std::ios::binary);
  std::string bytes(static_cast<size_t>(length), '\0');
  in.seekg(d.offset);
  if (!in || !in.read(bytes.data(), length)) {
    throw ImportError(file + ": tensor '" + t.name() + "': '" + d.location + "' ends before offset " +
                      std::to_string(d.offset) + " + " + std::to_string(length) + " bytes");
  }
  t.set_raw_data(std::move(bytes));
  t.clear_external_data();
  t.set_data_location(onnx::TensorProto::DEFAULT);
}

void loadExternalData(onnx::ModelProto &model, const std::string &file) {
  std::error_code ec;
  const fs::path folder = fs::canonical(fs::absolute(file).parent_path(), ec);
  if (ec) throw ImportError(file + ": " + ec.message());
  for (onnx::TensorProto &t : *model.mutable_graph()->mutable_initializer())
    if (t.data_location() == onnx::TensorProto::EXTERNAL) loadExternal(t, file, folder);
  for (onnx::NodeProto &node : *model.mutable_graph()->mutable_node())
    for (onnx::AttributeProto &a : *node.mutable_attribute())
      if (a.has_t() && a.t().data_location() == onnx::TensorProto::EXTERNAL) loadExternal(*a.mutable_t(), file, folder);
}

}  // namespace

int64_t defaultOpset(const onnx::ModelProto &model) {
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  return 0;
}

void loadOnnxFile(const std::string &path, onnx::ModelProto &model) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw ImportError(path + ": no such file");
  if (fs::is_directory(path, ec)) throw ImportError(path + " is a folder, not an ONNX file");
  const std::string bytes = readWholeFile(path);
  if (bytes.empty()) throw ImportError(path + " is empty, not an ONNX model");
  if (!model.ParseFromString(bytes))
    throw ImportError(path + " is not an ONNX model, or it is truncated: its bytes do not parse as one");
  // Other protobuf messages, and some random bytes, parse too; a model has an IR version, an
  // opset and a graph with an output.
  if (model.ir_version() <= 0 || model.opset_import_size() == 0 || !model.has_graph() ||
      model.graph().output_size() == 0) {
    throw ImportError(path + " is not an ONNX model, or it is truncated: it has no " +
                      std::string(model.ir_version() <= 0     ? "IR version"
                                  : model.opset_import_size() == 0 ? "opset"
                                                                   : "graph with an output"));
  }
  const int64_t opset = defaultOpset(model);
  if (opset == 0) throw ImportError(path + " imports no opset of the default ONNX domain (ai.onnx)");
  if (opset < kMinImportOpset || opset > kMaxImportOpset) {
    throw ImportError(path + " uses opset " + std::to_string(opset) + "; the importer reads opsets " +
                      std::to_string(kMinImportOpset) + " to " + std::to_string(kMaxImportOpset) +
                      " (re-export it with opset_version in that range)");
  }
  loadExternalData(model, path);
}

// Every node of the default domain has as many inputs and outputs as its operator's schema
// allows, so the pattern finders may read input(1) of a MatMul (a file with one crashed the
// importer in protobuf: tests/fuzz/onnx_import).
void checkNodeArity(const onnx::ModelProto &model, const std::string &file, int64_t opset) {
  for (int i = 0; i < model.graph().node_size(); ++i) {
    const onnx::NodeProto &node = model.graph().node(i);
    if (!node.domain().empty() && node.domain() != "ai.onnx") continue;
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset));
    if (!schema) continue;
    const auto outside = [](int n, int low, int high) { return n < low || n > high; };
    const bool badInputs = outside(node.input_size(), schema->min_input(), schema->max_input());
    if (badInputs || outside(node.output_size(), schema->min_output(), schema->max_output())) {
      const std::string name = node.name().empty() ? "#" + std::to_string(i) : "'" + node.name() + "'";
      const int low = badInputs ? schema->min_input() : schema->min_output();
      const int high = badInputs ? schema->max_input() : schema->max_output();
      throw ImportError(file + ": node " + name + " (" + node.op_type() + ") has " +
                        std::to_string(badInputs ? node.input_size() : node.output_size()) +
                        (badInputs ? " inputs" : " outputs") + "; opset " + std::to_string(opset) + "'s " +
                        node.op_type() + " takes " + std::to_string(low) +
                        (high == low ? "" : high > 1000 ? " or more" : " to " + std::to_string(high)));
    }
  }
}

}  // namespace tw::engine
