#include "core/engine/import/onnx_tensor.h"

#include "core/engine/import/import_error.h"

#include <onnx/onnx_pb.h>

#include <cstring>

namespace tw::engine {

namespace {

std::string shapeText(const std::vector<int64_t> &dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

// The typed repeated fields, for files that do not use raw_data (small constants often).
template <typename Field>
torch::Tensor fromField(const Field &field, torch::ScalarType fieldType, torch::ScalarType type) {
  std::vector<typename Field::value_type> values(field.begin(), field.end());
  torch::Tensor t = torch::empty({static_cast<int64_t>(values.size())}, fieldType);
  if (!values.empty()) std::memcpy(t.data_ptr(), values.data(), values.size() * sizeof(values[0]));
  return t.to(type);
}

}  // namespace

torch::Tensor tensorFromOnnx(const onnx::TensorProto &proto, const std::string &file) {
  const std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  const std::string what = file + ": tensor '" + proto.name() + "' " + shapeText(dims);
  for (int64_t d : dims)
    if (d < 0) throw ImportError(what + " has a negative dimension");
  torch::ScalarType type;
  switch (proto.data_type()) {
    case onnx::TensorProto::FLOAT: type = torch::kFloat; break;
    case onnx::TensorProto::DOUBLE: type = torch::kDouble; break;
    case onnx::TensorProto::INT64: type = torch::kLong; break;
    case onnx::TensorProto::INT32: type = torch::kInt; break;
    case onnx::TensorProto::INT8: type = torch::kChar; break;
    case onnx::TensorProto::UINT8: type = torch::kByte; break;
    case onnx::TensorProto::BOOL: type = torch::kBool; break;
    case onnx::TensorProto::FLOAT16: type = torch::kHalf; break;
    default:
      throw ImportError(what + " has ONNX element type " + std::to_string(proto.data_type()) +
                        ", which the importer does not read (float, double, float16, int64, int32, int8, uint8, bool)");
  }
  if (proto.data_location() == onnx::TensorProto::EXTERNAL)
    throw ImportError(what + " keeps its data in an external file that was not loaded");
  // The shape is checked against the values the file holds before anything is allocated: a
  // shape of 2^40 elements over a few bytes must be refused, not attempted (tests/fuzz/onnx_import).
  const int valueCount = proto.float_data_size() + proto.double_data_size() + proto.int64_data_size() +
                         proto.int32_data_size();
  const uint64_t held = proto.has_raw_data() ? proto.raw_data().size() : static_cast<uint64_t>(valueCount);
  const uint64_t itemSize = proto.has_raw_data() ? c10::elementSize(type) : 1;
  constexpr unsigned __int128 kPast64 = static_cast<unsigned __int128>(1) << 64;
  unsigned __int128 need = itemSize;
  for (int64_t d : dims) need = need >= kPast64 ? (d == 0 ? 0 : need) : need * static_cast<uint64_t>(d);
  if (need != held) {
    const std::string needText = need >= kPast64 ? "more than 2^64" : std::to_string(static_cast<uint64_t>(need));
    throw ImportError(what + " holds " + std::to_string(held) + (proto.has_raw_data() ? " bytes" : " values") +
                      " where its shape needs " + needText + " (is the file truncated?)");
  }
  torch::Tensor out = torch::empty(dims, type);
  const size_t bytes = static_cast<size_t>(out.numel()) * out.element_size();
  if (proto.has_raw_data()) {
    if (bytes) std::memcpy(out.data_ptr(), proto.raw_data().data(), bytes);
    return out;
  }
  torch::Tensor flat;
  switch (proto.data_type()) {
    case onnx::TensorProto::FLOAT: flat = fromField(proto.float_data(), torch::kFloat, type); break;
    case onnx::TensorProto::DOUBLE: flat = fromField(proto.double_data(), torch::kDouble, type); break;
    case onnx::TensorProto::INT64: flat = fromField(proto.int64_data(), torch::kLong, type); break;
    case onnx::TensorProto::FLOAT16: {
      // float16 values travel as the low 16 bits of int32_data.
      torch::Tensor bits = fromField(proto.int32_data(), torch::kInt, torch::kInt).to(torch::kShort);
      flat = bits.view(torch::kHalf);
      break;
    }
    default: flat = fromField(proto.int32_data(), torch::kInt, type); break;  // int32, int8, uint8, bool
  }
  if (flat.numel() != out.numel()) {
    throw ImportError(what + " holds " + std::to_string(flat.numel()) + " values where its shape needs " +
                      std::to_string(out.numel()) + " (is the file truncated?)");
  }
  return flat.reshape(dims).clone();
}

}  // namespace tw::engine
