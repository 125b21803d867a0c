#include "core/engine/export/onnx_exporter.h"

#include "core/engine/export/export_error.h"
#include "core/engine/export/onnx_emit.h"
#include "core/engine/op_builders.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <map>

#ifndef TW_VERSION
#define TW_VERSION "0"
#endif

namespace tw::engine {

namespace {

void describeValue(onnx::ValueInfoProto *value, const std::string &name, int elemType,
                   const std::vector<int64_t> &sample) {
  value->set_name(name);
  onnx::TypeProto_Tensor *tensor = value->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elemType);
  onnx::TensorShapeProto *shape = tensor->mutable_shape();
  shape->add_dim()->set_dim_param("batch");
  for (int64_t d : sample) shape->add_dim()->set_dim_value(d);
}

bool integerInput(const spec::NodeInfo &node) {
  return spec::has(node.params, "dtype") && spec::getString(node.params, "dtype") == "int64";
}

// The output's element type, from running the model once on zeros (an index model's Permute
// passes int64 through; everything else computes in float).
int outputType(const ExportSource &source) {
  torch::NoGradGuard noGrad;
  std::vector<torch::Tensor> inputs;
  for (const std::string &id : source.module->inputIds()) {
    const spec::NodeInfo *node = source.analysis.find(id);
    std::vector<int64_t> shape{1};
    shape.insert(shape.end(), node->outputShape.begin(), node->outputShape.end());
    inputs.push_back(torch::zeros(shape, integerInput(*node) ? torch::kLong : torch::kFloat));
  }
  return source.module->forward(inputs).scalar_type() == torch::kLong ? onnx::TensorProto::INT64
                                                                     : onnx::TensorProto::FLOAT;
}

std::string jsonUnquoted(const std::string &json) {
  if (json.size() >= 2 && json.front() == '"' && json.back() == '"') return json.substr(1, json.size() - 2);
  return json;
}

}  // namespace

std::string exportOnnx(const ExportSource &source, const ExportOptions &options) {
  if (options.opset < kMinOnnxOpset || options.opset > kMaxOnnxOpset) {
    throw ExportError("opset " + std::to_string(options.opset) + " is outside the supported range " +
                      std::to_string(kMinOnnxOpset) + " to " + std::to_string(kMaxOnnxOpset));
  }
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("Torchwright");
  model.set_producer_version(TW_VERSION);
  model.set_model_version(1);
  onnx::OperatorSetIdProto *opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(options.opset);
  onnx::GraphProto *graph = model.mutable_graph();
  graph->set_name(source.spec.name.empty() ? "model" : source.spec.name);

  std::map<std::string, torch::nn::Module *> modules;
  for (const auto &item : source.module->named_children()) modules[item.key()] = item.value().get();

  const bool bake = bakesPreprocessing(source, options);
  std::map<std::string, std::string> value;  // node id -> value name
  size_t inputIndex = 0;
  for (const spec::NodeInfo &info : source.analysis.nodes) {
    const spec::Node *node = source.spec.find(info.id);
    const OpEntry *entry = findOp(info.op);
    if (!entry || !entry->onnx) throwNodeError(info.id, info.op, "ONNX export has no emitter for this op");

    std::vector<std::string> inputs;
    if (info.op == "Input") {
      const std::string &id = source.module->inputIds().at(inputIndex++);
      describeValue(graph->add_input(), id, integerInput(info) ? onnx::TensorProto::INT64 : onnx::TensorProto::FLOAT,
                    info.outputShape);
      inputs.push_back(id);
    }
    for (const std::string &in : node->inputs) inputs.push_back(value.at(in));

    const std::string moduleName = source.module->moduleName(info.id);
    torch::nn::Module *m = moduleName.empty() ? nullptr : modules.at(moduleName);
    auto tensorOf = [m](const std::string &name) -> torch::Tensor {
      if (!m) return {};
      for (const auto &p : m->named_parameters(true))
        if (p.key() == name) return p.value();
      for (const auto &b : m->named_buffers(true))
        if (b.key() == name) return b.value();
      return {};
    };
    OnnxEmit emit(info, inputs, options.opset, *graph, tensorOf, options.int8);
    entry->onnx(emit);
    if (!emit.finished()) throwNodeError(info.id, info.op, "its ONNX emitter wrote no value");
    value[info.id] = emit.output();

    if (bake && info.op == "Input") {
      const auto [mean, stdev] = standardization(*source.preprocessing);
      const std::string centred = emit.op("Sub", {emit.output(), emit.constant("mean", mean)}, "centred");
      value[info.id] = emit.op("Div", {centred, emit.constant("std", stdev)}, "standardized");
    }
  }

  // The graph's output carries the output node's id, whatever value the emitters ended on.
  const std::string &outputId = source.analysis.output;
  std::string outputValue = value.at(outputId);
  if (outputValue != outputId) {
    onnx::NodeProto *identity = graph->add_node();
    identity->set_op_type("Identity");
    identity->set_name(outputId + "/output");
    identity->add_input(outputValue);
    identity->add_output(outputId);
  }
  describeValue(graph->add_output(), outputId, outputType(source), source.analysis.find(outputId)->outputShape);

  auto meta = [&](const std::string &key, const std::string &text) {
    onnx::StringStringEntryProto *p = model.add_metadata_props();
    p->set_key(key);
    p->set_value(text);
  };
  for (const auto &[key, json] : source.metadata) meta(key, jsonUnquoted(json));
  meta("preprocessing_baked", bake ? "true" : "false");
  meta("int8", options.int8 ? "true" : "false");
  if (source.preprocessing) {
    std::string names = "[";
    for (size_t i = 0; i < source.preprocessing->classNames.size(); ++i)
      names += std::string(i ? ", " : "") + "\"" + source.preprocessing->classNames[i] + "\"";
    meta("class_names", names + "]");
    meta("preprocessing", source.preprocessingJson);
  }
  meta("torchwright", exportMetadataJson(source, options, "onnx"));

  std::string bytes;
  if (!model.SerializeToString(&bytes)) throw ExportError("the ONNX model could not be serialised");
  return bytes;
}

OnnxCheck checkOnnx(const std::string &bytes, const std::vector<int64_t> &expectedOutput) {
  OnnxCheck check;
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) {
    check.problem = "the file is not an ONNX model";
    return check;
  }
  try {
    onnx::checker::check_model(model);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions{/*check_type=*/true, /*error_mode=*/1, false});
  } catch (const std::exception &e) {
    check.problem = e.what();
    return check;
  }
  const onnx::ValueInfoProto &out = model.graph().output(0);
  for (const auto &dim : out.type().tensor_type().shape().dim())
    check.outputShape.push_back(dim.has_dim_value() ? std::to_string(dim.dim_value()) : dim.dim_param());
  std::vector<std::string> expected{"batch"};
  for (int64_t d : expectedOutput) expected.push_back(std::to_string(d));
  if (check.outputShape != expected) {
    std::string got, want;
    for (const auto &d : check.outputShape) got += (got.empty() ? "" : ", ") + d;
    for (const auto &d : expected) want += (want.empty() ? "" : ", ") + d;
    check.problem = "shape inference gives the output [" + got + "], the model computes [" + want + "]";
  }
  return check;
}

}  // namespace tw::engine
