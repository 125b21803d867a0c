// The Design page driven through its real widgets on the offscreen platform: a small CNN built on
// the canvas node by node (one connection by dragging from a port with the mouse), shapes and
// parameter counts following every edit, a shape error flagged on the node and undone, the YAML
// view in both directions, copy and paste, a palette drop, templates, and save and reload.

#include "studio_fixture.h"

#include <unistd.h>

#include "ui/design/block_library.h"
#include "ui/design/design_page.h"
#include "ui/design/group_frame.h"
#include "ui/design/edge_item.h"
#include "ui/design/graph_scene.h"
#include "ui/design/graph_view.h"
#include "ui/design/model_document.h"
#include "ui/design/node_item.h"
#include "ui/design/op_palette.h"
#include "ui/design/property_editor.h"
#include "ui/design/yaml_view.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QFileInfo>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using tw::ui::DesignPage;
using tw::ui::ModelDocument;
using tw::ui::NodeItem;

namespace {

QString edgeLabel(DesignPage &page, const QString &from, const QString &to) {
  auto *e = page.scene()->edge(from, to);
  return e ? e->label() : QStringLiteral("<no edge>");
}

void saveScreenshot(QWidget &widget, const QString &name) {
  const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
  QDir().mkpath(dir);
  widget.grab().save(dir + QLatin1Char('/') + name);
}

}  // namespace

