// The Design page's palette and property editor, driven through their real widgets: every
// registry op listed and searchable, drags carry the op name, and the generated form shows
// written, default and inferred values and reports only the user's edits. Every model template
// validates with the node count and output shape it promises.

#include "core/spec/analysis.h"
#include "core/spec/registry.h"
#include "ui/design/model_templates.h"
#include "ui/design/op_palette.h"
#include "ui/design/property_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QSignalSpy>
#include <QSpinBox>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include <algorithm>
#include <map>

using tw::spec::IntList;
using tw::spec::ParamValue;

namespace {

const char *kModel = R"(
name: small
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: conv, op: Conv2d, out_channels: 16, kernel_size: 3, padding: 1}
  - {id: drop, op: Dropout, p: 0.25}
)";

struct Graph {
  tw::spec::ModelSpec spec = tw::spec::parseModelYaml(kModel);
  tw::spec::Analysis analysis = tw::spec::analyze(spec);
  const tw::spec::Node &node(const char *id) const { return *spec.find(id); }
  const tw::spec::NodeInfo *info(const char *id) const { return analysis.find(id); }
};

QTreeWidgetItem *findOp(QTreeWidget *tree, const QString &op) {
  const auto items = tree->findItems(op, Qt::MatchExactly | Qt::MatchRecursive);
  return items.isEmpty() ? nullptr : items.front();
}

QToolButton *resetButton(QWidget *editor) { return editor->parentWidget()->findChild<QToolButton *>(); }

// What each template must give; a template without a row fails templatesValidate.
struct TemplateExpectation {
  int nodes;
  const char *output;
};
const std::map<QString, TemplateExpectation> &templateExpectations() {
  static const std::map<QString, TemplateExpectation> rows = {
      {QStringLiteral("mlp"), {7, "[10]"}},
      {QStringLiteral("lenet"), {13, "[10]"}},
      {QStringLiteral("resnet"), {21, "[10]"}},  // 4 stem nodes, 2 blocks of 7, pool, flatten, logits
      {QStringLiteral("transformer"), {8, "[10]"}},
  };
  return rows;
}

tw::spec::Analysis analyzeTemplate(const QString &name) {
  return tw::spec::analyze(tw::spec::parseModelYaml(tw::ui::modelTemplateYaml(name).toStdString()));
}

QString screenshotPath(const QString &name) {
  const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots/");
  QDir().mkpath(dir);
  return dir + name;
}

}  // namespace

