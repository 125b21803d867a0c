#pragma once
// The canvas's viewport: zoom with Ctrl+wheel (or the zoom actions), fit the whole model, and
// take ops dropped from the palette.

#include <QGraphicsView>

class QMimeData;

namespace tw::ui {

class ModelDocument;

class GraphView : public QGraphicsView {
  Q_OBJECT

 public:
  GraphView(QGraphicsScene *scene, ModelDocument *document, QWidget *parent = nullptr);
  void zoomBy(double factor);
  void fitModel();
  double zoom() const { return transform().m11(); }
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

 private:
  ModelDocument *m_document;
};

}  // namespace tw::ui
