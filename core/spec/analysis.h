#pragma once
// Validation and analytic shape inference over a ModelSpec, without LibTorch.

#include "core/spec/model_spec.h"
#include "core/spec/shape.h"

#include <string>
#include <vector>

namespace tw::spec {

struct NodeInfo {
  std::string id;
  std::string op;
  std::vector<Shape> inputShapes;
  Shape outputShape;
  int64_t paramCount = 0;
  bool trainable = true;  // the node's fine-tuning keys (model_spec.h)
  double lrFactor = 1.0;
  std::string checkpointSegment;    // model_spec.h; empty: its output is kept for backward
  std::vector<std::string> inputs;  // the ids it reads
  ParamMap params;  // typed, defaults and inferred values (in_features, in_channels...) filled in
};

struct Analysis {
  std::vector<NodeInfo> nodes;        // topological order; empty when the graph has a cycle
  std::vector<Diagnostic> diagnostics; // every problem found; empty when valid
  int64_t totalParams = 0;
  int64_t trainableParams = 0;         // of totalParams, those of nodes not frozen
  std::string output;                  // id of the output node

  bool ok() const { return diagnostics.empty(); }
  const NodeInfo *find(const std::string &id) const;
};

// Checks: unknown op, missing/extra inputs, unknown input ids, duplicate ids, cycles,
// unknown/missing/mistyped/out-of-range parameters, shape mismatches. Collects all it can;
// nodes downstream of a node with a problem get no shape and no second report.
// Element types are tracked too: an Input's dtype passes through the ops that only move values
// (Flatten, Reshape, Transpose, Permute, Dropout, Add, Concat); Embedding needs int64 indices and
// yields float32; every other op needs float32.
// Dimensions that count the batch (Flatten, Concat, Softmax, Transpose, Permute, Max, Mean, Sum)
// use torch's numbering and refuse 0.
Analysis analyze(const ModelSpec &spec);

// Parse + analyze; throws SpecError when anything is wrong.
Analysis analyzeOrThrow(const ModelSpec &spec);

// The torchinfo-like table `torchwright check` prints: node, op, output shape, params, share.
std::string formatSummary(const ModelSpec &spec, const Analysis &analysis);

}  // namespace tw::spec
