// CSV tables read a batch at a time (csv_rows.h): every row in any order and on any number of
// threads is the in-memory reader's row (quoting, line breaks in fields, CRLF, a byte-order mark,
// blank lines, one-hot columns, each missing-value policy), a table larger than data.memory_mb is
// split and standardised exactly as the same table in memory, a file changed under the run is
// named, and an int64 Input's checks work without the values in memory.
#include "core/config/run_config.h"
#include "core/data/csv_layout.h"
#include "core/data/csv_rows.h"
#include "core/data/data_splits.h"
#include "core/data/random.h"
#include "data_test_helpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <string>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

// Rows that exercise the record layer across block boundaries: quoted delimiters and line breaks,
// doubled quotes, CRLF endings, blank lines, missing values and a categorical column.
std::string trickyTable(int rows) {
  std::string text = "\xEF\xBB\xBF" "size,\"colour, shade\",note,y\r\n";
  for (int i = 0; i < rows; ++i) {
    const std::string size = i % 11 == 3 ? "" : std::to_string(i * 7 % 23) + "." + std::to_string(i % 10);
    const std::string colour = i % 13 == 5 ? "NA" : (i % 3 == 0 ? "\"red, dark\"" : i % 3 == 1 ? "blue" : "\"gr\"\"een\"");
    const std::string note = i % 4 == 0 ? "\"two\nlines\"" : std::to_string(i % 5);
    text += size + "," + colour + "," + note + "," + (i % 2 ? "yes" : "no") + (i % 5 == 0 ? "\r\n" : "\n");
    if (i % 17 == 0) text += "\n";  // a blank line: skipped
  }
  return text;
}

// A table of `rows` rows whose class is the sign of a weighted sum: wide enough (14 numeric
// columns) that a few thousand rows pass a 1 MiB budget as floats.
std::string wideTable(int rows) {
  std::string text;
  for (int j = 0; j < 14; ++j) text += "x" + std::to_string(j) + ",";
  text += "label\n";
  uint64_t state = 12345;
  for (int i = 0; i < rows; ++i) {
    double sum = 0;
    for (int j = 0; j < 14; ++j) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const int v = static_cast<int>((state >> 33) % 2000) - 1000;
      sum += v * (j % 3 == 0 ? 1.0 : -0.5);
      text += std::to_string(v / 100.0) + ",";
    }
    text += sum > 0 ? "up\n" : "down\n";
  }
  return text;
}

std::vector<int64_t> shuffled(int64_t n, uint64_t seed) { return permutation(n, seed); }

}  // namespace

