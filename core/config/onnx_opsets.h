#pragma once
// The ONNX opsets Torchwright writes: the exporter (core/engine/export), the CLI's `export` and
// Studio's Export dialog, which do not link the engine, read the range here.

namespace tw::config {

inline constexpr int kMinOnnxOpset = 13;
inline constexpr int kMaxOnnxOpset = 17;  // the default

}  // namespace tw::config
