#include "core/engine/graph_module.h"

#include "core/config/unfreeze.h"
#include "core/engine/memory_format.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace tw::engine {

namespace {

// Submodule names may not contain '.', which block members' ids do ("h1.fc").
std::string uniqueModuleName(const std::string &id, std::set<std::string> &taken) {
  std::string name = id;
  std::replace(name.begin(), name.end(), '.', '_');
  if (name.empty()) name = "node";
  std::string candidate = name;
  for (int n = 2; taken.count(candidate); ++n) candidate = name + "_" + std::to_string(n);
  taken.insert(candidate);
  return candidate;
}

}  // namespace

void GraphModule::train(bool on) {
  torch::nn::Module::train(on);
  for (const Training &t : m_training)
    if (!t.trainable) t.module->train(false);
}

std::vector<ParameterGroup> GraphModule::parameterGroups() const {
  std::vector<ParameterGroup> groups;
  for (const Training &t : m_training) {
    if (!t.trainable) continue;
    auto group = std::find_if(groups.begin(), groups.end(), [&](const ParameterGroup &g) { return g.lrFactor == t.lrFactor; });
    if (group == groups.end()) group = groups.insert(groups.end(), ParameterGroup{t.lrFactor, {}});
    for (const torch::Tensor &p : t.module->parameters()) group->params.push_back(p);
  }
  return groups;
}

std::vector<ParameterGroup> GraphModule::unfreeze(const std::vector<std::string> &names) {
  std::vector<ParameterGroup> groups;
  for (size_t i = 0; i < m_training.size(); ++i) {
    Training &t = m_training[i];
    const std::string &id = m_moduleNames[i].first;
    const bool named = std::any_of(names.begin(), names.end(), [&](const std::string &n) { return config::coversNode(n, id); });
    if (t.trainable || !named) continue;
    t.trainable = true;
    t.module->train(is_training());
    auto group = std::find_if(groups.begin(), groups.end(), [&](const ParameterGroup &g) { return g.lrFactor == t.lrFactor; });
    if (group == groups.end()) group = groups.insert(groups.end(), ParameterGroup{t.lrFactor, {}});
    for (torch::Tensor &p : t.module->parameters()) {
      p.set_requires_grad(true);
      group->params.push_back(p);
    }
  }
  groups.erase(std::remove_if(groups.begin(), groups.end(), [](const ParameterGroup &g) { return g.params.empty(); }),
               groups.end());
  return groups;
}

std::vector<torch::Tensor> GraphModule::trainableParameters() const {
  std::vector<torch::Tensor> out;
  for (const ParameterGroup &group : parameterGroups()) out.insert(out.end(), group.params.begin(), group.params.end());
  return out;
}

GraphModule::GraphModule(const spec::ModelSpec &spec, const spec::Analysis &analysis) {
  if (!analysis.ok()) {
    throw std::runtime_error("the model has problems:\n" + spec::formatDiagnostics(analysis.diagnostics));
  }
  if (analysis.nodes.empty()) throw std::runtime_error("the model has no nodes");

  std::map<std::string, int> slotOf;
  std::set<std::string> taken;
  for (const spec::NodeInfo &info : analysis.nodes) {
    const spec::Node *node = spec.find(info.id);
    if (!node) throw std::runtime_error("node '" + info.id + "' is in the analysis but not in the spec");
    OpBuilder builder = findOpBuilder(info.op);
    if (!builder) throw std::runtime_error("node '" + info.id + "': op '" + info.op + "' has no LibTorch builder");

    BuiltOp built;
    try {
      built = builder(info);
    } catch (const std::exception &e) {
      throw std::runtime_error("node '" + info.id + "' (" + info.op + "): " + e.what());
    }

    Step step;
    step.id = info.id;
    step.forward = std::move(built.forward);
    if (info.op == "Input") {
      step.inputIndex = static_cast<int>(m_inputIds.size());
      m_inputIds.push_back(info.id);
    }
    for (const std::string &input : node->inputs) {
      auto it = slotOf.find(input);
      if (it == slotOf.end())
        throw std::runtime_error("node '" + info.id + "': input '" + input + "' does not come before it");
      step.inputs.push_back(it->second);
    }
    step.module = built.module;
    if (built.module) {
      const std::string name = uniqueModuleName(info.id, taken);
      register_module(name, built.module);
      m_moduleNames.emplace_back(info.id, name);
      if (!info.trainable)
        for (torch::Tensor &p : built.module->parameters()) p.set_requires_grad(false);
      m_training.push_back({built.module, info.trainable, info.lrFactor});
    }
    slotOf[info.id] = static_cast<int>(m_steps.size());
    m_steps.push_back(std::move(step));
  }

  const std::string output = analysis.output.empty() ? analysis.nodes.back().id : analysis.output;
  auto out = slotOf.find(output);
  if (out == slotOf.end()) throw std::runtime_error("output node '" + output + "' does not exist");
  m_outputSlot = out->second;

  // Free each intermediate right after its last reader, so a deep graph holds only the
  // activations it still needs (autograd keeps what backward needs on its own).
  std::vector<int> lastUse(m_steps.size(), -1);
  for (size_t i = 0; i < m_steps.size(); ++i)
    for (int slot : m_steps[i].inputs) lastUse[slot] = static_cast<int>(i);
  for (size_t slot = 0; slot < m_steps.size(); ++slot) {
    if (static_cast<int>(slot) == m_outputSlot || lastUse[slot] < 0) continue;
    auto &release = m_steps[lastUse[slot]].release;
    if (std::find(release.begin(), release.end(), int(slot)) == release.end())
      release.push_back(static_cast<int>(slot));
  }
  planSegments(analysis);
}

