#pragma once
// The Launch page: set up a run of the model on the Design page or of a model file, with every
// run-file key of the config table (the common ones up front: data, optimiser, learning rate,
// batch size, epochs, device, processes; the rest in folding sections, config_sections.h), and
// start it with `torchwright launch --detach` once the core's checks (run_check.h, off the UI
// thread) accept it. The run file it writes lands in the workspace's studio-runs/ folder, so
// every launch can be repeated from the command line. The status line follows the launched run's
// recorded state (followRuns, fed by the workspace's database poller). A run file opens into the
// form, every key of it (run_file_io.cpp), and the form saves as the run file Launch would write.
// What the form shows never outlives its inputs: an edit clears the preview it changes and a
// refusal it answers (launch_form_edits.cpp).

#include "ui/launch/data_preview_readers.h"
#include "ui/workspace/poll_results.h"

#include <QHash>
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

namespace tw::config { struct RunConfig; }

namespace tw::ui {

class ConfigSections;
class DataPreview;
class ModelDocument;
class ModelSource;
class RunLauncher;

class LaunchPage : public QWidget {
  Q_OBJECT

 public:
  LaunchPage(ModelDocument *model, QWidget *parent = nullptr);

  void setWorkspace(const QString &dir);
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
  QComboBox *schedule() const;
  QComboBox *precision() const;
  QLineEdit *device() const { return m_device; }
  QSpinBox *processes() const { return m_processes; }
  QSpinBox *checkpointEvery() const;
  // The widget of any run-file key the form offers ("train.gamma"), up front or in a section.
  QWidget *configField(const QString &key) const;
  ConfigSections *sections() const { return m_sections; }
  ModelSource *modelSource() const { return m_modelSource; }
  QLineEdit *runName() const { return m_runName; }
  QPushButton *launchButton() const { return m_launch; }
  QPushButton *previewButton() const { return m_previewButton; }
  // "Replace head (N classes)": shown when the data's classes (from the launch check or Preview
  // Data) differ from the class scores of the Design page's model (launch_head_offer.cpp).
  QPushButton *replaceHeadButton() const { return m_replaceHead; }
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

  // Reads a run file off the UI thread through the config table's parser and fills the whole form
  // from it: every key, the data source and its path, and the model it names (a model file through
  // the model picker, an inline model into the open design as one undo step). A file that does not
  // load leaves the form as it was and the status line names the file, line and key.
  // runFileOpened tells when it is done.
  void openRunFile(const QString &path);
  // Writes runYaml() to `path` (the text Launch writes); false with *error when it cannot.
  bool saveRunFile(const QString &path, QString *error);
  // File > Open Run File… and Save Run File…: the dialogs, then the calls above.
  void chooseRunFileToOpen();
  void chooseRunFileToSave();

  // Runs as the database poller reports them: the status line follows the launched run's state.
  void followRuns(const tw::ui::RunsUpdate &update);

 Q_SIGNALS:
  void runLaunched(const QString &runUuid);
  // An openRunFile call finished: `error` empty when the form now holds the file's settings.
  void runFileOpened(const QString &path, const QString &error);
  // The class count of the form's data became known (0: no longer known); Replace Head… offers it.
  void datasetClassesKnown(qint64 classes);

 private:
  QStringList categoricalColumns() const;  // the Categorical columns field, split at commas
  void launch();
  void writeAndLaunch(const QString &yaml, const QString &path, int processes);
  void showLaunchedRunState();
  void setStatus(const QString &text, bool error);
  // A refusal of what the form holds: shown until the form changes (onFormEdited).
  void showRefusal(const QString &text);
  QString applyRunFile(const config::RunConfig &config);
  void watchFormEdits();
  void onFormEdited(const QString &key);
  void refreshMonitorChoices();
  void browseDataPath();
  void showDatasetFields();
  // The data has `dataClasses` (0: unknown): shows or hides the Replace Head offer.
  void offerHeadFit(qint64 dataClasses);
  void updateHeadOffer();
  void createHeadOffer();

  ModelDocument *m_model;
  RunLauncher *m_launcher;
  QString m_workspace;
  QComboBox *m_dataset;
  QLineEdit *m_dataPath;
  QSpinBox *m_trainLimit, *m_batchSize, *m_epochs, *m_processes;
  QComboBox *m_optimizer;
  QDoubleSpinBox *m_lr;
  QLineEdit *m_device, *m_experiment, *m_runName;
  QPushButton *m_launch;
  QPushButton *m_previewButton;
  QPushButton *m_replaceHead = nullptr;
  qint64 m_dataClasses = 0;  // the form's data's classes, as last checked or previewed
  DataPreview *m_preview;
  QLabel *m_status;
  QLabel *m_datasetNote = nullptr;
  QFormLayout *m_dataForm = nullptr;
  QComboBox *m_csvTask, *m_csvTarget, *m_csvMissing;
  QLineEdit *m_csvCategorical;
  QSpinBox *m_samples, *m_classes;
  QDoubleSpinBox *m_noise;
  std::map<std::string, std::string> m_extraSettings;
  ConfigSections *m_sections = nullptr;
  ModelSource *m_modelSource = nullptr;
  QString m_shownDataset;  // the source whose fields the form shows
  QString m_launchedUuid;  // the run the status line speaks of
  bool m_refusalShown = false;
  // A number a field refused when editing ended (it went back to its value): the next Launch
  // says so instead of launching with the value the person did not see change.
  QString m_inputRefusal;
  quint64 m_openGeneration = 0;  // the run file asked for last; an earlier read is dropped
  QString m_runFileFolder;       // where Open and Save Run File start
  // The last state the poller reported of each run: the launch's answer can come after the
  // poller already saw the run start, or even finish.
  struct RunState {
    tracking::RunStatus status = tracking::RunStatus::Created;
    QString message;
  };
  QHash<QString, RunState> m_runStates;
};

}  // namespace tw::ui
