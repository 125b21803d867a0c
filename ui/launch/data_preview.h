#pragma once
// What a dataset holds before anything trains on it: a grid of its first images with their
// labels (for synthetic sets, a scatter of the points; for CSV tables, the first rows), the class
// histogram (or the regression target's range) and the split sizes the run will use. Read on a
// worker thread with the same readers the engine uses (data_preview_readers.h).

#include "ui/launch/data_preview_readers.h"

#include <QStringList>
#include <QWidget>

#include <cstdint>

class QLabel;
class QTableWidget;

namespace tw::ui {


class DataPreview : public QWidget {
  Q_OBJECT

 public:
  explicit DataPreview(QWidget *parent = nullptr);

  // dataset as in data.dataset; path empty = the system's copy (IDX); limit 0 = all.
  void preview(const QString &dataset, const QString &path, int64_t trainLimit, double valFraction = 0.1);
  void preview(const DataPreviewRequest &request);
  // Forgets the shown data and drops a read still under way: what the form now describes is
  // another data source, and its old pictures would be stale.
  void clear();
  QTableWidget *table() const { return m_table; }
  const DataPreviewResult &result() const { return m_result; }
  // What the preview on screen (or the read under way) was asked for; a default request when
  // nothing is shown. A CSV table's target is the column the read took when none was named.
  const DataPreviewRequest &request() const { return m_request; }
  QString splitText() const;

 Q_SIGNALS:
  void previewed();
  // A CSV table's header, for choosing the target column.
  void columnsRead(const QStringList &columns);

 private:
  void showResult(const DataPreviewResult &result);

  QLabel *m_grid;
  QLabel *m_histogram;
  QLabel *m_splits;
  QTableWidget *m_table;
  DataPreviewResult m_result;
  DataPreviewRequest m_request;
  quint64 m_generation = 0;
};

}  // namespace tw::ui
