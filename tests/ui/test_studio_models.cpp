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
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
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
  QTest::qWait(50);
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
    auto store = tracking::Store::open(config::trackingDbPath(m_workspace.toStdString()));
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
      auto store = tracking::Store::open(config::trackingDbPath(m_workspace.toStdString()));
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
    QVERIFY2(page.lineage()->toPlainText().contains("studio-export"), qPrintable(page.lineage()->toPlainText()));
    QVERIFY(page.lineage()->toPlainText().contains("unchanged"));

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
    page.show();
    saveShot(&page, "models_page.png");
  }
};

QTEST_MAIN(TestStudioModels)
#include "test_studio_models.moc"
