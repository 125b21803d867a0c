#pragma once
// The Models page: the registry's versions with their stages and lineage (click through to the
// run), Promote and Archive (through the CLI, so the UI thread never writes), and "Try it": the
// version's TorchScript file run by the worker (`torchwright predict`) on the first test examples
// of its run's data, the predictions shown beside the labels with the examples' images (read on
// the pool's thread, try_examples.h). A version in another format is tried through a TorchScript
// file of the same run when there is one (registry_reader.h finds it); else the page says why
// not. The lineage is a readable form (lineage_text.h), not the registry's JSON.

#include "ui/models/registry_reader.h"
#include "ui/models/try_examples.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class QLabel;
class QTextBrowser;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTemporaryDir;

namespace tw::ui {

class StoreCall;

class CliCommand;

class ModelsPage : public QWidget {
  Q_OBJECT

 public:
  enum Column { ModelColumn, VersionColumn, StageColumn, FormatColumn, RunColumn, RegisteredColumn, FileColumn, ColumnCount };

  explicit ModelsPage(QWidget *parent = nullptr);
  ~ModelsPage() override;

  void setWorkspace(const QString &dir);
  void setCliPath(const QString &path);
  void refresh();

  QTableWidget *versions() const { return m_versions; }
  QTableWidget *predictions() const { return m_predictions; }
  QTextBrowser *lineage() const { return m_lineage; }
  // Why Try It cannot run the selected version, or which file it runs instead of it.
  QLabel *tryNote() const { return m_tryNote; }
  QPushButton *stagingButton() const { return m_staging; }
  QPushButton *productionButton() const { return m_production; }
  QPushButton *archiveButton() const { return m_archive; }
  QPushButton *tryButton() const { return m_try; }
  QSpinBox *tryCount() const { return m_tryCount; }
  QSpinBox *tryFirst() const { return m_tryFirst; }
  QLabel *status() const { return m_status; }
  const RegistryEntry *selectedEntry() const;
  void selectVersion(const QString &model, int version);

 Q_SIGNALS:
  void openRunRequested(qint64 runId);
  void refreshed();           // a registry read was shown
  void predictionsShown();    // "Try it" finished (its table or its error is shown)
  void examplesShown();       // the predicted examples' images are read (and shown, if images)

 protected:
  void showEvent(QShowEvent *event) override;

 private:
  void onRead(RegistrySnapshot snapshot);
  void showSelection();
  void moveStage(const QString &stage);
  void tryIt();
  void onPredicted(int exitCode, const QString &out, const QString &err);
  void onExamples();
  // The TorchScript file Try It runs for an entry: its own, or its run's sibling; empty when none.
  static QString tryFile(const RegistryEntry &entry);
  static QString entryKey(const RegistryEntry *entry);

  QString m_workspace;
  QString m_store;  // the workspace's tracking store (tracking/workspace_store.h)
  StoreCall *m_reader;  // a newer read (a write landed meanwhile) supersedes the one running
  RegistrySnapshot m_snapshot;
  QTableWidget *m_versions;
  QTextBrowser *m_lineage;
  QLabel *m_tryNote;
  QPushButton *m_staging, *m_production, *m_archive, *m_openRun, *m_refresh, *m_try;
  QSpinBox *m_tryCount, *m_tryFirst;
  QTableWidget *m_predictions;
  QLabel *m_status;
  CliCommand *m_stageCommand, *m_predictCommand;
  std::unique_ptr<QTemporaryDir> m_tryDir;  // the last Try It's predictions; removed with the page
  QFutureWatcher<TryExamples> *m_examplesWatcher;
  quint64 m_examplesGeneration = 0;
  QString m_predictedFor;  // the version the predictions on screen are of ("model\nversion")
  QString m_tryingFor;     // the version Try It is running for
  int m_shownFirst = 0;
};

}  // namespace tw::ui
