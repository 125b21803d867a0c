// File > Import ONNX… and Replace Head on the real Design page, with the real CLI
// (build/bin/torchwright and torchwright-worker). The ONNX files are written at test time by
// python3-torch (/usr/bin/python3): a Conv-BN-ReLU-Flatten-Linear net, the same net ending in
// torch.topk (an op the importer lacks), and the first with its height and width left open.
//  - an import opens the written model in the canvas (a node item per model node, shapes
//    analysed) and the report lists every ONNX node and what it became;
//  - a refusal shows the CLI's text naming the unmapped node and leaves the design, its file and
//    its history as they were;
//  - an open input size asks for C,H,W, and the import with it succeeds;
//  - Cancel ends the running import: nothing written, the design unchanged;
//  - Replace Head swaps the Linear feeding the output (through a Softmax) for one with the given
//    classes under the same id, the YAML and the shapes follow, undo and redo are one step, and the
//    node menu offers it on the head only;
//  - the Launch page offers "Replace head (N classes)" once Preview Data finds another class count,
//    and the button changes the Design page's model.

#include "studio_fixture.h"

#include "core/spec/model_files.h"
#include "ui/design/design_page.h"
#include "ui/design/graph_scene.h"
#include "ui/design/import_dialog.h"
#include "ui/design/model_document.h"
#include "ui/design/model_head.h"
#include "ui/design/onnx_import_runner.h"
#include "ui/design/yaml_view.h"
#include "ui/launch/data_preview.h"
#include "ui/launch/launch_page.h"

#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using tw::ui::DesignPage;
using tw::ui::ImportDialog;
using tw::ui::ModelDocument;

namespace {

const char *kMakeOnnx = R"(
import sys
import torch
import torch.nn as nn

torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self, topk=False):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 8 * 8, 5)
        self.topk = topk

    def forward(self, x):
        y = self.fc(torch.flatten(torch.relu(self.bn(self.conv(x))), 1))
        return torch.topk(y, 2).values if self.topk else y

out, kind = sys.argv[1], sys.argv[2]
model = Net(topk=kind == "topk").eval()
axes = {"x": {0: "N"}, "y": {0: "N"}}
if kind == "open":
    axes["x"] = {0: "N", 2: "H", 3: "W"}
torch.onnx.export(model, torch.randn(1, 1, 8, 8), out, opset_version=13, input_names=["x"],
                  output_names=["y"], dynamic_axes=axes)
)";

// The classifier fc2 feeds a Softmax, the output.
const char *kHeadModel = R"(
name: headed
nodes:
  - {id: x, op: Input, shape: [2]}
  - {id: fc1, op: Linear, out_features: 8}
  - {id: act, op: ReLU}
  - {id: fc2, op: Linear, out_features: 3}
  - {id: probs, op: Softmax}
)";

QString outputShape(const ModelDocument &doc) {
  const tw::spec::NodeInfo *out = doc.analysis().find(doc.analysis().output);
  return out ? QString::fromStdString(tw::spec::formatShape(out->outputShape)) : QString();
}

}  // namespace

