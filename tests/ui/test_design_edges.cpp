// Edges on the Design canvas. An edge dropped onto an input that is taken replaces the edge there
// (one undo step puts the old one back) or says in the status line why it cannot; an op added
// from the palette with a node selected goes into the chain after it when that node has one
// reader (selected -> new -> reader, one undo step), and starts a branch when it has several.

#include "studio_fixture.h"

#include "ui/design/design_page.h"
#include "ui/design/graph_scene.h"
#include "ui/design/graph_view.h"
#include "ui/design/model_document.h"
#include "ui/design/node_item.h"
#include "ui/design/op_palette.h"

#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using tw::ui::DesignPage;
using tw::ui::ModelDocument;
using tw::ui::NodeItem;

namespace {

using Inputs = std::vector<std::string>;

const char *kModel = R"(name: edges
nodes:
  - {id: image, op: Input, shape: [8]}
  - {id: a, op: Linear, out_features: 8}
  - {id: b, op: Linear, out_features: 8, inputs: [image]}
  - {id: c, op: ReLU, inputs: [a]}
  - {id: d, op: Add, inputs: [b, c]}
output: d
)";

// Drags from `from`'s output port and lets go on `to`, as a person connects two nodes.
void dragEdge(DesignPage &page, const QString &from, const QString &to) {
  QWidget *viewport = page.view()->viewport();
  const QPoint start = page.view()->mapFromScene(page.scene()->nodeItem(from)->outputPort());
  const QPoint end = page.view()->mapFromScene(page.scene()->nodeItem(to)->sceneBoundingRect().center());
  QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
  QTest::mouseMove(viewport, (start + end) / 2);
  QTest::mouseMove(viewport, end);
  QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, end);
}

// Edges that do not run along the flow (the reader above or level with what it reads), and
// nodes lying on one another.
int misplaced(const ModelDocument &doc) {
  int bad = 0;
  const QSizeF size(NodeItem::kWidth, NodeItem::kHeight);
  const bool down = doc.flow() == tw::ui::LayoutFlow::TopToBottom;
  auto along = [&](const QString &id) { return down ? doc.position(id).y() : doc.position(id).x(); };
  for (const auto &n : doc.spec().nodes) {
    const QString id = QString::fromStdString(n.id);
    for (const auto &input : n.inputs)
      if (along(id) - along(QString::fromStdString(input)) < (down ? size.height() : size.width())) ++bad;
    for (const auto &m : doc.spec().nodes)
      if (m.id < n.id && QRectF(doc.position(id), size).intersects(QRectF(doc.position(QString::fromStdString(m.id)), size)))
        ++bad;
  }
  return bad;
}

}  // namespace

