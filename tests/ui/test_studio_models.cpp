// Studio's export and registry on offscreen, on a real run trained by the real CLI: the Export
// dialog runs `torchwright export` off the UI thread and shows the check (or the refusal, in red);
// the Models page lists the registry's versions with their lineage, promotes through the CLI, and
// "Try It" runs the version's TorchScript file in the worker on the run's test examples.
#include "studio_fixture.h"

#include "ui/common/state_labels.h"
#include "ui/models/export_dialog.h"
#include "ui/models/models_page.h"

#include <QFileInfo>
#include <QLabel>
#include <QTextBrowser>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>

using namespace tw;

namespace {

QString cli() { return QStringLiteral(TW_BIN_DIR "/torchwright"); }

QString runCli(const QStringList &args, int *code) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(cli(), args);
  p.waitForFinished(300000);
  *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  return QString::fromUtf8(p.readAll());
}

void saveShot(QWidget *widget, const QString &name) {
  tw::test::settleEvents();
  const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
  QDir().mkpath(dir);
  widget->grab().save(dir + QLatin1Char('/') + name);
}

}  // namespace

class TestStudioModels : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;
  QString m_workspace, m_run;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings(m_dir.path() + "/settings");
    m_workspace = m_dir.path() + "/ws";
    int code = 0;
    const QString out = runCli({"train", QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_mlp.run.yaml"), "--set",
                                "train.epochs=1", "--set", "data.train_limit=1000", "--set", "data.test_limit=50", "--set",
                                "tracking.run_name=studio-export", "--workspace", m_workspace},
                               &code);
    QVERIFY2(code == 0, qPrintable(out));
    auto store = tracking::Store::open(tracking::workspaceStore(m_workspace.toStdString()));
    m_run = QString::fromStdString(store->findRun("studio-export")->uuid);
  }

  void exportDialogShowsTheCheck() {
    ui::ExportDialog dialog(m_workspace, m_run, QStringLiteral("studio-export"));
    dialog.setCliPath(cli());
    dialog.show();
    // The default file is in the workspace's exports folder, made on Export.
    QVERIFY(dialog.outputFile().startsWith(m_workspace + "/exports/studio-export"));
    dialog.setFormat(QStringLiteral("onnx"));
    QVERIFY(dialog.outputFile().endsWith(".onnx"));
    dialog.setInt8(true);
    QVERIFY(dialog.arguments().contains("--int8"));
    dialog.setRegisterAs(QStringLiteral("from-studio"));
    QSignalSpy done(&dialog, &ui::ExportDialog::exported);
    QSignalSpy registered(&dialog, &ui::ExportDialog::registered);
    dialog.startExport();
    QVERIFY2(done.wait(120000), qPrintable(dialog.resultText()));
    QVERIFY2(registered.wait(30000), qPrintable(dialog.resultText()));
    {
      auto store = tracking::Store::open(tracking::workspaceStore(m_workspace.toStdString()));
      const auto versions = store->modelVersions("from-studio");
      QCOMPARE(versions.size(), size_t(1));
      QCOMPARE(QString::fromStdString(versions[0].path), QFileInfo(dialog.outputFile()).absoluteFilePath());
    }
    QVERIFY(QFile::exists(dialog.outputFile()));
    QVERIFY2(dialog.resultText().contains("ONNX checker and shape inference passed"), qPrintable(dialog.resultText()));
    QVERIFY2(dialog.resultText().contains("int8:"), qPrintable(dialog.resultText()));
    saveShot(&dialog, "export_dialog.png");

    // TorchScript cannot be int8: the option goes with the format.
    dialog.setFormat(QStringLiteral("torchscript"));
    QVERIFY(!dialog.arguments().contains("--int8"));
    QVERIFY(!dialog.arguments().contains("--opset"));
  }

  void exportDialogShowsARefusal() {
    ui::ExportDialog dialog(m_workspace, m_run, QStringLiteral("studio-export"));
    dialog.setCliPath(cli());
    dialog.setOutputFile(m_dir.path() + "/no/such/folder/model.pt");
    QSignalSpy failed(&dialog, &ui::ExportDialog::exportFailed);
    dialog.startExport();
    QVERIFY(failed.wait(60000));
    QVERIFY(!dialog.succeeded());
    QVERIFY2(failed.front().front().toString().contains("does not exist"), qPrintable(failed.front().front().toString()));
  }

  void modelsPageListsPromotesAndTries() {
    int code = 0;
    const QString file = m_dir.path() + "/registered.pt";
    QString out = runCli({"export", m_run, "--format", "torchscript", "--out", file, "--workspace", m_workspace}, &code);
    QVERIFY2(code == 0, qPrintable(out));
    out = runCli({"models", "register", "shirts", file, "--description", "MLP", "--workspace", m_workspace}, &code);
    QVERIFY2(code == 0, qPrintable(out));

    ui::ModelsPage page;
    page.setCliPath(cli());
    page.resize(1200, 700);
    QSignalSpy refreshed(&page, &ui::ModelsPage::refreshed);
    page.setWorkspace(m_workspace);
    QVERIFY(refreshed.wait(10000));
    // The one version of "shirts" (the Export dialog's test may have registered another model).
    page.selectVersion(QStringLiteral("shirts"), 1);
    QVERIFY(page.selectedEntry());
    QCOMPARE(page.selectedEntry()->version.model, std::string("shirts"));
    const int row = page.versions()->selectionModel()->selectedRows().front().row();
    QCOMPARE(page.versions()->item(row, ui::ModelsPage::StageColumn)->text(), ui::modelStageText(QStringLiteral("none")));
    const QString lineage = page.lineage()->toPlainText();
    QVERIFY2(lineage.contains("studio-export"), qPrintable(lineage));
    QVERIFY(lineage.contains("unchanged"));
    // A form, not the registry's JSON: metrics with the digits that matter, the data named.
    QVERIFY2(!lineage.contains("\"val/"), qPrintable(lineage));  // no JSON key
    QVERIFY2(lineage.contains("val: ") && lineage.contains("fashion-mnist"), qPrintable(lineage));
    const QStringList metricLines = lineage.split('\n').filter("val: ");
    QVERIFY2(metricLines.size() == 1, qPrintable(lineage));
    QVERIFY2(!QRegularExpression("\\d\\.\\d{6,}").match(metricLines.front()).hasMatch(), qPrintable(metricLines.front()));

    page.productionButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(page.versions()->item(row, ui::ModelsPage::StageColumn)->text(), ui::modelStageText(QStringLiteral("production")), 30000);

    QSignalSpy shown(&page, &ui::ModelsPage::predictionsShown);
    page.tryCount()->setValue(12);
    page.tryFirst()->setValue(5);
    QVERIFY(page.tryButton()->isEnabled());
    page.tryButton()->click();
    QVERIFY(shown.wait(120000));
    QVERIFY2(page.predictions()->rowCount() == 12, qPrintable(page.status()->text()));
    QVERIFY2(page.status()->text().contains("accuracy"), qPrintable(page.status()->text()));
    QVERIFY(!page.predictions()->item(0, 2)->text().isEmpty());  // the label beside the prediction
    QCOMPARE(page.predictions()->item(0, 0)->text(), QString("5"));  // from example 5
    // Each example's image beside it, read off the UI thread as predict read the data.
    QSignalSpy examples(&page, &ui::ModelsPage::examplesShown);
    QVERIFY(examples.count() > 0 || examples.wait(60000));
    QVERIFY2(!page.predictions()->item(0, 0)->icon().isNull(), qPrintable(page.status()->text()));
    QVERIFY(!page.predictions()->item(11, 0)->icon().isNull());
    page.show();
    saveShot(&page, "models_page.png");
  }

  // An ONNX version: Try It (TorchScript only) says why it cannot run it; once the run has a
  // TorchScript export, it offers that and runs it. Predictions of one version go when another
  // is selected. A run of its own, so that no other slot's exports change what it sees.
  void onnxVersionSaysWhyAndTriesTheTorchScriptSibling() {
    int code = 0;
    QString out = runCli({"train", QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_mlp.run.yaml"), "--set",
                          "train.epochs=1", "--set", "data.train_limit=500", "--set", "data.test_limit=20", "--set",
                          "tracking.run_name=onnx-run", "--workspace", m_workspace},
                         &code);
    QVERIFY2(code == 0, qPrintable(out));
    const QString onnx = m_dir.path() + "/onnx-run.onnx", script = m_dir.path() + "/onnx-run.pt";
    out = runCli({"export", "onnx-run", "--format", "onnx", "--out", onnx, "--workspace", m_workspace}, &code);
    QVERIFY2(code == 0, qPrintable(out));
    out = runCli({"models", "register", "onnx-only", onnx, "--workspace", m_workspace}, &code);
    QVERIFY2(code == 0, qPrintable(out));

    ui::ModelsPage page;
    page.setCliPath(cli());
    page.resize(1200, 700);
    QSignalSpy refreshed(&page, &ui::ModelsPage::refreshed);
    page.setWorkspace(m_workspace);
    QVERIFY(refreshed.wait(10000));
    page.selectVersion(QStringLiteral("onnx-only"), 1);
    QVERIFY(page.selectedEntry());
    QVERIFY(!page.tryButton()->isEnabled());
    QVERIFY2(page.tryNote()->text().contains("no TorchScript export"), qPrintable(page.tryNote()->text()));

    // The run exported as TorchScript too, and registered as version 2: version 1 runs it.
    out = runCli({"export", "onnx-run", "--format", "torchscript", "--out", script, "--workspace", m_workspace}, &code);
    QVERIFY2(code == 0, qPrintable(out));
    out = runCli({"models", "register", "onnx-only", script, "--workspace", m_workspace}, &code);
    QVERIFY2(code == 0, qPrintable(out));
    page.refresh();
    QVERIFY(refreshed.wait(10000));
    page.selectVersion(QStringLiteral("onnx-only"), 1);
    QVERIFY2(page.tryNote()->text().contains("onnx-only version 2"), qPrintable(page.tryNote()->text()));
    QVERIFY(page.tryButton()->isEnabled());
    QSignalSpy shown(&page, &ui::ModelsPage::predictionsShown);
    page.tryCount()->setValue(6);
    page.tryFirst()->setValue(0);
    page.tryButton()->click();
    QVERIFY(shown.wait(120000));
    QVERIFY2(page.predictions()->rowCount() == 6, qPrintable(page.status()->text()));
    page.show();
    saveShot(&page, "models_page_onnx.png");

    // Another version selected: the predictions of version 1 are no longer on screen.
    page.selectVersion(QStringLiteral("onnx-only"), 2);
    QCOMPARE(page.predictions()->rowCount(), 0);
    QVERIFY2(!page.status()->text().contains("accuracy"), qPrintable(page.status()->text()));  // nor their accuracy
    QVERIFY(page.tryNote()->text().isEmpty());
  }
};

QTEST_MAIN(TestStudioModels)
#include "test_studio_models.moc"
#include "tracking/workspace_store.h"
