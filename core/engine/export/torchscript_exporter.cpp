#include "core/engine/export/torchscript_exporter.h"

#include "core/engine/export/export_error.h"
#include "core/engine/export/torchscript_emit.h"
#include "core/engine/op_builders.h"

#include <torch/script.h>

#include <map>
#include <set>
#include <sstream>

namespace tw::engine {

namespace {

// A name TorchScript accepts as a variable or attribute: letters, digits and '_', not starting
// with a digit, not a keyword.
std::string identifier(const std::string &text) {
  static const std::set<std::string> keywords = {
      "False", "None",   "True",  "and",   "as",     "assert", "async", "await",  "break",  "class", "continue",
      "def",   "del",    "elif",  "else",  "except", "finally", "for",  "from",   "global", "if",    "import",
      "in",    "is",     "lambda", "nonlocal", "not", "or",    "pass",  "raise",  "return", "try",   "while",
      "with",  "yield",  "self",  "torch", "float", "int",   "bool",  "Tensor", "print"};
  std::string s;
  for (char c : text) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
  if (keywords.count(s)) s += "_";
  return s;
}

// The attribute tree of the scripted module: one submodule per segment of a node id and of a
// LibTorch parameter name ("h1.fc" + "weight", "enc" + "self_attn.in_proj_weight").
struct Tree {
  std::map<std::string, Tree> children;
  std::vector<std::pair<std::string, torch::Tensor>> parameters, buffers;
};

std::vector<std::string> segments(const std::string &dotted) {
  std::vector<std::string> out;
  std::stringstream in(dotted);
  for (std::string part; std::getline(in, part, '.');) out.push_back(identifier(part));
  return out;
}

Tree &at(Tree &root, const std::vector<std::string> &path, size_t count) {
  Tree *t = &root;
  for (size_t i = 0; i < count; ++i) t = &t->children[path[i]];
  return *t;
}

torch::jit::Module build(const Tree &tree, const std::string &className, int &counter) {
  torch::jit::Module module("__torch__.torchwright." + className);
  for (const auto &[name, child] : tree.children)
    module.register_module(name, build(child, "Module" + std::to_string(++counter), counter));
  for (const auto &[name, t] : tree.parameters) module.register_parameter(name, t, /*is_buffer=*/false);
  for (const auto &[name, t] : tree.buffers) module.register_buffer(name, t);
  return module;
}

struct Program {
  std::string source;
  Tree tree;
};

Program program(const ExportSource &source, const ExportOptions &options) {
  Program out;
  std::map<std::string, torch::nn::Module *> modules;
  for (const auto &item : source.module->named_children()) modules[item.key()] = item.value().get();

  std::map<std::string, std::string> variable;  // node id -> variable
  std::set<std::string> taken = {"self"};
  auto fresh = [&](const std::string &base) {
    std::string name = identifier(base);
    for (int n = 2; taken.count(name); ++n) name = identifier(base) + "_" + std::to_string(n);
    taken.insert(name);
    return name;
  };

  std::vector<std::string> args;
  for (const std::string &id : source.module->inputIds()) args.push_back(fresh(id));

  std::vector<std::string> body;
  const bool bake = bakesPreprocessing(source, options);
  std::set<std::string> nodePaths;
  size_t inputIndex = 0;
  for (const spec::NodeInfo &info : source.analysis.nodes) {
    const spec::Node *node = source.spec.find(info.id);
    const OpEntry *entry = findOp(info.op);
    if (!entry || !entry->torchscript) throwNodeError(info.id, info.op, "TorchScript export has no emitter for this op");

    std::vector<std::string> inputs;
    if (info.op == "Input") inputs.push_back(args.at(inputIndex++));
    for (const std::string &in : node->inputs) inputs.push_back(variable.at(in));

    // The node's tensors, under its id as a path of submodules.
    const std::vector<std::string> path = segments(info.id);
    std::string modulePath;
    for (size_t i = 0; i < path.size(); ++i) modulePath += (i ? "." : "") + path[i];
    std::set<std::string> tensors;
    const std::string moduleName = source.module->moduleName(info.id);
    if (!moduleName.empty()) {
      if (!nodePaths.insert(modulePath).second)
        throwNodeError(info.id, info.op, "another node's parameters already live at '" + modulePath + "'");
      torch::nn::Module *m = modules.at(moduleName);
      auto place = [&](const std::string &name, const torch::Tensor &t, bool buffer) {
        if (!t.defined()) return;
        std::vector<std::string> full = path;
        for (const std::string &s : segments(name)) full.push_back(s);
        Tree &owner = at(out.tree, full, full.size() - 1);
        const torch::Tensor value = t.detach().clone().contiguous();
        (buffer ? owner.buffers : owner.parameters).emplace_back(full.back(), buffer ? value : value.requires_grad_(true));
        tensors.insert(name);
      };
      for (const auto &p : m->named_parameters(true)) place(p.key(), p.value(), false);
      for (const auto &b : m->named_buffers(true)) place(b.key(), b.value(), true);
    }

    TorchScriptEmit emit(info, inputs, fresh("v_" + info.id), modulePath,
                         [&tensors](const std::string &name) { return tensors.count(name) > 0; });
    entry->torchscript(emit);
    for (const std::string &line : emit.lines()) body.push_back(line);
    variable[info.id] = emit.output();

    if (bake && info.op == "Input") {
      const auto [mean, stdev] = standardization(*source.preprocessing);
      const std::string holder = fresh("preprocessing");
      out.tree.children[holder].buffers = {{"mean", mean}, {"std", stdev}};
      body.push_back(emit.output() + " = (" + emit.output() + " - self." + holder + ".mean) / self." + holder + ".std");
    }
  }

  std::string signature = "def forward(self";
  for (const std::string &a : args) signature += ", " + a + ": Tensor";
  out.source = signature + ") -> Tensor:\n";
  for (const std::string &line : body) out.source += "    " + line + "\n";
  out.source += "    return " + variable.at(source.analysis.output) + "\n";
  return out;
}

}  // namespace

std::string torchScriptSource(const ExportSource &source, const ExportOptions &options) {
  return program(source, options).source;
}

std::string exportTorchScript(const ExportSource &source, const ExportOptions &options) {
  torch::NoGradGuard noGrad;
  Program p = program(source, options);
  int counter = 0;
  std::string modelName = identifier(source.spec.name.empty() ? "Model" : source.spec.name);
  torch::jit::Module root = build(p.tree, modelName, counter);
  try {
    root.define(p.source);
  } catch (const std::exception &e) {  // torch::jit::ErrorReport is not a c10::Error
    throw ExportError("TorchScript did not compile the generated forward: " + std::string(e.what()) + "\n" +
                      p.source);
  }
  root.eval();
  std::ostringstream bytes;
  torch::jit::ExtraFilesMap extra{{kTorchScriptMetadataFile, exportMetadataJson(source, options, "torchscript")}};
  root.save(bytes, extra);
  return bytes.str();
}

}  // namespace tw::engine
