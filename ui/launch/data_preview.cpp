#include "ui/launch/data_preview.h"

#include "core/data/idx.h"
#include "core/data/image_folder.h"

#include <QFutureWatcher>
#include <QImage>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace tw::ui {

namespace {

constexpr int kGridColumns = 8, kGridRows = 4, kCell = 64;

const QStringList kFashionNames = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                   "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};

// Thumbnails with their class underneath, at most kGridColumns x kGridRows.
QImage gridOf(const std::vector<QImage> &images, const std::vector<QString> &labels) {
  const int n = std::min<int>(static_cast<int>(images.size()), kGridColumns * kGridRows);
  const int rows = (n + kGridColumns - 1) / kGridColumns;
  QImage grid(kGridColumns * kCell, std::max(1, rows) * (kCell + 14), QImage::Format_RGB32);
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

DataPreviewResult readIdx(const QString &dataset, const QString &path, int64_t limit, double valFraction) {
  DataPreviewResult result;
  const std::string dir = path.isEmpty() ? data::defaultDatasetDir(dataset.toStdString()) : path.toStdString();
  const std::string images = data::findIdxFile(dir, "train-images-idx3-ubyte");
  const std::string labels = data::findIdxFile(dir, "train-labels-idx1-ubyte");
  const std::string testLabels = data::findIdxFile(dir, "t10k-labels-idx1-ubyte");
  if (images.empty() || labels.empty())
    throw std::runtime_error(dir + ": no train-images-idx3-ubyte / train-labels-idx1-ubyte (.gz)");
  const auto first = data::readIdxImages(images, kGridColumns * kGridRows);
  const auto all = data::readIdxLabels(labels, limit);
  result.classNames = dataset == QLatin1String("fashion-mnist") ? kFashionNames : QStringList();
  result.classCounts.assign(10, 0);
  for (uint8_t l : all.labels)
    if (l < 10) ++result.classCounts[l];
  std::vector<QImage> thumbs;
  std::vector<QString> names;
  for (int64_t i = 0; i < first.count; ++i) {
    QImage image(static_cast<int>(first.cols), static_cast<int>(first.rows), QImage::Format_Grayscale8);
    for (int64_t r = 0; r < first.rows; ++r)
      std::copy_n(first.pixels.data() + (i * first.rows + r) * first.cols, first.cols, image.scanLine(int(r)));
    thumbs.push_back(image.copy());
    names.push_back(label(result.classNames, i < all.count ? all.labels[size_t(i)] : -1));
  }
  result.grid = gridOf(thumbs, names);
  result.validation = static_cast<int64_t>(std::llround(all.count * valFraction));
  result.train = all.count - result.validation;
  result.test = testLabels.empty() ? 0 : data::readIdxLabels(testLabels).count;
  return result;
}

DataPreviewResult readFolder(const QString &path, double valFraction, double testFraction) {
  DataPreviewResult result;
  if (path.isEmpty()) throw std::runtime_error("an image folder needs a path (one subfolder per class)");
  data::ImageFolderOptions options;
  options.width = 32;  // a preview: small is enough, and fast
  options.height = 32;
  const data::Examples examples = data::readImageFolder(path.toStdString(), options);
  for (const auto &name : examples.classNames) result.classNames << QString::fromStdString(name);
  result.classCounts.assign(size_t(std::max<int64_t>(examples.classes, 0)), 0);
  for (int64_t l : examples.labels)
    if (l >= 0 && l < examples.classes) ++result.classCounts[size_t(l)];
  const int64_t channels = examples.featureShape.empty() ? 1 : examples.featureShape[0];
  const int64_t h = examples.featureShape.size() > 1 ? examples.featureShape[1] : 0;
  const int64_t w = examples.featureShape.size() > 2 ? examples.featureShape[2] : 0;
  std::vector<QImage> thumbs;
  std::vector<QString> names;
  // Every class in the grid: the folders are read class by class, so take examples evenly spread.
  const int64_t shown = std::min<int64_t>(examples.count, kGridColumns * kGridRows);
  for (int64_t k = 0; k < shown; ++k) {
    const int64_t i = k * examples.count / std::max<int64_t>(shown, 1);
    QImage image(int(w), int(h), QImage::Format_RGB32);
    const float *f = examples.features.data() + i * examples.featureSize();
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x) {
        auto channel = [&](int64_t c) { return int(std::clamp(f[(std::min(c, channels - 1) * h + y) * w + x], 0.0f, 1.0f) * 255); };
        image.setPixel(int(x), int(y), qRgb(channel(0), channel(1), channel(2)));
      }
    thumbs.push_back(image);
    names.push_back(label(result.classNames, examples.labels[size_t(i)]));
  }
  result.grid = gridOf(thumbs, names);
  result.test = static_cast<int64_t>(std::llround(examples.count * testFraction));
  result.validation = static_cast<int64_t>(std::llround((examples.count - result.test) * valFraction));
  result.train = examples.count - result.test - result.validation;
  return result;
}

}  // namespace

