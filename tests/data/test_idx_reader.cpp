// The IDX reader on the real Fashion-MNIST files, on an uncompressed copy, and on broken files.
#include "core/data/fingerprint.h"
#include "core/data/idx.h"

#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace tw::data;

namespace {

const std::string kDir = TW_FASHION_MNIST_DIR;

// The whole decompressed file, to write plain and damaged copies from.
std::vector<uint8_t> inflateFile(const std::string &path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<uint8_t> bytes;
  uint8_t buffer[1 << 16];
  int got = 0;
  while ((got = gzread(f, buffer, sizeof buffer)) > 0) bytes.insert(bytes.end(), buffer, buffer + got);
  gzclose(f);
  return bytes;
}

void writeFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void writeGzip(const std::string &path, const std::vector<uint8_t> &bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path);
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

// An IDX header: the magic, then each dimension, big-endian.
std::vector<uint8_t> idxHeader(uint32_t magic, const std::vector<int> &dims) {
  std::vector<uint8_t> bytes;
  auto put = [&](uint32_t v) {
    for (int shift : {24, 16, 8, 0}) bytes.push_back(uint8_t(v >> shift));
  };
  put(magic);
  for (int d : dims) put(uint32_t(d));
  return bytes;
}

// Runs f and returns the exception's message; empty when it did not throw.
template <typename F>
QString errorOf(F f) {
  try {
    f();
  } catch (const std::runtime_error &e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestIdxReader : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void findsGzipFiles() {
    QCOMPARE(QString::fromStdString(findIdxFile(kDir, "train-images-idx3-ubyte")),
             QString::fromStdString(kDir + "/train-images-idx3-ubyte.gz"));
    QVERIFY(findIdxFile(kDir, "no-such-file").empty());
    QCOMPARE(QString::fromStdString(defaultDatasetDir("fashion-mnist")), QString::fromStdString(kDir));
    QCOMPARE(QString::fromStdString(defaultDatasetDir("mnist")), QString("/usr/share/datasets/mnist"));
    QVERIFY(defaultDatasetDir("imagenet").empty());
  }

  void readsTrainSliceWithLimit() {
    IdxImages images = readIdxImages(findIdxFile(kDir, "train-images-idx3-ubyte"), 500);
    IdxLabels labels = readIdxLabels(findIdxFile(kDir, "train-labels-idx1-ubyte"), 500);
    QCOMPARE(images.count, int64_t(500));
    QCOMPARE(images.rows, int64_t(28));
    QCOMPARE(images.cols, int64_t(28));
    QCOMPARE(images.pixels.size(), size_t(500 * 28 * 28));
    QCOMPARE(labels.count, int64_t(500));
    QCOMPARE(int(labels.labels[0]), 9);  // the first training image is an ankle boot
    QVERIFY(*std::max_element(labels.labels.begin(), labels.labels.end()) <= 9);
    // Every class shows up in 500 images; a misaligned read would not give that.
    std::vector<int> seen(10, 0);
    for (uint8_t l : labels.labels) seen[l]++;
    QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n > 10; }));
    // Real images: some ink, mostly background.
    QVERIFY(*std::max_element(images.pixels.begin(), images.pixels.end()) == 255);
    const auto zeros = std::count(images.pixels.begin(), images.pixels.end(), uint8_t(0));
    QVERIFY(zeros > int64_t(images.pixels.size()) / 4);
  }

  void readsWholeTestSet() {
    IdxImages images = readIdxImages(findIdxFile(kDir, "t10k-images-idx3-ubyte"));
    IdxLabels labels = readIdxLabels(findIdxFile(kDir, "t10k-labels-idx1-ubyte"));
    QCOMPARE(images.count, int64_t(10000));
    QCOMPARE(labels.count, int64_t(10000));
    QCOMPARE(images.pixels.size(), size_t(10000 * 784));
    // A limit beyond the file's count reads what is there.
    QCOMPARE(readIdxLabels(findIdxFile(kDir, "t10k-labels-idx1-ubyte"), 50000).count, int64_t(10000));
  }

  void plainCopyReadsTheSame() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::string dir = tmp.path().toStdString();
    writeFile(dir + "/t10k-images-idx3-ubyte", inflateFile(kDir + "/t10k-images-idx3-ubyte.gz"));
    writeFile(dir + "/t10k-labels-idx1-ubyte", inflateFile(kDir + "/t10k-labels-idx1-ubyte.gz"));
    const std::string plain = findIdxFile(dir, "t10k-images-idx3-ubyte");
    QCOMPARE(QString::fromStdString(plain), QString::fromStdString(dir + "/t10k-images-idx3-ubyte"));

    IdxImages a = readIdxImages(kDir + "/t10k-images-idx3-ubyte.gz", 1000);
    IdxImages b = readIdxImages(plain, 1000);
    QCOMPARE(b.count, a.count);
    QVERIFY(a.pixels == b.pixels);
    IdxLabels la = readIdxLabels(kDir + "/t10k-labels-idx1-ubyte.gz");
    IdxLabels lb = readIdxLabels(dir + "/t10k-labels-idx1-ubyte");
    QVERIFY(la.labels == lb.labels);
  }

  void brokenFilesNameTheFileAndTheProblem_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("damage");
    QTest::addColumn<bool>("images");
    QTest::addColumn<QString>("expected");
    QTest::newRow("truncated images") << "trunc-images" << "truncate" << true << "truncated";
    QTest::newRow("truncated labels") << "trunc-labels" << "truncate" << false << "truncated";
    QTest::newRow("header only") << "header-only" << "header" << true << "truncated";
    QTest::newRow("labels read as images") << "labels-as-images" << "swap" << true << "bad magic";
    QTest::newRow("images read as labels") << "images-as-labels" << "swap" << false << "bad magic";
    QTest::newRow("garbage magic") << "garbage" << "magic" << true << "bad magic 0xdeadbeef";
    QTest::newRow("missing") << "missing" << "missing" << true << "file not found";
  }

  void brokenFilesNameTheFileAndTheProblem() {
    QFETCH(QString, name);
    QFETCH(QString, damage);
    QFETCH(bool, images);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    const std::string path = tmp.path().toStdString() + "/" + name.toStdString();
    // "swap" gives each reader the other kind of file.
    const bool sourceIsImages = damage == "swap" ? !images : images;
    std::vector<uint8_t> bytes = inflateFile(kDir + (sourceIsImages ? "/t10k-images-idx3-ubyte.gz"
                                                                   : "/t10k-labels-idx1-ubyte.gz"));
    if (damage == "truncate") bytes.resize(bytes.size() - 100);
    if (damage == "header") bytes.resize(16);
    if (damage == "magic") {
      const uint8_t bad[4] = {0xde, 0xad, 0xbe, 0xef};
      std::copy(bad, bad + 4, bytes.begin());
    }
    if (damage != "missing") writeFile(path, bytes);

    const QString message = errorOf([&] {
      if (images) readIdxImages(path);
      else readIdxLabels(path);
    });
    QVERIFY2(message.contains(QString::fromStdString(path)), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
    // A limit that stops before the damage changes nothing: the whole file is checked.
    if (damage == "truncate") {
      const QString limited = errorOf([&] {
        if (images) readIdxImages(path, 100);
        else readIdxLabels(path, 100);
      });
      QVERIFY2(limited.contains("truncated"), qPrintable(limited));
    }
  }

  // Small hand-written files, plain and gzip-compressed: every way the header can lie about the
  // data is found, whatever the limit.
  void headerAndSizeMustAgree_data() {
    QTest::addColumn<bool>("gzip");
    QTest::addColumn<bool>("images");
    QTest::addColumn<int>("announced");  // the count in the header
    QTest::addColumn<int>("held");       // the items really in the file
    QTest::addColumn<QString>("expected");
    for (bool gzip : {false, true}) {
      const char *kind = gzip ? "gzip" : "plain";
      QTest::addRow("%s images: count beyond the data", kind)
          << gzip << true << 5 << 3 << "truncated: the header announces 5 images (46 bytes) but the file holds 34 bytes, 3 whole images";
      QTest::addRow("%s images: data beyond the count", kind)
          << gzip << true << 3 << 5 << "12 bytes after the 3 images the header announces";
      QTest::addRow("%s labels: count beyond the data", kind)
          << gzip << false << 9 << 4 << "truncated: the header announces 9 labels (17 bytes) but the file holds 12 bytes, 4 whole labels";
      QTest::addRow("%s labels: data beyond the count", kind)
          << gzip << false << 2 << 4 << "2 bytes after the 2 labels the header announces";
      QTest::addRow("%s images: exact", kind) << gzip << true << 4 << 4 << "";
      QTest::addRow("%s labels: exact", kind) << gzip << false << 4 << 4 << "";
    }
  }

  void headerAndSizeMustAgree() {
    QFETCH(bool, gzip);
    QFETCH(bool, images);
    QFETCH(int, announced);
    QFETCH(int, held);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    const std::string path = tmp.path().toStdString() + (images ? "/images" : "/labels") + (gzip ? ".gz" : "");
    std::vector<uint8_t> bytes = images ? idxHeader(0x803, {announced, 3, 2}) : idxHeader(0x801, {announced});
    for (int i = 0; i < held * (images ? 6 : 1); ++i) bytes.push_back(uint8_t(i % 10));
    if (gzip) writeGzip(path, bytes);
    else writeFile(path, bytes);
    for (int64_t limit : {0, 1}) {  // the limit changes what is kept, never what is checked
      const QString message = errorOf([&] {
        if (images) QCOMPARE(readIdxImages(path, limit).count, int64_t(limit ? limit : announced));
        else QCOMPARE(readIdxLabels(path, limit).count, int64_t(limit ? limit : announced));
      });
      // The header alone, as the run validator reads it: the same finding, compressed or not.
      const QString layout = images ? errorOf([&] { readIdxImagesLayout(path, limit); }) : message;
      for (const QString &m : {message, layout}) {
        if (expected.isEmpty()) {
          QVERIFY2(m.isEmpty(), qPrintable(m));
        } else {
          QVERIFY2(m.startsWith(QString::fromStdString(path) + ": "), qPrintable(m));
          QVERIFY2(m.contains(expected), qPrintable(m));
        }
      }
    }
  }

  // gzip records only its last member's size: a file of two members is inflated to count, and
  // passes when the count is right.
  void layoutOfTwoGzipMembersIsCounted() {
    QTemporaryDir tmp;
    const std::string path = tmp.path().toStdString() + "/images.gz";
    std::vector<uint8_t> bytes = idxHeader(0x803, {4, 3, 2});
    for (int i = 0; i < 4 * 6; ++i) bytes.push_back(uint8_t(i));
    const std::vector<uint8_t> first(bytes.begin(), bytes.begin() + 20), second(bytes.begin() + 20, bytes.end());
    writeGzip(path, first);
    const std::string part = tmp.path().toStdString() + "/part.gz";
    writeGzip(part, second);
    {
      std::ifstream in(part, std::ios::binary);
      std::ofstream out(path, std::ios::binary | std::ios::app);
      out << in.rdbuf();
    }
    QVERIFY2(errorOf([&] { QCOMPARE(readIdxImagesLayout(path).fileCount, int64_t(4)); }).isEmpty(), "refused");
    QCOMPARE(readIdxImages(path).pixels.size(), size_t(24));
  }

  // The set as the run validator checks it: the real files pass; labels that count other than the
  // images, or fall outside the classes, are found without a pixel read.
  void setIsCheckedFromHeaders() {
    checkIdxSet(kDir);
    QTemporaryDir tmp;
    const std::string dir = tmp.path().toStdString();
    const auto images = [](int n) {
      std::vector<uint8_t> b = idxHeader(0x803, {n, 2, 2});
      b.resize(b.size() + size_t(n) * 4, 7);
      return b;
    };
    const auto labels = [](int n, uint8_t last) {
      std::vector<uint8_t> b = idxHeader(0x801, {n});
      for (int i = 0; i < n; ++i) b.push_back(i + 1 == n ? last : uint8_t(i % 10));
      return b;
    };
    writeFile(dir + "/train-images-idx3-ubyte", images(5));
    writeFile(dir + "/train-labels-idx1-ubyte", labels(5, 3));
    writeFile(dir + "/t10k-images-idx3-ubyte", images(2));
    writeFile(dir + "/t10k-labels-idx1-ubyte", labels(2, 1));
    QCOMPARE(errorOf([&] { checkIdxSet(dir); }), QString());
    writeFile(dir + "/t10k-labels-idx1-ubyte", labels(3, 1));
    QVERIFY2(errorOf([&] { checkIdxSet(dir); }).contains("image and label counts differ"),
             qPrintable(errorOf([&] { checkIdxSet(dir); })));
    writeFile(dir + "/t10k-labels-idx1-ubyte", labels(2, 11));
    QVERIFY2(errorOf([&] { checkIdxSet(dir); }).contains("label 1 (0-based) is 11"),
             qPrintable(errorOf([&] { checkIdxSet(dir); })));
  }

  void labelsOutsideTheClassesNameFileIndexAndValue() {
    QTemporaryDir tmp;
    const std::string path = tmp.path().toStdString() + "/labels.gz";
    std::vector<uint8_t> bytes = idxHeader(0x801, {6});
    for (uint8_t label : {1, 9, 0, 12, 3, 200}) bytes.push_back(label);
    writeGzip(path, bytes);
    QCOMPARE(readIdxLabels(path).count, int64_t(6));  // no classes given: nothing to check against
    // The bad label lies beyond the limit: still found.
    const QString message = errorOf([&] { readIdxLabels(path, 2, 10); });
    QCOMPARE(message, QString::fromStdString(path) + ": label 3 (0-based) is 12, outside the dataset's 10 classes (0..9)");
  }

  void fashionClassNamesAreTheDatasetsTen() {
    QCOMPARE(int64_t(fashionMnistClassNames().size()), kIdxClasses);
    QCOMPARE(QString::fromStdString(fashionMnistClassNames().front()), QString("T-shirt/top"));
    QCOMPARE(QString::fromStdString(fashionMnistClassNames().back()), QString("Ankle boot"));
  }

  void fingerprintFramesEntries() {
    auto digest = [](const std::string &a, const std::string &b) {
      Fingerprint fp;
      fp.addBytes(a, b.data(), b.size());
      return fp.hexDigest();
    };
    QCOMPARE(digest("x", "abc").size(), size_t(64));
    QCOMPARE(digest("x", "abc"), digest("x", "abc"));
    QVERIFY(digest("x", "abc") != digest("xa", "bc"));
    Fingerprint a, b;
    a.addOption("val_fraction", 0.1);
    b.addOption("val_fraction", 0.2);
    QVERIFY(a.hexDigest() != b.hexDigest());
  }
};

QTEST_GUILESS_MAIN(TestIdxReader)
#include "test_idx_reader.moc"
