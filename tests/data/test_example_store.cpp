// The streaming half of the data layer on real files: the image codec (libjpeg-turbo, libspng,
// stb for the rest) against stb's own decoding, a folder opened as a store and read on demand,
// a file changed under it named, the decoded cache within its budget, the statistics sample, and
// an image folder split as a streamed source.
#include "core/data/data_splits.h"
#include "core/data/example_cache.h"
#include "core/data/example_store.h"
#include "core/data/image_codec.h"
#include "core/data/image_folder.h"
#include "core/data/random.h"
#include "core/data/shape_images.h"
#include "core/data/shuffle_order.h"
#include "core/data/standardize.h"
#include "data_test_helpers.h"

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

using Bytes = std::vector<unsigned char>;

void appendBytes(void *context, void *data, int size) {
  auto *out = static_cast<Bytes *>(context);
  out->insert(out->end(), static_cast<unsigned char *>(data), static_cast<unsigned char *>(data) + size);
}

Bytes encodePng(int w, int h, int comp, const Bytes &pixels) {
  Bytes out;
  stbi_write_png_to_func(appendBytes, &out, w, h, comp, pixels.data(), w * comp);
  return out;
}

Bytes encodeJpeg(int w, int h, int comp, const Bytes &pixels, int quality) {
  Bytes out;
  stbi_write_jpg_to_func(appendBytes, &out, w, h, comp, pixels.data(), quality);
  return out;
}

Bytes randomPixels(size_t n, unsigned seed) {
  Bytes p(n);
  std::srand(seed);
  for (auto &v : p) v = static_cast<unsigned char>(std::rand() % 256);
  return p;
}

// A smooth picture: JPEG keeps it well, so two decoders must agree closely.
Bytes gradient(int w, int h) {
  Bytes p;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      p.push_back(static_cast<unsigned char>(x * 255 / (w - 1)));
      p.push_back(static_cast<unsigned char>(y * 255 / (h - 1)));
      p.push_back(static_cast<unsigned char>(128));
    }
  return p;
}

void writeBytes(const std::string &path, const Bytes &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<int64_t> allRows(int64_t n) {
  std::vector<int64_t> rows(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) rows[static_cast<size_t>(i)] = i;
  return rows;
}

}  // namespace

class TestExampleStore : public QObject {
  Q_OBJECT