class TestDesignPage : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;

 private Q_SLOTS:
  void ctrlASelectsEveryNode() {
    DesignPage page;
    QString error;
    QVERIFY2(page.openFile(QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.model.yaml"), &error),
             qPrintable(error));
    page.show();
    page.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    page.view()->setFocus();
    QTest::keyClick(page.view(), Qt::Key_A, Qt::ControlModifier);
    QCOMPARE(page.scene()->selectedNodeIds().size(), static_cast<qsizetype>(page.document()->spec().nodes.size()));
  }

  // Open and Save As start in the workspace's models folder until a model has a file of its own.
  void fileDialogsStartInTheWorkspace() {
    QTemporaryDir dir;
    DesignPage page;
    page.setWorkspace(dir.path());
    QCOMPARE(page.dialogFolder(), dir.path() + "/models");
    QVERIFY(QFileInfo(dir.path() + "/models").isDir());
    QString error;
    QVERIFY2(page.saveFile(dir.path() + "/elsewhere.model.yaml", &error), qPrintable(error));
    QCOMPARE(page.dialogFolder(), dir.path());
  }

  void initTestCase() { tw::test::isolateSettings(m_dir.path()); }

  void buildACnnOnTheCanvas() {
    DesignPage page;
    page.resize(1400, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    ModelDocument *doc = page.document();
    doc->newModel(tw::spec::ModelSpec{});
    QCOMPARE(int(doc->spec().nodes.size()), 0);

    const QString input = doc->addNode("Input", {0, 0});
    const QString conv = doc->addNode("Conv2d", {240, 0});
    const QString relu = doc->addNode("ReLU", {480, 0});
    const QString pool = doc->addNode("MaxPool2d", {720, 0});
    const QString flat = doc->addNode("Flatten", {960, 0});
    const QString fc = doc->addNode("Linear", {1200, 0});
    doc->setParam(conv, "padding", tw::spec::IntList{1, 1});
    doc->setParam(pool, "kernel_size", tw::spec::IntList{2, 2});
    doc->setParam(fc, "out_features", int64_t(10));

    // The first connection the way a person makes it: press on input's output port, drag, release on conv.
    page.view()->fitModel();
    QApplication::processEvents();
    NodeItem *from = page.scene()->nodeItem(input);
    NodeItem *to = page.scene()->nodeItem(conv);
    QVERIFY(from && to);
    QWidget *viewport = page.view()->viewport();
    const QPoint start = page.view()->mapFromScene(from->outputPort());
    const QPoint end = page.view()->mapFromScene(to->sceneBoundingRect().center());
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
    QTest::mouseMove(viewport, (start + end) / 2);
    QTest::mouseMove(viewport, end);
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, end);
    QCOMPARE(doc->node(conv)->inputs, std::vector<std::string>{input.toStdString()});
    QVERIFY(page.scene()->edge(input, conv));

    QVERIFY(doc->connectNodes(conv, relu));
    QVERIFY(doc->connectNodes(relu, pool));
    QVERIFY(doc->connectNodes(pool, flat));
    QVERIFY(doc->connectNodes(flat, fc));
    QVERIFY(!doc->connectNodes(fc, conv));     // a cycle is refused
    QVERIFY(!doc->connectNodes(conv, input));  // an Input takes nothing

    // Shapes on the edges and parameter counts, from the registry's rules.
    QVERIFY2(doc->analysis().ok(), qPrintable(page.statusText()));
    QCOMPARE(edgeLabel(page, input, conv), QStringLiteral("[1, 28, 28]"));
    QCOMPARE(edgeLabel(page, conv, relu), QStringLiteral("[16, 28, 28]"));
    QCOMPARE(edgeLabel(page, pool, flat), QStringLiteral("[16, 14, 14]"));
    QCOMPARE(edgeLabel(page, flat, fc), QStringLiteral("[3136]"));
    QCOMPARE(doc->analysis().totalParams, int64_t(16 * 9 + 16 + 3136 * 10 + 10));
    QCOMPARE(QString::fromStdString(doc->spec().output), fc);

    // Edit through the property editor: the shapes follow at once.
    page.scene()->selectNode(conv);
    auto *channels = qobject_cast<QSpinBox *>(page.properties()->editorFor("out_channels"));
    QVERIFY(channels);
    channels->setValue(8);
    Q_EMIT channels->editingFinished();
    QCOMPARE(edgeLabel(page, conv, relu), QStringLiteral("[8, 28, 28]"));
    QCOMPARE(edgeLabel(page, flat, fc), QStringLiteral("[1568]"));

    // A shape error: in_features written by hand against the incoming 1568.
    doc->setParam(fc, "in_features", int64_t(100));
    QVERIFY(page.scene()->nodeItem(fc)->hasProblem());
    QVERIFY2(page.scene()->nodeItem(fc)->problem().contains("1568"), qPrintable(page.scene()->nodeItem(fc)->problem()));
    QVERIFY(page.statusText().contains(fc));
    page.scene()->selectNode(fc);
    saveScreenshot(page, QStringLiteral("design_page_error.png"));
    doc->undoStack()->undo();
    QVERIFY(!page.scene()->nodeItem(fc)->hasProblem());
    QVERIFY(doc->analysis().ok());

    // Undo and redo walk the edits back and forth.
    const QString before = doc->toYaml();
    doc->removeNodes({relu});
    QVERIFY(!doc->node(relu));
    QVERIFY(doc->node(pool)->inputs.empty());
    doc->undoStack()->undo();
    QCOMPARE(doc->toYaml(), before);
    doc->undoStack()->redo();
    QVERIFY(!doc->node(relu));
    doc->undoStack()->undo();

    page.view()->fitModel();
    saveScreenshot(page, QStringLiteral("design_page.png"));

    // Save, and reload into a fresh page: the same model.
    const QString path = m_dir.path() + QStringLiteral("/cnn.model.yaml");
    QString error;
    QVERIFY2(page.saveFile(path, &error), qPrintable(error));
    QVERIFY(!doc->isModified());
    DesignPage reloaded;
    QVERIFY2(reloaded.openFile(path, &error), qPrintable(error));
    QCOMPARE(reloaded.document()->toYaml(), doc->toYaml());
    QCOMPARE(reloaded.document()->analysis().totalParams, doc->analysis().totalParams);
    QCOMPARE(reloaded.scene()->edges().size(), page.scene()->edges().size());
  }

  void yamlViewSyncsBothWays() {
    DesignPage page;
    ModelDocument *doc = page.document();
    QVERIFY(doc->loadTemplate("mlp", nullptr));
    QPlainTextEdit *editor = page.yamlView()->editor();
    QCOMPARE(editor->toPlainText(), doc->toYaml());

    doc->setParam("fc1", "out_features", int64_t(300));  // canvas -> text
    QVERIFY(editor->toPlainText().contains("out_features: 300"));

    QString text = editor->toPlainText();
    text.replace("out_features: 300", "out_features: 512");  // text -> canvas
    editor->setPlainText(text);
    page.yamlView()->applyNow();
    QCOMPARE(std::get<int64_t>(doc->node("fc1")->params.at("out_features")), int64_t(512));
    QVERIFY(page.yamlView()->error().isEmpty());
    doc->undoStack()->undo();  // one step
    QCOMPARE(std::get<int64_t>(doc->node("fc1")->params.at("out_features")), int64_t(300));

    editor->setPlainText("nodes: [ {id: x, op: Input");  // broken: the model stays
    page.yamlView()->applyNow();
    QVERIFY(!page.yamlView()->error().isEmpty());
    QVERIFY(doc->node("fc1"));
  }

  // A node is renamed only to a name the model file accepts (spec::isPortableName, the parser's
  // own rule), so what the page saves always loads again.
  void renameKeepsToPortableNames() {
    DesignPage page;
    ModelDocument *doc = page.document();
    QVERIFY(doc->loadTemplate("mlp", nullptr));
    for (const char *bad : {"", "1st", "fc 1", "a/b", "_x", "ä"}) QVERIFY2(!doc->renameNode("fc1", bad), bad);
    QVERIFY(doc->renameNode("fc1", "hidden.v-1_a"));
    QVERIFY(doc->node("hidden.v-1_a") && !doc->node("fc1"));
    const tw::spec::ModelSpec reloaded = tw::spec::parseModelYaml(doc->toYaml().toStdString(), "design.yaml");
    QVERIFY(reloaded.find("hidden.v-1_a"));
  }

  void copyPastePaletteAndTemplates() {
    DesignPage page;
    page.resize(1200, 700);
    page.show();
    ModelDocument *doc = page.document();
    QVERIFY(doc->loadTemplate("mlp", nullptr));
    const int nodes = int(doc->spec().nodes.size());

    page.scene()->clearSelection();
    page.scene()->nodeItem("fc1")->setSelected(true);
    page.scene()->nodeItem("act1")->setSelected(true);
    page.copySelection();
    page.paste();
    QCOMPARE(int(doc->spec().nodes.size()), nodes + 2);
    const QStringList pasted = page.scene()->selectedNodeIds();
    QCOMPARE(pasted.size(), 2);
    QVERIFY(!pasted.contains("fc1"));
    // The edge between the two copies came along; edges to the rest did not.
    const QString act = pasted.filter("act").value(0), fc = pasted.filter("fc").value(0);
    QCOMPARE(doc->node(act)->inputs, std::vector<std::string>{fc.toStdString()});
    QVERIFY(doc->node(fc)->inputs.empty());
    doc->undoStack()->undo();
    QCOMPARE(int(doc->spec().nodes.size()), nodes);

    // An op dropped from the palette lands where it was dropped.
    QMimeData mime;
    mime.setData(tw::ui::OpPalette::kMimeType, QByteArray("Dropout"));
    const QPoint at = page.view()->viewport()->rect().center();
    QVERIFY(page.view()->dropOp(&mime, at));
    QCOMPARE(int(doc->spec().nodes.size()), nodes + 1);
    QVERIFY(doc->node("dropout"));

    // Activating an op in the palette appends it after the selected node, connected.
    page.scene()->selectNode("logits");
    Q_EMIT page.palette()->opActivated("Softmax");
    QVERIFY(doc->node("softmax"));
    QCOMPARE(doc->node("softmax")->inputs, std::vector<std::string>{"logits"});
    QCOMPARE(doc->spec().output, std::string("softmax"));

    for (const QString &name : ModelDocument::templateNames()) {
      QString error;
      QVERIFY2(doc->loadTemplate(name, &error), qPrintable(error));
      QVERIFY2(doc->analysis().ok(), qPrintable(name + ": " + page.statusText()));
      QVERIFY(doc->analysis().totalParams > 0);
    }
    // Node counts and output shapes per template: test_design_widgets' templatesValidate.
    QVERIFY(doc->loadTemplate(QStringLiteral("resnet"), nullptr));
    QVERIFY(doc->node("block2.sum"));  // the ResNet's residual Add
    page.view()->fitModel();
    saveScreenshot(page, QStringLiteral("design_page_resnet.png"));
  }

  void groupsNodesIntoAReusableBlock() {
    QTemporaryDir library;
    DesignPage page;
    page.blockLibrary()->setDirectory(library.path());
    page.resize(1300, 760);
    page.show();
    ModelDocument *doc = page.document();
    QVERIFY(doc->loadTemplate("mlp", nullptr));
    const int nodes = int(doc->spec().nodes.size());
    const int64_t params = doc->analysis().totalParams;

    // An Input cannot be part of a block, and a name must be usable as an id prefix.
    page.scene()->selectNode("image");
    QVERIFY(!page.groupSelection("stem"));
    QVERIFY2(page.statusText().contains("Input"), qPrintable(page.statusText()));
    page.scene()->clearSelection();
    page.scene()->nodeItem("fc1")->setSelected(true);
    page.scene()->nodeItem("act1")->setSelected(true);
    QVERIFY(!page.groupSelection("2 dense"));
    QVERIFY(doc->node("fc1"));

    QVERIFY2(page.groupSelection("dense"), qPrintable(page.statusText()));
    QVERIFY(!doc->node("fc1") && doc->node("dense.fc1") && doc->node("dense.act1"));
    QCOMPARE(doc->node("dense.fc1")->inputs, std::vector<std::string>{"flat"});   // edges in and out follow
    QCOMPARE(doc->node("fc2")->inputs, std::vector<std::string>{"dense.act1"});
    QVERIFY(doc->analysis().ok());
    QCOMPARE(doc->analysis().totalParams, params);
    tw::ui::GroupFrame *frame = page.scene()->groupFrame("dense");
    QVERIFY(frame);
    QVERIFY(frame->sceneBoundingRect().contains(page.scene()->nodeItem("dense.fc1")->sceneBoundingRect()));
    QVERIFY(frame->sceneBoundingRect().contains(page.scene()->nodeItem("dense.act1")->sceneBoundingRect()));
    QVERIFY(!frame->sceneBoundingRect().contains(page.scene()->nodeItem("fc2")->sceneBoundingRect()));
    page.view()->fitModel();
    saveScreenshot(page, QStringLiteral("design_page_block.png"));

    // Saved to the library as a block of its own, listed in the palette.
    QCOMPARE(page.blockLibrary()->names(), QStringList{"dense"});
    const QString yaml = page.blockLibrary()->yaml("dense");
    QVERIFY2(yaml.contains("id: fc1") && yaml.contains("inputs: [fc1]") && !yaml.contains("flat"), qPrintable(yaml));
    QVERIFY(page.palette()->visibleOps().contains("block:dense"));

    // One undo step takes the grouping back, frame and all; redo restores it.
    doc->undoStack()->undo();
    QVERIFY(doc->node("fc1") && !doc->node("dense.fc1"));
    QVERIFY(!page.scene()->groupFrame("dense"));
    doc->undoStack()->redo();
    QVERIFY(doc->node("dense.fc1") && page.scene()->groupFrame("dense"));

    // Inserting it again, after the selected node: fresh prefix, inner edge kept, connected in.
    page.scene()->selectNode("fc2");
    Q_EMIT page.palette()->opActivated("block:dense");
    QVERIFY(doc->node("dense_2.fc1") && doc->node("dense_2.act1"));
    QCOMPARE(doc->node("dense_2.fc1")->inputs, std::vector<std::string>{"fc2"});
    QCOMPARE(doc->node("dense_2.act1")->inputs, std::vector<std::string>{"dense_2.fc1"});
    QCOMPARE(int(doc->spec().nodes.size()), nodes + 2);
    QVERIFY(page.scene()->groupFrame("dense_2"));

    // A drop from the palette inserts it too; another page (another model) finds it in the library.
    QMimeData mime;
    mime.setData(tw::ui::OpPalette::kMimeType, QByteArray("block:dense"));
    QVERIFY(page.view()->dropOp(&mime, page.view()->viewport()->rect().center()));
    QVERIFY(doc->node("dense_3.fc1"));
    DesignPage other;
    other.blockLibrary()->setDirectory(library.path());
    QVERIFY(other.palette()->visibleOps().contains("block:dense"));
  }

  // A block's file must be the library's own: a symbolic or hard link named like a block whose
  // content lives elsewhere is neither listed, read nor written through (config/safe_path.h).
  void blockFilesStayInTheLibrary() {
    QTemporaryDir library, outside;
    const QString secret = QDir(outside.path()).filePath("secret.yaml");
    {
      QFile file(secret);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("nodes: []\n");
    }
    QVERIFY(QFile::link(secret, QDir(library.path()).filePath("escape.block.yaml")));
    QVERIFY(::link(QFile::encodeName(secret).constData(),
                   QFile::encodeName(QDir(library.path()).filePath("twin.block.yaml")).constData()) == 0);
    tw::ui::BlockLibrary blocks;
    blocks.setDirectory(library.path());
    QVERIFY(blocks.save("mine", "nodes: []\n", nullptr));
    QCOMPARE(blocks.names(), QStringList{"mine"});
    QVERIFY(blocks.yaml("escape").isEmpty());
    QVERIFY(blocks.yaml("twin").isEmpty());
    QString error;
    QVERIFY(!blocks.save("escape", "nodes: [x]\n", &error));
    QVERIFY2(error.contains("symbolic link"), qPrintable(error));
    // A hard link is replaced by the save (a rename), never written through.
    QVERIFY2(blocks.save("twin", "nodes: [y]\n", &error), qPrintable(error));
    QFile file(secret);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("nodes: []\n"));
    QVERIFY(blocks.names().contains("twin"));
    // Names keep to the model format's rule, less the dot that splits an instance's ids.
    QVERIFY(!tw::ui::BlockLibrary::isValidName("a.b"));
    QVERIFY(!tw::ui::BlockLibrary::isValidName("../up"));
    QVERIFY(tw::ui::BlockLibrary::isValidName("res_block-2"));
  }
};

QTEST_MAIN(TestDesignPage)
#include "test_design_page.moc"
