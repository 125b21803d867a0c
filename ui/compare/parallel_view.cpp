#include "ui/compare/parallel_view.h"

#include "ui/charts/parallel_coordinates.h"
#include "ui/common/number_format.h"
#include "ui/compare/comparison.h"
#include "ui/compare/empty_state.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace tw::ui {

ParallelView::ParallelView(QWidget *parent)
    : QWidget(parent), m_statistic(new QComboBox(this)), m_clear(new QPushButton(tr("Clear selection"), this)),
      m_selection(new QLabel(this)), m_plot(new ParallelCoordinates(this)), m_empty(new EmptyState(m_plot)) {
  m_empty->showMessage(EmptyState::selectRunsMessage());
  addStatistics(m_statistic);
  m_plot->setObjectName(QStringLiteral("compareParallel"));
  m_selection->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto *controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Metric value"), this));
  controls->addWidget(m_statistic);
  controls->addWidget(m_clear);
  controls->addWidget(m_selection, 1);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_plot, 1);
  connect(m_statistic, &QComboBox::currentIndexChanged, this, &ParallelView::rebuild);
  connect(m_clear, &QPushButton::clicked, m_plot, &ParallelCoordinates::clearBrushes);
  connect(m_plot, &ParallelCoordinates::selectionChanged, this, &ParallelView::showSelection);
}

void ParallelView::setComparison(const Comparison *comparison) {
  m_comparison = comparison;
  rebuild();
}

void ParallelView::rebuild() {
  if (!m_comparison) return;
  std::vector<ParallelCoordinates::Axis> axes;
  const auto columns = m_comparison->plottableColumns(/*withShared=*/false);
  if (columns.empty())
    m_empty->showMessage(tr("These runs share every parameter of their data source, so there is nothing to "
                            "spread them along. Compare runs whose settings differ, or see their curves on Curves."));
  else
    m_empty->clear();
  for (const ParamColumn *column : columns) {
    ParallelCoordinates::Axis axis;
    axis.title = QString::fromStdString(column->key);
    if (column->numeric) {
      axis.values = column->numbers;
      axis.log = m_comparison->logAxis(*column);
    } else {
      for (const std::string &category : column->categories)
        axis.categories << formatValueText(QString::fromStdString(category));
      axis.values.assign(column->categoryOf.begin(), column->categoryOf.end());
    }
    axes.push_back(std::move(axis));
  }
  const Statistic statistic = statisticOf(m_statistic);
  ParallelCoordinates::Axis metric;
  metric.title = metricTitle(m_comparison->data.metric, statistic);
  // The compared metric's summary is read with the comparison: never nullopt.
  metric.values = m_comparison->metricValues(m_comparison->data.metric, statistic).value_or(std::vector<double>{});
  axes.push_back(std::move(metric));
  const int colorAxis = static_cast<int>(axes.size()) - 1;
  m_plot->setData(std::move(axes), m_comparison->runNames(), colorAxis);
}

void ParallelView::showSelection() {
  const std::vector<int> lines = m_plot->selectedLines();
  m_clear->setEnabled(lines.size() != static_cast<size_t>(m_plot->lineCount()));
  if (lines.size() == static_cast<size_t>(m_plot->lineCount())) {
    m_selection->setText(tr("All %1 runs shown. Drag along an axis to select a range.").arg(m_plot->lineCount()));
    return;
  }
  QStringList names;
  const size_t shown = 8;
  for (size_t i = 0; i < lines.size() && i < shown; ++i) names << m_plot->lineName(lines[i]);
  QString text = tr("%1 of %2 runs selected").arg(lines.size()).arg(m_plot->lineCount());
  if (!names.isEmpty()) text += QStringLiteral(": ") + names.join(QStringLiteral(", "));
  if (lines.size() > shown) text += QStringLiteral(", …");
  m_selection->setText(text);
}

}  // namespace tw::ui
