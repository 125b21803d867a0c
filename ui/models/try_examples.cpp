#include "ui/models/try_examples.h"

#include "core/config/run_config.h"
#include "core/data/data_splits.h"

#include <QtConcurrent>

#include <algorithm>
#include <cmath>

namespace tw::ui {

QImage exampleImage(const std::vector<int64_t> &shape, const float *features) {
  if (shape.size() != 3 || (shape[0] != 1 && shape[0] != 3) || shape[1] <= 0 || shape[2] <= 0) return {};
  const int channels = static_cast<int>(shape[0]), height = static_cast<int>(shape[1]), width = static_cast<int>(shape[2]);
  const size_t size = static_cast<size_t>(channels) * height * width;
  float low = features[0], high = features[0];
  for (size_t i = 1; i < size; ++i) {
    low = std::min(low, features[i]);
    high = std::max(high, features[i]);
  }
  const float scale = high > low ? 255.0f / (high - low) : 0.0f;
  auto byte = [&](int c, int y, int x) {
    const float v = features[(static_cast<size_t>(c) * height + y) * width + x];
    return static_cast<int>(std::lround(std::clamp((v - low) * scale, 0.0f, 255.0f)));
  };
  QImage image(width, height, channels == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB32);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      if (channels == 1) image.scanLine(y)[x] = static_cast<uchar>(byte(0, y, x));
      else image.setPixel(x, y, qRgb(byte(0, y, x), byte(1, y, x), byte(2, y, x)));
    }
  return image;
}

QFuture<TryExamples> readTryExamples(quint64 generation, const QString &runConfigFile, int first, int count) {
  return QtConcurrent::run([generation, file = runConfigFile.toStdString(), first, count] {
    TryExamples out;
    out.generation = generation;
    try {
      // As predict reads it: the run's file, the test split cut at first + count, raw values.
      const config::RunConfig config = config::loadRunConfig(
          file, {"data.test_limit=" + std::to_string(first + count)}, /*requireModel=*/false);
      config::DataOptions data = config.data;
      data.normalize = false;
      const data::DataSplits splits = data::loadDataSplits(data, config.train.seed);
      const data::Examples &test = splits.test;
      const int64_t size = test.featureSize();
      for (int64_t i = first; i < std::min<int64_t>(test.count, first + count); ++i) {
        QImage image = exampleImage(test.featureShape, test.features.data() + i * size);
        if (image.isNull()) {
          out.images.clear();  // not images: nothing to show
          break;
        }
        out.images.push_back(std::move(image));
      }
    } catch (const std::exception &e) {
      out.error = QString::fromStdString(e.what());
    }
    return out;
  });
}

}  // namespace tw::ui
