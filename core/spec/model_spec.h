#pragma once
// The model specification: a DAG of typed nodes, with reusable blocks already expanded.
//
// YAML form (see resources/examples/fashion_mlp.model.yaml):
//
//   name: mlp
//   blocks:
//     dense:                       # a reusable block: define once, instantiate with parameters
//       params: {width: 128, p: 0.1}
//       inputs: [x]
//       nodes:
//         - {id: fc, op: Linear, out_features: $width, inputs: [x]}
//         - {id: act, op: ReLU}                 # no `inputs`: takes the previous node
//         - {id: drop, op: Dropout, p: $p}
//       output: drop
//   nodes:
//     - {id: image, op: Input, shape: [1, 28, 28]}
//     - {id: flat, op: Flatten}
//     - {id: h1, block: dense, width: 256}      # expands to h1.fc, h1.act, h1.drop
//     - {id: logits, op: Linear, out_features: 10}
//   output: logits                              # default: the last node
//
// `layers:` is accepted as a synonym of `nodes:` for plain stacks; there (only there) `id` may be
// left out and is generated as `<op lowercased>_<index>` (`<block>_<index>` for a block instance),
// index counting entries of the list from 0: `- {op: Linear, out_features: 10}` third in the list
// becomes `linear_2`.
//
// A node: `id`, `op` (or `block`), `inputs` (a list or one id; absent: the previous node, except
// for ops that take no inputs such as Input), and its parameters, either as further keys or in a
// nested `params:` map. Inside a block, a parameter value `$name` is replaced by the block
// parameter `name` (the instance's override, else the block's default; a default of null makes
// the parameter required). A block's declared `inputs` are bound, in order, to the instance's
// `inputs` (absent: the previous node); a member without `inputs` takes the previous member, the
// first one the block's first input. Later references to the instance id mean the block's output.
// A block may instantiate other blocks, at most kMaxBlockDepth levels deep (a deeper file is
// refused at the instance that goes too deep: ids grow with every level, and the expansion
// recurses once per level, so a generated file 10,000 levels deep would exhaust the stack).
//
// Fine-tuning keys, on a node or a block instance (then for every member that does not set its
// own): `trainable: false` freezes the node's parameters (a frozen BatchNorm keeps its running
// statistics), `lr_factor: 0.1` scales the learning rate of its parameters. Neither is a
// parameter of the op, so both sit beside `params:` when written back.
//
// Memory, on a node or a block instance: `checkpoint_activations: true` keeps only what enters
// the node (or the whole instance) during the forward pass and recomputes the rest in the
// backward pass (graph_module.cpp). An instance's members form one such segment, named after the
// instance; written back node by node, a member says which segment it belongs to
// (`checkpoint_activations: encoder1`), so the segments read back the same.

#include "core/spec/diagnostic.h"
#include "core/spec/param.h"

#include <string>
#include <vector>

namespace tw::spec {

struct Node {
  std::string id;                   // unique; block members are "<instance>.<member>"
  std::string op;                   // registry name, e.g. "Conv2d"
  ParamMap params;                  // as written, converted to the registry's types by analyze()
  std::vector<std::string> inputs;  // node ids
  bool trainable = true;            // false: parameters frozen
  double lrFactor = 1.0;            // the run's learning rate times this for its parameters
  std::string checkpointSegment;    // not empty: activations recomputed in backward, per segment
  SourceLocation where;             // the node's line in the model file
  // Where each param was written; also holds the keys "op" and "inputs" when they were written.
  std::vector<std::pair<std::string, SourceLocation>> paramLocations;

  // The location of `field` when it was written, else the node's own location.
  SourceLocation locationOf(const std::string &field) const;
};

struct ModelSpec {
  std::string name;
  std::string file;  // path it was read from, empty when parsed from a string
  std::vector<Node> nodes;  // in file order, blocks expanded in place
  std::string output;       // id of the output node
  SourceLocation outputWhere;  // where `output:` was written (line 0 when it was defaulted)

  const Node *find(const std::string &id) const;
};

// Parse a model file / YAML text. Syntax problems (bad YAML, unknown keys at the top level,
// a block that does not exist, a missing id) throw SpecError with file:line locations.
// Semantic checks (ops, inputs, cycles, shapes, ranges) are analyze()'s job.
constexpr int kMaxBlockDepth = 64;
ModelSpec parseModelFile(const std::string &path);
ModelSpec parseModelYaml(const std::string &yamlText, const std::string &fileName = {});

// Serialise back to YAML (blocks expanded); parseModelYaml(toYaml(s)) reproduces s.
std::string toYaml(const ModelSpec &spec);

}  // namespace tw::spec