  QTemporaryDir m_tmp;
  std::string m_shapes;  // 3 classes x 6 colour PNGs, 12x12

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_shapes = m_tmp.path().toStdString() + "/shapes";
    ShapeImageOptions shapes;
    shapes.perClass = 6;
    shapes.size = 12;
    QCOMPARE(writeShapeImages(m_shapes, shapes), int64_t(18));
  }

  void pngDecodesExactly() {
    const Bytes pixels = randomPixels(5 * 3 * 3, 7);
    const Bytes png = encodePng(5, 3, 3, pixels);
    ImageHeader header;
    QVERIFY(readImageHeader(png.data(), png.size(), &header));
    QCOMPARE(header.width, 5);
    QCOMPARE(header.height, 3);
    QCOMPARE(header.components, 3);
    Bytes chw(5 * 3 * 3), gray(5 * 3);
    decodeImage(png.data(), png.size(), "p.png", 3, 5, 3, chw.data());
    decodeImage(png.data(), png.size(), "p.png", 1, 5, 3, gray.data());
    for (int p = 0; p < 15; ++p) {
      for (int c = 0; c < 3; ++c) QCOMPARE(int(chw[size_t(c * 15 + p)]), int(pixels[size_t(p * 3 + c)]));
      const unsigned char *rgb = &pixels[size_t(p * 3)];
      QCOMPARE(int(gray[size_t(p)]), (rgb[0] * 77 + rgb[1] * 150 + rgb[2] * 29) >> 8);  // stb's luma
    }
  }

  void jpegAgreesWithStb() {
    const Bytes jpeg = encodeJpeg(32, 24, 3, gradient(32, 24), 95);
    Bytes ours(3 * 24 * 32);
    decodeImage(jpeg.data(), jpeg.size(), "g.jpg", 3, 32, 24, ours.data());
    int w = 0, h = 0, comp = 0;
    unsigned char *theirs = stbi_load_from_memory(jpeg.data(), int(jpeg.size()), &w, &h, &comp, 3);
    QVERIFY(theirs);
    int worst = 0;
    for (int p = 0; p < 32 * 24; ++p)
      for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int(ours[size_t(c * 768 + p)]) - int(theirs[p * 3 + c])));
    stbi_image_free(theirs);
    QVERIFY2(worst <= 3, qPrintable(QString("largest difference from stb: %1").arg(worst)));

    // Asked for a quarter of the size: libjpeg-turbo's DCT scaling, the same colour.
    const Bytes solid = encodeJpeg(64, 64, 3, [] {
      Bytes p;
      for (int i = 0; i < 64 * 64; ++i) p.insert(p.end(), {200, 100, 50});
      return p;
    }(), 95);
    Bytes small(3 * 16 * 16);
    decodeImage(solid.data(), solid.size(), "s.jpg", 3, 16, 16, small.data());
    for (int p = 0; p < 256; ++p) {
      QVERIFY(std::abs(int(small[size_t(p)]) - 200) <= 3);
      QVERIFY(std::abs(int(small[size_t(256 + p)]) - 100) <= 3);
      QVERIFY(std::abs(int(small[size_t(512 + p)]) - 50) <= 3);
    }
  }

  void damagedImagesAreErrorsNamingThem() {
    Bytes jpeg = encodeJpeg(32, 24, 3, gradient(32, 24), 95);
    // Cut in the middle of the compressed scan, after the start-of-scan marker: the header stays
    // whole and libjpeg would fill the rest with grey.
    size_t scan = 0;
    for (size_t i = 0; i + 1 < jpeg.size(); ++i)
      if (jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA) scan = i;
    QVERIFY(scan > 0);
    jpeg.resize(scan + (jpeg.size() - scan) / 2);
    Bytes out(3 * 24 * 32);
    ImageHeader header;
    QVERIFY(readImageHeader(jpeg.data(), jpeg.size(), &header));  // the header survives
    QString message = errorOf([&] { decodeImage(jpeg.data(), jpeg.size(), "cut.jpg", 3, 32, 24, out.data()); });
    QVERIFY2(message.startsWith("cut.jpg: cannot decode (JPEG: "), qPrintable(message));
    Bytes png = encodePng(8, 8, 3, randomPixels(8 * 8 * 3, 3));
    png.resize(png.size() - 20);
    message = errorOf([&] { decodeImage(png.data(), png.size(), "cut.png", 3, 8, 8, out.data()); });
    QVERIFY2(message.startsWith("cut.png: cannot decode (PNG: "), qPrintable(message));
  }

  void storeReadsOnDemand() {
    ImageGeometryOptions geometry;
    const auto store = openImageFolderStore(m_shapes, geometry, 2);
    QCOMPARE(store->count(), int64_t(18));
    QCOMPARE(store->featureShape(), std::vector<int64_t>({3, 12, 12}));
    QCOMPARE(store->classNames(), std::vector<std::string>({"circle", "square", "triangle"}));
    QCOMPARE(store->labels()[7], int64_t(1));
    QCOMPARE(store->bytesRead(), uint64_t(0));  // opening reads headers, no example
    Bytes pixels(size_t(store->exampleBytes()));
    store->read(7, pixels.data());
    QCOMPARE(store->bytesRead(), uint64_t(std::filesystem::file_size(store->where(7))));
    // The in-memory reader gives exactly these pixels as floats.
    const Examples all = readImageFolder(m_shapes, {});
    for (size_t j = 0; j < pixels.size(); ++j) QCOMPARE(all.features[7 * pixels.size() + j], kByteToUnit[pixels[j]]);
  }

  void changedFileIsNamed() {
    const std::string dir = m_tmp.path().toStdString() + "/changing";
    ShapeImageOptions shapes;
    shapes.perClass = 2;
    shapes.size = 8;
    writeShapeImages(dir, shapes);
    const auto store = openImageFolderStore(dir, {}, 1);
    const std::string victim = store->where(1);
    writeBytes(victim, encodePng(8, 8, 3, randomPixels(8 * 8 * 3, 11)));
    Bytes pixels(size_t(store->exampleBytes()));
    const QString message = errorOf([&] { store->read(1, pixels.data()); });
    QVERIFY2(message.startsWith(QString::fromStdString(victim + ": changed since the run started")), qPrintable(message));
    std::filesystem::remove(victim);
    const QString gone = errorOf([&] { store->read(1, pixels.data()); });
    QVERIFY2(gone.startsWith(QString::fromStdString(victim + ": cannot open")), qPrintable(gone));
  }

  void cacheKeepsWhatTheBudgetHolds() {
    const auto store = openImageFolderStore(m_shapes, {}, 1);
    const uint64_t example = uint64_t(store->exampleBytes());
    ExampleCache cache(store, example * 5 / 2);  // two and a half examples: two kept
    QCOMPARE(cache.capacity(), int64_t(2));
    Bytes a(example), b(example);
    for (int pass = 0; pass < 2; ++pass)
      for (int64_t i : {0, 1, 2}) {
        cache.read(i, a.data());
        store->read(i, b.data());
        QVERIFY(a == b);
      }
    QCOMPARE(cache.hits(), int64_t(2));    // examples 0 and 1, the second time
    QCOMPARE(cache.misses(), int64_t(4));  // everything once, example 2 twice
    QCOMPARE(cache.hitRate(), 2.0 / 6.0);
    ExampleCache none(store, 0);
    QCOMPARE(none.capacity(), int64_t(0));
    none.read(0, a.data());
    none.read(0, a.data());
    QCOMPARE(none.hits(), int64_t(0));
  }

  // data.cache: disk: every example kept in a file without a name, read back exactly, the store
  // untouched after the first pass, nothing left in the folder; a folder that cannot hold the
  // file is named.
  void diskCacheKeepsExamplesInANamelessFile() {
    const auto store = openImageFolderStore(m_shapes, {}, 1);
    const uint64_t example = uint64_t(store->exampleBytes());
    const std::string dir = m_tmp.path().toStdString() + "/disk-cache";
    std::filesystem::create_directories(dir);
    ExampleCache cache(store, example * 100, CacheMedium::Disk, dir);
    QCOMPARE(cache.capacity(), store->count());
    QCOMPARE(cache.medium(), CacheMedium::Disk);
    Bytes a(example), b(example);
    for (int64_t i = 0; i < store->count(); ++i) cache.read(i, a.data());
    const uint64_t afterFirst = store->bytesRead();
    for (int64_t i = store->count() - 1; i >= 0; --i) {
      cache.read(i, a.data());
      store->read(i, b.data());
      QVERIFY(a == b);
    }
    QCOMPARE(cache.hits(), store->count());
    QCOMPARE(cache.misses(), store->count());
    QCOMPARE(cache.writeFailures(), int64_t(0));
    // The second pass read the store only for the comparison above, once an example.
    uint64_t compared = 0;
    for (int64_t i = 0; i < store->count(); ++i) compared += std::filesystem::file_size(store->where(i));
    QCOMPARE(store->bytesRead(), afterFirst + compared);
    QVERIFY(std::filesystem::is_empty(dir));  // the file has no name: nothing to clean up
    ExampleCache two(store, example * 2, CacheMedium::Disk, dir);
    QCOMPARE(two.capacity(), int64_t(2));
    const std::string missing = dir + "/missing";
    const QString message = errorOf([&] { ExampleCache bad(store, example, CacheMedium::Disk, missing); });
    QVERIFY2(message.startsWith(QString::fromStdString(missing + ": cannot make the decoded-image cache file")),
             qPrintable(message));
    QCOMPARE(diskCacheBudgetBytes(missing), uint64_t(0));
  }

  void statisticsComeFromASeededSample() {
    const std::vector<int64_t> few = allRows(100);
    QCOMPARE(statisticsRows(few, 1), few);
    std::vector<int64_t> many;
    for (int64_t i = 0; i < 5000; ++i) many.push_back(3 * i);
    const std::vector<int64_t> a = statisticsRows(many, 1), again = statisticsRows(many, 1), b = statisticsRows(many, 2);
    QCOMPARE(kImageStatisticsSample, int64_t(2048));  // the README's "2,048 of its images"
    QCOMPARE(int64_t(a.size()), kImageStatisticsSample);
    QVERIFY(std::is_sorted(a.begin(), a.end()));
    QCOMPARE(std::set<int64_t>(a.begin(), a.end()).size(), a.size());
    for (int64_t row : a) QCOMPARE(row % 3, int64_t(0));
    QCOMPARE(a, again);
    QVERIFY(a != b);
  }

  void shardOrderDependsOnTheSeedAlone() {
    const std::vector<int64_t> groups{0, 10, 20, 30};  // four shards of ten, class by shard
    std::vector<int64_t> labels;
    for (int64_t i = 0; i < 40; ++i) labels.push_back(i / 10);
    const std::vector<int64_t> a = bufferedShardOrder(groups, 40, 1, 7), again = bufferedShardOrder(groups, 40, 1, 7);
    QCOMPARE(a, again);
    std::vector<int64_t> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(sorted, allRows(40));  // every position once
    // Without a buffer each shard is read front to back: the classes come in runs.
    for (size_t t = 0; t < 40; t += 10)
      for (size_t k = 1; k < 10; ++k) QCOMPARE(a[t + k], a[t] + int64_t(k));
    QVERIFY(orderLabelAutocorrelation(a, labels) > 0.85);  // 36 of 39 neighbours alike, chance 1 in 4
    QVERIFY(bufferedShardOrder(groups, 40, 1, 8) != a || bufferedShardOrder(groups, 40, 1, 9) != a);
    // A buffer as large as the set mixes it like a global shuffle.
    const std::vector<int64_t> mixed = bufferedShardOrder(groups, 40, 40, 7);
    sorted = mixed;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(sorted, allRows(40));
    QVERIFY2(std::abs(orderLabelAutocorrelation(mixed, labels)) < 0.35,
             qPrintable(QString::number(orderLabelAutocorrelation(mixed, labels))));
    QCOMPARE(orderLabelAutocorrelation(allRows(40), std::vector<int64_t>(40, 3)), 0.0);  // one class
  }

  void imageFolderSplitsAsAStreamedSource() {
    const std::string dir = m_tmp.path().toStdString() + "/split";  // its own: a file is rewritten below
    ShapeImageOptions shapes;
    shapes.perClass = 6;
    shapes.size = 12;
    writeShapeImages(dir, shapes);
    tw::config::DataOptions o;
    o.dataset = "image-folder";
    o.path = dir;
    o.valFraction = 0.2;
    o.testFraction = 0.2;
    const DataSplits s = loadDataSplits(o, 4);
    QVERIFY(s.store);
    QVERIFY(s.images);
    QCOMPARE(int64_t(s.trainRows.size()), s.train.count);
    QCOMPARE(int64_t(s.valRows.size()), s.val.count);
    QCOMPARE(int64_t(s.testRows.size()), s.test.count);
    QCOMPARE(s.train.count + s.val.count + s.test.count, int64_t(18));
    QVERIFY(s.train.features.empty());  // labels only: the pixels stay on disk
    for (size_t k = 0; k < s.trainRows.size(); ++k) QCOMPARE(s.train.labels[k], s.store->labels()[size_t(s.trainRows[k])]);
    // Few training images: the statistics are the whole training split's.
    const Examples all = readImageFolder(dir, {});
    const ImageStandardizer whole = ImageStandardizer::fit(select(all, s.trainRows));
    QVERIFY(std::abs(s.preprocessing.imageMean - whole.mean) < 1e-12);
    QVERIFY(std::abs(s.preprocessing.imageStd - whole.stddev) < 1e-12);
    QCOMPARE(QString::fromStdString(s.preprocessing.standardization), QString("image"));
    // The same split seed gives the same rows and fingerprint; the folder's files are in it.
    const DataSplits again = loadDataSplits(o, 4);
    QCOMPARE(again.trainRows, s.trainRows);
    QCOMPARE(again.fingerprint, s.fingerprint);
    writeBytes(s.store->where(0), encodePng(12, 12, 3, randomPixels(12 * 12 * 3, 5)));
    QVERIFY(loadDataSplits(o, 4).fingerprint != s.fingerprint);
  }
};

QTEST_GUILESS_MAIN(TestExampleStore)
#include "test_example_store.moc"
