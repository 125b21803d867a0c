#include "ui/sweeps/study_plots.h"

#include "ui/charts/bar_chart.h"
#include "ui/charts/contour_plot.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/parallel_coordinates.h"
#include "ui/charts/scatter_chart.h"
#include "ui/charts/series_palette.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

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

ContourPlot::Axis contourAxis(const search::ParamSpec &spec) {
  ContourPlot::Axis axis;
  axis.title = QString::fromStdString(spec.key);
  axis.low = spec.low;
  axis.high = spec.high;
  axis.log = spec.log;
  for (const auto &choice : spec.choices) axis.categories << QString::fromStdString(choice);
  if (!axis.categories.isEmpty()) {
    axis.low = 0;
    axis.high = static_cast<double>(axis.categories.size() - 1);
  }
  return axis;
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
      m_pareto(new ScatterChart(this)) {
  setDocumentMode(true);
  addTab(m_history, tr("History"));
  m_curves->setLegendVisible(false);  // one series per trial: the hover names it
  addTab(m_curves, tr("Learning Curves"));
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
    // Pruned and failed trials stay visible, faded, so the pruner's cuts can be seen.
    QColor color = seriesColor(static_cast<size_t>(number));
    const bool faded = trial.state == search::TrialState::Pruned || trial.state == search::TrialState::Failed;
    if (faded) color.setAlpha(60);
    m_curves->setSeriesPen(key, color, faded ? 1.0 : 1.8);
  }
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
}

void StudyPlots::showParallel() {
  // One axis per parameter, then the objective; a trial without a parameter (inactive) or
  // without a value (not complete) leaves a gap there.
  std::vector<ParallelCoordinates::Axis> axes;
  QStringList names;
  for (const auto &trial : m_analysis->trials) names << tr("Trial %1").arg(trial.number);
  for (const auto &param : m_analysis->space.params) {
    ParallelCoordinates::Axis axis;
    axis.title = QString::fromStdString(param.key);
    axis.log = param.log;
    for (const auto &choice : param.choices) axis.categories << QString::fromStdString(choice);
    for (const auto &trial : m_analysis->trials) {
      const auto value = trial.params.find(param.key);
      axis.values.push_back(value == trial.params.end() ? NAN : value->second);
    }
    axes.push_back(std::move(axis));
  }
  for (size_t objective = 0; objective < m_analysis->directions.size(); ++objective) {
    ParallelCoordinates::Axis axis;
    axis.title = objectiveTitle(objective);
    for (const auto &trial : m_analysis->trials)
      axis.values.push_back(trial.state == search::TrialState::Complete && objective < trial.values.size()
                                ? trial.values[objective]
                                : NAN);
    axes.push_back(std::move(axis));
  }
  const int colorAxis = static_cast<int>(m_analysis->space.params.size());
  m_parallel->setData(std::move(axes), names, m_analysis->directions.empty() ? -1 : colorAxis);
}

void StudyPlots::showSlice() {
  if (!m_analysis) return;
  const search::ParamSpec *spec = m_analysis->space.find(m_sliceParam->currentText().toStdString());
  if (!spec) {
    m_slice->setPoints({}, {}, {});
    return;
  }
  std::vector<ScatterChart::Point> points;
  for (const auto &trial : m_analysis->trials) {
    const auto value = trial.params.find(spec->key);
    if (trial.state != search::TrialState::Complete || trial.values.empty() || value == trial.params.end()) continue;
    points.push_back({value->second, trial.values.front(), tr("Trial %1").arg(trial.number)});
  }
  m_slice->setPoints(scatterAxis(*spec), titled(objectiveTitle(0)), std::move(points));
}

void StudyPlots::showContour() {
  const auto &contour = m_analysis->contour;
  const search::ParamSpec *x = m_analysis->space.find(contour.x);
  const search::ParamSpec *y = m_analysis->space.find(contour.y);
  if (!x || !y || contour.values.empty()) {
    m_contour->clear();
    m_contourNote->setText(m_analysis->space.params.size() < 2
                               ? tr("A contour plot needs two parameters.")
                               : tr("Not enough finished trials to estimate the objective over a pair yet."));
    m_contourNote->show();
    return;
  }
  m_contourNote->hide();
  m_contourX->setCurrentText(QString::fromStdString(contour.x));
  m_contourY->setCurrentText(QString::fromStdString(contour.y));
  ContourPlot::Grid grid;
  grid.x = contourAxis(*x);
  grid.y = contourAxis(*y);
  grid.columns = contour.columns;
  grid.rows = contour.rows;
  grid.values = contour.values;
  std::vector<QPointF> trials;
  for (const auto &trial : m_analysis->trials) {
    const auto vx = trial.params.find(x->key), vy = trial.params.find(y->key);
    if (trial.state == search::TrialState::Complete && vx != trial.params.end() && vy != trial.params.end())
      trials.emplace_back(vx->second, vy->second);
  }
  m_contour->setData(std::move(grid), std::move(trials), objectiveTitle(0));
}

void StudyPlots::showImportance() {
  std::vector<std::pair<QString, double>> bars;
  for (const auto &[key, value] : m_analysis->importance) bars.emplace_back(QString::fromStdString(key), value);
  m_importanceNote->setVisible(bars.empty());
  m_importanceNote->setText(tr("Importance appears once enough trials have finished."));
  m_importance->setBars(std::move(bars), tr("Importance"));
}

void StudyPlots::showPareto() {
  const bool two = m_analysis->directions.size() == 2;
  setTabVisible(indexOf(m_paretoTab), two);
  if (!two) return;
  std::vector<ScatterChart::Point> points;
  std::vector<std::pair<double, double>> front;
  for (const auto &trial : m_analysis->trials) {
    if (trial.state != search::TrialState::Complete || trial.values.size() < 2) continue;
    points.push_back({trial.values[0], trial.values[1], tr("Trial %1").arg(trial.number)});
    if (std::find(m_analysis->paretoFront.begin(), m_analysis->paretoFront.end(), trial.number) !=
        m_analysis->paretoFront.end())
      front.emplace_back(trial.values[0], trial.values[1]);
  }
  std::sort(front.begin(), front.end());
  QList<QPointF> line;
  for (const auto &[a, b] : front) line.append(QPointF(a, b));
  m_pareto->setPoints(titled(objectiveTitle(0)), titled(objectiveTitle(1)), std::move(points));
  m_pareto->setLine(line, tr("Pareto front"));
}

}  // namespace tw::ui
