// A recorded run's model as `runs export --to tensorboard` hands it to the Graphs tab: read from
// the resolved configuration a run records (the bundled MLP example, with its blocks), shapes
// inferred, inferred parameters filled in, block members nested under their block.

#include "app/common/model_graph.h"
#include "core/config/run_config.h"

#include <QtTest>

#include <map>

class TestModelGraph : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void recordedConfigurationBecomesTheGraph() {
    const auto config = tw::config::loadRunConfig(TW_SOURCE_DIR "/resources/examples/fashion_mlp.run.yaml",
                                                  {"train.epochs=1"});
    const std::vector<tw::tracking::GraphNode> graph = tw::app::modelGraph(tw::config::toYaml(config));
    std::map<std::string, const tw::tracking::GraphNode *> byName;
    for (const auto &node : graph) byName[node.name] = &node;
    QCOMPARE(graph.size(), size_t(9));  // image, flat, 2 blocks of 3, logits
    QCOMPARE(graph.front().name, std::string("image"));
    QVERIFY(byName.count("h1/fc") && byName.count("h2/drop"));
    const auto &fc = *byName["h1/fc"];
    QCOMPARE(fc.op, std::string("Linear"));
    QCOMPARE(fc.inputs, std::vector<std::string>{"flat"});
    QCOMPARE(fc.outputShape, std::vector<int64_t>{256});
    std::map<std::string, tw::tracking::GraphAttr> attrs(fc.attrs.begin(), fc.attrs.end());
    QCOMPARE(std::get<int64_t>(attrs.at("in_features")), int64_t(784));  // inferred from the shape
    QCOMPARE(std::get<int64_t>(attrs.at("out_features")), int64_t(256));
    QCOMPARE(std::get<int64_t>(attrs.at("parameters")), int64_t(784 * 256 + 256));
    // A block's output is its last member: what reads the block reads that.
    QCOMPARE(byName["h2/fc"]->inputs, std::vector<std::string>{"h1/drop"});
    QCOMPARE(byName["logits"]->inputs, std::vector<std::string>{"h2/drop"});
    QCOMPARE(byName["logits"]->outputShape, std::vector<int64_t>{10});
    QCOMPARE(byName["image"]->outputShape, (std::vector<int64_t>{1, 28, 28}));
  }

  void aRunWithoutConfigurationSaysSo() {
    try {
      tw::app::modelGraph("");
      QFAIL("an empty configuration gave a graph");
    } catch (const std::runtime_error &e) {
      QVERIFY2(QString(e.what()).contains("no recorded configuration"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestModelGraph)
#include "test_model_graph.moc"
