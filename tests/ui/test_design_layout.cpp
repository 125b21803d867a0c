// The Design canvas on real networks: the layered layout measured on the templates and on a
// 200-node model (no overlapping nodes, every edge pointing along the flow, no edge drawn through
// a node, crossings counted), the scene growing with the model, a large model opened at a legible
// zoom with an overview that moves the canvas, new nodes placed in free space, New asking before
// it replaces unsaved edits (one undo step), the property form refusing invalid values visibly,
// and the YAML view's errors with their line.

#include "design_models.h"
#include "studio_fixture.h"

#include "ui/design/design_page.h"
#include "ui/design/edge_item.h"
#include "ui/design/graph_layout.h"
#include "ui/design/graph_overview.h"
#include "ui/design/group_frame.h"
#include "ui/design/graph_scene.h"
#include "ui/design/graph_view.h"
#include "ui/design/model_document.h"
#include "ui/design/node_item.h"
#include "ui/design/op_palette.h"
#include "ui/design/property_editor.h"
#include "ui/design/yaml_view.h"

#include <QAbstractButton>
#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

using tw::ui::DesignPage;
using tw::ui::LayoutFlow;
using tw::ui::ModelDocument;
using tw::ui::NodeItem;

namespace {

const QSizeF kNode(NodeItem::kWidth, NodeItem::kHeight);

std::vector<tw::ui::LayoutNode> layoutNodes(const tw::spec::ModelSpec &spec) {
  std::vector<tw::ui::LayoutNode> nodes;
  for (const auto &n : spec.nodes) {
    tw::ui::LayoutNode node{QString::fromStdString(n.id), {}};
    for (const auto &input : n.inputs) node.inputs << QString::fromStdString(input);
    nodes.push_back(node);
  }
  return nodes;
}

// The layout's measures, taken on the page as drawn: nodes that overlap, edges that do not point
// along the flow, and edges drawn through a node other than their ends.
struct Measures {
  int overlaps = 0, backward = 0, throughNodes = 0;
};

Measures measure(DesignPage &page) {
  Measures m;
  const ModelDocument *doc = page.document();
  const bool down = doc->flow() == LayoutFlow::TopToBottom;
  QList<NodeItem *> nodes;
  for (const auto &n : doc->spec().nodes) nodes << page.scene()->nodeItem(QString::fromStdString(n.id));
  for (int i = 0; i < nodes.size(); ++i)
    for (int j = i + 1; j < nodes.size(); ++j)
      if (QRectF(nodes[i]->pos(), kNode).intersects(QRectF(nodes[j]->pos(), kNode))) ++m.overlaps;
  for (tw::ui::EdgeItem *e : page.scene()->edges()) {
    const QPointF a = e->from()->pos(), b = e->to()->pos();
    const double step = down ? b.y() - a.y() : b.x() - a.x();
    if (step < (down ? kNode.height() : kNode.width())) ++m.backward;
    for (int k = 1; k < 100; ++k) {
      const QPointF p = e->path().pointAtPercent(k / 100.0);
      for (NodeItem *n : nodes) {
        if (n == e->from() || n == e->to()) continue;
        if (QRectF(n->pos(), kNode).adjusted(2, 2, -2, -2).contains(p)) {
          ++m.throughNodes;
          k = 100;
          break;
        }
      }
    }
  }
  return m;
}

// Answers the next modal message box with `button` once it is up.
void answerNextMessageBox(QMessageBox::StandardButton button) {
  QTimer::singleShot(0, [button] {
    auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
    if (!box) return answerNextMessageBox(button);
    box->button(button)->click();
  });
}

}  // namespace

