#pragma once
// The canvas's viewport: zoom with Ctrl+wheel (or the zoom actions), fit the whole model, show a
// model at a zoom its text can be read at, an overview in the corner when the model is larger
// than the view, and take ops dropped from the palette.

#include <QGraphicsView>

class QMimeData;

namespace tw::ui {

class GraphOverview;
class ModelDocument;

class GraphView : public QGraphicsView {
  Q_OBJECT

 public:
  GraphView(QGraphicsScene *scene, ModelDocument *document, QWidget *parent = nullptr);
  void zoomBy(double factor);
  // The Fit action: every node in view, but never below the zoom at which every op name can still
  // be read (opNameZoom); a model larger than that is shown from its inputs, with the overview
  // for the rest. Zoom Out goes further, to boxes without text.
  void fitModel();
  // How a model is first shown (opened, a template, arranged): fitted, but never below the zoom
  // its full labels are read at (legibleZoom); a larger model is shown from its inputs and the
  // view scrolls. Waits for the view to have its size when it is not shown yet.
  void showModel();
  double zoom() const { return transform().m11(); }
  // The zoom from which the nodes' full labels are drawn (canvas_detail.h: at least 9 pixels).
  double legibleZoom() const;
  // The zoom from which every node's op name is drawn; legibleZoom() when there is no node.
  double opNameZoom() const;
  QRectF nodesBounds() const;
  GraphOverview *overview() const { return m_overview; }
  // What a drop from the palette does at a viewport point: adds the op there. False when the data
  // is not an op. (Public for tests: QTest cannot drive a real drag and drop.)
  bool dropOp(const QMimeData *data, const QPoint &viewportPoint);

 Q_SIGNALS:
  // A block from the palette was dropped: the page, which owns the library, inserts it.
  void blockDropped(const QString &name, QPointF scenePosition);

 protected:
  void wheelEvent(QWheelEvent *event) override;
  void dragEnterEvent(QDragEnterEvent *event) override;
  void dragMoveEvent(QDragMoveEvent *event) override;
  void dropEvent(QDropEvent *event) override;
  void resizeEvent(QResizeEvent *event) override;
  void showEvent(QShowEvent *event) override;
  void changeEvent(QEvent *event) override;

 private:
  void placeOverview();
  void showModelNow();
  // Fits the nodes, then zooms in to `floor` when that is larger, showing the model's start.
  void fitAtLeast(double floor);

  ModelDocument *m_document;
  GraphOverview *m_overview;
  bool m_showPending = false;
};

}  // namespace tw::ui
