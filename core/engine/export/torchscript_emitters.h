#pragma once
// One TorchScript emitter per registry op (torchscript_emitters.cpp, sequence ops in
// torchscript_sequence_emitters.cpp); op_builders.cpp registers each beside the op's builder.

#include "core/engine/export/emitters.h"

namespace tw::engine::ts {

void Input(TorchScriptEmit &e);
void Linear(TorchScriptEmit &e);
void Conv1d(TorchScriptEmit &e);
void Conv2d(TorchScriptEmit &e);
void BatchNorm(TorchScriptEmit &e);  // BatchNorm1d and BatchNorm2d
void LayerNorm(TorchScriptEmit &e);
void Identity(TorchScriptEmit &e);   // Dropout: evaluation mode
void Embedding(TorchScriptEmit &e);
void ReLU(TorchScriptEmit &e);
void LeakyReLU(TorchScriptEmit &e);
void GELU(TorchScriptEmit &e);
void SiLU(TorchScriptEmit &e);
void Tanh(TorchScriptEmit &e);
void Sigmoid(TorchScriptEmit &e);
void ReLU6(TorchScriptEmit &e);
void Hardsigmoid(TorchScriptEmit &e);
void Hardswish(TorchScriptEmit &e);
void MaxPool2d(TorchScriptEmit &e);
void AvgPool2d(TorchScriptEmit &e);
void AdaptiveAvgPool2d(TorchScriptEmit &e);
void Flatten(TorchScriptEmit &e);
void Softmax(TorchScriptEmit &e);
void LogSoftmax(TorchScriptEmit &e);
void Add(TorchScriptEmit &e);
void Mul(TorchScriptEmit &e);
void Concat(TorchScriptEmit &e);
void Transpose(TorchScriptEmit &e);
void Permute(TorchScriptEmit &e);
void Max(TorchScriptEmit &e);
void Mean(TorchScriptEmit &e);
void Sum(TorchScriptEmit &e);
void ChannelShuffle(TorchScriptEmit &e);
void Slice(TorchScriptEmit &e);
void Reshape(TorchScriptEmit &e);
void PositionalEmbedding(TorchScriptEmit &e);
void MultiheadAttention(TorchScriptEmit &e);
void TransformerEncoderLayer(TorchScriptEmit &e);
void SequenceMean(TorchScriptEmit &e);

}  // namespace tw::engine::ts
