#include "ui/charts/zoom_chart_view.h"

#include <QChart>
#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>

#include <cmath>

namespace tw::ui {

namespace {
constexpr int kMinDragPixels = 6;  // less is a click, not a zoom
}  // namespace

double ZoomChartView::stepAt(const QPointF &viewportPoint) const {
  return chart()->mapToValue(mapToScene(viewportPoint.toPoint())).x();
}

void ZoomChartView::mousePressEvent(QMouseEvent *event) {
  const bool inPlot = chart()->plotArea().contains(mapToScene(event->position().toPoint()));
  if (inPlot && (event->button() == Qt::MiddleButton ||
                 (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)))) {
    m_drag = Drag::Pan;
  } else if (inPlot && event->button() == Qt::LeftButton) {
    m_drag = Drag::Zoom;
  } else {
    QChartView::mousePressEvent(event);
    return;
  }
  m_pressAt = m_lastAt = event->position().toPoint();
  event->accept();
}

void ZoomChartView::mouseMoveEvent(QMouseEvent *event) {
  const QPoint at = event->position().toPoint();
  if (m_drag == Drag::Pan) {
    Q_EMIT panRequested(stepAt(m_lastAt) - stepAt(at));
    m_lastAt = at;
    event->accept();
    return;
  }
  if (m_drag == Drag::Zoom) {
    if (!m_band) m_band = new QRubberBand(QRubberBand::Rectangle, viewport());
    const QRectF plot = mapFromScene(chart()->plotArea()).boundingRect();
    m_band->setGeometry(QRect(QPoint(std::min(m_pressAt.x(), at.x()), int(plot.top())),
                              QPoint(std::max(m_pressAt.x(), at.x()), int(plot.bottom()))));
    m_band->show();
    m_lastAt = at;
    event->accept();
    return;
  }
  QChartView::mouseMoveEvent(event);
}

void ZoomChartView::mouseReleaseEvent(QMouseEvent *event) {
  if (m_drag == Drag::None) {
    QChartView::mouseReleaseEvent(event);
    return;
  }
  const Drag drag = m_drag;
  m_drag = Drag::None;
  if (m_band) m_band->hide();
  const QPoint at = event->position().toPoint();
  if (drag == Drag::Zoom && std::abs(at.x() - m_pressAt.x()) >= kMinDragPixels) {
    const double a = stepAt(m_pressAt), b = stepAt(at);
    Q_EMIT zoomRequested(std::min(a, b), std::max(a, b));
  }
  event->accept();
}

void ZoomChartView::mouseDoubleClickEvent(QMouseEvent *event) {
  Q_EMIT resetRequested();
  event->accept();
}

void ZoomChartView::wheelEvent(QWheelEvent *event) {
  if (!chart()->plotArea().contains(mapToScene(event->position().toPoint())) || event->angleDelta().y() == 0) {
    QChartView::wheelEvent(event);
    return;
  }
  // One notch (120) zooms by 20%, around the step under the pointer.
  const double factor = std::pow(0.8, event->angleDelta().y() / 120.0);
  Q_EMIT zoomByRequested(factor, stepAt(event->position()));
  event->accept();
}

}  // namespace tw::ui
