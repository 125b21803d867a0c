#pragma once
// The chart view of MetricChart with the gestures of TensorBoard and W&B: drag across the plot to
// zoom to those steps, the wheel zooms around the pointer, a middle-button (or Shift) drag pans,
// and a double-click shows everything again. The right button is the context menu's (Show All
// Steps and the exports, on MetricChart). It only reports the step range the user asks for;
// MetricChart decides what to draw in it.

#include <QChartView>

namespace tw::ui {

class ZoomChartView : public QChartView {
  Q_OBJECT

 public:
  using QChartView::QChartView;

 Q_SIGNALS:
  void zoomRequested(double fromStep, double toStep);
  void zoomByRequested(double factor, double aroundStep);  // factor < 1 zooms in
  void panRequested(double steps);
  void resetRequested();

 protected:
  void mousePressEvent(QMouseEvent *event) override;
  void mouseMoveEvent(QMouseEvent *event) override;
  void mouseReleaseEvent(QMouseEvent *event) override;
  void mouseDoubleClickEvent(QMouseEvent *event) override;
  void wheelEvent(QWheelEvent *event) override;

 private:
  double stepAt(const QPointF &viewportPoint) const;
  enum class Drag { None, Zoom, Pan };
  Drag m_drag = Drag::None;
  QPoint m_pressAt;
  QPoint m_lastAt;
  QWidget *m_band = nullptr;  // the selected span while dragging
};

}  // namespace tw::ui