class TestCsvRows : public QObject, public TempFolder {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(m_tmp.isValid()); }

  void everyRowReadsAsInMemory() {
    const std::string path = file("tricky.csv", trickyTable(150));
    for (MissingPolicy policy : {MissingPolicy::Mean, MissingPolicy::DropRow, MissingPolicy::Zero}) {
      CsvOptions options;
      options.target = "y";
      options.categorical = {"colour, shade", "note"};
      options.missing = policy;
      const CsvTable whole = readCsv(path, options);
      CsvScan scan = scanCsv(path, options, /*index=*/true);
      QCOMPARE(scan.table.examples.labels, whole.examples.labels);
      QCOMPARE(scan.table.examples.featureNames, whole.examples.featureNames);
      QCOMPARE(scan.table.notes, whole.notes);
      const std::shared_ptr<const CsvRows> rows = openCsvRows(path, ',', scan);
      const int64_t n = rows->count(), w = rows->width();
      QCOMPARE(n, whole.examples.count);
      QVERIFY(n > 5 * kCsvBlockRows);
      for (int workers : {1, 3}) {
        const std::vector<int64_t> order = shuffled(n, 7 + workers);
        std::vector<float> got(static_cast<size_t>(n * w), -99.0f);
        rows->read(order.data(), n, got.data(), workers);
        for (int64_t k = 0; k < n; ++k)
          for (int64_t j = 0; j < w; ++j)
            QCOMPARE(got[size_t(k * w + j)], whole.examples.features[size_t(order[size_t(k)] * w + j)]);
      }
      // A pass over a range in file order, a run of blocks per thread, ends mid-block too.
      for (int workers : {1, 3})
        for (const auto &[begin, end] : std::vector<std::pair<int64_t, int64_t>>{{0, n}, {3, n - 5}, {17, 18}}) {
          std::vector<float> got(static_cast<size_t>((end - begin) * w), -99.0f);
          rows->readRange(begin, end, got.data(), workers);
          for (int64_t k = begin; k < end; ++k)
            for (int64_t j = 0; j < w; ++j)
              QCOMPARE(got[size_t((k - begin) * w + j)], whole.examples.features[size_t(k * w + j)]);
        }
      QVERIFY(rows->bytesRead() > 0);
    }
  }

  void aChangedFileIsNamed() {
    const std::string path = file("changing.csv", wideTable(100));
    CsvOptions options;
    options.target = "label";
    CsvScan scan = scanCsv(path, options, true);
    const std::shared_ptr<const CsvRows> rows = openCsvRows(path, ',', scan);
    std::vector<float> out(size_t(rows->width()));
    const int64_t row = 42;
    rows->read(&row, 1, out.data(), 1);
    writeText(path, wideTable(90));  // rewritten shorter
    const QString message = errorOf([&] { rows->read(&row, 1, out.data(), 1); });
    QVERIFY2(message.contains(QString::fromStdString(path)) && message.contains("changed since the run opened it"),
             qPrintable(message));
  }

  // Past data.memory_mb the table is read per batch, and the splits, their labels and the
  // standardisation are exactly the in-memory table's (the training rows are within the
  // statistics sample).
  void aTableLargerThanTheBudgetIsStreamedWithTheSameSplits() {
    // 70,000 x 14 floats (3.7 MiB): the statistics come from every training row either way.
    const std::string path = file("wide.csv", wideTable(70000));
    tw::config::DataOptions o;
    o.dataset = "csv";
    o.path = path;
    o.target = "label";
    o.memoryMb = 1;
    const DataSplits streamed = loadDataSplits(o, 5);
    o.memoryMb = 0;
    const DataSplits whole = loadDataSplits(o, 5);
    QVERIFY(streamed.tableRows);
    QVERIFY(!whole.tableRows);
    QVERIFY(streamed.train.features.empty());
    const auto noteWith = [](const DataSplits &s, const char *text) {
      for (const std::string &note : s.reading)
        if (note.find(text) != std::string::npos) return true;
      return false;
    };
    QVERIFY(noteWith(streamed, "70000 rows streamed from the file and parsed per batch (4 MiB as floats, above "
                               "data.memory_mb 1)"));
    QVERIFY(noteWith(whole, "70000 rows read into memory"));
    QCOMPARE(streamed.train.labels, whole.train.labels);
    QCOMPARE(streamed.test.labels, whole.test.labels);
    QCOMPARE(streamed.preprocessing.featureMean, whole.preprocessing.featureMean);
    QCOMPARE(streamed.preprocessing.featureStd, whole.preprocessing.featureStd);
    QCOMPARE(int64_t(streamed.trainRows.size()), whole.train.count);
    // A training row read from the file is the in-memory row before standardisation.
    const int64_t w = streamed.tableRows->width(), k = 1234;
    std::vector<float> row(static_cast<size_t>(w));
    streamed.tableRows->read(&streamed.trainRows[size_t(k)], 1, row.data(), 2);
    for (int64_t j = 0; j < w; ++j) {
      const float standardised = (row[size_t(j)] - whole.preprocessing.featureMean[size_t(j)]) /
                                 whole.preprocessing.featureStd[size_t(j)];
      QCOMPARE(standardised, whole.train.features[size_t(k * w + j)]);
    }
  }

  // An int64 Input's checks on a table read per batch come from the scan: a fraction and an index
  // beyond an Embedding are named as in memory, before anything trains.
  void indexInputsAreCheckedWithoutTheValues() {
    const auto indexTable = [](const std::string &odd) {
      std::string text = "x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x10,x11,x12,x13,y\n";
      for (int i = 0; i < 24000; ++i) {
        for (int j = 0; j < 14; ++j) text += (i == 4998 && j == 3 ? odd : std::to_string((i + j) % 10)) + ",";
        text += i % 2 ? "a\n" : "b\n";
      }
      return text;
    };
    tw::config::DataOptions o;
    o.dataset = "csv";
    o.target = "y";
    o.memoryMb = 1;
    ModelUse use;
    use.indexInputs = true;
    use.embeddings = {{"embed", 10}};
    o.path = file("fraction.csv", indexTable("4.5"));
    QString message = errorOf([&] { loadDataSplits(o, 1, use); });
    QVERIFY2(message.contains(QString::fromStdString(o.path) + ":5000: column 'x3' holds 4.5, not an integer"),
             qPrintable(message));
    o.path = file("beyond.csv", indexTable("12"));
    message = errorOf([&] { loadDataSplits(o, 1, use); });
    QVERIFY2(message.contains("column 'x3' holds values from 0 to 12, outside 0..9, the indices of Embedding 'embed'"),
             qPrintable(message));
    o.path = file("fits.csv", indexTable("7"));
    const DataSplits fits = loadDataSplits(o, 1, use);
    QVERIFY(fits.tableRows);
    QVERIFY(fits.preprocessing.featureMean.empty());  // indices are never standardised
  }
};

QTEST_GUILESS_MAIN(TestCsvRows)
#include "test_csv_rows.moc"
