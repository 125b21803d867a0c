#include "ui/design/model_templates.h"

#include <QCoreApplication>

namespace tw::ui {

namespace {

const char *kMlp = R"(name: mlp
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: flat, op: Flatten}
  - {id: fc1, op: Linear, out_features: 256}
  - {id: act1, op: ReLU}
  - {id: fc2, op: Linear, out_features: 128}
  - {id: act2, op: ReLU}
  - {id: logits, op: Linear, out_features: 10}
)";

const char *kLeNet = R"(name: lenet
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: conv1, op: Conv2d, out_channels: 6, kernel_size: 5, padding: 2}
  - {id: act1, op: ReLU}
  - {id: pool1, op: MaxPool2d, kernel_size: 2}
  - {id: conv2, op: Conv2d, out_channels: 16, kernel_size: 5}
  - {id: act2, op: ReLU}
  - {id: pool2, op: MaxPool2d, kernel_size: 2}
  - {id: flat, op: Flatten}
  - {id: fc1, op: Linear, out_features: 120}
  - {id: act3, op: ReLU}
  - {id: fc2, op: Linear, out_features: 84}
  - {id: act4, op: ReLU}
  - {id: logits, op: Linear, out_features: 10}
)";

// Two residual blocks: each adds its input back (the identity shortcut) before the activation.
const char *kResNet = R"(name: small_resnet
blocks:
  residual:
    params: {channels: 16}
    inputs: [x]
    nodes:
      - {id: conv1, op: Conv2d, out_channels: $channels, kernel_size: 3, padding: 1, bias: false, inputs: [x]}
      - {id: bn1, op: BatchNorm2d}
      - {id: act1, op: ReLU}
      - {id: conv2, op: Conv2d, out_channels: $channels, kernel_size: 3, padding: 1, bias: false}
      - {id: bn2, op: BatchNorm2d}
      - {id: sum, op: Add, inputs: [bn2, x]}
      - {id: act2, op: ReLU}
    output: act2
nodes:
  - {id: image, op: Input, shape: [3, 32, 32]}
  - {id: stem, op: Conv2d, out_channels: 16, kernel_size: 3, padding: 1, bias: false}
  - {id: stem_bn, op: BatchNorm2d}
  - {id: stem_act, op: ReLU}
  - {id: block1, block: residual}
  - {id: block2, block: residual}
  - {id: pool, op: AdaptiveAvgPool2d, output_size: 1}
  - {id: flat, op: Flatten}
  - {id: logits, op: Linear, out_features: 10}
)";

// Fashion-MNIST read as a sequence: each of the 28 pixel rows is a token of 28 features.
const char *kTransformer = R"(name: transformer
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: rows, op: Reshape, shape: [28, 28]}
  - {id: embed, op: Linear, out_features: 64}
  - {id: position, op: PositionalEmbedding}
  - {id: encoder1, op: TransformerEncoderLayer, nhead: 4, dim_feedforward: 128}
  - {id: encoder2, op: TransformerEncoderLayer, nhead: 4, dim_feedforward: 128}
  - {id: pool, op: SequenceMean}
  - {id: logits, op: Linear, out_features: 10}
)";

}  // namespace

QStringList modelTemplateNames() { return {"mlp", "lenet", "resnet", "transformer"}; }

QString modelTemplateTitle(const QString &name) {
  if (name == "mlp") return QCoreApplication::translate("ModelTemplates", "MLP (784-256-128-10)");
  if (name == "lenet") return QCoreApplication::translate("ModelTemplates", "LeNet-style CNN");
  if (name == "resnet") return QCoreApplication::translate("ModelTemplates", "Small ResNet (2 residual blocks)");
  if (name == "transformer")
    return QCoreApplication::translate("ModelTemplates", "Transformer encoder for sequences (image rows)");
  return name;
}

QString modelTemplateYaml(const QString &name) {
  if (name == "mlp") return QString::fromUtf8(kMlp);
  if (name == "lenet") return QString::fromUtf8(kLeNet);
  if (name == "resnet") return QString::fromUtf8(kResNet);
  if (name == "transformer") return QString::fromUtf8(kTransformer);
  return {};
}

}  // namespace tw::ui
