// Text from files in messages: escaped and cut short, one helper for every reader.
#include "core/data/shown_text.h"

#include <QtTest>

#include <string>

using namespace tw::data;

class TestShownText : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void escapesAndShortens_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QByteArray>("shown");
    QTest::newRow("plain") << QByteArray("price") << 40 << QByteArray("price");
    QTest::newRow("controls") << QByteArray("a\tb\nc\rd\x01\x1b[31m") << 40 << QByteArray("a\\tb\\nc\\rd\\x01\\x1b[31m");
    QTest::newRow("nul and del") << QByteArray("x\0y\x7f", 4) << 40 << QByteArray("x\\x00y\\x7f");
    QTest::newRow("utf-8 kept") << QByteArray("Gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac") << 40
                                << QByteArray("Gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac");
    QTest::newRow("broken utf-8") << QByteArray("a\xc3(\xff\xe2\x82") << 40 << QByteArray("a\\xc3(\\xff\\xe2\\x82");
    QTest::newRow("overlong slash") << QByteArray("\xc0\xaf") << 40 << QByteArray("\\xc0\\xaf");
    QTest::newRow("cut") << QByteArray("abcdefghij") << 4 << QByteArray("abcd...");
    QTest::newRow("cut counts characters") << QByteArray("\x01\x02\x03\x04\x05") << 2 << QByteArray("\\x01\\x02...");
    QTest::newRow("exactly the limit") << QByteArray("abcd") << 4 << QByteArray("abcd");
  }

  void escapesAndShortens() {
    QFETCH(QByteArray, text);
    QFETCH(int, maxChars);
    QFETCH(QByteArray, shown);
    const std::string got = shownText(std::string(text.constData(), size_t(text.size())), size_t(maxChars));
    QCOMPARE(QByteArray::fromStdString(got), shown);
    QCOMPARE(quoted("a\nb"), std::string("'a\\nb'"));
  }
};

QTEST_GUILESS_MAIN(TestShownText)
#include "test_shown_text.moc"
