#include "core/engine/export/onnx_reference.h"

#include "core/engine/export/export_error.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace tw::engine {

namespace {

torch::Tensor fromProto(const onnx::TensorProto &t) {
  std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  torch::ScalarType type;
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT: type = torch::kFloat; break;
    case onnx::TensorProto::INT64: type = torch::kLong; break;
    case onnx::TensorProto::INT8: type = torch::kChar; break;
    case onnx::TensorProto::UINT8: type = torch::kByte; break;
    default: throw ExportError("initializer '" + t.name() + "' has an element type the evaluator does not read");
  }
  const std::string &raw = t.raw_data();
  torch::Tensor out = torch::empty(dims, type);
  if (static_cast<size_t>(out.numel() * out.element_size()) != raw.size())
    throw ExportError("initializer '" + t.name() + "' holds " + std::to_string(raw.size()) + " bytes for its shape");
  std::memcpy(out.data_ptr(), raw.data(), raw.size());
  return out;
}

struct Attrs {
  const onnx::NodeProto &node;
  const onnx::AttributeProto *find(const std::string &name) const {
    for (const auto &a : node.attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  int64_t i(const std::string &name, int64_t fallback) const {
    const auto *a = find(name);
    return a ? a->i() : fallback;
  }
  double f(const std::string &name, double fallback) const {
    const auto *a = find(name);
    return a ? a->f() : fallback;
  }
  std::vector<int64_t> ints(const std::string &name, std::vector<int64_t> fallback = {}) const {
    const auto *a = find(name);
    return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : fallback;
  }
};

int64_t axisOf(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

std::vector<int64_t> asInts(const torch::Tensor &t) {
  const torch::Tensor c = t.to(torch::kLong).contiguous();
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

// ONNX pads: [begin_0, begin_1, ..., end_0, end_1, ...] over the spatial dimensions.
torch::Tensor padSpatial(const torch::Tensor &x, const std::vector<int64_t> &pads, double value) {
  if (pads.empty()) return x;
  const size_t n = pads.size() / 2;
  std::vector<int64_t> torchPads;  // last dimension first, (begin, end) each
  for (size_t k = n; k-- > 0;) {
    torchPads.push_back(pads[k]);
    torchPads.push_back(pads[k + n]);
  }
  return torch::constant_pad_nd(x, torchPads, value);
}

using Inputs = std::vector<torch::Tensor>;
using Op = std::function<std::vector<torch::Tensor>(const Inputs &, const Attrs &)>;

const std::map<std::string, Op> &operators() {
  static const std::map<std::string, Op> ops = {
      {"Identity", [](const Inputs &in, const Attrs &) -> Inputs { return {in[0]}; }},
      {"Add", [](const Inputs &in, const Attrs &) -> Inputs { return {in[0] + in[1]}; }},
      {"Sub", [](const Inputs &in, const Attrs &) -> Inputs { return {in[0] - in[1]}; }},
      {"Mul", [](const Inputs &in, const Attrs &) -> Inputs { return {in[0] * in[1]}; }},
      {"Div", [](const Inputs &in, const Attrs &) -> Inputs { return {in[0] / in[1]}; }},
      {"Sum",
       [](const Inputs &in, const Attrs &) -> Inputs {
         torch::Tensor s = in[0];
         for (size_t k = 1; k < in.size(); ++k) s = s + in[k];
         return {s};
       }},
      {"Sqrt", [](const Inputs &in, const Attrs &) -> Inputs { return {torch::sqrt(in[0])}; }},
      {"Erf", [](const Inputs &in, const Attrs &) -> Inputs { return {torch::erf(in[0])}; }},
      {"Relu", [](const Inputs &in, const Attrs &) -> Inputs { return {torch::clamp_min(in[0], 0)}; }},
      {"LeakyRelu",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         return {torch::where(in[0] >= 0, in[0], in[0] * a.f("alpha", 0.01))};
       }},
      {"Sigmoid", [](const Inputs &in, const Attrs &) -> Inputs { return {1.0 / (1.0 + torch::exp(-in[0]))}; }},
      {"Tanh", [](const Inputs &in, const Attrs &) -> Inputs { return {torch::tanh(in[0])}; }},
      {"Clip",
       [](const Inputs &in, const Attrs &) -> Inputs {
         torch::Tensor y = in[0];
         if (in.size() > 1 && in[1].defined()) y = torch::maximum(y, in[1]);
         if (in.size() > 2 && in[2].defined()) y = torch::minimum(y, in[2]);
         return {y};
       }},
      {"HardSigmoid",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         return {(in[0] * a.f("alpha", 0.2) + a.f("beta", 0.5)).clamp(0.0, 1.0)};
       }},
      {"HardSwish",
       [](const Inputs &in, const Attrs &) -> Inputs { return {in[0] * (in[0] / 6.0 + 0.5).clamp(0.0, 1.0)}; }},
      {"Softmax",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const int64_t ax = axisOf(a.i("axis", -1), in[0].dim());
         const torch::Tensor e = torch::exp(in[0] - std::get<0>(in[0].max(ax, true)));
         return {e / e.sum(ax, true)};
       }},
      {"LogSoftmax",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const int64_t ax = axisOf(a.i("axis", -1), in[0].dim());
         const torch::Tensor shifted = in[0] - std::get<0>(in[0].max(ax, true));
         return {shifted - torch::log(torch::exp(shifted).sum(ax, true))};
       }},
      {"MatMul", [](const Inputs &in, const Attrs &) -> Inputs { return {torch::matmul(in[0], in[1])}; }},
      {"Gemm",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const torch::Tensor A = a.i("transA", 0) ? in[0].t() : in[0];
         const torch::Tensor B = a.i("transB", 0) ? in[1].t() : in[1];
         torch::Tensor y = torch::mm(A, B) * a.f("alpha", 1.0);
         if (in.size() > 2 && in[2].defined()) y = y + in[2] * a.f("beta", 1.0);
         return {y};
       }},
      {"Transpose",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         std::vector<int64_t> perm = a.ints("perm");
         if (perm.empty())
           for (int64_t d = in[0].dim(); d-- > 0;) perm.push_back(d);
         return {in[0].permute(perm).contiguous()};
       }},
      {"Reshape",
       [](const Inputs &in, const Attrs &) -> Inputs {
         std::vector<int64_t> shape = asInts(in[1]);
         for (size_t k = 0; k < shape.size(); ++k)
           if (shape[k] == 0) shape[k] = in[0].size(static_cast<int64_t>(k));  // 0 copies the input's
         return {in[0].reshape(shape)};
       }},
      {"Concat",
       [](const Inputs &in, const Attrs &a) -> Inputs { return {torch::cat(in, axisOf(a.i("axis", 0), in[0].dim()))}; }},
      {"Split",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const int64_t ax = axisOf(a.i("axis", 0), in[0].dim());
         return torch::split_with_sizes(in[0], asInts(in[1]), ax);
       }},
      {"Slice",
       [](const Inputs &in, const Attrs &) -> Inputs {
         const auto starts = asInts(in[1]), ends = asInts(in[2]);
         const auto axes = in.size() > 3 ? asInts(in[3]) : std::vector<int64_t>{};
         torch::Tensor y = in[0];
         for (size_t k = 0; k < starts.size(); ++k) {
           const int64_t ax = axes.empty() ? static_cast<int64_t>(k) : axisOf(axes[k], in[0].dim());
           y = y.slice(ax, starts[k], std::min(ends[k], y.size(ax)));
         }
         return {y};
       }},
      {"Gather",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const int64_t ax = axisOf(a.i("axis", 0), in[0].dim());
         const torch::Tensor idx = in[1].to(torch::kLong);
         return {in[0].index_select(ax, idx.reshape(-1)).reshape([&] {
           std::vector<int64_t> s(in[0].sizes().begin(), in[0].sizes().begin() + ax);
           s.insert(s.end(), idx.sizes().begin(), idx.sizes().end());
           s.insert(s.end(), in[0].sizes().begin() + ax + 1, in[0].sizes().end());
           return s;
         }())};
       }},
      {"ReduceMean",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         std::vector<int64_t> axes = a.ints("axes");
         for (auto &x : axes) x = axisOf(x, in[0].dim());
         return {in[0].mean(axes, a.i("keepdims", 1) != 0)};
       }},
      {"ReduceMax",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         std::vector<int64_t> axes = a.ints("axes");
         for (auto &x : axes) x = axisOf(x, in[0].dim());
         return {in[0].amax(axes, a.i("keepdims", 1) != 0)};
       }},
      {"ReduceSum",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         std::vector<int64_t> axes = in.size() > 1 ? asInts(in[1]) : std::vector<int64_t>{};
         for (auto &x : axes) x = axisOf(x, in[0].dim());
         return {in[0].sum(axes, a.i("keepdims", 1) != 0)};
       }},
      {"BatchNormalization",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         std::vector<int64_t> shape(static_cast<size_t>(in[0].dim()), 1);
         shape[1] = in[0].size(1);
         const double eps = a.f("epsilon", 1e-5);
         return {(in[0] - in[3].reshape(shape)) / torch::sqrt(in[4].reshape(shape) + eps) * in[1].reshape(shape) +
                 in[2].reshape(shape)};
       }},
      {"LayerNormalization",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const int64_t ax = axisOf(a.i("axis", -1), in[0].dim());
         std::vector<int64_t> dims;
         for (int64_t d = ax; d < in[0].dim(); ++d) dims.push_back(d);
         const torch::Tensor mean = in[0].mean(dims, true);
         const torch::Tensor var = (in[0] - mean).pow(2).mean(dims, true);
         torch::Tensor y = (in[0] - mean) / torch::sqrt(var + a.f("epsilon", 1e-5)) * in[1];
         if (in.size() > 2 && in[2].defined()) y = y + in[2];
         return {y};
       }},
      {"Conv",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const int64_t spatial = in[0].dim() - 2;
         const std::vector<int64_t> ones(static_cast<size_t>(spatial), 1);
         const torch::Tensor x = padSpatial(in[0], a.ints("pads"), 0.0);
         const torch::Tensor b = in.size() > 2 ? in[2] : torch::Tensor();
         const auto strides = a.ints("strides", ones), dilations = a.ints("dilations", ones);
         const std::vector<int64_t> zero(static_cast<size_t>(spatial), 0);
         return {torch::convolution(x, in[1], b, strides, zero, dilations, false, zero, a.i("group", 1))};
       }},
      {"MaxPool",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const auto kernel = a.ints("kernel_shape");
         const std::vector<int64_t> ones(kernel.size(), 1), zero(kernel.size(), 0);
         // Padding never wins a maximum.
         const torch::Tensor x = padSpatial(in[0], a.ints("pads"), -std::numeric_limits<double>::infinity());
         return {torch::max_pool2d(x, kernel, a.ints("strides", ones), zero, a.ints("dilations", ones),
                                   a.i("ceil_mode", 0) != 0)};
       }},
      {"AveragePool",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         const auto kernel = a.ints("kernel_shape");
         const std::vector<int64_t> ones(kernel.size(), 1), zero(kernel.size(), 0);
         const auto pads = a.ints("pads");
         const auto strides = a.ints("strides", ones);
         const torch::Tensor x = padSpatial(in[0], pads, 0.0);
         const torch::Tensor sums = torch::avg_pool2d(x, kernel, strides, zero, false, true) *
                                    static_cast<double>(kernel[0] * kernel[1]);
         if (a.i("count_include_pad", 0)) return {sums / static_cast<double>(kernel[0] * kernel[1])};
         // Divide by the window's cells that lie in the input.
         const torch::Tensor mask = padSpatial(torch::ones_like(in[0].select(1, 0).unsqueeze(1)), pads, 0.0);
         const torch::Tensor counts = torch::avg_pool2d(mask, kernel, strides, zero, false, true) *
                                      static_cast<double>(kernel[0] * kernel[1]);
         return {sums / counts};
       }},
      {"GlobalAveragePool",
       [](const Inputs &in, const Attrs &) -> Inputs {
         std::vector<int64_t> dims;
         for (int64_t d = 2; d < in[0].dim(); ++d) dims.push_back(d);
         return {in[0].mean(dims, true)};
       }},
      {"QuantizeLinear",
       [](const Inputs &in, const Attrs &) -> Inputs {
         const torch::Tensor zero = in[2].to(torch::kFloat);
         // Round half to even, then saturate to uint8.
         return {(torch::round(in[0] / in[1]) + zero).clamp(0, 255).to(torch::kByte)};
       }},
      {"DequantizeLinear",
       [](const Inputs &in, const Attrs &a) -> Inputs {
         torch::Tensor scale = in[1], zero = in.size() > 2 ? in[2].to(torch::kFloat) : torch::zeros_like(in[1]);
         if (scale.dim() == 1 && in[0].dim() > 1) {
           std::vector<int64_t> shape(static_cast<size_t>(in[0].dim()), 1);
           shape[static_cast<size_t>(axisOf(a.i("axis", 1), in[0].dim()))] = scale.size(0);
           scale = scale.reshape(shape);
           zero = zero.reshape(shape);
         }
         return {(in[0].to(torch::kFloat) - zero) * scale};
       }},
  };
  return ops;
}

}  // namespace

