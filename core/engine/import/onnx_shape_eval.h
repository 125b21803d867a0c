#pragma once
// Shape arithmetic inside a fold, computed for a chosen batch size: the Shape, Gather, Slice,
// Concat, ... nodes that torch writes around a block's reshapes read values the fold makes
// disappear (a projection's [T, N, 3E]), so the driver never computes them. Given the full shape
// of each such value (batch included), ShapeEval runs the importer's own folders
// (onnx_mappers.h) on a scratch graph, so that a fold can check the reshapes and slices it
// replaces against the shapes its registry op computes. Engine-internal.
//
//   ShapeEval eval(n, ix, {{"query", {16, 2, 32}}, ...}, /*batch=*/2);
//   std::vector<int64_t> target = eval.ints(reshape.input(1));   // [16, 8, 8]

#include <map>
#include <string>
#include <vector>

#include "core/engine/import/node_import.h"
#include "core/engine/import/onnx_graph_index.h"

namespace tw::engine::onnx_import {

class ShapeEval {
 public:
  // `shapes`: the full shapes of the values the fold computes; activations the driver has made
  // already count as [batch, ...their sample shape].
  ShapeEval(NodeImport &n, const GraphIndex &ix, std::map<std::string, std::vector<int64_t>> shapes, int64_t batch);

  // The integers of `value` (a shape, an index list); refuses, through n, naming the node that
  // cannot be computed from shapes and constants.
  std::vector<int64_t> ints(const std::string &value);
  // The full shape of a value in `shapes` or made by the driver.
  std::vector<int64_t> shapeOf(const std::string &value) const;

 private:
  const ImportValue &value(const std::string &name, int depth);

  NodeImport &m_n;
  const GraphIndex &m_ix;
  std::map<std::string, std::vector<int64_t>> m_shapes;
  int64_t m_batch;
  ImportGraph m_scratch;
};

}  // namespace tw::engine::onnx_import
