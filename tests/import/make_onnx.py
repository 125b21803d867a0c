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
    written as MatMul, Softmax, MatMul over heads made by Reshape and Transpose."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32)
        self.encoder = nn.TransformerEncoderLayer(32, 4, 64, batch_first=True)
        self.head = nn.Linear(32, 5)

    def forward(self, x):
        return self.head(self.encoder(self.proj(x)).mean(1))


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
    "encoder": (Encoder, (2, 16, 32), 13, EVAL, False),
}


TORCHVISION = [name for name in CASES if name not in ("folding", "topk", "sequence_mlp_13", "sequence_mlp_17", "encoder")]


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
