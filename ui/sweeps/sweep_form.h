#pragma once
// The "New sweep" form: the search space (SpaceTable), the objective (one metric, or two for a
// multi-objective study), the sampler and pruner from the catalog with their option editors,
// the budget and the parallelism. It turns into a sweep::SweepFile whose base is the run the
// Launch page would launch, checked by the same parser `torchwright sweep` uses.
//
//   form->setModel(document->toYaml());
//   form->setBaseYaml(launchPage->runYaml());
//   QString path, error;
//   if (form->save(workspace, &path, &error)) launcher->start(path, workspace);

#include "core/sweep/sweep_file.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace tw::ui {

class OptionEditor;
class SpaceTable;

class SweepForm : public QWidget {
  Q_OBJECT

 public:
  explicit SweepForm(QWidget *parent = nullptr);

  // Offers the config table's keys and the fields of this model (its YAML text).
  void setModel(const QString &modelYaml);
  // A widget above the search space, scrolling with the form (what the trials train).
  void setHeader(QWidget *header);
  // The base run file's text (the Launch page's run).
  void setBaseYaml(const QString &yaml) { m_baseYaml = yaml; }

  // The form as a sweep; *problems lists what is wrong with the form itself (row and key).
  sweep::SweepFile sweep(QStringList *problems) const;
  // Writes <workspace>/studies/<name>.sweep.yaml (the base inlined) after parseSweepFile
  // accepted its text; false with *error naming every problem.
  bool save(const QString &workspace, QString *path, QString *error) const;

  SpaceTable *space() const { return m_space; }
  QLineEdit *studyName() const { return m_name; }
  QComboBox *metric() const { return m_metric; }
  QComboBox *direction() const { return m_direction; }
  QCheckBox *secondObjective() const { return m_second; }
  QComboBox *secondMetric() const { return m_secondMetric; }
  QComboBox *secondDirection() const { return m_secondDirection; }
  QComboBox *sampler() const { return m_sampler; }
  OptionEditor *samplerOptions() const { return m_samplerOptions; }
  QSpinBox *seed() const { return m_seed; }
  QComboBox *pruner() const { return m_pruner; }
  OptionEditor *prunerOptions() const { return m_prunerOptions; }
  QSpinBox *trials() const { return m_trials; }
  QDoubleSpinBox *minutes() const { return m_minutes; }
  QSpinBox *parallel() const { return m_parallel; }
  QCheckBox *parallelAuto() const { return m_parallelAuto; }
  QPushButton *startButton() const { return m_start; }
  // Adds a row starting at firstKeyToSearch's key.
  QPushButton *addButton() const { return m_add; }

 Q_SIGNALS:
  void startRequested();

 private:
  void showSamplerOptions();
  void showPrunerOptions();
  void fillDirection(QComboBox *direction, const QString &metric);

  QString m_baseYaml;
  QLineEdit *m_name;
  SpaceTable *m_space;
  QComboBox *m_metric, *m_direction, *m_secondMetric, *m_secondDirection;
  QCheckBox *m_second;
  QComboBox *m_sampler, *m_pruner;
  OptionEditor *m_samplerOptions, *m_prunerOptions;
  QSpinBox *m_seed, *m_trials, *m_parallel;
  QDoubleSpinBox *m_minutes;
  QCheckBox *m_parallelAuto;
  QPushButton *m_start;
  QPushButton *m_add = nullptr;
  QVBoxLayout *m_contentLayout = nullptr;
};

}  // namespace tw::ui
