// "Has a convolution": the one rule behind the thread plan (any convolution) and the
// channels-last layout (2-D convolutions), on models with and without, blocks included.

#include "core/spec/convolutions.h"
#include "core/spec/registry.h"

#include <QtTest>

using namespace tw::spec;

class TestSpecConvolutions : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void models_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<bool>("any");
    QTest::addColumn<bool>("oneD");
    QTest::addColumn<bool>("twoD");
    const QString input = "nodes:\n  - {id: x, op: Input, shape: [1, 8, 8]}\n";
    QTest::newRow("mlp") << input + "  - {id: flat, op: Flatten}\n  - {id: fc, op: Linear, out_features: 3}\n"
                         << false << false << false;
    QTest::newRow("conv2d") << input + "  - {id: c, op: Conv2d, out_channels: 4, kernel_size: 3}\n"
                            << true << false << true;
    QTest::newRow("conv1d") << "nodes:\n  - {id: x, op: Input, shape: [2, 16]}\n"
                               "  - {id: c, op: Conv1d, out_channels: 4, kernel_size: 3}\n"
                            << true << true << false;
    // A convolution inside a block counts: blocks are expanded into the spec's nodes.
    QTest::newRow("conv2d in a block")
        << "blocks:\n  unit:\n    nodes:\n      - {id: c, op: Conv2d, out_channels: 4, kernel_size: 3}\n"
           "      - {id: a, op: ReLU}\n"
           "nodes:\n  - {id: x, op: Input, shape: [1, 8, 8]}\n  - {id: u, block: unit}\n"
        << true << false << true;
  }

  void models() {
    QFETCH(QString, yaml);
    QFETCH(bool, any);
    QFETCH(bool, oneD);
    QFETCH(bool, twoD);
    const ModelSpec spec = parseModelYaml(yaml.toStdString());
    QCOMPARE(hasConvolution(spec), any);
    QCOMPARE(hasConvolution(spec, 1), oneD);
    QCOMPARE(hasConvolution(spec, 2), twoD);
  }

  void everyRegistryConvolutionIsKnown() {
    // A new convolution op in the registry (Conv3d, ConvTranspose2d) must teach the rule its
    // dimensions, or the thread plan and the layout would treat it as a dense layer.
    for (const OpDef &op : Registry::instance().ops()) {
      const bool convolution = op.name.rfind("Conv", 0) == 0;
      QVERIFY2((convolutionDims(op.name) > 0) == convolution, op.name.c_str());
    }
    QCOMPARE(convolutionDims("Conv1d"), 1);
    QCOMPARE(convolutionDims("Conv2d"), 2);
  }
};

QTEST_APPLESS_MAIN(TestSpecConvolutions)
#include "test_spec_convolutions.moc"
