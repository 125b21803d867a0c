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
    // A limit that stops before the damage reads fine.
    if (damage == "truncate") {
      if (images) QCOMPARE(readIdxImages(path, 100).count, int64_t(100));
      else QCOMPARE(readIdxLabels(path, 100).count, int64_t(100));
    }
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
