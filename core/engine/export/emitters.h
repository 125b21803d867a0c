#pragma once
// The emitter types: what each registry op becomes in an exported file, one function per op and
// format. They are registered beside the op's builder, in op_builders.cpp's table, so an op
// without an emitter is one missing table cell, which test_export_coverage finds.

namespace tw::engine {

class TorchScriptEmit;  // torchscript_emit.h
class OnnxEmit;         // onnx_emit.h

using TorchScriptEmitter = void (*)(TorchScriptEmit &);
using OnnxEmitter = void (*)(OnnxEmit &);

}  // namespace tw::engine
