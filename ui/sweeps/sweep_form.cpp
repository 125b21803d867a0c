#include "ui/sweeps/sweep_form.h"

#include "core/config/metric_direction.h"
#include "ui/common/visible_rows.h"
#include "core/config/metric_keys.h"
#include "core/config/run_config.h"
#include "core/config/safe_path.h"
#include "core/spec/names.h"
#include "ui/common/studio_icons.h"
#include "core/sweep/sweep_writer.h"
#include "ui/sweeps/option_editor.h"
#include "ui/sweeps/searchable_keys.h"
#include "ui/sweeps/space_table.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QScrollArea>
#include <QVBoxLayout>

#include <set>

namespace tw::ui {

namespace {

// The metrics a run records at validation, for every kind of task (metric_keys.h).
QStringList objectiveMetrics() {
  using config::metrics::RunTask;
  QStringList metrics;
  std::set<std::string> seen;
  for (RunTask task : {RunTask::Classification, RunTask::Regression, RunTask::NextToken})
    for (const std::string &name : config::metrics::evaluationNames(task, 5))
      if (seen.insert(name).second) metrics << QString::fromStdString(config::metrics::key("val", name));
  return metrics;
}

}  // namespace

SweepForm::SweepForm(QWidget *parent)
    : QWidget(parent), m_name(new QLineEdit(this)), m_space(new SpaceTable(this)), m_metric(new QComboBox(this)),
      m_direction(new QComboBox(this)), m_secondMetric(new QComboBox(this)), m_secondDirection(new QComboBox(this)),
      m_second(new QCheckBox(tr("Second objective"), this)), m_sampler(new QComboBox(this)),
      m_pruner(new QComboBox(this)), m_samplerOptions(new OptionEditor(this)), m_prunerOptions(new OptionEditor(this)),
      m_seed(new QSpinBox(this)), m_trials(new QSpinBox(this)), m_parallel(new QSpinBox(this)),
      m_minutes(new QDoubleSpinBox(this)), m_parallelAuto(new QCheckBox(tr("Auto"), this)),
      m_start(new QPushButton(tr("Start Sweep"), this)) {
  m_name->setPlaceholderText(tr("A name for the study (default: the date and time)"));

  auto *add = m_add = new QPushButton(tr("Add Parameter"), this);
  auto *remove = new QPushButton(tr("Remove"), this);
  add->setToolTip(tr("Search another run-file key or model field"));
  connect(add, &QPushButton::clicked, this, [this] {
    std::vector<std::string> taken;
    for (int row = 0; row < m_space->rowCount(); ++row)
      if (const QComboBox *key = m_space->keyBox(row)) taken.push_back(key->currentText().toStdString());
    const int row = m_space->addParam(QString::fromStdString(firstKeyToSearch(m_space->keys(), taken)));
    m_space->setCurrentCell(row, SpaceTable::KeyColumn);
  });
  connect(remove, &QPushButton::clicked, m_space, &SpaceTable::removeSelectedRows);

  const QStringList metrics = objectiveMetrics();
  for (QComboBox *box : {m_metric, m_secondMetric}) {
    box->setEditable(true);  // any metric the run records, such as a test/ key
    box->addItems(metrics);
  }
  // Classification is the common case, and accuracy what a search is usually judged by.
  if (const QString accuracy = QString::fromStdString(config::metrics::key("val", "accuracy")); metrics.contains(accuracy))
    m_metric->setCurrentText(accuracy);
  // The model's parameter count, which the registry knows without training: accuracy against size.
  m_secondMetric->addItem(QStringLiteral("params"));
  m_secondMetric->setCurrentText(QStringLiteral("params"));
  for (QComboBox *box : {m_direction, m_secondDirection}) {
    box->addItem(tr("maximize"), QStringLiteral("maximize"));
    box->addItem(tr("minimize"), QStringLiteral("minimize"));
  }
  connect(m_metric, &QComboBox::currentTextChanged, this, [this](const QString &m) { fillDirection(m_direction, m); });
  connect(m_secondMetric, &QComboBox::currentTextChanged, this,
          [this](const QString &m) { fillDirection(m_secondDirection, m); });
  fillDirection(m_direction, m_metric->currentText());
  fillDirection(m_secondDirection, m_secondMetric->currentText());
  m_secondMetric->setEnabled(false);
  m_secondDirection->setEnabled(false);
  connect(m_second, &QCheckBox::toggled, m_secondMetric, &QWidget::setEnabled);
  connect(m_second, &QCheckBox::toggled, m_secondDirection, &QWidget::setEnabled);

  // Whatever the catalog holds, in its order; each entry's doc explains it.
  for (const search::SamplerEntry &entry : search::samplerCatalog()) {
    m_sampler->addItem(QString::fromStdString(entry.name));
    m_sampler->setItemData(m_sampler->count() - 1, QString::fromStdString(entry.doc), Qt::ToolTipRole);
  }
  for (const search::PrunerEntry &entry : search::prunerCatalog()) {
    m_pruner->addItem(QString::fromStdString(entry.name));
    m_pruner->setItemData(m_pruner->count() - 1, QString::fromStdString(entry.doc), Qt::ToolTipRole);
  }
  const sweep::SweepFile defaults;
  if (m_sampler->findText(QString::fromStdString(defaults.sampler)) >= 0)
    m_sampler->setCurrentText(QString::fromStdString(defaults.sampler));
  m_pruner->setCurrentText(QString::fromStdString(defaults.pruner));
  connect(m_sampler, &QComboBox::currentTextChanged, this, &SweepForm::showSamplerOptions);
  connect(m_pruner, &QComboBox::currentTextChanged, this, &SweepForm::showPrunerOptions);
  showSamplerOptions();
  showPrunerOptions();
  m_seed->setRange(0, INT_MAX);
  m_seed->setValue(1);

  m_trials->setRange(0, 100000);
  m_trials->setValue(20);
  m_trials->setSpecialValueText(tr("no limit"));
  m_minutes->setRange(0, 100000);
  m_minutes->setDecimals(1);
  m_minutes->setSuffix(tr(" min"));
  m_minutes->setSpecialValueText(tr("no limit"));
  m_parallel->setRange(1, 1024);
  connect(m_parallelAuto, &QCheckBox::toggled, m_parallel, &QWidget::setDisabled);
  m_parallelAuto->setToolTip(tr("Let the sweep choose how many trials run at once from the model and the machine"));

  auto *spaceBox = new QGroupBox(tr("Search space"), this);
  auto *spaceLayout = new QVBoxLayout(spaceBox);
  spaceLayout->addWidget(m_space);
  auto *rowButtons = new QHBoxLayout;
  rowButtons->addWidget(add);
  rowButtons->addWidget(remove);
  rowButtons->addStretch(1);
  spaceLayout->addLayout(rowButtons);

  auto *settings = new QFormLayout;
  settings->addRow(tr("Study"), m_name);
  auto *objective = new QHBoxLayout;
  objective->addWidget(m_metric, 1);
  objective->addWidget(m_direction);
  settings->addRow(tr("Objective"), objective);
  auto *second = new QHBoxLayout;
  second->addWidget(m_second);
  second->addWidget(m_secondMetric, 1);
  second->addWidget(m_secondDirection);
  settings->addRow(QString(), second);
  auto *sampler = new QHBoxLayout;
  sampler->addWidget(m_sampler, 1);
  sampler->addWidget(m_seed);
  m_seed->setPrefix(tr("seed "));
  settings->addRow(tr("Sampler"), sampler);
  settings->addRow(QString(), m_samplerOptions);
  settings->addRow(tr("Pruner"), m_pruner);
  settings->addRow(QString(), m_prunerOptions);
  auto *budget = new QHBoxLayout;
  budget->addWidget(m_trials);
  budget->addWidget(m_minutes);
  m_trials->setSuffix(tr(" trials"));
  settings->addRow(tr("Budget"), budget);
  auto *parallel = new QHBoxLayout;
  parallel->addWidget(m_parallel);
  parallel->addWidget(m_parallelAuto);
  parallel->addStretch(1);
  settings->addRow(tr("Trials at once"), parallel);

  m_start->setToolTip(tr("Write the sweep file into the workspace's studies folder and run it in the background"));
  m_start->setIcon(studioIcon("media-playback-start"));
  connect(m_start, &QPushButton::clicked, this, &SweepForm::startRequested);
  auto *buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(m_start);

  // The space (8 rows) and the settings with the sampler's options are taller than a small
  // screen: they scroll, and Start stays in view below them.
  keepRowsVisible(m_space);
  auto *content = new QWidget(this);
  auto *contentLayout = m_contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(0, 0, 0, 0);
  contentLayout->addWidget(spaceBox, 1);
  contentLayout->addLayout(settings);
  auto *scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(content);
  auto *layout = new QVBoxLayout(this);
  layout->addWidget(scroll, 1);
  layout->addLayout(buttons);
}

void SweepForm::setHeader(QWidget *header) { m_contentLayout->insertWidget(0, header); }

void SweepForm::setModel(const QString &modelYaml) { m_space->setKeys(searchableKeys(modelYaml.toStdString())); }

void SweepForm::fillDirection(QComboBox *direction, const QString &metric) {
  const bool lower = metric == QLatin1String("params") || config::metrics::lowerIsBetter(metric.toStdString());
  direction->setCurrentIndex(lower ? 1 : 0);
}

void SweepForm::showSamplerOptions() {
  const search::SamplerEntry *entry = search::findSampler(m_sampler->currentText().toStdString());
  m_samplerOptions->setSpecs(entry ? entry->options : std::vector<search::OptionSpec>{}, {"seed"});
  m_sampler->setToolTip(entry ? QString::fromStdString(entry->doc) : QString());
}

void SweepForm::showPrunerOptions() {
  const search::PrunerEntry *entry = search::findPruner(m_pruner->currentText().toStdString());
  m_prunerOptions->setSpecs(entry ? entry->options : std::vector<search::OptionSpec>{});
  m_pruner->setToolTip(entry ? QString::fromStdString(entry->doc) : QString());
}

sweep::SweepFile SweepForm::sweep(QStringList *problems) const {
  sweep::SweepFile s;
  s.studyName = m_name->text().trimmed().toStdString();
  if (s.studyName.empty())
    s.studyName = "sweep-" + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
  s.baseYaml = m_baseYaml.toStdString();
  s.space = m_space->space(problems);
  if (s.space.empty()) problems->append(tr("Add at least one parameter to search."));
  auto objective = [](const QComboBox *metric, const QComboBox *direction) {
    sweep::Objective o;
    o.metric = metric->currentText().trimmed().toStdString();
    search::parseDirection(direction->currentData().toString().toStdString(), &o.direction);
    return o;
  };
  s.objectives.push_back(objective(m_metric, m_direction));
  if (m_second->isChecked()) s.objectives.push_back(objective(m_secondMetric, m_secondDirection));
  s.sampler = m_sampler->currentText().toStdString();
  s.samplerOptions = m_samplerOptions->values();
  s.seed = static_cast<uint64_t>(m_seed->value());
  if (const search::SamplerEntry *entry = search::findSampler(s.sampler); entry && s.objectives.size() > 1 &&
                                                                        !entry->multiObjective)
    problems->append(tr("The sampler %1 handles one objective; choose one that handles two.").arg(m_sampler->currentText()));
  s.pruner = m_pruner->currentText().toStdString();
  s.prunerOptions = m_prunerOptions->values();
  s.budget.trials = m_trials->value();
  s.budget.minutes = m_minutes->value();
  if (s.budget.trials == 0 && s.budget.minutes == 0.0)
    problems->append(tr("Give the sweep a budget: a number of trials, minutes, or both."));
  s.parallel = m_parallel->value();
  s.parallelAuto = m_parallelAuto->isChecked();
  return s;
}

bool SweepForm::save(const QString &workspace, QString *path, QString *error) const {
  QStringList problems;
  const sweep::SweepFile s = sweep(&problems);
  const QString name = QString::fromStdString(s.studyName);
  // The sweep file's own rule for a study's name, asked before the name becomes a path.
  if (const std::string problem = spec::portableNameProblem("study name", s.studyName); !problem.empty())
    problems.append(QString::fromStdString(problem));
  if (!problems.isEmpty()) {
    *error = problems.join(QLatin1Char('\n'));
    return false;
  }
  const QString folder = QDir(workspace).filePath(QStringLiteral("studies"));
  // A `studies` folder that is a link out of the workspace is refused, as every name is that
  // must stay in its folder (config/safe_path.h).
  const config::InsidePath inside = config::resolveInside(
      workspace.toStdString(), "studies/" + s.studyName + ".sweep.yaml", config::HardLinks::Allow);
  if (!inside.problem.empty()) {
    *error = tr("Cannot write the study file studies/%1.sweep.yaml: it %2.").arg(name, QString::fromStdString(inside.problem));
    return false;
  }
  *path = QString::fromStdString(inside.path);
  // A study's name is its identity in the database; its file is not overwritten.
  if (QFile::exists(*path)) {
    *error = tr("%1 exists already; give the study another name.").arg(QDir::toNativeSeparators(*path));
    return false;
  }
  const std::string text = sweep::sweepYaml(s);
  // The checks `torchwright sweep` applies (keys, ranges, model fields, catalog options), before
  // a file or a study exists.
  try {
    sweep::parseSweepFile(text, path->toStdString());
  } catch (const std::exception &e) {
    *error = QString::fromStdString(e.what());
    return false;
  }
  QDir().mkpath(folder);
  QSaveFile file(*path);
  if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(text)) < 0 || !file.commit()) {
    *error = tr("Cannot write %1: %2").arg(*path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace tw::ui
