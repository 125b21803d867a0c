#include "ui/launch/data_preview_readers.h"

#include "core/config/data_source_table.h"
#include "core/data/csv_parser.h"
#include "core/data/csv_layout.h"
#include "core/data/idx.h"
#include "core/data/example_store.h"
#include "core/data/image_codec.h"
#include "core/data/image_folder.h"
#include "core/data/npy.h"
#include "core/data/shard_set.h"
#include "core/data/splits.h"
#include "core/data/random.h"
#include "core/data/synthetic.h"
#include "core/data/token_file.h"
#include "core/data/token_sequences.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tw::ui {

bool sameData(const DataPreviewRequest &a, const DataPreviewRequest &b) {
  return a.dataset == b.dataset && a.path == b.path && a.trainLimit == b.trainLimit && a.valFraction == b.valFraction &&
         a.testFraction == b.testFraction && a.task == b.task && a.target == b.target && a.missing == b.missing &&
         a.categorical == b.categorical && a.samples == b.samples && a.classes == b.classes && a.noise == b.noise &&
         a.seqLen == b.seqLen && a.vocabSize == b.vocabSize && a.tokenDtype == b.tokenDtype && a.seed == b.seed;
}


namespace {

constexpr int kGridColumns = 8, kGridRows = 4, kCell = 64;

QStringList toQStrings(const std::vector<std::string> &values) {
  QStringList out;
  for (const std::string &v : values) out << QString::fromStdString(v);
  return out;
}

// Thumbnails with their class underneath, at most kGridColumns x kGridRows.
// An image of `width` x `height` logical pixels at `ratio` device pixels each; a QPainter on it
// draws in logical coordinates.
QImage sharpImage(int width, int height, double ratio) {
  QImage image(static_cast<int>(width * ratio), static_cast<int>(height * ratio), QImage::Format_RGB32);
  image.setDevicePixelRatio(ratio);
  return image;
}

QImage gridOf(const std::vector<QImage> &images, const std::vector<QString> &labels, double ratio) {
  const int n = std::min<int>(static_cast<int>(images.size()), kGridColumns * kGridRows);
  const int rows = (n + kGridColumns - 1) / kGridColumns;
  QImage grid = sharpImage(kGridColumns * kCell, std::max(1, rows) * (kCell + 14), ratio);
  grid.fill(Qt::white);
  QPainter painter(&grid);
  QFont font = painter.font();
  font.setPixelSize(10);
  painter.setFont(font);
  for (int i = 0; i < n; ++i) {
    const int x = (i % kGridColumns) * kCell, y = (i / kGridColumns) * (kCell + 14);
    painter.drawImage(QRect(x + 4, y + 2, kCell - 8, kCell - 8), images[size_t(i)]);
    painter.drawText(QRect(x, y + kCell - 6, kCell, 16), Qt::AlignHCenter | Qt::AlignTop,
                     painter.fontMetrics().elidedText(labels[size_t(i)], Qt::ElideRight, kCell));
  }
  return grid;
}

QString label(const QStringList &names, int64_t index) {
  return index >= 0 && index < names.size() ? names[int(index)] : QString::number(index);
}

// The split sizes the run will have: core/data's own (splits.h), with its message when a split
// would be empty; testFraction 0 for sources that bring their own test set.
void splitCounts(DataPreviewResult &result, int64_t count, double valFraction, double testFraction) {
  const data::SplitSizes sizes = data::splitSizes(count, valFraction, testFraction);
  result.train = sizes.train;
  result.validation = sizes.val;
  result.test = sizes.test;
}

DataPreviewResult readIdx(const QString &dataset, const QString &path, int64_t limit, double valFraction,
                          double ratio) {
  DataPreviewResult result;
  const std::string dir = path.isEmpty() ? data::defaultDatasetDir(dataset.toStdString()) : path.toStdString();
  const std::string images = data::findIdxFile(dir, "train-images-idx3-ubyte");
  const std::string labels = data::findIdxFile(dir, "train-labels-idx1-ubyte");
  const std::string testLabels = data::findIdxFile(dir, "t10k-labels-idx1-ubyte");
  if (images.empty() || labels.empty())
    throw std::runtime_error(dir + ": no train-images-idx3-ubyte / train-labels-idx1-ubyte (.gz)");
  const auto first = data::readIdxImages(images, kGridColumns * kGridRows);
  const auto all = data::readIdxLabels(labels, limit);
  result.classNames = dataset == QLatin1String("fashion-mnist") ? toQStrings(data::fashionMnistClassNames()) : QStringList();
  result.classCounts.assign(size_t(data::kIdxClasses), 0);
  for (uint8_t l : all.labels)
    if (l < data::kIdxClasses) ++result.classCounts[l];
  std::vector<QImage> thumbs;
  std::vector<QString> names;
  for (int64_t i = 0; i < first.count; ++i) {
    QImage image(static_cast<int>(first.cols), static_cast<int>(first.rows), QImage::Format_Grayscale8);
    for (int64_t r = 0; r < first.rows; ++r)
      std::copy_n(first.pixels.data() + (i * first.rows + r) * first.cols, first.cols, image.scanLine(int(r)));
    thumbs.push_back(image.copy());
    names.push_back(label(result.classNames, i < all.count ? all.labels[size_t(i)] : -1));
  }
  result.grid = gridOf(thumbs, names, ratio);
  splitCounts(result, all.count, valFraction, 0.0);
  result.test = testLabels.empty() ? 0 : data::readIdxLabels(testLabels).count;
  return result;
}

// Planes of floats in [0, 1] (CHW, 1 or 3 channels) as a picture.
QImage planesImage(const float *f, int64_t channels, int64_t h, int64_t w) {
  QImage image(int(w), int(h), QImage::Format_RGB32);
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x) {
      auto channel = [&](int64_t c) { return int(std::clamp(f[(std::min(c, channels - 1) * h + y) * w + x], 0.0f, 1.0f) * 255); };
      image.setPixel(int(x), int(y), qRgb(channel(0), channel(1), channel(2)));
    }
  return image;
}

