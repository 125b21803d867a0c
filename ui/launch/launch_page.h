#pragma once
// The Launch page: set up a run of the model on the Design page (data, optimiser, schedule,
// epochs, batch size, precision, device, processes, checkpoints) and start it with
// `torchwright launch --detach`. The run file it writes lands in the workspace's studio-runs/
// folder, so every launch can be repeated from the command line.

#include "ui/launch/data_preview_readers.h"

#include <QWidget>

#include <map>
#include <string>

class QComboBox;
class QFormLayout;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace tw::ui {

class DataPreview;
class ModelDocument;
class RunLauncher;

class LaunchPage : public QWidget {
  Q_OBJECT

 public:
  LaunchPage(ModelDocument *model, QWidget *parent = nullptr);

  void setWorkspace(const QString &dir) { m_workspace = dir; }
  RunLauncher *launcher() const { return m_launcher; }
  // The run file for the current form and model, as YAML.
  QString runYaml() const;
  QString statusText() const;

  // Form fields, for tests and keyboard users alike.
  QComboBox *dataset() const { return m_dataset; }
  QLabel *datasetNote() const { return m_datasetNote; }
  QLineEdit *dataPath() const { return m_dataPath; }
  QSpinBox *trainLimit() const { return m_trainLimit; }
  QSpinBox *batchSize() const { return m_batchSize; }
  QSpinBox *epochs() const { return m_epochs; }
  QComboBox *optimizer() const { return m_optimizer; }
  QDoubleSpinBox *learningRate() const { return m_lr; }
  QComboBox *schedule() const { return m_schedule; }
  QComboBox *precision() const { return m_precision; }
  QLineEdit *device() const { return m_device; }
  QSpinBox *processes() const { return m_processes; }
  QSpinBox *checkpointEvery() const { return m_checkpointEvery; }
  QLineEdit *runName() const { return m_runName; }
  QPushButton *launchButton() const { return m_launch; }
  QPushButton *previewButton() const { return m_previewButton; }
  DataPreview *dataPreview() const { return m_preview; }
  QComboBox *csvTask() const { return m_csvTask; }
  QComboBox *csvTarget() const { return m_csvTarget; }
  QComboBox *csvMissing() const { return m_csvMissing; }
  QLineEdit *csvCategorical() const { return m_csvCategorical; }
  QSpinBox *samples() const { return m_samples; }
  QSpinBox *classes() const { return m_classes; }
  QDoubleSpinBox *noise() const { return m_noise; }
  // Fills the form and the model's fields (`model.<node>.<field>`) from dotted settings, as a
  // sweep's trial had them (launch_settings.cpp). A run-file key the form has no field for is kept
  // and written into runYaml() until the next call. Returns the settings that did not apply.
  QStringList applySettings(const std::map<std::string, std::string> &settings);
  const std::map<std::string, std::string> &extraSettings() const { return m_extraSettings; }
  // "Clone into Launch": a recorded run's resolved configuration onto the form, its model into
  // the open design (one undo step). The run's name is left for a new one. Returns the settings
  // that did not apply; *error when the configuration does not load.
  QStringList applyRunConfig(const QString &configYaml, QString *error);
  // What Preview Data reads: the form's data settings.
  DataPreviewRequest previewRequest() const;

 Q_SIGNALS:
  void runLaunched(const QString &runUuid);

 private:
  QStringList categoricalColumns() const;  // the Categorical columns field, split at commas
  void launch();
  void setStatus(const QString &text, bool error);
  void browseDataPath();
  void showDatasetFields();

  ModelDocument *m_model;
  RunLauncher *m_launcher;
  QString m_workspace;
  QComboBox *m_dataset;
  QLineEdit *m_dataPath;
  QSpinBox *m_trainLimit, *m_batchSize, *m_epochs, *m_processes, *m_checkpointEvery;
  QComboBox *m_optimizer, *m_schedule, *m_precision;
  QDoubleSpinBox *m_lr;
  QLineEdit *m_device, *m_experiment, *m_runName;
  QPushButton *m_launch;
  QPushButton *m_previewButton;
  DataPreview *m_preview;
  QLabel *m_status;
  QLabel *m_datasetNote = nullptr;
  QFormLayout *m_dataForm = nullptr;
  QComboBox *m_csvTask, *m_csvTarget, *m_csvMissing;
  QLineEdit *m_csvCategorical;
  QSpinBox *m_samples, *m_classes;
  QDoubleSpinBox *m_noise;
  std::map<std::string, std::string> m_extraSettings;
};

}  // namespace tw::ui
