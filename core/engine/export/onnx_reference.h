#pragma once
// A reference evaluator for the ONNX files Torchwright writes: the ONNX operators its emitters
// use, each implemented from the ONNX specification with LibTorch tensor operations, so that
// `export` can run the file it wrote on real inputs and print how far it is from the trained
// model, as it does for TorchScript, without an ONNX runtime. An operator outside that set is
// refused by name. Engine-internal; ONNX Runtime remains the judge in the tests.

#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

namespace tw::engine {

// Runs the serialised model on `inputs` (graph input name -> tensor) and returns its first
// output. Throws ExportError naming the node and the operator it cannot evaluate.
torch::Tensor evaluateOnnx(const std::string &bytes, const std::map<std::string, torch::Tensor> &inputs);

}  // namespace tw::engine
