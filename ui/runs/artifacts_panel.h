#pragma once
// The run's artifacts (checkpoints, exported models, reports, logs, preprocessing): what the
// tracking database recorded, with each file's size and SHA-256 where recorded, read off the UI
// thread; Open Folder and Copy Path act on the selected one.

#include <QFutureWatcher>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace tw::ui {

struct ArtifactRow {
  QString path;      // absolute
  QString recorded;  // as recorded (relative to the run folder, or absolute)
  QString kind;
  qint64 bytes = -1;  // -1: the file is gone
  QString sha256;
  qint64 createdMs = 0;
};

struct ArtifactList {
  quint64 generation = 0;
  std::vector<ArtifactRow> rows;
  QString error;
};

class ArtifactsPanel : public QWidget {
  Q_OBJECT

 public:
  enum Column { PathColumn, KindColumn, SizeColumn, ShaColumn, ColumnCount };

  explicit ArtifactsPanel(QWidget *parent = nullptr);
  ~ArtifactsPanel() override;

  void setDatabasePath(const QString &path) { m_dbPath = path; }
  // Reads the run's artifacts (again); runDir resolves the relative paths.
  void showRun(int64_t runId, const QString &runDir);
  void clear();

  QTableWidget *table() const { return m_table; }
  QPushButton *openFolderButton() const { return m_openFolder; }
  QPushButton *copyPathButton() const { return m_copyPath; }
  // The selected artifact's absolute path, else empty.
  QString selectedPath() const;
  QString runDir() const { return m_runDir; }

 Q_SIGNALS:
  void loaded();

 private:
  void onRead();

  QString m_dbPath, m_runDir;
  int64_t m_runId = 0;
  quint64 m_generation = 0;
  QFutureWatcher<ArtifactList> *m_watcher;
  std::vector<ArtifactRow> m_rows;
  QTableWidget *m_table;
  QPushButton *m_openFolder, *m_copyPath, *m_refresh;
  QLabel *m_status;
};

}  // namespace tw::ui
