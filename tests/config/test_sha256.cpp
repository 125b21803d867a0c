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
