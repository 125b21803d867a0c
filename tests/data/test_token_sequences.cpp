// The token-sequence set: shapes, determinism by seed (pinned values), the label rule on every
// example, sequences that are not trivial (close counts, several markers), and precise errors.
#include "core/data/token_sequences.h"
#include "data_test_helpers.h"

#include <QtTest>

#include <set>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

std::vector<int64_t> markerCounts(const Examples &e, int64_t i) {
  std::vector<int64_t> counts(size_t(e.classes), 0);
  const int64_t length = e.featureShape[0];
  for (int64_t p = 0; p < length; ++p) {
    const float token = e.features[size_t(i * length + p)];
    if (token < float(e.classes)) ++counts[size_t(token)];
  }
  return counts;
}

}  // namespace

class TestTokenSequences : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void shapesAndDeterminism() {
    const Examples a = makeTokenSequences(301, 3, 16, 20, 42);
    QCOMPARE(a.task, Task::Classification);
    QCOMPARE(a.count, int64_t(301));
    QCOMPARE(a.classes, int64_t(3));
    QCOMPARE(a.featureShape, std::vector<int64_t>{16});
    QCOMPARE(a.features.size(), size_t(301 * 16));
    QCOMPARE(a.labels.size(), size_t(301));
    QCOMPARE(a.classNames, std::vector<std::string>({"0", "1", "2"}));
    for (int64_t i = 0; i < a.count; ++i) QCOMPARE(a.labels[size_t(i)], i % 3);
    std::set<float> seen;
    for (float token : a.features) {
      QVERIFY2(token >= 0.0f && token < 20.0f && token == float(int64_t(token)), qPrintable(QString::number(token)));
      seen.insert(token);
    }
    QCOMPARE(seen.size(), size_t(20));  // every token id occurs somewhere
    QVERIFY(a.features == makeTokenSequences(301, 3, 16, 20, 42).features);
    QVERIFY(a.features != makeTokenSequences(301, 3, 16, 20, 43).features);
  }

  void pinnedValues() {
    // Only mt19937_64 and our own mappings (random.h): these must not move between platforms.
    const Examples e = makeTokenSequences(4, 2, 8, 10, 42);
    const std::vector<float> first = {8, 2, 4, 8, 7, 6, 2, 0, 4, 1, 9, 5, 4, 1, 1, 7};
    QCOMPARE(std::vector<float>(e.features.begin(), e.features.begin() + 16), first);
  }

  void everyExampleFollowsTheRule_data() {
    QTest::addColumn<qint64>("classes");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<qint64>("vocabulary");
    QTest::newRow("defaults") << qint64(3) << qint64(32) << qint64(64);
    QTest::newRow("one filler token") << qint64(4) << qint64(12) << qint64(5);
    QTest::newRow("length 1") << qint64(2) << qint64(1) << qint64(3);
    QTest::newRow("more classes than positions") << qint64(10) << qint64(6) << qint64(100);
    QTest::newRow("long") << qint64(5) << qint64(200) << qint64(1000);
  }

  void everyExampleFollowsTheRule() {
    QFETCH(qint64, classes);
    QFETCH(qint64, length);
    QFETCH(qint64, vocabulary);
    const Examples e = makeTokenSequences(500, classes, length, vocabulary, 7);
    for (int64_t i = 0; i < e.count; ++i) {
      const int64_t label = majorityMarker(&e.features[size_t(i * length)], length, classes);
      QVERIFY2(label == e.labels[size_t(i)], qPrintable(QString("example %1: rule says %2, label %3")
                                                             .arg(i)
                                                             .arg(label)
                                                             .arg(e.labels[size_t(i)])));
    }
  }

  // Not one marker in a sea of filler: other markers appear too, often one fewer time than the
  // winner, so only counting gets every example right.
  void sequencesAreNotTrivial() {
    const Examples e = makeTokenSequences(1000, 3, 32, 64, 5);
    int several = 0, close = 0;
    std::set<int64_t> winnerCounts;
    for (int64_t i = 0; i < e.count; ++i) {
      const std::vector<int64_t> counts = markerCounts(e, i);
      const int64_t winner = counts[size_t(e.labels[size_t(i)])];
      winnerCounts.insert(winner);
      int present = 0;
      bool runnerUp = false;
      for (int64_t k = 0; k < e.classes; ++k) {
        present += counts[size_t(k)] > 0;
        runnerUp = runnerUp || (k != e.labels[size_t(i)] && counts[size_t(k)] == winner - 1 && winner > 1);
      }
      several += present > 1;
      close += runnerUp;
    }
    QVERIFY2(several > 700, qPrintable(QString::number(several)));
    QVERIFY2(close > 100, qPrintable(QString::number(close)));
    QCOMPARE(winnerCounts.size(), size_t(11));  // 1 .. 1 + 31 / 3
  }

  void majorityMarkerRefusesTies() {
    const std::vector<float> tie = {0, 1, 5, 1, 0}, none = {4, 5, 6}, clear = {2, 5, 2, 1, 0};
    QCOMPARE(majorityMarker(tie.data(), 5, 3), int64_t(-1));
    QCOMPARE(majorityMarker(none.data(), 3, 3), int64_t(-1));
    QCOMPARE(majorityMarker(clear.data(), 5, 3), int64_t(2));
  }

  void badArgumentsAreErrors_data() {
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("classes");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<qint64>("vocabulary");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one class") << qint64(10) << qint64(1) << qint64(8) << qint64(10) << "tokens: 1 classes (at least 2, set data.classes)";
    QTest::newRow("too few samples") << qint64(2) << qint64(3) << qint64(8) << qint64(10) << "tokens: 2 samples for 3 classes";
    QTest::newRow("empty sequences") << qint64(10) << qint64(2) << qint64(0) << qint64(10) << "sequence length 0 (at least 1, set data.seq_len)";
    QTest::newRow("no filler token") << qint64(10) << qint64(4) << qint64(8) << qint64(4)
                                     << "vocabulary of 4 tokens for 4 classes: tokens 0..3 are the class markers";
    QTest::newRow("vocabulary beyond floats") << qint64(10) << qint64(2) << qint64(8) << qint64(1 << 25)
                                              << "at most 2^24 = 16777216, set data.vocab_size";
  }

  void badArgumentsAreErrors() {
    QFETCH(qint64, count);
    QFETCH(qint64, classes);
    QFETCH(qint64, length);
    QFETCH(qint64, vocabulary);
    QFETCH(QString, expected);
    const QString message = errorOf([&] { makeTokenSequences(count, classes, length, vocabulary, 1); });
    QVERIFY2(message.contains(expected), qPrintable(message));
  }
};

QTEST_GUILESS_MAIN(TestTokenSequences)
#include "test_token_sequences.moc"
