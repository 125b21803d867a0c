#include "core/config/sha256.h"

#include <QtTest>

class TestSha256 : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void knownVectors_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("digest");
    QTest::newRow("empty") << "" << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << "abc" << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    QTest::newRow("two blocks") << "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
                                << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
  }
  void knownVectors() {
    QFETCH(QString, input);
    QFETCH(QString, digest);
    QCOMPARE(QString::fromStdString(tw::config::sha256Hex(input.toStdString())), digest);
  }
  // Every length around the block boundaries and a few megabytes, through whichever path this CPU
  // takes, against the portable one; and a million 'a's, the standard's long vector.
  void acceleratedPathEqualsPortable() {
    std::string data(3 << 20, '\0');
    uint64_t state = 1;
    for (char &c : data) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      c = char(state >> 56);
    }
    for (size_t n : {size_t(0), size_t(1), size_t(55), size_t(56), size_t(63), size_t(64), size_t(65), size_t(127),
                     size_t(128), size_t(1000), size_t(4096 + 17), data.size()})
      QCOMPARE(tw::config::sha256Hex(data.substr(0, n)), tw::config::Sha256::portableHexForTesting(data.data(), n));
    QCOMPARE(tw::config::sha256Hex(std::string(1000000, 'a')),
             std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    if (!tw::config::Sha256::hardwareAccelerated())
      qInfo("this CPU has no SHA extensions: the portable path was compared with itself");
  }
  void incrementalEqualsWhole() {
    std::string text(1000, 'x');
    for (size_t i = 0; i < text.size(); ++i) text[i] = char('a' + i % 26);
    tw::config::Sha256 h;
    for (size_t i = 0; i < text.size(); i += 7) h.update(text.substr(i, 7));
    QCOMPARE(h.hexDigest(), tw::config::sha256Hex(text));
  }
};

QTEST_APPLESS_MAIN(TestSha256)
#include "test_sha256.moc"
