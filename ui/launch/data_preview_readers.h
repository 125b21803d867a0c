#pragma once
// What DataPreview shows, read on a worker thread with the readers the engine uses (core/data):
// IDX files, image folders, CSV tables and the synthetic sets. No widgets here; each function
// throws std::runtime_error with the reader's message (file, line, column) on bad input.

#include <QImage>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace tw::ui {

struct DataPreviewRequest {
  QString dataset = QStringLiteral("fashion-mnist");  // as in data.dataset
  QString path;                                       // empty: the system's copy (IDX)
  int64_t trainLimit = 0;                             // 0 = all
  double valFraction = 0.1;
  double testFraction = 0.2;  // sources without their own test set
  // csv
  QString task = QStringLiteral("classification");
  QString target;  // empty: the last column
  QString missing = QStringLiteral("error");
  QStringList categorical;  // data.categorical: the columns one-hot encoded
  // spirals, blobs, tokens
  int64_t samples = 3000, classes = 3;
  double noise = 0.2;
  int64_t seqLen = 32, vocabSize = 64;  // tokens; seqLen also token-file
  QString tokenDtype = QStringLiteral("uint16");  // token-file
  int64_t seed = 42;  // train.seed: the preview draws the points the run will train on
  // The screen's device pixels per logical pixel: pictures are drawn at that resolution, so text
  // and points stay sharp on HiDPI screens.
  double pixelRatio = 1.0;
};

// Whether two requests read the same data the same way (the pixel ratio aside): a preview made for
// one is still true of the other.
bool sameData(const DataPreviewRequest &a, const DataPreviewRequest &b);

struct DataPreviewResult {
  QString error;                // why there is no preview
  QImage grid;                  // images with labels, or the synthetic set's scatter; may be null
  QStringList classNames;
  std::vector<int64_t> classCounts;
  int64_t train = 0, validation = 0, test = 0;
  // csv: the header, the first rows as written, the target used and, for regression, its range
  QStringList columns;
  QList<QStringList> rows;
  QString target;
  QString targetSummary;
  // spirals, blobs: the points drawn, x and y per example, exactly as the run generates them
  std::vector<float> points;
};

DataPreviewResult readDataPreview(const DataPreviewRequest &request);

}  // namespace tw::ui
