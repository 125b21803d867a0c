#pragma once
// The canvas's minimap: the whole model drawn small in a corner of the canvas, with the part the
// canvas shows outlined. It appears only while the model is larger than the view; pressing or
// dragging in it moves the canvas there.

#include <QGraphicsView>

namespace tw::ui {

class GraphView;

class GraphOverview : public QGraphicsView {
  Q_OBJECT

 public:
  explicit GraphOverview(GraphView *canvas);
  // Refits the model and shows or hides the overview; the canvas calls it whenever what it shows
  // or what the model holds changes.
  void refresh();
  // The part of the model the canvas shows, in scene coordinates.
  QRectF shownArea() const;

 protected:
  void drawForeground(QPainter *painter, const QRectF &rect) override;
  void mousePressEvent(QMouseEvent *event) override;
  void mouseMoveEvent(QMouseEvent *event) override;
  void wheelEvent(QWheelEvent *event) override;
  void changeEvent(QEvent *event) override;

 private:
  void moveCanvasTo(const QPoint &point);

  GraphView *m_canvas;
};

}  // namespace tw::ui
