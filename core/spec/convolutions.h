#pragma once
// Whether a model has a convolution: the one answer the engine's thread plan (any convolution:
// LibTorch's own threads do the work, not BLAS) and its memory layout (2-D convolutions:
// channels-last on the CPU) both ask for, and the UI and `check` may ask too.
//
//   hasConvolution(spec)      // any Conv1d or Conv2d
//   hasConvolution(spec, 2)   // a Conv2d

#include "core/spec/model_spec.h"

#include <string>

namespace tw::spec {

// The spatial dimensions an op convolves over: 1 for Conv1d, 2 for Conv2d, 0 for any other op.
int convolutionDims(const std::string &op);

// Whether a node of `spec` (blocks expanded) is a convolution; with dims > 0, one over that many
// spatial dimensions.
bool hasConvolution(const ModelSpec &spec, int dims = 0);

}  // namespace tw::spec