class TestDesignLayout : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_dir.path()); }
  // Each slot starts from the default direction, whatever the one before chose.
  void init() { QSettings().remove(QStringLiteral("design/flow")); }

  void templatesAreLaidOutInLayers_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("across");
    for (const QString &name : ModelDocument::templateNames()) {
      QTest::newRow(qPrintable(name + "-down")) << name << false;
      QTest::newRow(qPrintable(name + "-across")) << name << true;
    }
  }
  void templatesAreLaidOutInLayers() {
    QFETCH(QString, name);
    QFETCH(bool, across);
    DesignPage page;
    page.resize(1400, 900);
    page.setFlow(across ? LayoutFlow::LeftToRight : LayoutFlow::TopToBottom);
    QVERIFY(page.newModel(name));
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    const Measures m = measure(page);
    QCOMPARE(m.overlaps, 0);
    QCOMPARE(m.backward, 0);
    QCOMPARE(m.throughNodes, 0);
    const auto layout = tw::ui::layOutGraph(layoutNodes(page.document()->spec()), page.document()->flow(), kNode);
    QCOMPARE(layout.crossings, 0);
    // A chain runs straight: the stem of the ResNet and the whole MLP share one column.
    const bool down = !across;
    auto acrossOf = [&](const char *id) {
      const QPointF p = page.document()->position(QString::fromLatin1(id));
      return down ? p.x() : p.y();
    };
    QCOMPARE(acrossOf("image"), acrossOf("logits"));
    // Block instances are framed around their own nodes only.
    if (name == QStringLiteral("resnet")) {
      QVERIFY(page.scene()->groupFrame(QStringLiteral("block1")));
      const QRectF frame = page.scene()->groupFrame(QStringLiteral("block1"))->sceneBoundingRect();
      for (const auto &n : page.document()->spec().nodes) {
        const QString id = QString::fromStdString(n.id);
        if (!id.startsWith(QStringLiteral("block1.")))
          QVERIFY2(!frame.intersects(QRectF(page.document()->position(id), kNode)), qPrintable(id));
      }
      // As a person sees it: opened at a legible zoom, a node selected with its form beside.
      page.view()->showModel();
      page.scene()->selectNode(QStringLiteral("block1.conv1"));
      QVERIFY(page.grab().save(tw::test::screenshotPath(QStringLiteral("design_layout_resnet_%1.png").arg(across ? "across" : "down"))));
    }
  }

  void largeModelIsReadableAndNavigable() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.model.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(tw::test::largeModelYaml().toUtf8());
    file.close();
    DesignPage page;
    page.resize(1400, 900);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QString error;
    QVERIFY2(page.openFile(path, &error), qPrintable(error));
    const ModelDocument *doc = page.document();
    QCOMPARE(int(doc->spec().nodes.size()), 200);
    QVERIFY2(doc->analysis().ok(), qPrintable(page.statusText()));

    const Measures m = measure(page);
    QCOMPARE(m.overlaps, 0);
    QCOMPARE(m.backward, 0);
    QCOMPARE(m.throughNodes, 0);
    const auto layout = tw::ui::layOutGraph(layoutNodes(doc->spec()), doc->flow(), kNode);
    QCOMPARE(layout.crossings, 0);

    // The scene holds the whole model, opened at a legible zoom from its input, with the overview up.
    tw::ui::GraphView *view = page.view();
    QVERIFY(view->sceneRect().contains(view->nodesBounds()));
    QVERIFY2(view->zoom() >= view->legibleZoom() - 1e-9, qPrintable(QString::number(view->zoom())));
    QVERIFY(view->mapToScene(view->viewport()->rect()).boundingRect().contains(page.scene()->nodeItem("image")->sceneBoundingRect()));
    tw::ui::GraphOverview *overview = view->overview();
    QTRY_VERIFY(overview->isVisible());
    QVERIFY(page.grab().save(tw::test::screenshotPath(QStringLiteral("design_large_model.png"))));

    // Pressing on the overview near the model's end moves the canvas there.
    const QPointF logits = page.scene()->nodeItem("logits")->sceneBoundingRect().center();
    QTest::mouseClick(overview->viewport(), Qt::LeftButton, {}, overview->mapFromScene(logits));
    QTRY_VERIFY(overview->shownArea().contains(logits));

    // Fit zooms out as far as the op names can be read: the nodes show their op names alone, the
    // model is too long to fit whole at that zoom, so the overview stays. Zoom Out goes further,
    // to boxes without text, and shows every node with the overview gone.
    page.view()->fitModel();
    QVERIFY(view->zoom() < view->legibleZoom());
    QVERIFY2(std::abs(view->zoom() - view->opNameZoom()) < 1e-9, qPrintable(QString::number(view->zoom())));
    QCOMPARE(page.scene()->nodeItem("logits")->detailAt(view->zoom()), tw::ui::NodeDetail::OpName);
    QTRY_VERIFY(overview->isVisible());
    for (int i = 0; i < 30 && !overview->shownArea().contains(view->nodesBounds()); ++i) view->zoomBy(0.8);
    QVERIFY(overview->shownArea().contains(view->nodesBounds()));
    QCOMPARE(page.scene()->nodeItem("logits")->detailAt(view->zoom()), tw::ui::NodeDetail::Box);
    QTRY_VERIFY(!overview->isVisible());
  }

  void newNodesLandInFreeSpace() {
    DesignPage page;
    page.resize(1200, 800);
    QVERIFY(page.newModel(QStringLiteral("lenet")));
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    // conv1 already has act1 right after it: the new node goes in between, on top of no other.
    page.scene()->selectNode(QStringLiteral("conv1"));
    Q_EMIT page.palette()->opActivated(QStringLiteral("Dropout"));
    const QStringList selected = page.scene()->selectedNodeIds();
    QCOMPARE(selected.size(), 1);
    const QString added = selected.front();
    QCOMPARE(page.document()->node(added)->inputs, std::vector<std::string>{"conv1"});
    const QRectF placed(page.document()->position(added), kNode);
    for (const auto &n : page.document()->spec().nodes) {
      const QString id = QString::fromStdString(n.id);
      if (id != added) QVERIFY2(!placed.intersects(QRectF(page.document()->position(id), kNode)), qPrintable(id));
    }
    // With nothing selected it still avoids what is in the middle of the view.
    page.scene()->clearSelection();
    page.view()->centerOn(page.scene()->nodeItem("pool1"));
    Q_EMIT page.palette()->opActivated(QStringLiteral("ReLU"));
    const QString second = page.scene()->selectedNodeIds().value(0);
    QVERIFY(!second.isEmpty());
    const QRectF secondRect(page.document()->position(second), kNode);
    for (const auto &n : page.document()->spec().nodes) {
      const QString id = QString::fromStdString(n.id);
      if (id != second) QVERIFY2(!secondRect.intersects(QRectF(page.document()->position(id), kNode)), qPrintable(id));
    }
  }

  void newAsksBeforeReplacingEdits() {
    DesignPage page;
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    ModelDocument *doc = page.document();
    // Unedited: no question.
    QVERIFY(page.newModel(QStringLiteral("lenet")));
    QVERIFY(doc->node("conv1"));
    doc->setParam("conv1", "out_channels", int64_t(12));
    QVERIFY(doc->isModified());

    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!page.newModel(QString()));
    QVERIFY(doc->node("conv1"));  // kept, with the edit
    QCOMPARE(std::get<int64_t>(doc->node("conv1")->params.at("out_channels")), int64_t(12));

    answerNextMessageBox(QMessageBox::Discard);
    QVERIFY(page.newModel(QString()));
    QCOMPARE(int(doc->spec().nodes.size()), 0);
    // One undo step brings the edited model back.
    doc->undoStack()->undo();
    QVERIFY(doc->node("conv1"));
    QCOMPARE(std::get<int64_t>(doc->node("conv1")->params.at("out_channels")), int64_t(12));
  }

  void propertyFormRefusesInvalidValues_data() {
    QTest::addColumn<QString>("typed");
    QTest::newRow("negative") << QStringLiteral("-5");
    QTest::newRow("zero") << QStringLiteral("0");
  }
  void propertyFormRefusesInvalidValues() {
    QFETCH(QString, typed);
    DesignPage page;
    page.resize(1400, 900);
    page.show();
    page.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    ModelDocument *doc = page.document();
    QVERIFY(page.newModel(QStringLiteral("mlp")));
    page.scene()->selectNode(QStringLiteral("fc1"));
    const int steps = doc->undoStack()->count();
    auto *field = qobject_cast<QSpinBox *>(page.properties()->editorFor(QStringLiteral("out_features")));
    QVERIFY(field);
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, typed);
    QTest::keyClick(field, Qt::Key_Return);
    // The model is unchanged, the field shows what was typed in red with the validator's words.
    QCOMPARE(std::get<int64_t>(doc->node("fc1")->params.at("out_features")), int64_t(256));
    QCOMPARE(doc->undoStack()->count(), steps);
    QCOMPARE(field->text(), typed);
    QCOMPARE(field->palette().color(QPalette::Text), QColor(0xc0, 0x39, 0x2b));
    const QString expected = QStringLiteral("expected >= 1, got %1").arg(typed);
    QLabel *message = nullptr;
    for (QLabel *label : page.properties()->findChildren<QLabel *>(QStringLiteral("fieldProblem")))
      if (label->isVisible()) message = label;
    QVERIFY(message);
    QCOMPARE(message->text(), expected);
    QVERIFY2(page.statusText().contains(QStringLiteral("fc1, out_features: ") + expected), qPrintable(page.statusText()));
    QVERIFY(page.grab().save(tw::test::screenshotPath(QStringLiteral("design_refused_value.png"))));

    // A valid value afterwards is applied and the message goes.
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("64"));
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(std::get<int64_t>(doc->node("fc1")->params.at("out_features")), int64_t(64));
    QVERIFY(!message->isVisible());
  }

  void yamlErrorsSayWhere() {
    DesignPage page;
    QVERIFY(page.newModel(QStringLiteral("mlp")));
    QPlainTextEdit *editor = page.yamlView()->editor();
    QCOMPARE(editor->lineWrapMode(), QPlainTextEdit::NoWrap);
    editor->setPlainText(QStringLiteral("name: x\nnodes:\n  - {id: a, op: Input, shape: [1, 2]\n  - {id: b}\n"));
    page.yamlView()->applyNow();
    const QString error = page.yamlView()->error();
    QVERIFY2(error.startsWith(QStringLiteral("Line ")) && error.contains(QStringLiteral("column")), qPrintable(error));
    QVERIFY(!error.contains(QStringLiteral("yaml-cpp")));
    QVERIFY(page.yamlView()->errorLine() >= 3);
    QVERIFY(page.document()->node("fc1"));  // the model stays
    // Well-formed YAML the model parser refuses: its line too.
    editor->setPlainText(QStringLiteral("name: x\nnodes:\n  - {id: a, op: Input, shape: [1, 2]}\n  - {id: b, op: ReLU, op: Tanh}\n"));
    page.yamlView()->applyNow();
    QVERIFY2(page.yamlView()->error().startsWith(QStringLiteral("Line 4")), qPrintable(page.yamlView()->error()));
    QVERIFY2(page.yamlView()->error().contains(QStringLiteral("op")), qPrintable(page.yamlView()->error()));
    QCOMPARE(page.yamlView()->errorLine(), 4);
  }

  void flowDirectionIsRemembered() {
    {
      DesignPage page;
      page.setFlow(LayoutFlow::LeftToRight);
      QVERIFY(page.leftToRightAction()->isChecked());
    }
    DesignPage again;
    QCOMPARE(again.document()->flow(), LayoutFlow::LeftToRight);
    const QPointF image = again.document()->position("image"), flat = again.document()->position("flat");
    QVERIFY(flat.x() > image.x());
    QCOMPARE(flat.y(), image.y());
    again.setFlow(LayoutFlow::TopToBottom);
    QVERIFY(again.document()->position("flat").y() > again.document()->position("image").y());
    QVERIFY(again.scene()->nodeItem("flat")->inputPort().y() < again.scene()->nodeItem("flat")->outputPort().y());
  }
};

QTEST_MAIN(TestDesignLayout)
#include "test_design_layout.moc"
