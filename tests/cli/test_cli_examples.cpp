// The bundled examples beyond Fashion-MNIST, run as a user would: the CSV regression as shipped
// (fewer epochs), and the image-folder example on images drawn by `torchwright demo-images`.

#include "cli_runner.h"

#include "tracking/store.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

namespace {

double latest(tw::tracking::Store &store, int64_t runId, const std::string &key) {
  for (const auto &m : store.latestMetrics(runId))
    if (m.key == key) return m.value;
  return -1.0;
}

}  // namespace

class TestCliExamples : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString workspace() const { return m_dir.path() + "/ws"; }

 private Q_SLOTS:
  void csvRegressionExample() {
    auto r = runCli({"train", TW_SOURCE_DIR "/resources/examples/houses_regression.run.yaml", "--workspace",
                     workspace(), "--set", "train.epochs=40", "--set", "tracking.run_name=houses"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("R2"), qPrintable(r.out));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun("houses");
    QVERIFY(run.has_value());
    QVERIFY2(latest(*store, run->id, "test/r2") > 0.9, qPrintable(QString::number(latest(*store, run->id, "test/r2"))));
    // The data path was relative to the run file; the record holds where it really was.
    QVERIFY(store->params(run->id).at("data.path").find("/resources/examples/data/houses.csv") != std::string::npos);
  }

  void imageFolderExample() {
    const QString images = m_dir.path() + "/shapes";
    auto made = runCli({"demo-images", images, "--per-class", "80"});
    QVERIFY2(made.exitCode == 0, qPrintable(made.all()));
    QCOMPARE(QDir(images + "/triangle").entryList(QDir::Files).size(), 80);
    auto r = runCli({"train", TW_SOURCE_DIR "/resources/examples/shapes_cnn.run.yaml", "--workspace", workspace(),
                     "--set", "data.path=" + images, "--set", "tracking.run_name=shapes"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun("shapes");
    QVERIFY2(latest(*store, run->id, "test/accuracy") > 0.9,
             qPrintable(QString::number(latest(*store, run->id, "test/accuracy"))));
    QVERIFY(QFile::exists(QString::fromStdString(run->runDir) + "/artifacts/test_confusion_matrix.csv"));
    const auto artifacts = store->artifacts(run->id);
    QVERIFY(std::any_of(artifacts.begin(), artifacts.end(), [](auto &a) { return a.path == "checkpoints/best.pt"; }));
  }
};

QTEST_GUILESS_MAIN(TestCliExamples)
#include "test_cli_examples.moc"