void GraphModule::planSegments(const spec::Analysis &analysis) {
  // Consecutive steps of one segment name (a block instance's members are consecutive); an Input
  // is never inside one.
  size_t i = 0;
  while (i < m_steps.size()) {
    const std::string &name = analysis.nodes[i].checkpointSegment;
    if (name.empty() || m_steps[i].inputIndex >= 0) {
      ++i;
      continue;
    }
    size_t last = i;
    while (last + 1 < m_steps.size() && analysis.nodes[last + 1].checkpointSegment == name &&
           m_steps[last + 1].inputIndex < 0)
      ++last;
    Segment segment;
    segment.first = i;
    segment.last = last;
    for (size_t s = i; s <= last; ++s)
      for (int slot : m_steps[s].inputs)
        if (slot < static_cast<int>(i) && std::find(segment.inputs.begin(), segment.inputs.end(), slot) == segment.inputs.end())
          segment.inputs.push_back(slot);
    for (size_t s = i; s <= last; ++s) {
      bool readLater = static_cast<int>(s) == m_outputSlot;
      for (size_t later = last + 1; later < m_steps.size() && !readLater; ++later)
        for (int slot : m_steps[later].inputs) readLater = readLater || slot == static_cast<int>(s);
      if (readLater) segment.outputs.push_back(static_cast<int>(s));
    }
    const size_t first = i;
    segment.run = std::make_unique<CheckpointSegment>();
    segment.run->run = [this, first, last, inputs = segment.inputs, outputs = segment.outputs](
                           const std::vector<torch::Tensor> &values) {
      std::vector<torch::Tensor> slots(m_steps.size());
      for (size_t k = 0; k < inputs.size(); ++k) slots[inputs[k]] = values[k];
      runSteps(first, last, {}, slots);
      std::vector<torch::Tensor> out;
      for (int slot : outputs) out.push_back(slots[slot]);
      return out;
    };
    for (size_t s = i; s <= last; ++s)
      if (m_steps[s].module) segment.run->modules.push_back(m_steps[s].module);
    if (!segment.outputs.empty()) m_segments.push_back(std::move(segment));
    i = last + 1;
  }
}

void GraphModule::runSteps(size_t first, size_t last, const std::vector<torch::Tensor> &inputs,
                           std::vector<torch::Tensor> &slots) {
  std::vector<torch::Tensor> args;
  for (size_t i = first; i <= last; ++i) {
    const Step &step = m_steps[i];
    args.clear();
    if (step.inputIndex >= 0) {
      const torch::Tensor &input = inputs[step.inputIndex];
      args.push_back(m_channelsLastInputs ? asChannelsLast(input) : input);
    } else {
      for (int slot : step.inputs) args.push_back(slots[slot]);
    }
    if (m_inputHook && step.inputIndex < 0) m_inputHook(step.id, args);
    slots[i] = step.forward(args);
    if (m_outputHook) m_outputHook(step.id, slots[i]);
    for (int slot : step.release) slots[slot].reset();
  }
}

torch::Tensor GraphModule::forward(const torch::Tensor &input) {
  if (m_inputIds.size() != 1) {
    throw std::runtime_error("the model has " + std::to_string(m_inputIds.size()) +
                             " inputs; pass one tensor per input");
  }
  return forward(std::vector<torch::Tensor>{input});
}

torch::Tensor GraphModule::forward(const std::vector<torch::Tensor> &inputs) {
  if (inputs.size() != m_inputIds.size()) {
    throw std::runtime_error("the model takes " + std::to_string(m_inputIds.size()) + " inputs, got " +
                             std::to_string(inputs.size()));
  }
  std::vector<torch::Tensor> slots(m_steps.size());
  const bool checkpoint = !m_segments.empty() && is_training() && torch::GradMode::is_enabled() && !m_inputHook &&
                          !m_outputHook;
  if (!checkpoint) {
    runSteps(0, m_steps.empty() ? 0 : m_steps.size() - 1, inputs, slots);
    return slots[m_outputSlot];
  }
  size_t next = 0;
  for (const Segment &segment : m_segments) {
    if (segment.first > next) runSteps(next, segment.first - 1, inputs, slots);
    std::vector<torch::Tensor> in;
    for (int slot : segment.inputs) in.push_back(slots[slot]);
    std::vector<torch::Tensor> out = runCheckpointed(*segment.run, in);
    for (size_t k = 0; k < segment.outputs.size(); ++k) slots[segment.outputs[k]] = std::move(out[k]);
    for (size_t s = segment.first; s <= segment.last; ++s)
      for (int slot : m_steps[s].release) slots[slot].reset();
    next = segment.last + 1;
  }
  if (next < m_steps.size()) runSteps(next, m_steps.size() - 1, inputs, slots);
  return slots[m_outputSlot];
}

std::vector<GraphModule::NodeModule> GraphModule::nodeModules() const {
  std::vector<NodeModule> out;
  for (size_t i = 0; i < m_moduleNames.size(); ++i)
    out.push_back({m_moduleNames[i].first, m_moduleNames[i].second, m_training[i].trainable});
  return out;
}

std::string GraphModule::moduleName(const std::string &nodeId) const {
  for (const auto &entry : m_moduleNames)
    if (entry.first == nodeId) return entry.second;
  return {};
}

}  // namespace tw::engine
