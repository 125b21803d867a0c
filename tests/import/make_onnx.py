# Writes the ONNX files the import tests read, with python3-torch and torchvision at test time
# (no weights are downloaded: torchvision's networks are built with weights=None from a fixed seed).
# Batch norm gets random running statistics and affine terms, so that a mapping which dropped or
# misread them would change the outputs, and the classifier is scaled so that the logits spread
# over a few units. Prints one JSON line per file:
#   {"name", "file", "input", "output", "shape", "opset"}
#
#   /usr/bin/python3 tests/import/make_onnx.py OUT_DIR NAME [NAME ...]
import json
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


def randomize_batch_norm(model):
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                m.running_mean.uniform_(-0.3, 0.3)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.3, 0.3)


def scale_logits(model, shape):
    """torchvision's classifiers start near zero (logits of a few hundredths); scaled so that the
    logits spread over a few units, an absolute tolerance of 1e-4 is a strict one."""
    layers = [m for m in model.modules() if isinstance(m, (nn.Linear, nn.Conv2d))]
    with torch.no_grad():
        spread = model(torch.randn(*shape)).std().item()
        layers[-1].weight.mul_(2.0 / spread)
        if layers[-1].bias is not None:
            layers[-1].bias.mul_(2.0 / spread)


class Folding(nn.Module):
    """Shapes computed in the graph (x.view(x.size(0), -1) with an open batch), Clip(0, 6) with
    its bounds as inputs, ceil-mode max pooling, average pooling, a MatMul plus Add that is a
    Linear, and opset 11's Softmax: what the importer folds or maps beyond torchvision's nets."""

    def __init__(self, channels=1, classes=10):
        super().__init__()
        self.conv = nn.Conv2d(channels, 8, 3, padding=1)
        with torch.no_grad():
            self.conv.weight.mul_(8.0)  # so that ReLU6 clips above 6 as well as below 0
        self.bn = nn.BatchNorm2d(8)
        self.act = nn.ReLU6()
        self.pool = nn.MaxPool2d(2, ceil_mode=True)
        self.avg = nn.AvgPool2d(2)
        self.weight = nn.Parameter(torch.randn(8 * 7 * 7, classes) * 0.05)
        self.bias = nn.Parameter(torch.randn(classes) * 0.1)

    def forward(self, x):
        x = self.avg(self.pool(self.act(self.bn(self.conv(x)))))
        x = x.view(x.size(0), -1)
        return F.softmax(x @ self.weight + self.bias, dim=1)


class TopK(nn.Module):
    """An operator the registry has no counterpart for (TopK), twice, and one other (CumSum)."""

    def forward(self, x):
        a = torch.topk(x, 3).values
        b = torch.topk(x * 2, 3).values
        return torch.cumsum(a + b, dim=1)


