#pragma once
// The run's artifacts (checkpoints, exported models, reports, logs, preprocessing): what the
// tracking database recorded, with each file's size and SHA-256, read off the UI thread; Open
// Folder, Copy Path and Copy SHA-256 act on the selected one. Exports and the preprocessing
// record have their digest recorded when written; a file recorded without one (a checkpoint,
// rewritten every epoch; a log) is hashed as it is now, on the pool's thread after the list shows,
// and the tooltip says which of the two a digest is.

#include <QFutureWatcher>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace tw::ui {

class StoreCall;

struct ArtifactRow {
  QString path;      // absolute
  QString recorded;  // as recorded (relative to the run folder, or absolute)
  QString kind;
  qint64 bytes = -1;  // -1: the file is gone
  QString sha256;
  bool computed = false;  // hashed from the file as it is now rather than recorded
  qint64 createdMs = 0;
};

// Digests of files recorded without one, by absolute path.
struct ArtifactDigests {
  quint64 generation = 0;
  std::vector<std::pair<QString, QString>> digests;
};

struct ArtifactList {
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
  QPushButton *copyDigestButton() const { return m_copyDigest; }
  // The selected artifact's absolute path, else empty.
  QString selectedPath() const;
  // The selected artifact's full SHA-256 (recorded or computed), else empty.
  QString selectedDigest() const;
  QString runDir() const { return m_runDir; }

 Q_SIGNALS:
  void loaded();
  // The digests of the files recorded without one are shown (after loaded()).
  void digestsComputed();

 private:
  void onRead(const ArtifactList &list);
  void onDigests();
  void showDigest(int row);
  int selectedRow() const;

  QString m_dbPath, m_runDir;
  int64_t m_runId = 0;
  quint64 m_generation = 0;  // the list shown; digests computed for an older one are dropped
  StoreCall *m_reader;
  QFutureWatcher<ArtifactDigests> *m_digestWatcher;
  std::vector<ArtifactRow> m_rows;
  QTableWidget *m_table;
  QPushButton *m_openFolder, *m_copyPath, *m_copyDigest, *m_refresh;
  QLabel *m_status;
};

}  // namespace tw::ui
