#pragma once
// One ONNX emitter per registry op (onnx_emitters.cpp, sequence ops in
// onnx_sequence_emitters.cpp); op_builders.cpp registers each beside the op's builder.

#include "core/engine/export/emitters.h"

namespace tw::engine::onnx_ops {

void Input(OnnxEmit &e);
void Linear(OnnxEmit &e);
void Conv1d(OnnxEmit &e);
void Conv2d(OnnxEmit &e);
void BatchNorm(OnnxEmit &e);  // BatchNorm1d and BatchNorm2d
void LayerNorm(OnnxEmit &e);
void Identity(OnnxEmit &e);   // Dropout: evaluation mode
void Embedding(OnnxEmit &e);
void ReLU(OnnxEmit &e);
void LeakyReLU(OnnxEmit &e);
void GELU(OnnxEmit &e);
void SiLU(OnnxEmit &e);
void Tanh(OnnxEmit &e);
void Sigmoid(OnnxEmit &e);
void ReLU6(OnnxEmit &e);
void Hardsigmoid(OnnxEmit &e);
void Hardswish(OnnxEmit &e);
void MaxPool2d(OnnxEmit &e);
void AvgPool2d(OnnxEmit &e);
void AdaptiveAvgPool2d(OnnxEmit &e);
void Flatten(OnnxEmit &e);
void Softmax(OnnxEmit &e);
void LogSoftmax(OnnxEmit &e);
void Add(OnnxEmit &e);
void Mul(OnnxEmit &e);
void Concat(OnnxEmit &e);
void Transpose(OnnxEmit &e);
void Permute(OnnxEmit &e);
void Max(OnnxEmit &e);
void Mean(OnnxEmit &e);
void Sum(OnnxEmit &e);
void ChannelShuffle(OnnxEmit &e);
void Slice(OnnxEmit &e);
void Reshape(OnnxEmit &e);
void PositionalEmbedding(OnnxEmit &e);
void MultiheadAttention(OnnxEmit &e);
void TransformerEncoderLayer(OnnxEmit &e);
void SequenceMean(OnnxEmit &e);

}  // namespace tw::engine::onnx_ops
