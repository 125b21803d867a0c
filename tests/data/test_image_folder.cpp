// Image folders on real files written with stb_image_write: classes from subfolders, sorted order,
// CHW layout, resizing, gray and RGB, the per-class limit, and the errors (a corrupt PNG included).
#include "core/data/image_folder.h"
#include "data_test_helpers.h"

#include <stb/stb_image_write.h>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

using Pixels = std::vector<unsigned char>;

Pixels solid(int w, int h, const Pixels &colour) {
  Pixels p;
  for (int i = 0; i < w * h; ++i) p.insert(p.end(), colour.begin(), colour.end());
  return p;
}

void mkdir(const std::string &path) { QVERIFY(QDir().mkpath(QString::fromStdString(path))); }

void png(const std::string &path, int w, int h, int comp, const Pixels &p) {
  QVERIFY(stbi_write_png(path.c_str(), w, h, comp, p.data(), w * comp) != 0);
}

bool near(float a, double b) { return std::abs(double(a) - b) < 1.5 / 255.0; }

}  // namespace

class TestImageFolder : public QObject {
  Q_OBJECT

  QTemporaryDir m_tmp;
  std::string m_root;  // cat: 3 images (PNG, upper-case PNG, BMP 8x8), dog: 1 JPEG, plus noise

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_root = m_tmp.path().toStdString() + "/pets";
    mkdir(m_root + "/cat");
    mkdir(m_root + "/dog");
    mkdir(m_root + "/.thumbnails");  // hidden: not a class
    writeText(m_root + "/README.txt", "not a class folder");
    // cat/1.png: black 4x4 RGB with one known pixel, to pin the CHW layout.
    Pixels first = solid(4, 4, {0, 0, 0});
    const int at = (1 * 4 + 2) * 3;  // row 1, column 2
    first[at] = 10;
    first[at + 1] = 20;
    first[at + 2] = 255;
    png(m_root + "/cat/1.png", 4, 4, 3, first);
    png(m_root + "/cat/2.PNG", 4, 4, 1, solid(4, 4, {128}));     // gray, upper-case extension
    QVERIFY(stbi_write_bmp((m_root + "/cat/3.bmp").c_str(), 8, 8, 3, solid(8, 8, {0, 255, 0}).data()));
    writeText(m_root + "/cat/notes.txt", "skipped: not an image");
    writeText(m_root + "/.thumbnails/x.png", "never read");
    QVERIFY(stbi_write_jpg((m_root + "/dog/a.jpg").c_str(), 4, 4, 3, solid(4, 4, {200, 100, 50}).data(), 95));
  }

  void classesFromSubfoldersInSortedOrder() {
    const Examples e = readImageFolder(m_root, {});
    QCOMPARE(e.classNames, std::vector<std::string>({"cat", "dog"}));
    QCOMPARE(e.classes, int64_t(2));
    QCOMPARE(e.count, int64_t(4));
    QCOMPARE(e.labels, std::vector<int64_t>({0, 0, 0, 1}));
    // Colour somewhere -> 3 channels; the first image's size for all (the 8x8 BMP is resized).
    QCOMPARE(e.featureShape, std::vector<int64_t>({3, 4, 4}));
    QCOMPARE(e.features.size(), size_t(4 * 3 * 16));
    for (float v : e.features) QVERIFY(v >= 0.0f && v <= 1.0f);
    // CHW: plane c, row 1, column 2 of the first image.
    QVERIFY(near(e.features[0 * 16 + 6], 10 / 255.0));
    QVERIFY(near(e.features[1 * 16 + 6], 20 / 255.0));
    QVERIFY(near(e.features[2 * 16 + 6], 1.0));
    QCOMPARE(e.features[2 * 16 + 5], 0.0f);
    // The gray image becomes three equal planes; the resized green BMP stays green.
    const float *gray = e.features.data() + 48;
    QVERIFY(near(gray[0], 128 / 255.0) && near(gray[16], 128 / 255.0) && near(gray[32], 128 / 255.0));
    const float *green = e.features.data() + 96;
    for (int p = 0; p < 16; ++p) QVERIFY(near(green[p], 0.0) && near(green[16 + p], 1.0) && near(green[32 + p], 0.0));
    // JPEG is lossy: close, not exact.
    const float *dog = e.features.data() + 144;
    QVERIFY(std::abs(dog[0] - 200 / 255.0f) < 0.05f && std::abs(dog[16] - 100 / 255.0f) < 0.05f);
  }

  void resizesToTheAskedSize() {
    ImageFolderOptions options;
    options.width = 2;
    options.height = 3;
    const Examples e = readImageFolder(m_root, options);
    QCOMPARE(e.featureShape, std::vector<int64_t>({3, 3, 2}));
    QCOMPARE(e.features.size(), size_t(4 * 18));
    const float *green = e.features.data() + 2 * 18;
    for (int p = 0; p < 6; ++p) QVERIFY(near(green[p], 0.0) && near(green[6 + p], 1.0));
  }

  void grayAndRgb() {
    const std::string dir = m_tmp.path().toStdString() + "/digits";
    mkdir(dir + "/one");
    mkdir(dir + "/zero");
    png(dir + "/one/a.png", 3, 3, 1, solid(3, 3, {255}));
    png(dir + "/zero/a.png", 3, 3, 1, solid(3, 3, {0}));
    // No colour anywhere -> one channel.
    Examples e = readImageFolder(dir, {});
    QCOMPARE(e.featureShape, std::vector<int64_t>({1, 3, 3}));
    QCOMPARE(e.features[0], 1.0f);
    QCOMPARE(e.features[9], 0.0f);
    // Asked for RGB: three equal planes.
    ImageFolderOptions rgb;
    rgb.channels = 3;
    e = readImageFolder(dir, rgb);
    QCOMPARE(e.featureShape, std::vector<int64_t>({3, 3, 3}));
    QCOMPARE(e.features[0], 1.0f);
    QCOMPARE(e.features[18], 1.0f);
    // Colour asked for as gray: stb's luma, (77 R + 150 G + 29 B) / 256.
    ImageFolderOptions gray;
    gray.channels = 1;
    e = readImageFolder(m_root, gray);
    QCOMPARE(e.featureShape, std::vector<int64_t>({1, 4, 4}));
    QVERIFY(near(e.features[6], ((10 * 77 + 20 * 150 + 255 * 29) >> 8) / 255.0));
    QVERIFY(near(e.features[2 * 16], ((255 * 150) >> 8) / 255.0));  // the green BMP
  }

  void limitPerClassTakesTheFirstSorted() {
    const std::string dir = m_tmp.path().toStdString() + "/order";
    mkdir(dir + "/only");
    // Sorted by name: "10.png" < "9.png" < "a.png" (bytes, not numbers). Value = identity.
    png(dir + "/only/a.png", 1, 1, 1, {30});
    png(dir + "/only/9.png", 1, 1, 1, {20});
    png(dir + "/only/10.png", 1, 1, 1, {10});
    mkdir(dir + "/other");
    png(dir + "/other/x.png", 1, 1, 1, {40});
    Examples e = readImageFolder(dir, {});
    QVERIFY(near(e.features[0], 10 / 255.0) && near(e.features[1], 20 / 255.0) && near(e.features[2], 30 / 255.0));
    ImageFolderOptions options;
    options.limitPerClass = 2;
    e = readImageFolder(dir, options);
    QCOMPARE(e.count, int64_t(3));
    QCOMPARE(e.labels, std::vector<int64_t>({0, 0, 1}));
    QVERIFY(near(e.features[1], 20 / 255.0) && near(e.features[2], 40 / 255.0));
  }

  void errorsNameTheFile() {
    const std::string tmp = m_tmp.path().toStdString();
    // A corrupt PNG among good ones.
    const std::string broken = tmp + "/broken";
    mkdir(broken + "/cat");
    png(broken + "/cat/1.png", 2, 2, 1, solid(2, 2, {9}));
    writeText(broken + "/cat/7.png", "\x89PNG\r\n\x1a\n this is not a PNG body");
    QString message = errorOf([&] { readImageFolder(broken, {}); });
    QVERIFY2(message.startsWith(QString::fromStdString(broken + "/cat/7.png: cannot decode (")), qPrintable(message));

    const std::string empty = tmp + "/empty";
    mkdir(empty);
    writeText(empty + "/loose.png", "images must be in class folders");
    message = errorOf([&] { readImageFolder(empty, {}); });
    QVERIFY2(message.startsWith(QString::fromStdString(empty + ": no class subfolders")), qPrintable(message));

    const std::string noImages = tmp + "/no-images";
    mkdir(noImages + "/a");
    mkdir(noImages + "/b");
    png(noImages + "/a/1.png", 1, 1, 1, {0});
    writeText(noImages + "/b/readme.txt", "text");
    message = errorOf([&] { readImageFolder(noImages, {}); });
    QVERIFY2(message.startsWith(QString::fromStdString(noImages + "/b: no images")), qPrintable(message));

    message = errorOf([&] { readImageFolder(tmp + "/nowhere", {}); });
    QCOMPARE(message, QString::fromStdString(tmp + "/nowhere: no such folder"));

    ImageFolderOptions two;
    two.channels = 2;
    message = errorOf([&] { readImageFolder(m_root, two); });
    QVERIFY2(message.contains("2 channels asked for"), qPrintable(message));
  }
};

QTEST_GUILESS_MAIN(TestImageFolder)
#include "test_image_folder.moc"
