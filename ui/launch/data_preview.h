#pragma once
// What a dataset holds before anything trains on it: a grid of its first images with their
// labels, the class histogram and the split sizes the run will use. Read on a worker thread with
// the same readers the engine uses (IDX files, image folders); other sources say what they are.

#include <QImage>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;

namespace tw::ui {

struct DataPreviewResult {
  QString error;                // why there is no preview
  QImage grid;                  // the first images with their labels; null for non-image sources
  QStringList classNames;
  std::vector<int64_t> classCounts;
  int64_t train = 0, validation = 0, test = 0;
};

class DataPreview : public QWidget {
  Q_OBJECT

 public:
  explicit DataPreview(QWidget *parent = nullptr);

  // dataset as in data.dataset; path empty = the system's copy (IDX); limit 0 = all.
  void preview(const QString &dataset, const QString &path, int64_t trainLimit, double valFraction = 0.1);
  const DataPreviewResult &result() const { return m_result; }
  QString splitText() const;

 Q_SIGNALS:
  void previewed();

 private:
  void showResult(const DataPreviewResult &result);

  QLabel *m_grid;
  QLabel *m_histogram;
  QLabel *m_splits;
  DataPreviewResult m_result;
  quint64 m_generation = 0;
};

}  // namespace tw::ui
