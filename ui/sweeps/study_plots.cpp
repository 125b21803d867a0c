#include "ui/sweeps/study_plots.h"

#include "ui/charts/bar_chart.h"
#include "ui/charts/contour_plot.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/parallel_coordinates.h"
#include "ui/charts/scatter_chart.h"
#include "ui/charts/series_palette.h"
#include "ui/common/status_colors.h"

#include "ui/common/number_format.h"

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace tw::ui {

namespace {

std::string curveKey(int number) { return "trial " + std::to_string(number); }

// A parameter's axis as the scatter and contour charts take it.
ScatterChart::Axis scatterAxis(const search::ParamSpec &spec) {
  ScatterChart::Axis axis;
  axis.title = QString::fromStdString(spec.key);
  axis.log = spec.log;
  for (const auto &choice : spec.choices) axis.categories << QString::fromStdString(choice);
  return axis;
}

ScatterChart::Axis titled(const QString &title) {
  ScatterChart::Axis axis;
  axis.title = title;
  return axis;
}

ContourPlot::Axis contourAxis(const search::AnalysisAxis &axis) {
  ContourPlot::Axis made;
  made.title = QString::fromStdString(axis.label);
  for (const auto &tick : axis.ticks) made.ticks.emplace_back(tick.unit, QString::fromStdString(tick.label));
  return made;
}

// Trial numbers are whole: ticks on whole numbers only, at least one apart, labelled without
// decimals (a study of three trials would otherwise read "0 0.5 1 1.5 2").
void wholeNumberTicks(QAbstractAxis *axis) {
  auto *value = qobject_cast<QValueAxis *>(axis);
  if (!value) return;
  value->setTickType(QValueAxis::TicksDynamic);
  value->setTickAnchor(0.0);
  value->setTickInterval(std::max(1.0, std::ceil(value->tickInterval())));
  // "%.0f" rather than "%d": QtCharts 6.4 draws no labels at all for "%d" on a dynamic-tick axis.
  value->setLabelFormat(QStringLiteral("%.0f"));
}

QWidget *withNote(QWidget *chart, QLabel *note, QWidget *parent, QLayout *controls = nullptr) {
  auto *page = new QWidget(parent);
  auto *layout = new QVBoxLayout(page);
  if (controls) layout->addLayout(controls);
  layout->addWidget(note);
  layout->addWidget(chart, 1);
  note->setWordWrap(true);
  note->hide();
  return page;
}

}  // namespace

StudyPlots::StudyPlots(QWidget *parent)
    : QTabWidget(parent), m_history(new ScatterChart(this)), m_curves(new MetricChart(tr("Learning curves"), this)),
      m_parallel(new ParallelCoordinates(this)), m_sliceParam(new QComboBox(this)), m_slice(new ScatterChart(this)),
      m_contourX(new QComboBox(this)), m_contourY(new QComboBox(this)), m_contour(new ContourPlot(this)),
      m_contourNote(new QLabel(this)), m_importance(new BarChart(this)), m_importanceNote(new QLabel(this)),
      m_pareto(new ScatterChart(this)), m_curvesLegend(new QLabel(this)) {
  setDocumentMode(true);
  addTab(m_history, tr("History"));
  // One series per trial is a wall of colour chips: the legend beside the chart names the best
  // trials' colours and what the faded ones are, and the hover names any curve.
  m_curves->setLegendVisible(false);
  m_curvesLegend->setObjectName(QStringLiteral("learningCurvesLegend"));
  m_curvesLegend->setWordWrap(true);
  m_curvesLegend->setTextFormat(Qt::RichText);
  auto *curvesPage = new QWidget(this);
  auto *curvesLayout = new QVBoxLayout(curvesPage);
  curvesLayout->addWidget(m_curvesLegend);
  curvesLayout->addWidget(m_curves, 1);
  addTab(curvesPage, tr("Learning Curves"));
  addTab(m_parallel, tr("Parallel Coordinates"));

  auto *sliceControls = new QFormLayout;
  sliceControls->addRow(tr("Parameter"), m_sliceParam);
  auto *slicePage = new QWidget(this);
  auto *sliceLayout = new QVBoxLayout(slicePage);
  sliceLayout->addLayout(sliceControls);
  sliceLayout->addWidget(m_slice, 1);
  addTab(slicePage, tr("Slice"));
  connect(m_sliceParam, &QComboBox::currentTextChanged, this, &StudyPlots::showSlice);

  auto *contourControls = new QHBoxLayout;
  contourControls->addWidget(new QLabel(tr("x"), this));
  contourControls->addWidget(m_contourX, 1);
  contourControls->addWidget(new QLabel(tr("y"), this));
  contourControls->addWidget(m_contourY, 1);
  addTab(withNote(m_contour, m_contourNote, this, contourControls), tr("Contour"));
  for (QComboBox *box : {m_contourX, m_contourY})
    connect(box, &QComboBox::textActivated, this, [this] {
      if (m_contourX->currentText() != m_contourY->currentText())
        Q_EMIT contourPairChosen(m_contourX->currentText(), m_contourY->currentText());
    });

  addTab(withNote(m_importance, m_importanceNote, this), tr("Importance"));
  m_importance->installEventFilter(this);
  m_paretoTab = m_pareto;
  addTab(m_pareto, tr("Pareto Front"));
  setTabVisible(indexOf(m_paretoTab), false);
}

void StudyPlots::clear() {
  m_analysis.reset();
  m_curves->clear();
  m_history->setPoints({}, {}, {});
  m_slice->setPoints({}, {}, {});
  m_pareto->setPoints({}, {}, {});
  m_parallel->setData({}, {}, -1);
  m_contour->clear();
  m_importance->setBars({}, {});
  m_curvesLegend->clear();
  m_sliceParam->clear();
  m_contourX->clear();
  m_contourY->clear();
}

QString StudyPlots::objectiveTitle(size_t index) const {
  if (!m_analysis || index >= m_analysis->metrics.size()) return tr("Objective");
  return QString::fromStdString(m_analysis->metrics[index]);
}

void StudyPlots::setAnalysis(std::shared_ptr<const StudyAnalysis> analysis) {
  const bool newStudy = !m_analysis || m_analysis->studyId != analysis->studyId;
  m_analysis = std::move(analysis);
  if (newStudy) {
    m_curves->clear();
    const QSignalBlocker blockSlice(m_sliceParam), blockX(m_contourX), blockY(m_contourY);
    m_sliceParam->clear();
    m_contourX->clear();
    m_contourY->clear();
    for (const auto &param : m_analysis->space.params) {
      const QString key = QString::fromStdString(param.key);
      m_sliceParam->addItem(key);
      m_contourX->addItem(key);
      m_contourY->addItem(key);
    }
  }
  for (const auto &trial : m_analysis->trials) styleCurve(trial.number);
  showCurvesLegend();
  showHistory();
  showParallel();
  showSlice();
  showContour();
  showImportance();
  showPareto();
}

void StudyPlots::appendCurves(const std::vector<TrialCurve> &curves) {
  for (const TrialCurve &curve : curves) {
    const std::string key = curveKey(curve.number);
    if (!m_curves->hasSeries(key)) m_curves->addSeries(key, tr("Trial %1").arg(curve.number));
    m_curves->appendPoints(key, curve.points);
    styleCurve(curve.number);
  }
}

void StudyPlots::styleCurve(int number) {
  const std::string key = curveKey(number);
  if (!m_curves->hasSeries(key) || !m_analysis) return;
  for (const auto &trial : m_analysis->trials) {
    if (trial.number != number) continue;
    // Pruned and failed trials stay visible, faded in their state's colour (the trials table's),
    // so the pruner's cuts can be seen and told from failures.
    const bool faded = trial.state == search::TrialState::Pruned || trial.state == search::TrialState::Failed;
    QColor color = faded ? statusColor(QString::fromStdString(search::trialStateName(trial.state)))
                         : seriesColor(static_cast<size_t>(number));
    if (faded) color.setAlpha(90);
    m_curves->setSeriesPen(key, color, faded ? 1.0 : 1.8);
  }
}

std::vector<int> StudyPlots::bestTrials() const {
  std::vector<int> best;
  if (!m_analysis) return best;
  // The history's points are the COMPLETE trials with their objective; the best first.
  std::vector<std::pair<double, int>> ranked;
  const bool minimize = !m_analysis->directions.empty() && m_analysis->directions.front() == search::Direction::Minimize;
  for (const auto &point : m_analysis->history) ranked.emplace_back(minimize ? point.value : -point.value, point.number);
  std::sort(ranked.begin(), ranked.end());
  for (size_t i = 0; i < ranked.size() && i < kLegendTrials; ++i) best.push_back(ranked[i].second);
  return best;
}

void StudyPlots::showCurvesLegend() {
  auto chip = [](const QColor &color, const QString &text) {
    return QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2").arg(color.name(), text.toHtmlEscaped());
  };
  QStringList parts;
  std::map<int, double> valueOf;
  for (const auto &point : m_analysis->history) valueOf[point.number] = point.value;
  const std::vector<int> best = bestTrials();
  for (int number : best)
    parts << chip(seriesColor(static_cast<size_t>(number)),
                  tr("Trial %1 (%2)").arg(number).arg(formatNumber(valueOf[number])));
  parts << chip(statusColor(QStringLiteral("PRUNED")), tr("pruned (faded)"))
        << chip(statusColor(QStringLiteral("FAILED")), tr("failed (faded)"));
  const QString lead = best.empty() ? tr("Each trial's curve of %1.").arg(objectiveTitle(0))
                                    : tr("Best trials by %1:").arg(objectiveTitle(0));
  m_curvesLegend->setText(lead.toHtmlEscaped() + QStringLiteral("&nbsp; ") +
                          parts.join(QStringLiteral("&nbsp;&nbsp; ")) + QStringLiteral("&nbsp;&nbsp; ") +
                          tr("Other trials in their own colours; point at a curve to name it.").toHtmlEscaped());
}

void StudyPlots::showHistory() {
  std::vector<ScatterChart::Point> points;
  QList<QPointF> best;
  for (const auto &point : m_analysis->history) {
    points.push_back({static_cast<double>(point.number), point.value, tr("Trial %1").arg(point.number)});
    best.append(QPointF(point.number, point.best));
  }
  m_history->setPoints(titled(tr("Trial")), titled(objectiveTitle(0)), std::move(points));
  m_history->setLine(best, tr("Best so far"));
  wholeNumberTicks(m_history->drawnAxis(Qt::Horizontal));
}

void StudyPlots::showParallel() {
  // core/search places each COMPLETE trial on the axes in unit coordinates; the widget takes
  // values (it scales and labels them itself), so the units go back through the space.
  const search::ParallelCoordinates &data = m_analysis->parallel;
  const auto &params = m_analysis->space.params;
  std::vector<ParallelCoordinates::Axis> axes(data.axes.size());
  QStringList names;
  for (size_t i = 0; i < data.axes.size(); ++i) {
    axes[i].title = QString::fromStdString(data.axes[i].label);
    if (i < params.size()) {
      axes[i].log = params[i].log;
      for (const auto &choice : params[i].choices) axes[i].categories << QString::fromStdString(choice);
    }
  }
  for (const search::ParallelLine &line : data.lines) {
    names << tr("Trial %1").arg(line.number);
    for (size_t i = 0; i < axes.size() && i < line.units.size(); ++i) {
      const double unit = line.units[i];
      axes[i].values.push_back(i < params.size() ? (std::isfinite(unit) ? search::fromUnit(params[i], unit) : NAN)
                                                 : line.objective);
    }
  }
  m_parallel->setData(std::move(axes), names, data.axes.empty() ? -1 : static_cast<int>(data.axes.size()) - 1);
}

void StudyPlots::showSlice() {
  if (!m_analysis) return;
  const std::string key = m_sliceParam->currentText().toStdString();
  const search::ParamSpec *spec = m_analysis->space.find(key);
  std::vector<ScatterChart::Point> points;
  for (const search::ParamSlice &slice : m_analysis->slices) {
    if (slice.key != key) continue;
    for (const search::SlicePoint &point : slice.points)
      points.push_back({point.value, point.objective, tr("Trial %1").arg(point.number)});
  }
  if (!spec) {
    m_slice->setPoints({}, {}, {});
    return;
  }
  m_slice->setPoints(scatterAxis(*spec), titled(objectiveTitle(0)), std::move(points));
}

void StudyPlots::showContour() {
  const search::ContourData &contour = m_analysis->contour;
  if (contour.gridSize == 0) {
    m_contour->clear();
    m_contourNote->setText(m_analysis->space.params.size() < 2
                               ? tr("A contour plot needs two parameters.")
                               : tr("Not enough finished trials to estimate the objective over a pair yet."));
    m_contourNote->show();
    return;
  }
  m_contourNote->hide();
  m_contourX->setCurrentText(QString::fromStdString(contour.xAxis.label));
  m_contourY->setCurrentText(QString::fromStdString(contour.yAxis.label));
  ContourPlot::Grid grid;
  grid.x = contourAxis(contour.xAxis);
  grid.y = contourAxis(contour.yAxis);
  grid.size = contour.gridSize;
  grid.values = contour.z;
  std::vector<QPointF> trials;
  for (const search::ContourPoint &point : contour.points) trials.emplace_back(point.xUnit, point.yUnit);
  m_contour->setData(std::move(grid), std::move(trials), objectiveTitle(0));
}

void StudyPlots::showImportance() {
  if (!m_analysis) return;
  // Qt Charts cuts a category label that does not fit; a long model field
  // ("model.encoder_block.attention.num_heads") would lose its end, which names it. Each label is
  // elided in the middle to a share of the chart's width instead, and the tooltip has every name.
  const QFontMetrics metrics(m_importance->font());
  const int room = std::max(kMinImportanceLabelPx, static_cast<int>(m_importance->width() * kImportanceLabelShare));
  std::vector<std::pair<QString, double>> bars;
  QStringList names;
  for (const auto &entry : m_analysis->importance) {
    const QString key = QString::fromStdString(entry.key);
    bars.emplace_back(metrics.elidedText(key, Qt::ElideMiddle, room), entry.importance);
    names << QStringLiteral("%1: %2").arg(key, formatNumber(entry.importance, 3));
  }
  m_importance->setToolTip(names.join(QLatin1Char('\n')));
  m_importanceNote->setVisible(bars.empty());
  m_importanceNote->setText(tr("Importance appears once enough trials have finished."));
  m_importance->setBars(std::move(bars), tr("Importance"));
}

bool StudyPlots::eventFilter(QObject *watched, QEvent *event) {
  // A resize changes the room the importance labels have: elide them again for it.
  if (watched == m_importance && event->type() == QEvent::Resize && m_analysis) showImportance();
  return QTabWidget::eventFilter(watched, event);
}

void StudyPlots::showPareto() {
  const bool two = m_analysis->directions.size() == 2;
  setTabVisible(indexOf(m_paretoTab), two);
  if (!two) return;
  std::vector<ScatterChart::Point> points;
  std::vector<std::pair<double, double>> front;
  for (const search::ParetoPoint &point : m_analysis->pareto.points) {
    if (point.values.size() < 2) continue;
    points.push_back({point.values[0], point.values[1], tr("Trial %1").arg(point.number)});
    if (point.onFront) front.emplace_back(point.values[0], point.values[1]);
  }
  std::sort(front.begin(), front.end());
  QList<QPointF> line;
  for (const auto &[a, b] : front) line.append(QPointF(a, b));
  m_pareto->setPoints(titled(objectiveTitle(0)), titled(objectiveTitle(1)), std::move(points));
  m_pareto->setLine(line, tr("Pareto front"));
}

}  // namespace tw::ui
