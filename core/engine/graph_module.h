#pragma once
// A model spec as a torch::nn::Module: one registered submodule per node with state, and a
// forward that runs the DAG in topological order. Engine-internal (includes LibTorch).

#include "core/engine/activation_checkpoint.h"
#include "core/engine/op_builders.h"
#include "core/engine/parameter_group.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"

#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace tw::engine {

class GraphModule : public torch::nn::Module {
 public:
  // `analysis` must be analyze(spec) without diagnostics. Throws std::runtime_error naming the
  // node when an op has no builder or its parameters do not build.
  GraphModule(const spec::ModelSpec &spec, const spec::Analysis &analysis);

  // For a model with one Input node. The batch is dimension 0.
  torch::Tensor forward(const torch::Tensor &input);
  // One tensor per Input node, in inputIds() order.
  torch::Tensor forward(const std::vector<torch::Tensor> &inputs);

  // Calibration and simulation hooks (int8 export): `inputs` sees, and may replace, each node's
  // inputs before it runs; `outputs` sees each node's value. Both off by default.
  using InputHook = std::function<void(const std::string &id, std::vector<torch::Tensor> &inputs)>;
  using OutputHook = std::function<void(const std::string &id, const torch::Tensor &value)>;
  void setHooks(InputHook inputs, OutputHook outputs) {
    m_inputHook = std::move(inputs);
    m_outputHook = std::move(outputs);
  }

  // Nodes marked checkpoint_activations (model_spec.h) run as segments whose inside activations
  // are recomputed in the backward pass: in training mode, with gradients on and no hooks set.
  size_t checkpointSegments() const { return m_segments.size(); }

  // 4-D inputs enter channels-last (see memory_format.h); off by default.
  void setChannelsLastInputs(bool on) { m_channelsLastInputs = on; }

  // Frozen nodes (trainable: false) stay in evaluation mode: a frozen BatchNorm normalises with
  // its stored statistics and does not update them, as a frozen backbone in PyTorch is meant to.
  void train(bool on = true) override;

  // The trainable parameters, one group per lr_factor in the order the nodes first use it;
  // frozen nodes' parameters are in none (and require no gradient).
  std::vector<ParameterGroup> parameterGroups() const;
  std::vector<torch::Tensor> trainableParameters() const;
  // Gradual unfreezing: the frozen nodes `names` cover (ids, or block instances' members) start
  // to train, in the mode the model is in. Returns their parameters, one group per lr_factor.
  std::vector<ParameterGroup> unfreeze(const std::vector<std::string> &names);

  const std::vector<std::string> &inputIds() const { return m_inputIds; }
  // The submodule name a node id was registered under ("h1.fc" -> "h1_fc"); empty when the node
  // has no module.
  std::string moduleName(const std::string &nodeId) const;
  // Every node with a module: its id, the module's name and whether it trains.
  struct NodeModule {
    std::string nodeId, moduleName;
    bool trainable = true;
  };
  std::vector<NodeModule> nodeModules() const;

 private:
  struct Step {
    std::string id;
    OpForward forward;
    std::vector<int> inputs;   // slots (= step indices) this node reads
    int inputIndex = -1;       // >= 0 for Input nodes: which caller tensor it takes
    std::vector<int> release;  // slots no later step reads: freed after this one runs
    std::shared_ptr<torch::nn::Module> module;  // null for an op without state
  };
  // Steps [first, last] of one checkpoint segment: the slots it reads from before it, in order,
  // and those it produces that later steps (or the model's output) read.
  struct Segment {
    size_t first = 0, last = 0;
    std::vector<int> inputs, outputs;
    std::unique_ptr<CheckpointSegment> run;  // stable address: autograd keeps it until backward
  };
  void planSegments(const spec::Analysis &analysis);
  // Runs steps [first, last] on `slots`, the hooks and releases included.
  void runSteps(size_t first, size_t last, const std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &slots);
  std::vector<Segment> m_segments;
  std::vector<Step> m_steps;
  std::vector<std::string> m_inputIds;
  std::vector<std::pair<std::string, std::string>> m_moduleNames;  // node id -> module name
  struct Training {
    std::shared_ptr<torch::nn::Module> module;
    bool trainable = true;
    double lrFactor = 1.0;
  };
  std::vector<Training> m_training;  // per node with a module, in node order
  int m_outputSlot = -1;
  bool m_channelsLastInputs = false;
  InputHook m_inputHook;
  OutputHook m_outputHook;
};

}  // namespace tw::engine
