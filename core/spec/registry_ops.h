#pragma once
// Internal to core/spec: helpers the registry's op tables share, and the tables themselves.

#include "core/spec/registry.h"

#include <optional>
#include <string>
#include <vector>

namespace tw::spec::detail {

ParamDef requiredParam(std::string name, ParamType type, std::string doc, std::optional<double> min = {},
                       std::optional<double> max = {});
ParamDef optionalParam(std::string name, ParamType type, ParamValue defaultValue, std::string doc,
                       std::optional<double> min = {}, std::optional<double> max = {});
ParamDef inferredParam(std::string name, ParamType type, std::string doc, std::optional<double> min = 1);

// Throws ShapeError("", ...) unless the input has `rank` dims; layout names them ("[C, H, W]").
void requireRank(const Shape &shape, size_t rank, const std::string &op, const std::string &layout);

// Sets an inferred parameter, or checks a written one against what the input shape implies.
void inferValue(ParamMap &params, const std::string &name, int64_t value, const std::string &why);

// A torch dimension index (0 is the batch) for a per-sample shape of rank `rank`, made
// non-negative and checked: the batch dimension itself is refused.
int64_t torchDim(int64_t dim, size_t rank, const std::string &field, const std::string &op);

// One spatial dimension of a convolution or pooling window; throws when the dilated kernel does
// not fit in the padded input.
int64_t windowOutput(int64_t size, int64_t kernel, int64_t stride, int64_t padding, int64_t dilation,
                     bool ceilMode, const std::string &what);

// "2, 3" for a pair of ints shown in messages.
std::string pairText(const IntList &pair);

void addLayerOps(std::vector<OpDef> &ops);       // Input, Linear, Conv, norms, Embedding
void addActivationOps(std::vector<OpDef> &ops);  // Dropout, activations, Softmax
void addStructureOps(std::vector<OpDef> &ops);   // pooling, Flatten, Add, Mul, Concat
void addSequenceOps(std::vector<OpDef> &ops);    // Reshape, attention, Transformer layers over [T, E]
void addDimensionOps(std::vector<OpDef> &ops);   // Transpose, Permute, Max, Mean, Sum over one dim, ChannelShuffle, Slice

}  // namespace tw::spec::detail
