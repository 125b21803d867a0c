#include "core/engine/activation_checkpoint.h"

#include "core/engine/precision.h"

#include <ATen/Context.h>
#include <torch/csrc/autograd/custom_function.h>

#include <mutex>

namespace tw::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The generator a segment's random ops draw from: the CPU's, and the GPU's its tensors are on.
std::vector<at::Generator> generatorsFor(const std::vector<torch::Tensor> &inputs) {
  std::vector<at::Generator> generators{at::detail::getDefaultCPUGenerator()};
  for (const auto &x : inputs) {
    if (x.defined() && x.is_cuda()) {
      generators.push_back(at::globalContext().defaultGenerator(x.device()));
      break;
    }
  }
  return generators;
}

torch::Tensor stateOf(at::Generator &generator) {
  std::lock_guard<std::mutex> lock(generator.mutex());
  return generator.get_state();
}

void setState(at::Generator &generator, const torch::Tensor &state) {
  std::lock_guard<std::mutex> lock(generator.mutex());
  generator.set_state(state);
}

// The random state for the scope, and back to what it was after.
class RandomStateRestore {
 public:
  RandomStateRestore(std::vector<at::Generator> generators, const std::vector<torch::Tensor> &states)
      : m_generators(std::move(generators)) {
    for (size_t i = 0; i < m_generators.size() && i < states.size(); ++i) {
      m_previous.push_back(stateOf(m_generators[i]));
      setState(m_generators[i], states[i]);
    }
  }
  ~RandomStateRestore() {
    for (size_t i = 0; i < m_previous.size(); ++i) setState(m_generators[i], m_previous[i]);
  }

 private:
  std::vector<at::Generator> m_generators;
  std::vector<torch::Tensor> m_previous;
};

class CheckpointFunction : public torch::autograd::Function<CheckpointFunction> {
 public:
  // `inputs`: the segment's inputs, then an anchor that requires grad, so that the backward pass
  // reaches this node even when no input does (the segment's parameters still need gradients).
  // A TensorList, not a vector: autograd counts the tensors of a list as inputs one by one.
  static variable_list forward(AutogradContext *ctx, at::TensorList arguments, int64_t segmentAddress) {
    const auto *segment = reinterpret_cast<const CheckpointSegment *>(segmentAddress);
    variable_list inputs = arguments.vec();
    inputs.pop_back();
    ctx->save_for_backward(inputs);
    ctx->saved_data["segment"] = segmentAddress;
    auto generators = generatorsFor(inputs);
    c10::List<torch::Tensor> states;
    for (auto &g : generators) states.push_back(stateOf(g));
    ctx->saved_data["random"] = states;
    const AutocastState autocast = currentAutocast();
    ctx->saved_data["autocast"] = std::vector<int64_t>{autocast.cpu, autocast.cuda, static_cast<int64_t>(autocast.cpuType),
                                                       static_cast<int64_t>(autocast.cudaType)};
    variable_list outputs = segment->run(inputs);  // autograd runs forward without recording
    // An output that is one of the inputs (an identity) must be a tensor of its own here.
    for (auto &out : outputs)
      for (const auto &in : inputs)
        if (out.defined() && in.defined() && out.is_same(in)) out = out.clone();
    return outputs;
  }

  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    const auto *segment = reinterpret_cast<const CheckpointSegment *>(ctx->saved_data["segment"].toInt());
    const variable_list saved = ctx->get_saved_variables();
    variable_list inputs;
    for (const auto &x : saved) {
      if (!x.defined()) {
        inputs.push_back(x);
        continue;
      }
      torch::Tensor d = x.detach();
      d.requires_grad_(x.requires_grad());
      inputs.push_back(d);
    }
    std::vector<torch::Tensor> states;
    for (const auto &s : ctx->saved_data["random"].toTensorList()) states.push_back(s);
    const auto flags = ctx->saved_data["autocast"].toIntVector();
    AutocastState autocast;
    autocast.cpu = flags[0] != 0;
    autocast.cuda = flags[1] != 0;
    autocast.cpuType = static_cast<at::ScalarType>(flags[2]);
    autocast.cudaType = static_cast<at::ScalarType>(flags[3]);

    // Buffers as the first run left them: the recomputation must not move running statistics.
    std::vector<torch::Tensor> buffers, kept;
    {
      torch::NoGradGuard noGrad;
      for (const auto &module : segment->modules)
        for (auto &b : module->buffers()) {
          buffers.push_back(b);
          kept.push_back(b.clone());
        }
    }
    variable_list outputs;
    {
      RandomStateRestore random(generatorsFor(inputs), states);
      AutocastRestore restore(autocast);
      torch::AutoGradMode enabled(true);
      outputs = segment->run(inputs);
    }
    {
      torch::NoGradGuard noGrad;
      for (size_t i = 0; i < buffers.size(); ++i) buffers[i].copy_(kept[i]);
    }
    variable_list differentiable, outputGrads;
    for (size_t i = 0; i < outputs.size() && i < grads.size(); ++i) {
      if (!outputs[i].defined() || !outputs[i].requires_grad() || !grads[i].defined()) continue;
      differentiable.push_back(outputs[i]);
      outputGrads.push_back(grads[i]);
    }
    if (!differentiable.empty()) torch::autograd::backward(differentiable, outputGrads);
    variable_list result;
    for (const auto &x : inputs) result.push_back(x.defined() && x.requires_grad() ? x.grad() : torch::Tensor());
    result.emplace_back();  // the anchor
    result.emplace_back();  // the segment's address, not a tensor
    return result;
  }
};

}  // namespace

std::vector<torch::Tensor> runCheckpointed(const CheckpointSegment &segment, const std::vector<torch::Tensor> &inputs) {
  // The anchor is made once per thread: it only connects the graph, and is never written.
  thread_local const torch::Tensor anchor = torch::zeros({1}, torch::requires_grad());
  variable_list arguments(inputs.begin(), inputs.end());
  arguments.push_back(anchor);
  return CheckpointFunction::apply(at::TensorList(arguments), reinterpret_cast<int64_t>(&segment));
}

}  // namespace tw::engine
