#include "core/engine/export/torchscript_emitters.h"

#include "core/engine/export/torchscript_emit.h"
#include "core/engine/node_params.h"
#include "core/spec/param.h"

namespace tw::engine::ts {

namespace {

using spec::getBool;
using spec::getFloat;
using spec::getInt;
using spec::getString;

void apply(TorchScriptEmit &e, const std::string &function, const std::string &extra = {}) {
  e.assign(function + "(" + e.input() + extra + ")");
}

}  // namespace

// The caller's tensor, checked like the trained model checks it (rank and every dimension but the
// batch), then given the dtype the graph computes in.
void Input(TorchScriptEmit &e) {
  const spec::IntList shape = spec::getInts(e.node().params, "shape");
  const bool integer = spec::has(e.node().params, "dtype") && getString(e.node().params, "dtype") == "int64";
  const std::string &x = e.input();
  std::string condition = x + ".dim() == " + std::to_string(shape.size() + 1);
  for (size_t i = 0; i < shape.size(); ++i)
    condition += " and " + x + ".size(" + std::to_string(i + 1) + ") == " + std::to_string(shape[i]);
  e.line("assert " + condition + ", " +
         TorchScriptEmit::quoted("input '" + e.node().id + "': expected " + spec::formatShape(shape, true)));
  e.assign(x + (integer ? ".long()" : ".float()"));
}

void Linear(TorchScriptEmit &e) {
  e.assign("torch.linear(" + e.input() + ", " + e.param("weight") + ", " + e.optionalParam("bias") + ")");
}

void Conv1d(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign("torch.conv1d(" + e.input() + ", " + e.param("weight") + ", " + e.optionalParam("bias") + ", " +
           TorchScriptEmit::ints({getInt(p, "stride")}) + ", " + TorchScriptEmit::ints({getInt(p, "padding")}) +
           ", " + TorchScriptEmit::ints({getInt(p, "dilation")}) + ", " + std::to_string(getInt(p, "groups")) + ")");
}

void Conv2d(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign("torch.conv2d(" + e.input() + ", " + e.param("weight") + ", " + e.optionalParam("bias") + ", " +
           TorchScriptEmit::ints(pairParam(p, "stride")) + ", " + TorchScriptEmit::ints(pairParam(p, "padding")) + ", " +
           TorchScriptEmit::ints(pairParam(p, "dilation")) + ", " + std::to_string(getInt(p, "groups")) + ")");
}

// Evaluation mode: the running statistics, never the batch's.
void BatchNorm(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign("torch.batch_norm(" + e.input() + ", " + e.optionalParam("weight") + ", " + e.optionalParam("bias") +
           ", " + e.param("running_mean") + ", " + e.param("running_var") + ", False, " +
           TorchScriptEmit::number(getFloat(p, "momentum")) + ", " + TorchScriptEmit::number(getFloat(p, "eps")) +
           ", False)");
}

void LayerNorm(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign("torch.layer_norm(" + e.input() + ", " + TorchScriptEmit::ints({getInt(p, "normalized_shape")}) + ", " +
           e.optionalParam("weight") + ", " + e.optionalParam("bias") + ", " +
           TorchScriptEmit::number(getFloat(p, "eps")) + ")");
}

void Identity(TorchScriptEmit &e) { e.assign(e.input()); }

void Embedding(TorchScriptEmit &e) { e.assign("torch.embedding(" + e.param("weight") + ", " + e.input() + ")"); }

void ReLU(TorchScriptEmit &e) { apply(e, "torch.relu"); }
void LeakyReLU(TorchScriptEmit &e) {
  apply(e, "torch.leaky_relu", ", " + TorchScriptEmit::number(getFloat(e.node().params, "negative_slope")));
}
void GELU(TorchScriptEmit &e) {
  const std::string approximate = getString(e.node().params, "approximate");
  // The default left out, so that an exact GELU's line reads as before.
  apply(e, "torch.gelu",
        approximate == "none" ? std::string() : ", approximate=" + TorchScriptEmit::quoted(approximate));
}
void SiLU(TorchScriptEmit &e) { apply(e, "torch.silu"); }
void Tanh(TorchScriptEmit &e) { apply(e, "torch.tanh"); }
void Sigmoid(TorchScriptEmit &e) { apply(e, "torch.sigmoid"); }
void ReLU6(TorchScriptEmit &e) { apply(e, "torch.hardtanh", ", 0.0, 6.0"); }  // what torch.nn.ReLU6 calls
void Hardsigmoid(TorchScriptEmit &e) { apply(e, "torch.hardsigmoid"); }
void Hardswish(TorchScriptEmit &e) { apply(e, "torch.hardswish"); }
void Softmax(TorchScriptEmit &e) { apply(e, "torch.softmax", ", " + std::to_string(getInt(e.node().params, "dim"))); }
void LogSoftmax(TorchScriptEmit &e) {
  apply(e, "torch.log_softmax", ", " + std::to_string(getInt(e.node().params, "dim")));
}

void MaxPool2d(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  apply(e, "torch.max_pool2d",
        ", " + TorchScriptEmit::ints(pairParam(p, "kernel_size")) + ", " + TorchScriptEmit::ints(poolStrideParam(p)) + ", " +
            TorchScriptEmit::ints(pairParam(p, "padding")) + ", " + TorchScriptEmit::ints(pairParam(p, "dilation")) + ", " +
            TorchScriptEmit::boolean(getBool(p, "ceil_mode")));
}

void AvgPool2d(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  apply(e, "torch.avg_pool2d",
        ", " + TorchScriptEmit::ints(pairParam(p, "kernel_size")) + ", " + TorchScriptEmit::ints(poolStrideParam(p)) + ", " +
            TorchScriptEmit::ints(pairParam(p, "padding")) + ", " + TorchScriptEmit::boolean(getBool(p, "ceil_mode")) +
            ", " + TorchScriptEmit::boolean(getBool(p, "count_include_pad")));
}

void AdaptiveAvgPool2d(TorchScriptEmit &e) {
  apply(e, "torch.adaptive_avg_pool2d", ", " + TorchScriptEmit::ints(pairParam(e.node().params, "output_size")));
}

void Flatten(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  apply(e, "torch.flatten",
        ", " + std::to_string(getInt(p, "start_dim")) + ", " + std::to_string(getInt(p, "end_dim")));
}

void Add(TorchScriptEmit &e) {
  std::string sum = e.inputs()[0];
  for (size_t i = 1; i < e.inputs().size(); ++i) sum += " + " + e.inputs()[i];
  e.assign(sum);
}

void Mul(TorchScriptEmit &e) { e.assign(e.inputs()[0] + " * " + e.inputs()[1]); }

void Concat(TorchScriptEmit &e) {
  std::string list = "[";
  for (size_t i = 0; i < e.inputs().size(); ++i) list += (i ? ", " : "") + e.inputs()[i];
  e.assign("torch.cat(" + list + "], " + std::to_string(getInt(e.node().params, "dim")) + ")");
}

void Transpose(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign(e.input() + ".transpose(" + std::to_string(getInt(p, "dim0")) + ", " + std::to_string(getInt(p, "dim1")) +
           ")");
}

void Permute(TorchScriptEmit &e) {
  std::vector<int64_t> dims = spec::getInts(e.node().params, "dims");
  // The short form leaves out the batch's leading 0; the batch stays first (as the builder does).
  if (dims.size() == e.node().inputShapes.at(0).size()) dims.insert(dims.begin(), 0);
  e.assign(e.input() + ".permute(" + TorchScriptEmit::ints(dims) + ")");
}

void Max(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign("torch.max(" + e.input() + ", " + std::to_string(getInt(p, "dim")) + ", " +
           TorchScriptEmit::boolean(getBool(p, "keepdim")) + ")[0]");
}

void Mean(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign("torch.mean(" + e.input() + ", " + TorchScriptEmit::ints({getInt(p, "dim")}) + ", " +
           TorchScriptEmit::boolean(getBool(p, "keepdim")) + ")");
}

void Sum(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign("torch.sum(" + e.input() + ", " + TorchScriptEmit::ints({getInt(p, "dim")}) + ", " +
           TorchScriptEmit::boolean(getBool(p, "keepdim")) + ")");
}

// As the builder computes it: the batch read from the tensor, every other size from analysis.
void ChannelShuffle(TorchScriptEmit &e) {
  const std::vector<int64_t> &in = e.node().inputShapes.at(0);
  const int64_t groups = getInt(e.node().params, "groups");
  std::string split = "[" + e.input() + ".size(0), " + std::to_string(groups) + ", " + std::to_string(in[0] / groups);
  std::string whole = "[" + e.input() + ".size(0)";
  for (size_t i = 0; i < in.size(); ++i) {
    if (i > 0) split += ", " + std::to_string(in[i]);
    whole += ", " + std::to_string(in[i]);
  }
  e.assign(e.input() + ".reshape(" + split + "]).transpose(1, 2).reshape(" + whole + "])");
}

void Slice(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  e.assign(e.input() + ".narrow(" + std::to_string(getInt(p, "dim")) + ", " + std::to_string(getInt(p, "start")) + ", " +
           std::to_string(getInt(p, "end") - getInt(p, "start")) + ")");
}

}  // namespace tw::engine::ts