DataPreview::DataPreview(QWidget *parent)
    : QWidget(parent), m_grid(new QLabel(this)), m_histogram(new QLabel(this)), m_splits(new QLabel(this)) {
  m_grid->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_histogram->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  auto *pictures = new QHBoxLayout;
  pictures->addWidget(m_grid);
  pictures->addSpacing(24);
  pictures->addWidget(m_histogram);
  pictures->addStretch(1);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_splits);
  layout->addLayout(pictures);
  layout->addStretch(1);
}

QString DataPreview::splitText() const { return m_splits->text(); }

void DataPreview::preview(const QString &dataset, const QString &path, int64_t trainLimit, double valFraction) {
  const quint64 generation = ++m_generation;
  m_splits->setText(tr("Reading %1…").arg(dataset));
  auto *watcher = new QFutureWatcher<DataPreviewResult>(this);
  connect(watcher, &QFutureWatcher<DataPreviewResult>::finished, this, [this, watcher, generation] {
    const DataPreviewResult result = watcher->result();
    watcher->deleteLater();
    if (generation == m_generation) showResult(result);
  });
  watcher->setFuture(QtConcurrent::run([dataset, path, trainLimit, valFraction] {
    try {
      if (dataset == QLatin1String("fashion-mnist") || dataset == QLatin1String("mnist"))
        return readIdx(dataset, path, trainLimit, valFraction);
      if (dataset == QLatin1String("image-folder")) return readFolder(path, valFraction, 0.2);
      DataPreviewResult none;
      none.error = tr("No preview for %1 (tables and synthetic sets are read when the run starts).").arg(dataset);
      return none;
    } catch (const std::exception &e) {
      DataPreviewResult failed;
      failed.error = QString::fromUtf8(e.what());
      return failed;
    }
  }));
}

void DataPreview::showResult(const DataPreviewResult &result) {
  m_result = result;
  if (!result.error.isEmpty()) {
    m_splits->setText(result.error);
    m_grid->clear();
    m_histogram->clear();
    Q_EMIT previewed();
    return;
  }
  const QLocale locale;
  m_splits->setText(tr("train %1 · validation %2 · test %3")
                        .arg(locale.toString(qint64(result.train)), locale.toString(qint64(result.validation)),
                             locale.toString(qint64(result.test))));
  m_grid->setPixmap(QPixmap::fromImage(result.grid));
  // A bar per class, drawn: one row each, the name, the bar, the count.
  const int64_t most = result.classCounts.empty() ? 1 : *std::max_element(result.classCounts.begin(), result.classCounts.end());
  const int rowHeight = 18, nameWidth = 110, barWidth = 200;
  QImage bars(nameWidth + barWidth + 70, rowHeight * static_cast<int>(result.classCounts.size()) + 22, QImage::Format_ARGB32);
  bars.fill(Qt::transparent);
  QPainter painter(&bars);
  painter.setPen(palette().color(QPalette::WindowText));
  QFont bold = painter.font();
  bold.setBold(true);
  painter.setFont(bold);
  painter.drawText(QRect(0, 0, bars.width(), 18), Qt::AlignLeft | Qt::AlignVCenter, tr("Examples per class"));
  painter.setFont(font());
  for (size_t c = 0; c < result.classCounts.size(); ++c) {
    const int y = 22 + static_cast<int>(c) * rowHeight;
    const int width = static_cast<int>(double(barWidth) * double(result.classCounts[c]) / double(std::max<int64_t>(most, 1)));
    painter.drawText(QRect(0, y, nameWidth - 6, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                     label(result.classNames, int64_t(c)));
    painter.fillRect(QRect(nameWidth, y + 3, std::max(1, width), rowHeight - 6), QColor(0x00, 0x72, 0xb2));
    painter.drawText(QRect(nameWidth + width + 6, y, 70, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                     locale.toString(qint64(result.classCounts[c])));
  }
  painter.end();
  m_histogram->setPixmap(QPixmap::fromImage(bars));
  Q_EMIT previewed();
}

}  // namespace tw::ui
