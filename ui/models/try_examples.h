#pragma once
// The examples Try It predicts, as images: the run's test split read the way `torchwright
// predict --data RUN.yaml --set data.test_limit=N` reads it (the run's resolved configuration,
// unstandardised), on a thread of QtConcurrent's pool, each [C, H, W] example of one or three
// channels turned into a QImage. Tabular or sequence data has no image: the list is empty.
//
//   auto future = readTryExamples(generation, runDir + "/config.yaml", 5, 12);   // examples 5..16

#include <QFuture>
#include <QImage>
#include <QString>

#include <vector>

namespace tw::ui {

struct TryExamples {
  quint64 generation = 0;
  std::vector<QImage> images;  // one per example from `first`, in order; empty: not images
  QString error;               // the data could not be read
};

QFuture<TryExamples> readTryExamples(quint64 generation, const QString &runConfigFile, int first, int count);

// An example's features [C, H, W] (C = 1 or 3) as an image, its values stretched over 0..255 (the
// raw data may be 0..1 or 0..255). Null for any other shape.
QImage exampleImage(const std::vector<int64_t> &shape, const float *features);

}  // namespace tw::ui
