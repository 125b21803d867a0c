#pragma once
// An ONNX TensorProto (an initializer, a Constant's value) as a LibTorch tensor. Engine-internal;
// the protobuf type stays behind the forward declaration.

#include <torch/torch.h>

#include <string>

namespace onnx {
class TensorProto;
}

namespace tw::engine {

// Reads raw_data or the typed fields (float, double, int64, int32, int8, uint8, bool, float16).
// Throws ImportError naming `file` and the tensor when the element type is another or its bytes do
// not fill its shape (a truncated file).
torch::Tensor tensorFromOnnx(const onnx::TensorProto &proto, const std::string &file);

}  // namespace tw::engine