// A packed shard set: what its manifest says, and the first examples read through its index, so
// a set of any size previews at once (nothing else is read or decoded).
DataPreviewResult readShardsPreview(const DataPreviewRequest &r) {
  if (r.path.isEmpty()) throw std::runtime_error("a packed shard set needs a path (the folder `torchwright pack` wrote)");
  DataPreviewResult result;
  data::ShardReader reader(r.path.toStdString(), "train");
  const data::ShardSetInfo &info = reader.manifest().info;
  const data::ShardSplit &train = reader.manifest().splits.at("train");
  for (const auto &name : info.classNames) result.classNames << QString::fromStdString(name);
  result.classCounts = train.classCounts;
  const int64_t count = r.trainLimit > 0 ? std::min(r.trainLimit, reader.size()) : reader.size();
  const auto test = reader.manifest().splits.find("test");
  const bool ownTest = test != reader.manifest().splits.end();
  splitCounts(result, count, r.valFraction, ownTest ? 0.0 : r.testFraction);
  if (ownTest) result.test = test->second.examples;
  const bool images = info.kind == "image" || (info.dtype == "uint8" && info.featureShape.size() == 3);
  if (!images) return result;
  std::vector<QImage> thumbs;
  std::vector<QString> names;
  const int64_t shown = std::min<int64_t>(count, kGridColumns * kGridRows);
  for (int64_t k = 0; k < shown; ++k) {
    const int64_t i = k * count / std::max<int64_t>(shown, 1);
    const data::ShardExample example = reader.read(i);
    const std::string where = r.path.toStdString() + " example " + std::to_string(i);
    std::vector<float> planes;
    int64_t channels = 1, h = 0, w = 0;
    for (const auto &[ext, bytes] : example.members) {
      if (ext == "npy") {
        const data::NpyArray array = data::parseNpy(bytes, where);
        if (array.type != data::NpyType::Uint8 || array.shape.size() != 3) break;
        channels = array.shape[0], h = array.shape[1], w = array.shape[2];
        for (unsigned char v : array.data) planes.push_back(v / 255.0f);
      } else if (ext == "jpg" || ext == "png" || ext == "bmp") {
        data::ImageHeader header;
        if (!data::readImageHeader(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), &header)) break;
        channels = header.components >= 3 ? 3 : 1, h = 32, w = 32;  // a preview: small is enough, and fast
        planes.resize(size_t(channels * h * w));
        data::decodeImage(bytes, where, int(channels), int(w), int(h), planes.data());
      }
    }
    if (planes.empty()) continue;
    thumbs.push_back(planesImage(planes.data(), channels, h, w));
    names.push_back(label(result.classNames, example.label));
  }
  result.grid = gridOf(thumbs, names, r.pixelRatio);
  return result;
}