class TestDesignEdges : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;

  void openModel(DesignPage &page) {
    const QString path = m_dir.filePath(QStringLiteral("edges.model.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kModel);
    file.close();
    page.resize(1200, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QString error;
    QVERIFY2(page.openFile(path, &error), qPrintable(error));
    page.view()->fitModel();
    QApplication::processEvents();
  }

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_dir.path()); }
  void init() { QSettings().remove(QStringLiteral("design/flow")); }

  void dropOntoTakenInputReplacesTheEdge() {
    DesignPage page;
    openModel(page);
    ModelDocument *doc = page.document();
    QUndoStack *undo = doc->undoStack();
    const int steps = undo->count();
    QCOMPARE(doc->node("c")->inputs, Inputs{"a"});

    dragEdge(page, QStringLiteral("b"), QStringLiteral("c"));
    QCOMPARE(doc->node("c")->inputs, Inputs{"b"});
    QVERIFY(page.scene()->edge(QStringLiteral("b"), QStringLiteral("c")));
    QVERIFY(!page.scene()->edge(QStringLiteral("a"), QStringLiteral("c")));
    QVERIFY2(page.statusText().contains(QStringLiteral("c now reads b instead of a")), qPrintable(page.statusText()));
    QCOMPARE(undo->count(), steps + 1);

    undo->undo();
    QCOMPARE(doc->node("c")->inputs, Inputs{"a"});
    QVERIFY(page.scene()->edge(QStringLiteral("a"), QStringLiteral("c")));
    undo->redo();
    QCOMPARE(doc->node("c")->inputs, Inputs{"b"});
  }

  void dropThatCannotConnectSaysWhy() {
    DesignPage page;
    openModel(page);
    ModelDocument *doc = page.document();
    const int steps = doc->undoStack()->count();
    // a feeds c already: c -> a would close a cycle.
    dragEdge(page, QStringLiteral("c"), QStringLiteral("a"));
    QCOMPARE(doc->node("a")->inputs, Inputs{"image"});
    QVERIFY2(page.statusText().contains(QStringLiteral("cycle")), qPrintable(page.statusText()));
    // c reads a already, and takes one input.
    dragEdge(page, QStringLiteral("a"), QStringLiteral("c"));
    QCOMPARE(doc->node("c")->inputs, Inputs{"a"});
    QVERIFY2(page.statusText().contains(QStringLiteral("c already reads a")), qPrintable(page.statusText()));
    QCOMPARE(doc->undoStack()->count(), steps);
  }

  void paletteInsertsIntoTheChain_data() {
    QTest::addColumn<bool>("across");
    QTest::newRow("down") << false;
    QTest::newRow("across") << true;
  }
  void paletteInsertsIntoTheChain() {
    QFETCH(bool, across);
    DesignPage page;
    page.setFlow(across ? tw::ui::LayoutFlow::LeftToRight : tw::ui::LayoutFlow::TopToBottom);
    QVERIFY(page.newModel(QStringLiteral("lenet")));
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    ModelDocument *doc = page.document();
    const QString before = doc->toYaml();
    const QPointF readerWas = doc->position(QStringLiteral("act1"));
    const QPointF lastWas = doc->position(QStringLiteral("logits"));
    const int steps = doc->undoStack()->count();

    page.scene()->selectNode(QStringLiteral("conv1"));  // read by act1 alone
    Q_EMIT page.palette()->opActivated(QStringLiteral("Dropout"));
    const QString added = page.scene()->selectedNodeIds().value(0);
    QVERIFY(doc->node(added));
    QCOMPARE(doc->node(added)->inputs, Inputs{"conv1"});
    QCOMPARE(doc->node("act1")->inputs, Inputs{added.toStdString()});
    QCOMPARE(doc->readersOf(QStringLiteral("conv1")), QStringList{added});
    QVERIFY2(doc->analysis().ok(), qPrintable(page.statusText()));
    // In the reader's place, the reader and everything after it one layer on.
    QCOMPARE(doc->position(added), readerWas);
    auto along = [across](QPointF p) { return across ? p.x() : p.y(); };
    QVERIFY(along(doc->position(QStringLiteral("act1"))) > along(readerWas));
    QVERIFY(along(doc->position(QStringLiteral("logits"))) > along(lastWas));
    QCOMPARE(misplaced(*doc), 0);
    QCOMPARE(doc->undoStack()->count(), steps + 1);

    doc->undoStack()->undo();  // one step takes it all back
    QVERIFY(!doc->node(added));
    QCOMPARE(doc->toYaml(), before);
    QCOMPARE(doc->position(QStringLiteral("act1")), readerWas);
    QCOMPARE(doc->position(QStringLiteral("logits")), lastWas);
  }

  void paletteStartsABranchAtAFork() {
    DesignPage page;
    QVERIFY(page.newModel(QStringLiteral("resnet")));
    ModelDocument *doc = page.document();
    const QStringList readers = doc->readersOf(QStringLiteral("stem_act"));
    QCOMPARE(readers.size(), 2);  // the block's first conv and its residual sum
    const int steps = doc->undoStack()->count();
    page.scene()->selectNode(QStringLiteral("stem_act"));
    Q_EMIT page.palette()->opActivated(QStringLiteral("Dropout"));
    const QString added = page.scene()->selectedNodeIds().value(0);
    QCOMPARE(doc->node(added)->inputs, Inputs{"stem_act"});
    QCOMPARE(doc->readersOf(QStringLiteral("stem_act")), readers + QStringList{added});
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    doc->undoStack()->undo();
    QVERIFY(!doc->node(added));
  }
};

QTEST_MAIN(TestDesignEdges)
#include "test_design_edges.moc"
