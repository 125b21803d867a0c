// The Design canvas readable at every zoom, measured on what is drawn. On every template, every
// example model and a 200-node model: the share of nodes whose label is drawn at the default zoom
// is 100% (each node rendered at the view's zoom into an image and its text pixels counted, and
// the viewport itself grabbed for the nodes on screen), in the text colour (the op line too, which
// was grey) and at least kMinTextPixels high; after Arrange the same; after Fit every node on
// screen still shows its op name; the overview shows every node of the 200. Screenshots of each
// are saved to look at.

#include "design_models.h"
#include "studio_fixture.h"

#include "ui/design/canvas_detail.h"
#include "ui/design/design_page.h"
#include "ui/design/graph_overview.h"
#include "ui/design/graph_scene.h"
#include "ui/design/graph_view.h"
#include "ui/design/model_document.h"
#include "ui/design/node_item.h"

#include <QGraphicsScene>
#include <QPainter>
#include <QTemporaryDir>
#include <QtTest>

using tw::ui::DesignPage;
using tw::ui::NodeDetail;
using tw::ui::NodeItem;

namespace {

const QSizeF kNode(NodeItem::kWidth, NodeItem::kHeight);

// Pixels of text in a node's box: dark ones (the text colour on the light fill), the border and
// the ports left out. Grey text would not count.
int textPixels(const QImage &image, const QRectF &box) {
  int n = 0;
  const QRect inner = box.toAlignedRect().adjusted(4, 5, -4, -5).intersected(image.rect());
  for (int y = inner.top(); y <= inner.bottom(); ++y)
    for (int x = inner.left(); x <= inner.right(); ++x)
      if (qGray(image.pixel(x, y)) < 100) ++n;
  return n;
}
constexpr int kDrawn = 15;  // a 9 px word leaves far more; a box without text none

// The node as the scene draws it at `zoom`, wherever it lies (on screen or scrolled away), drawn
// at `at` in the image as a view draws it at that point of its viewport.
QImage renderNode(QGraphicsScene *scene, NodeItem *item, double zoom, QPointF at = {}) {
  const QRectF box(item->pos(), kNode);
  QImage image((kNode * zoom).toSize() + QSize(int(at.x()) + 2, int(at.y()) + 2), QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  scene->render(&painter, QRectF(at, kNode * zoom), box, Qt::IgnoreAspectRatio);
  return image;
}

struct Share {
  int nodes = 0, labelled = 0;
  QStringList unlabelled;
  QString text() const {
    return QStringLiteral("%1 of %2 labelled; without: %3").arg(labelled).arg(nodes).arg(unlabelled.join(", "));
  }
};

// Every node at the view's zoom: its full label, drawn, with the op line in the text colour.
Share fullLabelsAtZoom(DesignPage &page) {
  Share share;
  const double zoom = page.view()->zoom();
  for (const auto &n : page.document()->spec().nodes) {
    NodeItem *item = page.scene()->nodeItem(QString::fromStdString(n.id));
    ++share.nodes;
    const QImage image = renderNode(page.scene(), item, zoom);
    const QRectF opLine(10 * zoom, 23 * zoom, (NodeItem::kWidth - 20) * zoom, 18 * zoom);
    const bool drawn = item->detailAt(zoom) == NodeDetail::Full && item->lastDrawn() == NodeDetail::Full &&
                       textPixels(image, QRectF(QPointF(0, 0), kNode * zoom)) >= kDrawn &&
                       textPixels(image, opLine.adjusted(-4, -5, 4, 5)) > 0;
    if (drawn) ++share.labelled;
    else share.unlabelled << item->id();
  }
  return share;
}

// The nodes wholly on screen, in a grab of the viewport as a person sees it: text in each box.
Share labelsOnScreen(DesignPage &page) {
  Share share;
  tw::ui::GraphView *view = page.view();
  const QImage shot = view->viewport()->grab().toImage();
  for (const auto &n : page.document()->spec().nodes) {
    NodeItem *item = page.scene()->nodeItem(QString::fromStdString(n.id));
    const QRectF box = view->mapFromScene(QRectF(item->pos(), kNode)).boundingRect();
    if (!QRectF(view->viewport()->rect()).contains(box)) continue;
    ++share.nodes;
    if (textPixels(shot, box) >= kDrawn) ++share.labelled;
    else share.unlabelled << item->id();
  }
  return share;
}

}  // namespace

class TestDesignReadability : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_dir.path()); }
  void init() { QSettings().remove(QStringLiteral("design/flow")); }

  void everyLabelIsDrawn_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("name");
    for (const QString &name : tw::ui::ModelDocument::templateNames()) QTest::newRow(qPrintable(name)) << "template" << name;
    for (const QString &name : tw::test::exampleModels()) QTest::newRow(qPrintable(name)) << "example" << name;
    QTest::newRow("200 nodes") << "large" << "large";
  }
  void everyLabelIsDrawn() {
    QFETCH(QString, kind);
    QFETCH(QString, name);
    // The canvas a 1280x800 window gives the Design page.
    DesignPage page;
    page.resize(1280, 740);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QString error;
    if (kind == QLatin1String("template")) {
      QVERIFY(page.newModel(name));
    } else if (kind == QLatin1String("example")) {
      QVERIFY2(page.openFile(tw::test::exampleModelPath(name), &error), qPrintable(error));
    } else {
      const QString path = m_dir.filePath(QStringLiteral("large.model.yaml"));
      QVERIFY(tw::test::writeLargeModel(path));
      QVERIFY2(page.openFile(path, &error), qPrintable(error));
      QCOMPARE(int(page.document()->spec().nodes.size()), 200);
    }
    tw::ui::GraphView *view = page.view();

    // The default zoom: every node's full label, at least 9 px on screen.
    QVERIFY(tw::ui::readableAt(view->zoom(), tw::ui::kBodyPixels));
    QVERIFY(view->zoom() * tw::ui::kBodyPixels >= tw::ui::kMinTextPixels - 1e-6);
    Share all = fullLabelsAtZoom(page);
    QVERIFY2(all.labelled == all.nodes, qPrintable(all.text()));
    Share shown = labelsOnScreen(page);
    QVERIFY(shown.nodes > 0);
    QVERIFY2(shown.labelled == shown.nodes, qPrintable(shown.text()));
    QVERIFY(page.grab().save(tw::test::screenshotPath(QStringLiteral("design_readable_%1_open.png").arg(name))));

    // Arrange: the same.
    page.document()->autoLayout();
    view->showModel();
    all = fullLabelsAtZoom(page);
    QVERIFY2(all.labelled == all.nodes, qPrintable(all.text()));
    shown = labelsOnScreen(page);
    QVERIFY2(shown.nodes > 0 && shown.labelled == shown.nodes, qPrintable(shown.text()));

    // Fit: as much of the model as its op names allow, each node on screen showing at least that.
    const int before = shown.nodes;
    view->fitModel();
    shown = labelsOnScreen(page);
    QVERIFY2(shown.nodes >= before, qPrintable(shown.text()));
    QVERIFY2(shown.labelled == shown.nodes, qPrintable(shown.text()));
    for (const auto &n : page.document()->spec().nodes)
      QVERIFY(page.scene()->nodeItem(QString::fromStdString(n.id))->detailAt(view->zoom()) != NodeDetail::Box);
    QVERIFY(page.grab().save(tw::test::screenshotPath(QStringLiteral("design_readable_%1_fit.png").arg(name))));
  }

  // The overview of a 200-node model shows every node: the pixel at each node's centre stands out
  // from the overview's background (fitted into the corner, a node is under a pixel tall).
  void overviewShowsEveryNode() {
    DesignPage page;
    page.resize(1280, 740);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    const QString path = m_dir.filePath(QStringLiteral("overview.model.yaml"));
    QVERIFY(tw::test::writeLargeModel(path));
    QString error;
    QVERIFY2(page.openFile(path, &error), qPrintable(error));
    tw::ui::GraphOverview *overview = page.view()->overview();
    QTRY_VERIFY(overview->isVisible());
    const QImage shot = overview->viewport()->grab().toImage();
    const int background = qGray(overview->backgroundBrush().color().rgb());
    QStringList faint;
    for (const auto &n : page.document()->spec().nodes) {
      const NodeItem *item = page.scene()->nodeItem(QString::fromStdString(n.id));
      const QPoint at = overview->mapFromScene(item->sceneBoundingRect().center());
      if (background - qGray(shot.pixel(at)) < 40) faint << item->id();
    }
    QVERIFY2(faint.isEmpty(), qPrintable(QStringLiteral("%1 nodes faint: %2").arg(faint.size()).arg(faint.mid(0, 8).join(", "))));
    QVERIFY(page.grab().save(tw::test::screenshotPath(QStringLiteral("design_readable_overview.png"))));
  }

  // What a node draws depends on the zoom alone, not on where on the canvas it lies: at a zoom
  // reached by several scale steps onto the full label's threshold, a node far from the origin
  // shows its label as one at the origin does (the old level of detail, computed with the
  // translation, put the far one just below the threshold).
  void detailDoesNotDependOnPosition() {
    QGraphicsScene scene;
    auto *item = new NodeItem(QStringLiteral("bn"));
    item->setContent(QStringLiteral("BatchNorm2d"), QStringLiteral("[16, 32, 32]"), 32, QString(), false);
    scene.addItem(item);
    QStringList bare;
    for (int step = 0; step < 24; ++step) {  // the zoom reached by Zoom In/Out steps and then a fit
      const double start = 0.3 * std::pow(1.25, step % 8) * (step < 8 ? 1.0 : step < 16 ? 1.15 : 0.8);
      QTransform view = QTransform::fromScale(start, start);
      view.scale(tw::ui::fullLabelZoom() / start, tw::ui::fullLabelZoom() / start);
      const double zoom = view.m11();
      QCOMPARE(item->detailAt(zoom), NodeDetail::Full);
      for (int k = 0; k < 40; ++k) {  // down a long model and a tall viewport, and across
        item->setPos(k * 7.31, k * 123.457);
        const QPointF at(k * 1.3, k * 9.71);
        const QImage image = renderNode(&scene, item, zoom, at);
        if (item->lastDrawn() != NodeDetail::Full || textPixels(image, QRectF(at, kNode * zoom)) < kDrawn)
          bare << QStringLiteral("%1 at (%2, %3)").arg(zoom, 0, 'g', 17).arg(item->x()).arg(item->y());
      }
    }
    QVERIFY2(bare.isEmpty(), qPrintable(bare.mid(0, 5).join("; ") + QStringLiteral(" (%1 in all)").arg(bare.size())));
  }

  // Zoomed out, a node shows its op name alone, larger than the full label's text; long names
  // are split between their words; further out only a box.
  void opNameFillsTheBoxWhenZoomedOut() {
    const auto batchNorm = tw::ui::layOutOpName(QStringLiteral("BatchNorm2d"), kNode - QSizeF(16, 8));
    QVERIFY(batchNorm.pixels > tw::ui::kTitlePixels);
    const auto transformer = tw::ui::layOutOpName(QStringLiteral("TransformerEncoderLayer"), kNode - QSizeF(16, 8));
    QCOMPARE(transformer.lines.size(), 2);
    QCOMPARE(transformer.lines.join(QString()), QStringLiteral("TransformerEncoderLayer"));
    QVERIFY(transformer.pixels >= tw::ui::kBodyPixels);

    QGraphicsScene scene;
    auto *item = new NodeItem(QStringLiteral("bn"));
    item->setContent(QStringLiteral("BatchNorm2d"), QStringLiteral("[16, 32, 32]"), 32, QString(), false);
    scene.addItem(item);
    const double opZoom = tw::ui::kMinTextPixels / item->opNamePixels();
    QVERIFY(opZoom < tw::ui::fullLabelZoom());
    QCOMPARE(item->detailAt(opZoom), NodeDetail::OpName);
    QVERIFY(textPixels(renderNode(&scene, item, opZoom), QRectF(QPointF(0, 0), kNode * opZoom)) >= kDrawn);
    QCOMPARE(item->detailAt(opZoom * 0.9), NodeDetail::Box);
    QCOMPARE(textPixels(renderNode(&scene, item, opZoom * 0.9), QRectF(QPointF(0, 0), kNode * opZoom * 0.9)), 0);
  }
};

QTEST_MAIN(TestDesignReadability)
#include "test_design_readability.moc"
