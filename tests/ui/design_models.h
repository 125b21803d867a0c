#pragma once
// Models the Design tests open: a 200-node network the size of an imported torchvision model, and
// the example model files, written where a test can open them as a person would.

#include <QFile>
#include <QString>
#include <QStringList>

namespace tw::test {

// Residual blocks, then inception-like modules of three branches joined by a Concat: 200 nodes.
inline QString largeModelYaml() {
  QString y = QStringLiteral("name: large\nnodes:\n  - {id: image, op: Input, shape: [3, 32, 32]}\n"
                             "  - {id: stem, op: Conv2d, out_channels: 16, kernel_size: 3, padding: 1}\n");
  QString last = QStringLiteral("stem");
  for (int b = 1; b <= 24; ++b) {
    const QString p = QStringLiteral("r%1_").arg(b);
    y += QStringLiteral("  - {id: %1c1, op: Conv2d, out_channels: 16, kernel_size: 3, padding: 1, inputs: [%2]}\n"
                        "  - {id: %1n1, op: BatchNorm2d}\n  - {id: %1a1, op: ReLU}\n"
                        "  - {id: %1c2, op: Conv2d, out_channels: 16, kernel_size: 3, padding: 1}\n"
                        "  - {id: %1n2, op: BatchNorm2d}\n  - {id: %1sum, op: Add, inputs: [%1n2, %2]}\n"
                        "  - {id: %1a2, op: ReLU}\n")
             .arg(p, last);
    last = p + QStringLiteral("a2");
  }
  for (int m = 1; m <= 4; ++m) {
    const QString p = QStringLiteral("m%1_").arg(m);
    y += QStringLiteral("  - {id: %1a, op: Conv2d, out_channels: 8, kernel_size: 1, inputs: [%2]}\n"
                        "  - {id: %1b1, op: Conv2d, out_channels: 8, kernel_size: 1, inputs: [%2]}\n"
                        "  - {id: %1b2, op: Conv2d, out_channels: 8, kernel_size: 3, padding: 1}\n"
                        "  - {id: %1p, op: MaxPool2d, kernel_size: 3, stride: 1, padding: 1, inputs: [%2]}\n"
                        "  - {id: %1cat, op: Concat, inputs: [%1a, %1b2, %1p]}\n"
                        "  - {id: %1mix, op: Conv2d, out_channels: 16, kernel_size: 1}\n")
             .arg(p, last);
    last = p + QStringLiteral("mix");
  }
  y += QStringLiteral("  - {id: pool, op: AdaptiveAvgPool2d, output_size: 1, inputs: [%1]}\n"
                      "  - {id: flat, op: Flatten}\n  - {id: hidden, op: Linear, out_features: 64}\n"
                      "  - {id: hidden_act, op: ReLU}\n  - {id: drop, op: Dropout}\n"
                      "  - {id: logits, op: Linear, out_features: 10}\n")
           .arg(last);
  return y;
}

// Writes the 200-node model to `path`; false when it cannot be written.
inline bool writeLargeModel(const QString &path) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  return file.write(largeModelYaml().toUtf8()) > 0;
}

// The model files under resources/examples.
inline QStringList exampleModels() {
  return {QStringLiteral("fashion_cnn"), QStringLiteral("fashion_mlp"), QStringLiteral("fashion_search"),
          QStringLiteral("fashion_transformer")};
}
inline QString exampleModelPath(const QString &name) {
  return QStringLiteral(TW_SOURCE_DIR "/resources/examples/") + name + QStringLiteral(".model.yaml");
}

}  // namespace tw::test
