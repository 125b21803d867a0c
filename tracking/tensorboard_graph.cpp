#include "tracking/tensorboard_graph.h"

#include "tracking/proto_wire.h"

namespace tw::tracking {

namespace {

// TensorShapeProto: dim 2 (Dim: size 1).
std::string shapeProto(const std::vector<int64_t> &dims) {
  std::string shape;
  for (int64_t d : dims) {
    std::string dim;
    wire::varintField(dim, 1, static_cast<uint64_t>(d));  // int64: negative sizes as ten-byte varints
    wire::bytesField(shape, 2, dim);
  }
  return shape;
}

// AttrValue: list 1 (ListValue: i 3 packed, shape 7), s 2, i 3, f 4, b 5.
std::string attrValue(const GraphAttr &attr) {
  std::string value;
  if (const auto *i = std::get_if<int64_t>(&attr)) wire::varintField(value, 3, static_cast<uint64_t>(*i));
  else if (const auto *f = std::get_if<double>(&attr)) wire::floatField(value, 4, static_cast<float>(*f));
  else if (const auto *b = std::get_if<bool>(&attr)) wire::varintField(value, 5, *b ? 1 : 0);
  else if (const auto *s = std::get_if<std::string>(&attr)) wire::bytesField(value, 2, *s);
  else {
    std::string packed;
    for (int64_t v : std::get<std::vector<int64_t>>(attr)) wire::varint(packed, static_cast<uint64_t>(v));
    std::string list;
    wire::bytesField(list, 3, packed);
    wire::bytesField(value, 1, list);
  }
  return value;
}

std::string attrEntry(const std::string &name, const std::string &value) {
  std::string entry;  // map<string, AttrValue> entry: key 1, value 2
  wire::bytesField(entry, 1, name);
  wire::bytesField(entry, 2, value);
  return entry;
}

}  // namespace

std::string graphDef(const std::vector<GraphNode> &nodes) {
  std::string graph;
  for (const GraphNode &node : nodes) {
    std::string def;
    wire::bytesField(def, 1, node.name);
    wire::bytesField(def, 2, node.op);
    for (const std::string &input : node.inputs) wire::bytesField(def, 3, input);
    std::vector<int64_t> dims{-1};
    dims.insert(dims.end(), node.outputShape.begin(), node.outputShape.end());
    std::string shapes;  // ListValue.shape 7
    wire::bytesField(shapes, 7, shapeProto(dims));
    std::string outputShapes;  // AttrValue.list 1
    wire::bytesField(outputShapes, 1, shapes);
    wire::bytesField(def, 5, attrEntry("_output_shapes", outputShapes));
    for (const auto &[name, attr] : node.attrs) wire::bytesField(def, 5, attrEntry(name, attrValue(attr)));
    wire::bytesField(graph, 1, def);
  }
  std::string versions;  // VersionDef: producer 1
  wire::varintField(versions, 1, 22);
  wire::bytesField(graph, 4, versions);
  return graph;
}

}  // namespace tw::tracking