class TestDesignWidgets : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void paletteListsEveryOp() {
    tw::ui::OpPalette palette;
    QStringList expected;
    for (const std::string &name : tw::spec::Registry::instance().names()) expected << QString::fromStdString(name);
    QStringList shown = palette.visibleOps();
    expected.sort();
    shown.sort();
    QCOMPARE(shown, expected);
    for (int g = 0; g < palette.tree()->topLevelItemCount(); ++g) {
      QTreeWidgetItem *group = palette.tree()->topLevelItem(g);
      QVERIFY(group->isExpanded());
      QVERIFY(!(group->flags() & Qt::ItemIsDragEnabled));
    }
    QTreeWidgetItem *conv = findOp(palette.tree(), QStringLiteral("Conv2d"));
    QVERIFY(conv);
    QCOMPARE(conv->parent()->text(0), QStringLiteral("Layers"));
    QVERIFY(conv->toolTip(0).contains(QStringLiteral("convolution")));
    QVERIFY(conv->toolTip(0).contains(QStringLiteral("Inputs: 1")));
    QTreeWidgetItem *encoder = findOp(palette.tree(), QStringLiteral("TransformerEncoderLayer"));
    QVERIFY(encoder);
    QCOMPARE(encoder->parent()->text(0), QStringLiteral("Blocks"));
  }

  void paletteFilters() {
    tw::ui::OpPalette palette;
    palette.setFilter(QStringLiteral("conv"));
    QCOMPARE(palette.visibleOps(), (QStringList{QStringLiteral("Conv1d"), QStringLiteral("Conv2d")}));
    int visibleGroups = 0;
    for (int g = 0; g < palette.tree()->topLevelItemCount(); ++g) {
      QTreeWidgetItem *group = palette.tree()->topLevelItem(g);
      if (group->isHidden()) continue;
      ++visibleGroups;
      QCOMPARE(group->text(0), QStringLiteral("Layers"));
    }
    QCOMPARE(visibleGroups, 1);
    palette.setFilter(QStringLiteral("no such layer"));
    QVERIFY(palette.visibleOps().isEmpty());
    palette.setFilter({});
    QCOMPARE(palette.visibleOps().size(), static_cast<qsizetype>(tw::spec::Registry::instance().ops().size()));
  }

  void paletteDragCarriesOpName() {
    tw::ui::OpPalette palette;
    QTreeWidget *tree = palette.tree();
    QTreeWidgetItem *item = findOp(tree, QStringLiteral("MaxPool2d"));
    QVERIFY(item);
    QVERIFY(item->flags() & Qt::ItemIsDragEnabled);
    // The view's startDrag asks the model, which asks the tree: the same path as a real drag.
    const QModelIndex index = tree->indexFromItem(item);
    QCOMPARE(tree->model()->mimeTypes(), QStringList{QString::fromLatin1(tw::ui::OpPalette::kMimeType)});
    std::unique_ptr<QMimeData> data(tree->model()->mimeData({index}));
    QVERIFY(data);
    QCOMPARE(data->data(QString::fromLatin1(tw::ui::OpPalette::kMimeType)), QByteArray("MaxPool2d"));
  }

  void paletteActivation() {
    tw::ui::OpPalette palette;
    palette.resize(260, 600);
    palette.show();
    QVERIFY(QTest::qWaitForWindowExposed(&palette));
    QSignalSpy spy(&palette, &tw::ui::OpPalette::opActivated);
    QTreeWidget *tree = palette.tree();
    QTreeWidgetItem *item = findOp(tree, QStringLiteral("Linear"));
    QVERIFY(item);
    const QPoint centre = tree->visualItemRect(item).center();
    // Qt Test's double-click is the second press only; the view wants the first one too.
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, centre);
    QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, centre);
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("Linear"));

    tree->setCurrentItem(findOp(tree, QStringLiteral("ReLU")));
    QTest::keyClick(tree, Qt::Key_Return);
    QCOMPARE(spy.size(), 2);
    QCOMPARE(spy.at(1).at(0).toString(), QStringLiteral("ReLU"));

    // Headings are not ops.
    tree->setCurrentItem(tree->topLevelItem(0));
    QTest::keyClick(tree, Qt::Key_Return);
    QCOMPARE(spy.size(), 2);

    QVERIFY(palette.grab().save(screenshotPath(QStringLiteral("design_palette.png"))));
  }

  void conv2dForm() {
    Graph graph;
    QVERIFY2(graph.analysis.ok(), graph.analysis.ok() ? "" : graph.analysis.diagnostics.front().message.c_str());
    tw::ui::PropertyEditor editor;
    editor.resize(360, 520);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QSignalSpy edited(&editor, &tw::ui::PropertyEditor::paramEdited);
    QSignalSpy reset(&editor, &tw::ui::PropertyEditor::paramReset);
    editor.showNode(graph.node("conv"), graph.info("conv"), {});
    QCOMPARE(editor.idEdit()->text(), QStringLiteral("conv"));

    auto *out = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("out_channels")));
    QVERIFY(out);
    QCOMPARE(out->value(), 16);
    QVERIFY(!out->font().italic());
    auto *in = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("in_channels")));
    QVERIFY(in);
    QCOMPARE(in->text(), QStringLiteral("auto (1)"));
    QVERIFY(in->font().italic());
    QVERIFY(in->toolTip().contains(QStringLiteral("Channels of the input")));
    QVERIFY(out->toolTip().contains(QStringLiteral("int, ≥ 1")));
    auto *kernel = qobject_cast<QLineEdit *>(editor.editorFor(QStringLiteral("kernel_size")));
    QVERIFY(kernel);
    QCOMPARE(kernel->text(), QStringLiteral("3"));
    auto *stride = qobject_cast<QLineEdit *>(editor.editorFor(QStringLiteral("stride")));
    QVERIFY(stride);
    QCOMPARE(stride->text(), QStringLiteral("1, 1"));  // the default, shown greyed
    QVERIFY(stride->font().italic());
    QVERIFY(qobject_cast<QCheckBox *>(editor.editorFor(QStringLiteral("bias"))));
    QVERIFY(!editor.editorFor(QStringLiteral("no_such_param")));
    auto *padding = qobject_cast<QLineEdit *>(editor.editorFor(QStringLiteral("padding")));
    QVERIFY(padding);
    QCOMPARE(padding->text(), QStringLiteral("1"));
    QVERIFY(!padding->font().italic());
    QVERIFY(resetButton(padding)->isVisible());      // written, with a default to go back to
    QVERIFY(!resetButton(stride)->isVisible());      // not written
    QVERIFY(!resetButton(out)->isVisible());         // required: nothing to reset to
    QCOMPARE(edited.size(), 0);  // filling the form is not an edit

    // Leaving a field unchanged commits nothing.
    Q_EMIT out->editingFinished();
    QCOMPARE(edited.size(), 0);
    out->setValue(32);
    Q_EMIT out->editingFinished();
    QCOMPARE(edited.size(), 1);
    QCOMPARE(edited.at(0).at(0).toString(), QStringLiteral("conv"));
    QCOMPARE(edited.at(0).at(1).toString(), QStringLiteral("out_channels"));
    QCOMPARE(edited.at(0).at(2).value<ParamValue>(), ParamValue(int64_t{32}));

    kernel->setText(QStringLiteral("5, 3"));
    Q_EMIT kernel->editingFinished();
    QCOMPARE(edited.size(), 2);
    QCOMPARE(edited.at(1).at(2).value<ParamValue>(), ParamValue(IntList{5, 3}));

    auto *bias = qobject_cast<QCheckBox *>(editor.editorFor(QStringLiteral("bias")));
    bias->setChecked(false);
    QCOMPARE(edited.size(), 3);
    QCOMPARE(edited.at(2).at(2).value<ParamValue>(), ParamValue(false));

    resetButton(padding)->click();
    QCOMPARE(reset.size(), 1);
    QCOMPARE(reset.at(0).at(0).toString(), QStringLiteral("conv"));
    QCOMPARE(reset.at(0).at(1).toString(), QStringLiteral("padding"));
    // Emptying a written field with a default resets it too; a required one just turns red.
    editor.showNode(graph.node("conv"), graph.info("conv"), {});
    padding->clear();
    Q_EMIT padding->editingFinished();
    QCOMPARE(reset.size(), 2);
    kernel->clear();
    Q_EMIT kernel->editingFinished();
    QCOMPARE(reset.size(), 2);

    // Re-showing the same node after an edit updates values in place: same widgets, focus kept.
    editor.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&editor));
    out->setFocus();
    QVERIFY(out->hasFocus());
    graph.spec.nodes[1].params["out_channels"] = int64_t{32};
    graph.analysis = tw::spec::analyze(graph.spec);
    editor.showNode(graph.node("conv"), graph.info("conv"), {});
    QCOMPARE(editor.editorFor(QStringLiteral("out_channels")), out);
    QVERIFY(out->hasFocus());
    QCOMPARE(out->value(), 32);
    QCOMPARE(edited.size(), 3);

    QSignalSpy renamed(&editor, &tw::ui::PropertyEditor::idEdited);
    editor.idEdit()->setText(QStringLiteral("conv1"));
    Q_EMIT editor.idEdit()->editingFinished();
    QCOMPARE(renamed.size(), 1);
    QCOMPARE(renamed.at(0).at(0).toString(), QStringLiteral("conv"));
    QCOMPARE(renamed.at(0).at(1).toString(), QStringLiteral("conv1"));
  }

  void dropoutUsesDoubleSpinBox() {
    Graph graph;
    tw::ui::PropertyEditor editor;
    editor.showNode(graph.node("drop"), graph.info("drop"), {});
    auto *p = qobject_cast<QDoubleSpinBox *>(editor.editorFor(QStringLiteral("p")));
    QVERIFY(p);
    QCOMPARE(p->value(), 0.25);
    QCOMPARE(p->decimals(), 6);
    QVERIFY2(p->toolTip().contains(QStringLiteral("float, 0 … 1")), qPrintable(p->toolTip()));
    QSignalSpy edited(&editor, &tw::ui::PropertyEditor::paramEdited);
    p->setValue(0.5);
    Q_EMIT p->editingFinished();
    QCOMPARE(edited.size(), 1);
    QCOMPARE(edited.at(0).at(2).value<ParamValue>(), ParamValue(0.5));
  }

  void inputShapeText_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("emits");
    QTest::addColumn<IntList>("shape");
    QTest::newRow("commas") << QStringLiteral("3, 32, 32") << true << IntList{3, 32, 32};
    QTest::newRow("brackets") << QStringLiteral("[3,32,32]") << true << IntList{3, 32, 32};
    QTest::newRow("spaces") << QStringLiteral(" 3 32 32 ") << true << IntList{3, 32, 32};
    QTest::newRow("one dim") << QStringLiteral("784") << true << IntList{784};
    QTest::newRow("not a number") << QStringLiteral("1, x") << false << IntList{};
    QTest::newRow("below the minimum") << QStringLiteral("0, 28, 28") << false << IntList{};
    QTest::newRow("empty but required") << QString() << false << IntList{};
    QTest::newRow("unchanged") << QStringLiteral("1, 28, 28") << false << IntList{};
  }
  void inputShapeText() {
    QFETCH(QString, text);
    QFETCH(bool, emits);
    QFETCH(IntList, shape);
    Graph graph;
    tw::ui::PropertyEditor editor;
    editor.showNode(graph.node("image"), graph.info("image"), {});
    auto *edit = qobject_cast<QLineEdit *>(editor.editorFor(QStringLiteral("shape")));
    QVERIFY(edit);
    QCOMPARE(edit->text(), QStringLiteral("1, 28, 28"));
    const QColor normal = edit->palette().color(QPalette::Text);
    QSignalSpy edited(&editor, &tw::ui::PropertyEditor::paramEdited);
    QSignalSpy reset(&editor, &tw::ui::PropertyEditor::paramReset);
    edit->setText(text);
    Q_EMIT edit->editingFinished();
    QCOMPARE(reset.size(), 0);
    QCOMPARE(edited.size(), emits ? 1 : 0);
    if (emits) {
      QCOMPARE(edited.at(0).at(1).toString(), QStringLiteral("shape"));
      QCOMPARE(edited.at(0).at(2).value<ParamValue>(), ParamValue(shape));
    } else if (text != QStringLiteral("1, 28, 28")) {
      QVERIFY(edit->palette().color(QPalette::Text) != normal);  // shown red
    }
  }

  void choicesAndProblem() {
    Graph graph;
    tw::ui::PropertyEditor editor;
    editor.resize(360, 360);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    auto *hint = editor.findChild<QLabel *>();
    QVERIFY(hint && hint->isVisible());
    const QString problem = QStringLiteral("out_channels: expected >= 1, got 0");
    graph.spec.nodes[1].params["out_channels"] = int64_t{0};
    editor.showNode(graph.node("conv"), nullptr, problem);
    auto *label = editor.findChild<QLabel *>(QStringLiteral("nodeProblem"));
    QVERIFY(label && label->isVisible());
    QCOMPARE(label->text(), problem);
    auto *out = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("out_channels")));
    QCOMPARE(out->text(), QStringLiteral("0"));  // what the file says, though out of range
    auto *in = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("in_channels")));
    QCOMPARE(in->text(), QStringLiteral("auto"));  // nothing analysed to show
    QVERIFY(editor.grab().save(screenshotPath(QStringLiteral("design_properties_problem.png"))));

    editor.showNode(graph.node("image"), graph.info("image"), {});
    QVERIFY(!label->isVisible());
    auto *dtype = qobject_cast<QComboBox *>(editor.editorFor(QStringLiteral("dtype")));
    QVERIFY(dtype);
    QCOMPARE(dtype->currentText(), QStringLiteral("float32"));
    QVERIFY(dtype->font().italic());
    QSignalSpy edited(&editor, &tw::ui::PropertyEditor::paramEdited);
    dtype->setCurrentIndex(dtype->findText(QStringLiteral("int64")));
    QCOMPARE(edited.size(), 1);
    QCOMPARE(edited.at(0).at(2).value<ParamValue>(), ParamValue(std::string("int64")));

    editor.clear();
    QVERIFY(hint->isVisible());
    QVERIFY(!label->isVisible());
  }

  void templatesValidate_data() {
    QTest::addColumn<QString>("name");
    for (const QString &name : tw::ui::modelTemplateNames()) QTest::newRow(qPrintable(name)) << name;
  }

  void templatesValidate() {
    QFETCH(QString, name);
    auto expected = templateExpectations().find(name);
    if (expected == templateExpectations().end()) QFAIL("the template has no row in templateExpectations()");
    QVERIFY(!tw::ui::modelTemplateTitle(name).isEmpty());
    const tw::spec::Analysis a = analyzeTemplate(name);
    QVERIFY2(a.ok(), tw::spec::formatDiagnostics(a.diagnostics).c_str());
    QCOMPARE(int(a.nodes.size()), expected->second.nodes);
    QCOMPARE(QString::fromStdString(tw::spec::formatShape(a.find(a.output)->outputShape)),
             QString::fromLatin1(expected->second.output));
    QVERIFY(a.totalParams > 0);
  }

  // The template reads Fashion-MNIST rows as tokens; it is the shipped example, node for node.
  void transformerTemplateIsTheExample() {
    const tw::spec::Analysis a = analyzeTemplate(QStringLiteral("transformer"));
    QVERIFY(a.ok());
    QCOMPARE(a.find("rows")->outputShape, (tw::spec::Shape{28, 28}));
    QCOMPARE(a.find("encoder2")->outputShape, (tw::spec::Shape{28, 64}));
    QCOMPARE(a.find("encoder1")->op, std::string("TransformerEncoderLayer"));
    QCOMPARE(a.totalParams, int64_t(1856 + 1792 + 2 * 33472 + 650));
    const tw::spec::Analysis example = tw::spec::analyze(
        tw::spec::parseModelFile(TW_SOURCE_DIR "/resources/examples/fashion_transformer.model.yaml"));
    QVERIFY(example.ok());
    QCOMPARE(example.nodes.size(), a.nodes.size());
    for (size_t i = 0; i < a.nodes.size(); ++i) {
      QCOMPARE(example.nodes[i].id, a.nodes[i].id);
      QCOMPARE(example.nodes[i].op, a.nodes[i].op);
      QCOMPARE(example.nodes[i].outputShape, a.nodes[i].outputShape);
      QCOMPARE(example.nodes[i].paramCount, a.nodes[i].paramCount);
    }
  }

  void propertiesScreenshot() {
    Graph graph;
    tw::ui::PropertyEditor editor;
    editor.resize(360, 520);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.showNode(graph.node("conv"), graph.info("conv"), QStringLiteral("Example: a validator message for this node."));
    QCoreApplication::sendPostedEvents();  // its layout requests, done now rather than after 50 ms
    QCoreApplication::processEvents();
    QVERIFY(editor.grab().save(screenshotPath(QStringLiteral("design_properties.png"))));
  }
};

QTEST_MAIN(TestDesignWidgets)
#include "test_design_widgets.moc"
