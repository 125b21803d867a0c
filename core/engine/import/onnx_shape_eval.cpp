#include "core/engine/import/onnx_shape_eval.h"

#include <onnx/onnx_pb.h>

#include "core/engine/import/onnx_mappers.h"

namespace tw::engine::onnx_import {

ShapeEval::ShapeEval(NodeImport &n, const GraphIndex &ix, std::map<std::string, std::vector<int64_t>> shapes,
                     int64_t batch)
    : m_n(n), m_ix(ix), m_shapes(std::move(shapes)), m_batch(batch) {
  m_scratch.file = n.graph().file;
  m_scratch.opset = n.graph().opset;
  m_scratch.fileBatch = batch;
  m_scratch.rows.resize(1);
}

std::vector<int64_t> ShapeEval::shapeOf(const std::string &value) const {
  auto known = m_shapes.find(value);
  if (known != m_shapes.end()) return known->second;
  auto made = m_n.graph().values.find(value);
  if (made == m_n.graph().values.end() || made->second.constant()) return {};
  std::vector<int64_t> full{m_batch};
  full.insert(full.end(), made->second.shape.begin(), made->second.shape.end());
  return full;
}

std::vector<int64_t> ShapeEval::ints(const std::string &name) {
  const torch::Tensor t = value(name, 0).tensor.to(torch::kLong).contiguous().reshape({-1});
  return std::vector<int64_t>(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + t.numel());
}

const ImportValue &ShapeEval::value(const std::string &name, int depth) {
  auto have = m_scratch.values.find(name);
  if (have != m_scratch.values.end()) return have->second;
  ImportValue v;
  v.kind = ImportValue::Kind::Constant;
  const std::vector<int64_t> shape = shapeOf(name);
  auto made = m_n.graph().values.find(name);
  if (!shape.empty()) {
    // Only its shape is read (by Shape); a zero-stride view holds no data.
    v.tensor = torch::zeros({}).expand(shape);
    return m_scratch.values[name] = v;
  }
  if (made != m_n.graph().values.end()) {
    // A shape the driver read with the batch left open: the batch entries become this batch size.
    v.tensor =
        made->second.batch.defined()
            ? torch::where(made->second.batch, torch::full_like(made->second.tensor, m_batch), made->second.tensor)
            : made->second.tensor;
    return m_scratch.values[name] = v;
  }
  const int p = m_ix.producer(name);
  if (p < 0) m_n.refuse("'" + name + "' is neither computed by a node nor a constant");
  if (depth > 64) m_n.refuse("the shape arithmetic behind '" + name + "' is deeper than 64 nodes");
  const onnx::NodeProto &node = m_ix.node(p);
  const NodeHandler folder = findFolder(node.op_type());
  if (!folder)
    m_n.refuse(node.op_type() + " '" + m_ix.name(p) + "' computes '" + name +
               "' from data, not from shapes and constants");
  for (const std::string &in : node.input())
    if (!in.empty()) value(in, depth + 1);
  NodeImport step(m_scratch, node, 0);
  try {
    folder(step);
  } catch (const NodeRefusal &e) {
    m_n.refuse(node.op_type() + " '" + m_ix.name(p) + "' in the shape arithmetic: " + e.what());
  } catch (const c10::Error &e) {
    m_n.refuse(node.op_type() + " '" + m_ix.name(p) + "' in the shape arithmetic: " + e.what_without_backtrace());
  }
  have = m_scratch.values.find(name);
  if (have == m_scratch.values.end())
    m_n.refuse(node.op_type() + " '" + m_ix.name(p) + "' gives no value '" + name + "'");
  return have->second;
}

}  // namespace tw::engine::onnx_import