class SequenceMlp(nn.Module):
    """A token-wise MLP over [N, 16, 32]: Linear, GELU, LayerNorm and Linear on the last dimension
    (MatMul of a 3-D value), a mean over the sequence, a Linear classifier. Below opset 17 torch
    writes LayerNorm as ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add; below opset 20
    GELU as Div, Erf, Add, Mul, Mul. The norm's affine terms are random, so that a mapping which
    dropped or swapped them would change the outputs."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 48)
        self.act = nn.GELU()
        self.norm = nn.LayerNorm(48)
        self.fc2 = nn.Linear(48, 24)
        self.head = nn.Linear(24, 5)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.3, 0.3)
            self.head.weight.mul_(12.0)  # logits over a few units: 1e-4 absolute is strict

    def forward(self, x):
        return self.head(self.fc2(self.norm(self.act(self.fc1(x)))).mean(1))


class Encoder(nn.Module):
    """A TransformerEncoderLayer (self-attention, batch first) between Linear layers: attention is
    written as MatMul, Softmax, MatMul over heads made by Reshape and Transpose, the residuals as
    Add, the norms (below opset 17) as their decomposition."""

    def __init__(self, norm_first=False, activation="relu"):
        super().__init__()
        self.proj = nn.Linear(32, 32)
        self.encoder = nn.TransformerEncoderLayer(32, 4, 64, batch_first=True, norm_first=norm_first,
                                                  activation=activation)
        self.head = nn.Linear(32, 5)
        with torch.no_grad():
            self.encoder.norm1.weight.uniform_(0.5, 1.5)
            self.encoder.norm2.bias.uniform_(-0.3, 0.3)
            self.head.weight.mul_(8.0)  # logits over a few units: 1e-4 absolute is strict

    def forward(self, x):
        return self.head(self.encoder(self.proj(x)).mean(1))


class EncoderNormFirst(Encoder):
    """norm_first and GELU: LayerNorm before each residual branch."""

    def __init__(self):
        super().__init__(norm_first=True, activation="gelu")


class Attention(nn.Module):
    """nn.MultiheadAttention on its own, between Linear layers. batch_first=False transposes around
    it as a [T, N, E] model's caller would; `causal` adds torch's square subsequent mask as a
    constant (what a language model's attention does); `bias=False` leaves out all four biases.
    Its biases are random (torch starts them at zero)."""

    def __init__(self, batch_first=True, bias=True, causal=False):
        super().__init__()
        self.batch_first = batch_first
        self.proj = nn.Linear(32, 32)
        self.attn = nn.MultiheadAttention(32, 4, bias=bias, batch_first=batch_first)
        self.head = nn.Linear(32, 5)
        mask = torch.triu(torch.full((16, 16), float("-inf")), 1) if causal else None
        self.register_buffer("mask", mask)
        with torch.no_grad():
            if bias:
                self.attn.in_proj_bias.uniform_(-0.3, 0.3)
                self.attn.out_proj.bias.uniform_(-0.3, 0.3)
            self.head.weight.mul_(32.0)  # the mean over the sequence of attention's output is small

    def forward(self, x):
        x = self.proj(x)
        if not self.batch_first:
            x = x.transpose(0, 1)
        y = self.attn(x, x, x, need_weights=False, attn_mask=self.mask)[0]
        if not self.batch_first:
            y = y.transpose(0, 1)
        return self.head(y.mean(1))


class AttentionSeparate(Attention):
    """The query, key and value projections as three weights (use_separate_proj_weight, as
    nn.MultiheadAttention has when kdim differs): torch writes three MatMul + Add."""

    def __init__(self):
        super().__init__()
        self.q = nn.Parameter(torch.randn(32, 32) * 0.2)
        self.k = nn.Parameter(torch.randn(32, 32) * 0.2)
        self.v = nn.Parameter(torch.randn(32, 32) * 0.2)

    def forward(self, x):
        x = self.proj(x).transpose(0, 1)
        y = F.multi_head_attention_forward(
            x, x, x, 32, 4, None, self.attn.in_proj_bias, None, None, False, 0.0, self.attn.out_proj.weight,
            self.attn.out_proj.bias, training=False, need_weights=False, use_separate_proj_weight=True,
            q_proj_weight=self.q, k_proj_weight=self.k, v_proj_weight=self.v)[0]
        return self.head(y.transpose(0, 1).mean(1))


class CrossAttention(nn.Module):
    """A near miss: the keys and values come from another Linear of the input, so torch projects
    them apart from the queries; the registry's MultiheadAttention is self-attention."""

    def __init__(self):
        super().__init__()
        self.memory = nn.Linear(32, 32)
        self.attn = nn.MultiheadAttention(32, 4, batch_first=True)

    def forward(self, x):
        m = self.memory(x)
        return self.attn(x, m, m, need_weights=False)[0].mean(1)


class GeluTanh(nn.Module):
    """nn.GELU(approximate='tanh') over [N, 16, 32]: x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715
    x^3))) in 9 nodes and 4 constants."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 48)
        self.act = nn.GELU(approximate="tanh")
        self.fc2 = nn.Linear(48, 5)
        with torch.no_grad():
            self.fc1.weight.mul_(4.0)  # inputs to the GELU over a few units, where tanh and erf differ
            self.fc2.weight.mul_(12.0)  # erf in place of tanh would be off by 8e-4

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)).mean(1))


def torchvision_net(name):
    return lambda: getattr(torchvision.models, name)(weights=None)


# name: (builder, input shape with the batch, opset, training mode, dynamic batch)
EVAL, PRESERVE = torch.onnx.TrainingMode.EVAL, torch.onnx.TrainingMode.PRESERVE
CASES = {
    # BatchNormalization nodes kept (PRESERVE leaves them unfused in an eval-mode model).
    "resnet18": (torchvision_net("resnet18"), (2, 3, 64, 64), 13, PRESERVE, False),
    "squeezenet1_1": (torchvision_net("squeezenet1_1"), (2, 3, 64, 64), 17, EVAL, False),
    # ReLU6 as Clip with constant bounds; an open batch dimension.
    "mobilenet_v2": (torchvision_net("mobilenet_v2"), (2, 3, 64, 64), 11, PRESERVE, True),
    # Hardswish written as x * HardSigmoid(x) (opset 13 has no HardSwish); squeeze-excitation's Mul.
    "mobilenet_v3_small": (torchvision_net("mobilenet_v3_small"), (2, 3, 64, 64), 13, PRESERVE, False),
    # Opset 17: HardSwish itself, batch norm fused into the convolutions by the exporter.
    "mobilenet_v3_small_fused": (torchvision_net("mobilenet_v3_small"), (2, 3, 64, 64), 17, EVAL, False),
    # SiLU written as x * Sigmoid(x); squeeze-excitation's Sigmoid gate and Mul; batch norm kept.
    "efficientnet_b0": (torchvision_net("efficientnet_b0"), (2, 3, 64, 64), 13, PRESERVE, False),
    # Concat of the block's features (of one tensor in each block's first layer), batch norm before
    # ReLU (not fusable into a convolution), AveragePool in the transitions.
    "densenet121": (torchvision_net("densenet121"), (2, 3, 64, 64), 17, EVAL, False),
    # Channel shuffle as Reshape, Transpose, Reshape; chunk as Split; x.mean([2, 3]) as ReduceMean.
    "shufflenet_v2_x0_5": (torchvision_net("shufflenet_v2_x0_5"), (2, 3, 64, 64), 13, PRESERVE, False),
    # AdaptiveAvgPool2d((7, 7)) exports only where the features divide into 7 x 7 (224 x 224 gives
    # 7 x 7 already); 133M parameters, so one sample.
    "vgg11": (torchvision_net("vgg11"), (1, 3, 224, 224), 13, EVAL, False),
    "folding": (Folding, (2, 1, 28, 28), 11, PRESERVE, True),
    "topk": (TopK, (2, 10), 13, EVAL, False),
    # LayerNorm and GELU decomposed (opset 13, an open batch) and LayerNormalization (opset 17).
    "sequence_mlp_13": (SequenceMlp, (2, 16, 32), 13, EVAL, True),
    "sequence_mlp_17": (SequenceMlp, (2, 16, 32), 17, EVAL, False),
    # Without constant folding (PRESERVE): each Linear's weight is Transpose(initializer).
    "sequence_mlp_unfolded": (SequenceMlp, (2, 16, 32), 13, PRESERVE, True),
    # Self-attention folded into MultiheadAttention: packed in_proj cut by three Slices, out_proj
    # as Gemm (with bias) or MatMul (without); the norms decomposed (13) or LayerNormalization (17).
    "encoder": (Encoder, (2, 16, 32), 13, EVAL, False),
    "encoder_norm_first": (EncoderNormFirst, (2, 16, 32), 17, EVAL, True),
    "attention_13": (Attention, (2, 16, 32), 13, EVAL, True),
    "attention_17": (lambda: Attention(batch_first=False, bias=False, causal=True), (2, 16, 32), 17, EVAL, False),
    "attention_separate": (AttentionSeparate, (2, 16, 32), 17, EVAL, False),
    "cross_attention": (CrossAttention, (2, 16, 32), 13, EVAL, False),
    "gelu_tanh": (GeluTanh, (2, 16, 32), 13, EVAL, True),
}


TORCHVISION = [name for name in CASES if name.startswith(("resnet", "squeezenet", "mobilenet", "efficientnet", "densenet",
                                                         "shufflenet", "vgg"))]


def main():
    out_dir, names = sys.argv[1], sys.argv[2:]
    torch.set_num_threads(1)
    for name in names:
        build, shape, opset, mode, dynamic = CASES[name]
        torch.manual_seed(1234)
        model = build()
        randomize_batch_norm(model)
        model.eval()
        if name in TORCHVISION:
            scale_logits(model, shape)
        path = os.path.join(out_dir, name + ".onnx")
        axes = {"input": {0: "batch"}, "logits": {0: "batch"}} if dynamic else None
        torch.onnx.export(model, torch.randn(*shape), path, opset_version=opset, training=mode,
                          do_constant_folding=mode == EVAL, input_names=["input"],
                          output_names=["logits"], dynamic_axes=axes)
        print(json.dumps({"name": name, "file": path, "input": "input", "output": "logits",
                          "shape": list(shape), "opset": opset}), flush=True)


if __name__ == "__main__":
    main()