// An image folder through the streaming store: the listing and the shown images only, so a folder
// of any size previews at once.
DataPreviewResult readFolder(const QString &path, double valFraction, double testFraction, double ratio) {
  DataPreviewResult result;
  if (path.isEmpty()) throw std::runtime_error("an image folder needs a path (one subfolder per class)");
  data::ImageGeometryOptions options;
  options.width = 32;  // a preview: small is enough, and fast
  options.height = 32;
  options.stampFiles = false;
  const std::shared_ptr<data::ExampleStore> store = data::openImageFolderStore(path.toStdString(), options);
  for (const auto &name : store->classNames()) result.classNames << QString::fromStdString(name);
  const int64_t classes = int64_t(store->classNames().size());
  result.classCounts.assign(size_t(classes), 0);
  for (int64_t l : store->labels())
    if (l >= 0 && l < classes) ++result.classCounts[size_t(l)];
  // Every class in the grid: the folders are read class by class, so take examples evenly spread.
  const int64_t count = store->count();
  const int64_t shown = std::min<int64_t>(count, kGridColumns * kGridRows);
  std::vector<int64_t> rows;
  for (int64_t k = 0; k < shown; ++k) rows.push_back(k * count / std::max<int64_t>(shown, 1));
  const data::Examples examples = data::readStore(*store, rows);
  const int64_t channels = examples.featureShape[0], h = examples.featureShape[1], w = examples.featureShape[2];
  std::vector<QImage> thumbs;
  std::vector<QString> names;
  for (int64_t k = 0; k < shown; ++k) {
    thumbs.push_back(planesImage(examples.features.data() + k * examples.featureSize(), channels, h, w));
    names.push_back(label(result.classNames, examples.labels[size_t(k)]));
  }
  result.grid = gridOf(thumbs, names, ratio);
  splitCounts(result, count, valFraction, testFraction);
  return result;
}

constexpr int kPreviewRows = 12;

DataPreviewResult readCsvPreview(const DataPreviewRequest &request) {
  if (request.path.isEmpty()) throw std::runtime_error("a CSV table needs a path (a .csv file with a header row)");
  DataPreviewResult result;
  const std::string path = request.path.toStdString();
  {
    data::CsvRecordReader reader(path, ',');
    std::vector<std::string> fields;
    if (!reader.next(fields)) throw std::runtime_error(path + ": the file is empty (a header row is needed)");
    for (const auto &name : fields) result.columns << QString::fromStdString(name);
    while (result.rows.size() < kPreviewRows && reader.next(fields)) {
      QStringList row;
      for (const auto &field : fields) row << QString::fromStdString(field);
      result.rows << row;
    }
  }
  result.target = request.target.isEmpty() ? result.columns.value(result.columns.size() - 1) : request.target;
  // The table as training will read it: the same reader, target and missing-value policy, so a
  // ragged row or a bad target shows here, with its line, before anything is launched.
  data::CsvOptions options;
  options.target = result.target.toStdString();
  options.task = request.task == QLatin1String("regression") ? data::Task::Regression : data::Task::Classification;
  options.missing = data::parseMissingPolicy(request.missing.toStdString());
  for (const QString &column : request.categorical) options.categorical.push_back(column.toStdString());
  options.limit = request.trainLimit;
  const data::CsvTable table = data::scanCsv(path, options).table;  // labels and targets; the values are not needed
  const data::Examples &examples = table.examples;
  if (examples.task == data::Task::Classification) {
    for (const auto &name : examples.classNames) result.classNames << QString::fromStdString(name);
    result.classCounts.assign(size_t(std::max<int64_t>(examples.classes, 0)), 0);
    for (int64_t l : examples.labels)
      if (l >= 0 && l < examples.classes) ++result.classCounts[size_t(l)];
  } else if (!examples.targets.empty()) {
    const auto [low, high] = std::minmax_element(examples.targets.begin(), examples.targets.end());
    double sum = 0;
    for (float t : examples.targets) sum += t;
    result.targetSummary = QCoreApplication::translate("tw::ui::DataPreview", "%1: min %2, mean %3, max %4")
                               .arg(result.target)
                               .arg(double(*low), 0, 'g', 5)
                               .arg(sum / double(examples.targets.size()), 0, 'g', 5)
                               .arg(double(*high), 0, 'g', 5);
  }
  splitCounts(result, examples.count, request.valFraction, request.testFraction);
  return result;
}

// The first two features as a scatter, a colour per class (the Okabe-Ito palette reads for
// colour-blind users too).
QImage scatterOf(const data::Examples &examples, double ratio) {
  static const QColor colours[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73),
                                   QColor(0xcc, 0x79, 0xa7), QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00),
                                   QColor(0xf0, 0xe4, 0x42), QColor(0x00, 0x00, 0x00)};
  const int64_t d = examples.featureSize();
  float minX = 0, maxX = 0, minY = 0, maxY = 0;
  for (int64_t i = 0; i < examples.count; ++i) {
    const float x = examples.features[size_t(i * d)], y = d > 1 ? examples.features[size_t(i * d + 1)] : 0.0f;
    if (i == 0 || x < minX) minX = x;
    if (i == 0 || x > maxX) maxX = x;
    if (i == 0 || y < minY) minY = y;
    if (i == 0 || y > maxY) maxY = y;
  }
  const int size = 300, margin = 8;
  QImage image = sharpImage(size, size, ratio);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(Qt::NoPen);
  const float spanX = std::max(maxX - minX, 1e-6f), spanY = std::max(maxY - minY, 1e-6f);
  for (int64_t i = 0; i < examples.count; ++i) {
    const float x = examples.features[size_t(i * d)], y = d > 1 ? examples.features[size_t(i * d + 1)] : 0.0f;
    painter.setBrush(colours[size_t(examples.labels[size_t(i)]) % std::size(colours)]);
    painter.drawEllipse(QPointF(margin + (x - minX) / spanX * (size - 2 * margin),
                                size - margin - (y - minY) / spanY * (size - 2 * margin)),
                        2.0, 2.0);
  }
  return image;
}