class TestDesignImport : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  std::unique_ptr<QTemporaryDir> m_settings;

  // The ONNX file of `kind` ("plain", "topk", "open"), written once per run.
  QString onnx(const QString &kind) {
    const QString path = m_dir.filePath(kind + QStringLiteral(".onnx"));
    if (QFile::exists(path)) return path;
    const QString script = m_dir.filePath(QStringLiteral("make_onnx.py"));
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly) || file.write(kMakeOnnx) < 0) return {};
    file.close();
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"), {script, path, kind});
    if (!python.waitForFinished(120000) || python.exitCode() != 0) {
      qWarning("%s", python.readAllStandardError().constData());
      return {};
    }
    return path;
  }

  // The page's import dialog for `file`, pointed at the build's CLI, started; the finish awaited.
  bool runImport(DesignPage &page, ImportDialog *dialog, bool *ok) {
    QSignalSpy finished(dialog, &ImportDialog::importFinished);
    if (!dialog->startImport()) return false;
    if (!finished.wait(180000)) return false;
    *ok = finished.first().at(0).toBool();
    Q_UNUSED(page);
    return true;
  }

  ImportDialog *dialogFor(DesignPage &page, const QString &file) {
    ImportDialog *dialog = page.importOnnx(file);
    if (dialog) dialog->runner()->setCliPath(QStringLiteral(TW_BIN_DIR "/torchwright"));
    return dialog;
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_settings = tw::test::freshSettings();
    QVERIFY(m_settings);
    QVERIFY2(QFile::exists(QStringLiteral(TW_BIN_DIR "/torchwright-worker")), "build torchwright-worker first");
  }

  void importOpensTheModelAndListsEveryNode() {
    const QString file = onnx(QStringLiteral("plain"));
    QVERIFY2(!file.isEmpty(), "python3-torch could not write the ONNX file");
    const QString workspace = m_dir.filePath(QStringLiteral("workspace"));
    QVERIFY(QDir().mkpath(workspace));
    DesignPage page;
    page.setWorkspace(workspace);
    ImportDialog *dialog = dialogFor(page, file);
    QVERIFY(dialog);
    const QString target = QDir(workspace).filePath(QStringLiteral("models/plain.model.yaml"));
    QCOMPARE(dialog->modelFile(), target);  // the workspace's models folder, <stem>.model.yaml
    bool ok = false;
    QVERIFY(runImport(page, dialog, &ok));
    QVERIFY2(ok, qPrintable(dialog->message() + QLatin1Char('\n') + dialog->refusal()));

    ModelDocument *doc = page.document();
    QCOMPARE(doc->filePath(), target);
    QVERIFY(QFile::exists(QDir(workspace).filePath(QStringLiteral("models/plain.weights.pt"))));
    QVERIFY2(doc->analysis().ok(), qPrintable(doc->modelProblems().join(QLatin1Char('\n'))));
    QStringList ops;
    for (const auto &node : doc->spec().nodes) {
      ops << QString::fromStdString(node.op);
      QVERIFY2(page.scene()->nodeItem(QString::fromStdString(node.id)), node.id.c_str());
    }
    QVERIFY2(ops.contains(QStringLiteral("Input")) && ops.contains(QStringLiteral("Conv2d")) &&
                 ops.contains(QStringLiteral("Linear")),
             qPrintable(ops.join(QLatin1Char(','))));
    QCOMPARE(outputShape(*doc), QStringLiteral("[5]"));
    QVERIFY(page.yamlView()->editor()->toPlainText().contains(QStringLiteral("Conv2d")));

    // Every ONNX node of the file, each with what it became; the mapped ones name a model node.
    QTableWidget *report = dialog->reportTable();
    QVERIFY(report->isVisibleTo(dialog));
    QStringList types;
    for (int r = 0; r < report->rowCount(); ++r) {
      types << report->item(r, 1)->text();
      QVERIFY2(!report->item(r, 2)->text().isEmpty(), qPrintable(report->item(r, 0)->text()));
    }
    QVERIFY2(types.contains(QStringLiteral("Conv")) && types.contains(QStringLiteral("Relu")) &&
                 types.contains(QStringLiteral("Gemm")),
             qPrintable(types.join(QLatin1Char(','))));
    for (int r = 0; r < report->rowCount(); ++r)
      if (report->item(r, 1)->text() == QLatin1String("Conv")) {
        const QString became = report->item(r, 2)->text();
        const QString node = became.section(QLatin1Char(' '), 0, 0);
        QVERIFY2(doc->node(node), qPrintable(became));
      }
    QVERIFY(dialog->message().contains(QStringLiteral("plain.weights.pt")));
    dialog->close();
  }

  void refusalLeavesTheDesignAsItWas() {
    const QString file = onnx(QStringLiteral("topk"));
    QVERIFY(!file.isEmpty());
    DesignPage page;  // no workspace: the model file would go beside the ONNX file
    ModelDocument *doc = page.document();
    const QString before = doc->toYaml(), path = doc->filePath();
    const int steps = doc->undoStack()->count();
    ImportDialog *dialog = dialogFor(page, file);
    QVERIFY(dialog);
    QCOMPARE(dialog->modelFile(), m_dir.filePath(QStringLiteral("topk.model.yaml")));
    bool ok = true;
    QVERIFY(runImport(page, dialog, &ok));
    QVERIFY(!ok);
    QVERIFY2(dialog->refusal().contains(QStringLiteral("TopK")), qPrintable(dialog->refusal()));
    QVERIFY(dialog->findChild<QPlainTextEdit *>(QStringLiteral("importRefusal"))->isVisibleTo(dialog));
    QVERIFY(!dialog->reportTable()->isVisibleTo(dialog));
    QCOMPARE(doc->toYaml(), before);
    QCOMPARE(doc->filePath(), path);
    QCOMPARE(doc->undoStack()->count(), steps);
    QVERIFY(!QFile::exists(dialog->modelFile()));
    dialog->close();
  }

  void openInputSizeAsksForTheShape() {
    const QString file = onnx(QStringLiteral("open"));
    QVERIFY(!file.isEmpty());
    DesignPage page;
    ImportDialog *dialog = dialogFor(page, file);
    QVERIFY(dialog);
    QVERIFY(!dialog->inputShapeField()->isVisibleTo(dialog));
    bool ok = true;
    QVERIFY(runImport(page, dialog, &ok));
    QVERIFY(!ok);
    QVERIFY2(dialog->inputShapeField()->isVisibleTo(dialog), qPrintable(dialog->refusal()));
    dialog->setInputShape(QStringLiteral("1,8,8"));
    QVERIFY(runImport(page, dialog, &ok));
    QVERIFY2(ok, qPrintable(dialog->message() + QLatin1Char('\n') + dialog->refusal()));
    QCOMPARE(page.document()->filePath(), m_dir.filePath(QStringLiteral("open.model.yaml")));
    QCOMPARE(outputShape(*page.document()), QStringLiteral("[5]"));
    dialog->close();
  }

  // Cancel ends the CLI and its worker: the dialog says so, no model file appears, the design stays.
  void cancelStopsTheImport() {
    const QString file = onnx(QStringLiteral("plain"));
    QVERIFY(!file.isEmpty());
    DesignPage page;
    const QString before = page.document()->toYaml();
    ImportDialog *dialog = dialogFor(page, file);
    QVERIFY(dialog);
    dialog->setModelFile(m_dir.filePath(QStringLiteral("cancelled.model.yaml")));
    QSignalSpy cancelled(dialog->runner(), &tw::ui::OnnxImportRunner::cancelled);
    QSignalSpy finished(dialog, &ImportDialog::importFinished);
    QVERIFY(dialog->startImport());
    QVERIFY(dialog->isImporting());
    dialog->runner()->cancel();
    QVERIFY(cancelled.wait(30000));
    QCOMPARE(finished.count(), 1);
    QVERIFY(!finished.first().at(0).toBool());
    QVERIFY(dialog->message().contains(QStringLiteral("cancelled")));
    QVERIFY(!dialog->isImporting());
    QVERIFY(!QFile::exists(dialog->modelFile()));
    // Nor weights that no model file names (stopped between the worker's two writes).
    QVERIFY(!QFile::exists(QString::fromStdString(tw::spec::weightsFileFor(dialog->modelFile().toStdString()))));
    QCOMPARE(page.document()->toYaml(), before);
    dialog->close();
  }

  void replaceHeadIsOneUndoStep() {
    const QString path = m_dir.filePath(QStringLiteral("headed.model.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kHeadModel);
    file.close();
    DesignPage page;
    QString error;
    QVERIFY2(page.openFile(path, &error), qPrintable(error));
    ModelDocument *doc = page.document();
    QCOMPARE(tw::ui::ModelHead::find(doc->spec(), doc->analysis()), QStringLiteral("fc2"));
    QCOMPARE(tw::ui::ModelHead::classCount(doc->analysis()), qint64(3));
    QVERIFY(page.replaceHeadAction()->isEnabled());
    const QString yamlBefore = page.yamlView()->editor()->toPlainText();
    const int steps = doc->undoStack()->count();

    QVERIFY(page.replaceHead(10));
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    QCOMPARE(QString::fromStdString(doc->node(QStringLiteral("fc2"))->op), QStringLiteral("Linear"));
    QCOMPARE(tw::spec::getInt(doc->node(QStringLiteral("fc2"))->params, "out_features"), int64_t(10));
    QCOMPARE(outputShape(*doc), QStringLiteral("[10]"));
    QCOMPARE(doc->analysis().find("fc2")->paramCount, int64_t(8 * 10 + 10));
    QVERIFY(page.yamlView()->editor()->toPlainText().contains(QStringLiteral("out_features: 10")));
    QVERIFY(page.scene()->nodeItem(QStringLiteral("fc2")));

    doc->undoStack()->undo();
    QCOMPARE(tw::spec::getInt(doc->node(QStringLiteral("fc2"))->params, "out_features"), int64_t(3));
    QCOMPARE(outputShape(*doc), QStringLiteral("[3]"));
    QCOMPARE(page.yamlView()->editor()->toPlainText(), yamlBefore);
    doc->undoStack()->redo();
    QCOMPARE(outputShape(*doc), QStringLiteral("[10]"));

    // The node menu offers it on the head and after it, not before it.
    std::unique_ptr<QMenu> onHead(page.nodeMenu(QStringLiteral("fc2")));
    std::unique_ptr<QMenu> onOutput(page.nodeMenu(QStringLiteral("probs")));
    std::unique_ptr<QMenu> onHidden(page.nodeMenu(QStringLiteral("fc1")));
    auto replaceEntry = [](QMenu *menu) { return menu->findChild<QAction *>(QStringLiteral("replaceHeadMenuAction")); };
    QVERIFY(replaceEntry(onHead.get()) && replaceEntry(onHead.get())->isEnabled());
    QVERIFY(replaceEntry(onOutput.get())->isEnabled());
    QVERIFY(!replaceEntry(onHidden.get())->isEnabled());

    // No classifier: refused with the reason, nothing pushed.
    QVERIFY(doc->setYaml(QStringLiteral("name: conv\nnodes:\n  - {id: x, op: Input, shape: [1, 8, 8]}\n"
                                        "  - {id: c, op: Conv2d, out_channels: 2, kernel_size: 3}\n"))
                .isEmpty());
    const int convSteps = doc->undoStack()->count();
    QVERIFY(!page.replaceHeadAction()->isEnabled());
    QVERIFY(!page.replaceHead(4));
    QVERIFY(page.statusText().contains(QStringLiteral("Cannot replace the head")));
    QCOMPARE(doc->undoStack()->count(), convSteps);
  }

  void launchOffersTheHeadForTheDataClasses() {
    ModelDocument model;
    tw::spec::ModelSpec spec = tw::spec::parseModelYaml(kHeadModel);
    model.newModel(spec);
    tw::ui::LaunchPage launch(&model);
    launch.dataset()->setCurrentText(QStringLiteral("spirals"));
    launch.classes()->setValue(5);
    QVERIFY(launch.replaceHeadButton()->isHidden());
    QSignalSpy previewed(launch.dataPreview(), &tw::ui::DataPreview::previewed);
    QTest::mouseClick(launch.previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    QVERIFY(!launch.replaceHeadButton()->isHidden());
    QCOMPARE(launch.replaceHeadButton()->text(), QStringLiteral("Replace head (5 classes)"));
    QTest::mouseClick(launch.replaceHeadButton(), Qt::LeftButton);
    QCOMPARE(tw::ui::ModelHead::classCount(model.analysis()), qint64(5));
    QVERIFY(launch.replaceHeadButton()->isHidden());  // the model fits the data now
    model.undoStack()->undo();
    QCOMPARE(tw::ui::ModelHead::classCount(model.analysis()), qint64(3));
    QVERIFY(!launch.replaceHeadButton()->isHidden());  // and the offer is back
    launch.classes()->setValue(4);                    // other data: the old count no longer holds
    QVERIFY(launch.replaceHeadButton()->isHidden());
  }
};

QTEST_MAIN(TestDesignImport)
#include "test_design_import.moc"
