// The Runs page on runs the real CLI trains in the test: the Layer Norms tab draws the per-layer
// norms the engine recorded, cell for cell, and the context menu's Reproduce starts
// `torchwright reproduce RUN --detach`, whose new run Studio lists and sees finish.

#include "studio_fixture.h"

#include "core/config/metric_keys.h"
#include "ui/charts/grid_heatmap.h"
#include "ui/main_window.h"
#include "ui/runs/layer_norms_panel.h"
#include "ui/runs/run_detail_view.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"

#include <QComboBox>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include <cmath>

using tw::tracking::RunStatus;

namespace {

// Two Linear layers on three blobs: four parameter tensors, a few seconds of training.
const char *kRunFile = R"(model:
  name: blobs_mlp
  nodes:
    - {id: x, op: Input, shape: [2]}
    - {id: hidden, op: Linear, out_features: 8}
    - {id: act, op: ReLU}
    - {id: logits, op: Linear, out_features: 3}
data: {dataset: blobs, samples: 300, classes: 3, batch_size: 32}
train: {optimizer: adam, lr: 0.01, epochs: 3, seed: 5, threads: 1}
tracking: {experiment: studio, run_name: blobs}
)";

// Trains the run above into the workspace with the real CLI.
bool trainBlobs(const tw::test::Workspace &ws, QString *said) {
  return tw::test::trainWithCli(ws, kRunFile, QStringLiteral("blobs.run.yaml"), said);
}

}  // namespace

class TestStudioRealRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  // The heat map has one row per parameter tensor and one column per epoch, and each cell is the
  // norm the engine recorded for that tensor at the end of that epoch; the selector switches to
  // the gradients'.
  void layerNormsHeatmapShowsRecordedNorms() {
    tw::test::Workspace ws;
    QString said;
    QVERIFY2(trainBlobs(ws, &said), qPrintable(said));
    const auto run = *ws.store->findRun("blobs");
    // What the engine recorded, read back the test's own way.
    std::vector<std::string> weightKeys;
    for (const auto &key : ws.store->metricKeys(run.id))
      if (key.rfind(tw::config::metrics::kWeightNormPrefix, 0) == 0) weightKeys.push_back(key);
    QCOMPARE(weightKeys.size(), size_t(4));  // hidden and logits, weight and bias
    int64_t epochTwoStep = -1;
    for (const auto &point : ws.store->metricPoints(run.id, "epoch"))
      if (std::llround(point.value) == 2) epochTwoStep = point.step;
    QVERIFY(epochTwoStep > 0);
    double expected = std::nan("");
    for (const auto &point : ws.store->metricPoints(run.id, "weight_norm/hidden.weight"))
      if (point.step == epochTwoStep) expected = point.value;
    QVERIFY(std::isfinite(expected));

    tw::ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    QTRY_VERIFY(window.runsPage()->model()->rowOfRun(run.id) >= 0);
    window.runsPage()->selectRun(run.id);
    tw::ui::LayerNormsPanel *norms = window.runsPage()->detail()->layerNormsPanel();
    window.runsPage()->detail()->tabs()->setCurrentWidget(norms);
    tw::ui::GridHeatmap *map = norms->heatmap();
    QTRY_COMPARE(map->filledCellCount(), 4 * 3);
    QCOMPARE(map->rowCount(), 4);
    QCOMPARE(map->columnCount(), 3);
    QCOMPARE(norms->kind(), tw::ui::LayerNormsPanel::Kind::Weights);
    int row = -1;
    for (int r = 0; r < map->rowCount(); ++r)
      if (map->cellToolTip(r, 1).startsWith("hidden.weight\n")) row = r;
    QVERIFY2(row >= 0, "no row for hidden.weight");
    QCOMPARE(map->value(row, 1), expected);  // column 1 is epoch 2
    QVERIFY2(map->cellToolTip(row, 1).contains("Epoch 2"), qPrintable(map->cellToolTip(row, 1)));
    // The cell under the pointer is the one the tooltip names.
    QCOMPARE(map->cellAt(map->cellRect(row, 1).center()), QPoint(1, row));

    norms->kindSelector()->setCurrentIndex(1);
    QCOMPARE(norms->kind(), tw::ui::LayerNormsPanel::Kind::Gradients);
    QCOMPARE(map->filledCellCount(), 4 * 3);
    double gradient = std::nan("");
    for (const auto &point : ws.store->metricPoints(run.id, "grad_norm/hidden.weight"))
      if (point.step == epochTwoStep) gradient = point.value;
    QCOMPARE(map->value(row, 1), gradient);
    const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    window.grab().save(dir + QStringLiteral("/studio_layer_norms.png"));
  }

  // Reproduce starts the run again in the background: the CLI answers at once, the new run is
  // listed, finishes and carries the verdict.
  void reproduceStartsANewRun() {
    tw::test::Workspace ws;
    QString said;
    QVERIFY2(trainBlobs(ws, &said), qPrintable(said));
    const auto original = *ws.store->findRun("blobs");

    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::RunsPage *page = window.runsPage();
    page->setCliPath(QStringLiteral(TW_BIN_DIR "/torchwright"));
    QTRY_VERIFY(page->model()->rowOfRun(original.id) >= 0);
    QSignalSpy answered(page, &tw::ui::RunsPage::reproduceFinished);
    QVERIFY(page->reproduceRun(original.id));
    QVERIFY(answered.wait(60000));
    QVERIFY2(answered.front().at(0).toInt() == 0, qPrintable(answered.front().at(1).toString()));
    QVERIFY2(answered.front().at(1).toString().contains("in the background"),
             qPrintable(answered.front().at(1).toString()));
    const auto repro = ws.store->findRun("blobs-repro");
    QVERIFY(repro.has_value());
    QCOMPARE(ws.store->tags(repro->id).at("reproduces"), original.uuid);
    QTRY_VERIFY_WITH_TIMEOUT(page->model()->rowOfRun(repro->id) >= 0, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(page->model()->snapshot(repro->id)->run.status, RunStatus::Finished, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(ws.store->tags(repro->id).count("reproduction") == 1, 30000);
    QCOMPARE(ws.store->tags(repro->id).at("reproduction"), std::string("identical"));
  }
};

QTEST_MAIN(TestStudioRealRun)
#include "test_studio_real_run.moc"
