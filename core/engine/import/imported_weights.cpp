#include "core/engine/import/imported_weights.h"

#include "core/engine/import/import_error.h"
#include "core/engine/model_builder.h"
#include "core/spec/analysis.h"

namespace tw::engine {

namespace {

std::string shapeText(const torch::Tensor &t) {
  std::string text = "[";
  for (int64_t i = 0; i < t.dim(); ++i) text += (i ? ", " : "") + std::to_string(t.size(i));
  return text + "]";
}

}  // namespace

std::shared_ptr<GraphModule> buildImportedModel(const ImportedModel &imported) {
  const spec::Analysis analysis = spec::analyzeOrThrow(imported.spec);
  std::shared_ptr<GraphModule> model = buildModel(imported.spec, analysis);
  torch::NoGradGuard noGrad;
  const auto children = model->named_children();
  size_t used = 0;
  for (const GraphModule::NodeModule &m : model->nodeModules()) {
    const std::string what = imported.file + ": node '" + m.nodeId + "'";
    auto given = imported.tensors.find(m.nodeId);
    const std::shared_ptr<torch::nn::Module> &module = children[m.moduleName];
    auto set = [&](const std::string &name, torch::Tensor &target) {
      if (given == imported.tensors.end() || !given->second.count(name))
        throw ImportError(what + ": the file gives no value for its tensor '" + name + "'");
      const torch::Tensor &value = given->second.at(name);
      if (value.sizes() != target.sizes())
        throw ImportError(what + ": its tensor '" + name + "' is " + shapeText(target) + ", the file's " + shapeText(value));
      target.copy_(value);
      ++used;
    };
    // Recursing: MultiheadAttention keeps out_proj in a child module ("out_proj.weight").
    for (auto &p : module->named_parameters(true)) set(p.key(), p.value());
    for (auto &b : module->named_buffers(true)) {
      const std::string &key = b.key();
      const std::string counter = "num_batches_tracked";
      if (key.size() < counter.size() || key.compare(key.size() - counter.size(), counter.size(), counter) != 0)
        set(key, b.value());
    }
  }
  size_t given = 0;
  for (const auto &[node, tensors] : imported.tensors) given += tensors.size();
  if (used != given)
    throw ImportError(imported.file + ": " + std::to_string(given - used) + " of the file's weight tensors have no place in the model");
  model->eval();
  return model;
}

}  // namespace tw::engine