DataPreviewResult readSynthetic(const DataPreviewRequest &request) {
  // The very points the run trains on: the same function, from the run's seed.
  const data::Examples examples = data::makeSyntheticSet(request.dataset.toStdString(), request.samples,
                                                         request.classes, request.noise, request.seed);
  DataPreviewResult result;
  result.points = examples.features;
  result.grid = scatterOf(examples, request.pixelRatio);
  result.classCounts.assign(size_t(examples.classes), 0);
  for (int64_t l : examples.labels) ++result.classCounts[size_t(l)];
  splitCounts(result, examples.count, request.valFraction, request.testFraction);
  return result;
}

// Token sequences: the very sequences the run trains on, their classes and the first few as a
// table of token ids.
DataPreviewResult readTokens(const DataPreviewRequest &request) {
  const data::Examples examples =
      data::makeTokenSequences(request.samples, request.classes, request.seqLen, request.vocabSize,
                               data::mixSeed(static_cast<uint64_t>(request.seed), data::kSyntheticStream));
  DataPreviewResult result;
  result.classCounts.assign(size_t(examples.classes), 0);
  for (int64_t l : examples.labels) ++result.classCounts[size_t(l)];
  const int64_t d = examples.featureSize(), shown = std::min<int64_t>(examples.count, kPreviewRows);
  for (int64_t j = 0; j < d; ++j) result.columns << QString::number(j);
  result.columns << QCoreApplication::translate("tw::ui::DataPreview", "class");
  result.target = result.columns.last();
  for (int64_t i = 0; i < shown; ++i) {
    QStringList row;
    for (int64_t j = 0; j < d; ++j) row << QString::number(examples.features[size_t(i * d + j)], 'f', 0);
    row << QString::number(examples.labels[size_t(i)]);
    result.rows << row;
  }
  splitCounts(result, examples.count, request.valFraction, request.testFraction);
  return result;
}

// The first training windows as the run reads them (token_file.h): one row per window, its first
// positions' token ids; the split counts are windows.
DataPreviewResult readTokenFile(const DataPreviewRequest &request) {
  config::DataOptions options;
  options.dataset = "token-file";
  options.path = request.path.toStdString();
  options.seqLen = request.seqLen;
  options.tokenDtype = request.tokenDtype.toStdString();
  options.valFraction = request.valFraction;
  options.testFraction = request.testFraction;
  options.trainLimit = request.trainLimit;
  const data::TokenFileSplits splits = data::openTokenFile(options);
  DataPreviewResult result;
  constexpr int64_t kShownPositions = 16;
  const int64_t shownPositions = std::min(request.seqLen, kShownPositions);
  for (int64_t j = 0; j < shownPositions; ++j) result.columns << QString::number(j);
  std::vector<int64_t> window(static_cast<size_t>(request.seqLen + 1));
  for (int64_t k = 0; k < std::min<int64_t>(splits.train.windows(), kPreviewRows); ++k) {
    splits.train.read(k, window.data());
    QStringList row;
    for (int64_t j = 0; j < shownPositions; ++j) row << QString::number(window[size_t(j)]);
    result.rows << row;
  }
  result.train = splits.train.windows();
  result.validation = splits.val.windows();
  result.test = splits.test.windows();
  return result;
}

}  // namespace

DataPreviewResult readDataPreview(const DataPreviewRequest &r) {
  const config::DataSourceInfo *kind = config::findDataSource(r.dataset.toStdString());
  if (!kind) throw std::runtime_error("unknown dataset '" + r.dataset.toStdString() + "'");
  switch (kind->family) {
    case config::SourceFamily::Idx: return readIdx(r.dataset, r.path, r.trainLimit, r.valFraction, r.pixelRatio);
    case config::SourceFamily::ImageFolder: return readFolder(r.path, r.valFraction, r.testFraction, r.pixelRatio);
    case config::SourceFamily::Csv: return readCsvPreview(r);
    case config::SourceFamily::Shards: return readShardsPreview(r);
    case config::SourceFamily::Synthetic: return readSynthetic(r);
    case config::SourceFamily::Tokens: return readTokens(r);
    case config::SourceFamily::TokenFile: return readTokenFile(r);
  }
  throw std::runtime_error("unknown dataset '" + r.dataset.toStdString() + "'");
}

}  // namespace tw::ui