torch::Tensor evaluateOnnx(const std::string &bytes, const std::map<std::string, torch::Tensor> &inputs) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) throw ExportError("the file is not an ONNX model");
  torch::NoGradGuard noGrad;
  std::map<std::string, torch::Tensor> values = inputs;
  for (const auto &init : model.graph().initializer()) values[init.name()] = fromProto(init);
  for (const auto &node : model.graph().node()) {
    auto op = operators().find(node.op_type());
    if (op == operators().end())
      throw ExportError("node '" + node.name() + "': the reference evaluator has no " + node.op_type());
    Inputs in;
    for (const auto &name : node.input()) {
      if (name.empty()) {
        in.emplace_back();
        continue;
      }
      auto it = values.find(name);
      if (it == values.end()) throw ExportError("node '" + node.name() + "': no value '" + name + "' before it");
      in.push_back(it->second);
    }
    Inputs out;
    try {
      out = op->second(in, Attrs{node});
    } catch (const c10::Error &e) {
      throw ExportError("node '" + node.name() + "' (" + node.op_type() + "): " + e.what_without_backtrace());
    }
    for (int k = 0; k < node.output_size() && k < static_cast<int>(out.size()); ++k) values[node.output(k)] = out[k];
  }
  return values.at(model.graph().output(0).name());
}

}  // namespace tw::engine
