// The CSV reader on real files: both tasks, RFC 4180 quoting, one-hot columns, every missing-value
// policy, column selection, every error message (file:line and column), and a multi-megabyte file.
#include "core/data/csv_reader.h"
#include "data_test_helpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

QList<double> asDoubles(const std::vector<float> &values) {
  QList<double> out;
  for (float v : values) out << double(v);
  return out;
}

QList<qint64> toInts(const std::vector<int64_t> &values) {
  QList<qint64> out;
  for (int64_t v : values) out << qint64(v);
  return out;
}

// The missing-values file of the policy tests: line 3 lacks age, line 4 colour, line 6 age.
const char *kMissing =
    "age,color,y\n"
    "30,red,a\n"
    ",blue,b\n"
    "50,NA,a\n"
    "40,red,b\n"
    "?,red,a\n";

}  // namespace

class TestCsvReader : public QObject, public TempFolder {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(m_tmp.isValid()); }

  void classificationHappyPath() {
    const std::string path = file("iris.csv",
                                  "sepal,petal,species\n"
                                  "5.1,1.4,setosa\n"
                                  "7.0,4.7,versicolor\n"
                                  "6.3,6.0,virginica\n"
                                  "4.9,-1.5e-1,setosa\n");
    CsvOptions options;
    options.target = "species";
    const CsvTable table = readCsv(path, options);
    const Examples &e = table.examples;
    QCOMPARE(e.task, Task::Classification);
    QCOMPARE(e.count, int64_t(4));
    QCOMPARE(e.featureShape, std::vector<int64_t>{2});
    QCOMPARE(e.featureSize(), int64_t(2));
    QCOMPARE(toQStrings(e.featureNames), QStringList({"sepal", "petal"}));
    QCOMPARE(toQStrings(e.classNames), QStringList({"setosa", "versicolor", "virginica"}));
    QCOMPARE(e.classes, int64_t(3));
    QCOMPARE(toInts(e.labels), QList<qint64>({0, 1, 2, 0}));
    QCOMPARE(asDoubles(e.features), QList<double>({5.1f, 1.4f, 7.0f, 4.7f, 6.3f, 6.0f, 4.9f, -0.15f}));
    QVERIFY(e.targets.empty());
    QCOMPARE(table.numericColumns, std::vector<bool>({true, true}));
    QVERIFY(table.notes.empty());
  }

  void numericClassesSortNumerically() {
    const std::string path = file("grades.csv", "x,grade\n1,10\n2,2\n3,1\n4,2\n");
    CsvOptions options;
    options.target = "grade";
    const Examples e = readCsv(path, options).examples;
    QCOMPARE(toQStrings(e.classNames), QStringList({"1", "2", "10"}));
    QCOMPARE(toInts(e.labels), QList<qint64>({2, 1, 0, 1}));
  }

  void regressionHappyPath() {
    const std::string path = file("houses.csv", "rooms,area,price\n3,70.5,250000\n5,120,+4.1e5\n1,30,-12.25\n");
    CsvOptions options;
    options.target = "price";
    options.task = Task::Regression;
    const Examples e = readCsv(path, options).examples;
    QCOMPARE(e.task, Task::Regression);
    QCOMPARE(e.count, int64_t(3));
    QCOMPARE(e.targetDim, int64_t(1));
    QCOMPARE(asDoubles(e.targets), QList<double>({250000.0, 410000.0, -12.25}));
    QVERIFY(e.labels.empty());
    QVERIFY(e.classNames.empty());
    QCOMPARE(asDoubles(e.features), QList<double>({3, 70.5, 5, 120, 1, 30}));
  }

  void quotingCrlfAndByteOrderMark() {
    // A BOM, quoted header names, a delimiter and doubled quotes inside quotes, a line break inside
    // a quoted field, CRLF endings, spaces around unquoted fields, a blank line, no final newline.
    const std::string path = file("quoted.csv",
                                  "\xEF\xBB\xBF\"name\",size,\"kind\"\r\n"
                                  "\"Smith, John\", 1.5 ,\"say \"\"hi\"\"\"\r\n"
                                  "\"two\nlines\",2,b\r\n"
                                  "\r\n"
                                  "plain,3,b");
    CsvOptions options;
    options.target = "kind";
    options.categorical = {"name"};
    const CsvTable table = readCsv(path, options);
    const Examples &e = table.examples;
    QCOMPARE(e.count, int64_t(3));
    QCOMPARE(toQStrings(e.classNames), QStringList({"b", "say \"hi\""}));
    QCOMPARE(toInts(e.labels), QList<qint64>({1, 0, 0}));
    QCOMPARE(toQStrings(e.featureNames),
             QStringList({"name=Smith, John", "name=plain", "name=two\nlines", "size"}));
    QCOMPARE(asDoubles(e.features), QList<double>({1, 0, 0, 1.5, 0, 0, 1, 2, 0, 1, 0, 3}));
  }

  void categoricalColumnsAreOneHot() {
    const std::string path = file("cars.csv",
                                  "color,zip,weight,y\n"
                                  "red,10,1.5,a\n"
                                  "blue,9,2.5,b\n"
                                  "green,10,3,a\n"
                                  "red,9,4,b\n");
    CsvOptions options;
    options.target = "y";
    options.categorical = {"color", "zip"};  // zip is numeric, but a code: one-hot, sorted numerically
    const CsvTable table = readCsv(path, options);
    const Examples &e = table.examples;
    QCOMPARE(toQStrings(e.featureNames),
             QStringList({"color=blue", "color=green", "color=red", "zip=9", "zip=10", "weight"}));
    QCOMPARE(table.numericColumns, std::vector<bool>({false, false, false, false, false, true}));
    QCOMPARE(e.featureShape, std::vector<int64_t>{6});
    // The column layout a deployed model needs: which feature each column starts at, its values.
    QCOMPARE(table.columns.size(), size_t(3));
    QCOMPARE(QString::fromStdString(table.columns[0].name), QString("color"));
    QVERIFY(table.columns[0].categorical);
    QCOMPARE(toQStrings(table.columns[0].categories), QStringList({"blue", "green", "red"}));
    QCOMPARE(table.columns[1].offset, int64_t(3));
    QCOMPARE(toQStrings(table.columns[1].categories), QStringList({"9", "10"}));
    QVERIFY(!table.columns[2].categorical);
    QCOMPARE(table.columns[2].offset, int64_t(5));
    QCOMPARE(asDoubles(e.features), QList<double>({0, 0, 1, 0, 1, 1.5,  //
                                                   1, 0, 0, 1, 0, 2.5,  //
                                                   0, 1, 0, 0, 1, 3,    //
                                                   0, 0, 1, 1, 0, 4}));
  }

  void textInANumericColumnIsAnError_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");  // FILE stands for the file's path
    // The first values look numeric; a text value later is a typo or a unit, never a silent one-hot.
    QTest::newRow("text after numbers") << QByteArray("code,y\n0,a\n1,a\n2,a\nx,b\n")
                                        << "FILE:5: column 'code': 'x' is not a number (list the column in "
                                           "data.categorical to one-hot encode it)";
    QTest::newRow("text from the first row") << QByteArray("colour,y\nred,a\nblue,b\n")
                                             << "FILE:2: column 'colour': 'red' is not a number";
    QTest::newRow("a unit") << QByteArray("w,y\n1.5,a\n2 kg,b\n") << "FILE:3: column 'w': '2 kg' is not a number";
    // Bytes from a binary file: escaped and cut short after 40 characters, never printed raw.
    QTest::newRow("binary bytes") << QByteArray("w,y\n1,a\n\x01\x02\x7f\xff" "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz,b\n")
                                  << "FILE:3: column 'w': '\\x01\\x02\\x7f\\xffabcdefghijklmnopqrstuvwxyzabcdefghij...' is not";
  }

  void textInANumericColumnIsAnError() {
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const std::string path = file("text.csv", content.toStdString());
    CsvOptions options;
    options.target = "y";
    const QString message = errorOf([&] { readCsv(path, options); });
    expected.replace("FILE", QString::fromStdString(path));
    QVERIFY2(message.contains(expected), qPrintable("got: " + message + "\nwanted: " + expected));
    // Declared categorical, the same column reads.
    const std::string column = content.left(content.indexOf(',')).toStdString();
    options.categorical = {column};
    QVERIFY(readCsv(path, options).examples.count > 0);
  }

  void missingPolicies_data() {
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QList<double>>("features");
    QTest::addColumn<QList<qint64>>("labels");
    QTest::addColumn<QStringList>("notes");
    QTest::newRow("drop") << "drop" << QStringList({"age", "color=red"})
                          << QList<double>({30, 1, 40, 1}) << QList<qint64>({0, 1})
                          << QStringList({"dropped 3 rows with missing values (lines 3, 4, 6)"});
    QTest::newRow("mean") << "mean" << QStringList({"age", "color=blue", "color=red"})
                          << QList<double>({30, 0, 1, 40, 1, 0, 50, 0, 1, 40, 0, 1, 40, 0, 1})
                          << QList<qint64>({0, 1, 0, 1, 0})
                          << QStringList({"filled 2 missing values of 'age' with the mean 40",
                                          "filled 1 missing value of 'color' with its most frequent value 'red'"});
    QTest::newRow("zero") << "zero" << QStringList({"age", "color=blue", "color=red"})
                          << QList<double>({30, 0, 1, 0, 1, 0, 50, 0, 0, 40, 0, 1, 0, 0, 1})
                          << QList<qint64>({0, 1, 0, 1, 0})
                          << QStringList({"filled 2 missing values of 'age' with 0",
                                          "left 1 missing value of 'color' without a category (all its one-hot columns 0)"});
  }

  void missingPolicies() {
    QFETCH(QString, policy);
    QFETCH(QStringList, names);
    QFETCH(QList<double>, features);
    QFETCH(QList<qint64>, labels);
    QFETCH(QStringList, notes);
    CsvOptions options;
    options.target = "y";
    options.missing = parseMissingPolicy(policy.toStdString());
    options.categorical = {"color"};
    QCOMPARE(QString(missingPolicyName(options.missing)), policy);
    const CsvTable table = readCsv(file("missing.csv", kMissing), options);
    QCOMPARE(toQStrings(table.examples.featureNames), names);
    QCOMPARE(asDoubles(table.examples.features), features);
    QCOMPARE(toInts(table.examples.labels), labels);
    QCOMPARE(toQStrings(table.notes), notes);
    QCOMPARE(table.examples.count, qint64(labels.size()));
  }

  void missingPolicyNames() {
    QCOMPARE(parseMissingPolicy("error"), MissingPolicy::Error);
    const QString message = errorOf([] { parseMissingPolicy("median"); });
    QVERIFY2(message.contains("'median'") && message.contains("error, drop, mean or zero"), qPrintable(message));
  }

  void columnSelectionAndLimit() {
    const std::string path = file("pick.csv",
                                  "a,b,c,y\n"
                                  "1,2,3,p\n"
                                  "4,5,6,q\n"
                                  "7,8,9,p\n");
    CsvOptions options;
    options.target = "y";
    options.features = {"c", "a"};  // in this order; b is left out
    CsvTable table = readCsv(path, options);
    QCOMPARE(toQStrings(table.examples.featureNames), QStringList({"c", "a"}));
    QCOMPARE(asDoubles(table.examples.features), QList<double>({3, 1, 6, 4, 9, 7}));
    options.limit = 2;
    table = readCsv(path, options);
    QCOMPARE(table.examples.count, int64_t(2));
    QCOMPARE(asDoubles(table.examples.features), QList<double>({3, 1, 6, 4}));
    // A column outside the selection may hold anything, even missing values.
    const std::string loose = file("loose.csv", "a,junk,y\n1,,p\n2,NA,q\n");
    options = CsvOptions();
    options.target = "y";
    options.features = {"a"};
    QCOMPARE(readCsv(loose, options).examples.count, int64_t(2));
  }

  void semicolonDelimiter() {
    CsvOptions options;
    options.target = "y";
    options.delimiter = ';';
    // "1,5" is text here (no locale-dependent decimal comma): not a number, so not a numeric column.
    QVERIFY(errorOf([&] { readCsv(file("semi.csv", "a;y\n\"1,5\";p\n2;q\n"), options); }).contains("'1,5' is not a number"));
    options.categorical = {"a"};
    const Examples e = readCsv(file("semi.csv", "a;y\n\"1,5\";p\n2;q\n"), options).examples;
    QCOMPARE(toQStrings(e.featureNames), QStringList({"a=2", "a=1,5"}));
  }

  void errorsNameFileLineAndColumn_data() {
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QStringList>("features");
    QTest::addColumn<bool>("regression");
    QTest::addColumn<QString>("missing");
    QTest::addColumn<QString>("expected");  // FILE stands for the file's path
    const QString csv = "a,b,y\n1,2,p\n";
    QTest::newRow("ragged row") << "a,b,y\n1,2,p\n3,q\n" << "y" << QStringList() << false << "error"
                                << "FILE:3: 2 fields, the header has 3";
    QTest::newRow("ragged row after a quoted line break")
        << "a,b,y\n1,2,\"x\ny\"\r\n3,4,q,5\n" << "y" << QStringList() << false << "error"
        << "FILE:4: 4 fields, the header has 3";
    QTest::newRow("unknown feature") << csv << "y" << QStringList({"a", "bb"}) << false << "error"
                                     << "FILE: unknown column 'bb' in data.features (the header has: a, b, y)";
    QTest::newRow("target not in header") << csv << "z" << QStringList() << false << "error"
                                          << "FILE: the target column 'z' (data.target) is not in the header (the header has: a, b, y)";
    QTest::newRow("no target given") << csv << "" << QStringList() << false << "error"
                                     << "FILE: no target column given (set data.target to one of: a, b, y)";
    QTest::newRow("target as feature") << csv << "y" << QStringList({"a", "y"}) << false << "error"
                                       << "FILE: column 'y' is the target (data.target) and cannot also be a feature";
    QTest::newRow("missing value") << "a,b,y\n1,2,p\n3,4,q\n5,6,p\n7,8,q\n8,9,p\n1,2,p\n3,4,q\n9,NA,p\n"
                                   << "y" << QStringList() << false << "error"
                                   << "FILE:9: column 'b': missing value (data.missing: error; use drop, mean or zero)";
    QTest::newRow("missing target") << "a,y\n1,p\n2,\n" << "y" << QStringList() << false << "mean"
                                    << "FILE:3: column 'y' (the target): missing value (a target is never filled;";
    QTest::newRow("non-numeric regression target") << "a,y\n1,2.5\n2,high\n" << "y" << QStringList() << true
                                                   << "error"
                                                   << "FILE:3: column 'y' (the target): 'high' is not a number";
    QTest::newRow("empty file") << "" << "y" << QStringList() << false << "error"
                                << "FILE: the file is empty (a header row is required)";
    QTest::newRow("blank lines only") << "\n\r\n\n" << "y" << QStringList() << false << "error"
                                      << "FILE: the file is empty";
    QTest::newRow("header only") << "a,y\n" << "y" << QStringList() << false << "error"
                                 << "FILE: no data rows after the header";
    QTest::newRow("every row dropped") << "a,y\nNA,p\n" << "y" << QStringList() << false << "drop"
                                       << "FILE: every one of the 1 rows has a missing value";
    QTest::newRow("unterminated quote") << "a,y\n1,p\n\"2,q\n3,p\n" << "y" << QStringList() << false
                                        << "error" << "FILE:3: unterminated quoted field";
    QTest::newRow("duplicate header") << "a,b,a,y\n1,2,3,p\n" << "y" << QStringList() << false << "error"
                                      << "FILE:1: column 'a' appears twice in the header (fields 1 and 3)";
  }

  void errorsNameFileLineAndColumn() {
    QFETCH(QString, content);
    QFETCH(QString, target);
    QFETCH(QStringList, features);
    QFETCH(bool, regression);
    QFETCH(QString, missing);
    QFETCH(QString, expected);
    const std::string path = file("data.csv", content.toStdString());
    CsvOptions options;
    options.target = target.toStdString();
    options.features = toStrings(features);
    options.task = regression ? Task::Regression : Task::Classification;
    options.missing = parseMissingPolicy(missing.toStdString());
    const QString message = errorOf([&] { readCsv(path, options); });
    expected.replace("FILE", QString::fromStdString(path));
    QVERIFY2(message.contains(expected), qPrintable("got: " + message + "\nwanted: " + expected));
  }

  void missingFileIsNamed() {
    const std::string path = m_tmp.path().toStdString() + "/nope.csv";
    CsvOptions options;
    options.target = "y";
    const QString message = errorOf([&] { readCsv(path, options); });
    QCOMPARE(message, QString::fromStdString(path + ": no such file"));
    const QString folder = errorOf([&] { readCsv(m_tmp.path().toStdString(), options); });
    QVERIFY2(folder.contains("is a folder"), qPrintable(folder));
  }

  void streamsAFileLargerThanItsBuffer() {
    // ~6 MB: several 1 MB buffer refills, with records (and a quoted field) across the seams.
    const int rows = 300000;
    std::string content = "id,value,label\n";
    content.reserve(size_t(rows) * 24);
    double sum = 0;
    for (int i = 0; i < rows; ++i) {
      char line[64];
      const double value = (i % 1000) * 0.25;
      std::snprintf(line, sizeof line, "%d,%.2f,\"c%d, x\"\n", i, value, i % 7);
      content += line;
      sum += value;
    }
    const std::string path = file("big.csv", content);
    CsvOptions options;
    options.target = "label";
    options.features = {"value"};
    const Examples e = readCsv(path, options).examples;
    QCOMPARE(e.count, int64_t(rows));
    QCOMPARE(e.classes, int64_t(7));
    QCOMPARE(e.classNames.front(), std::string("c0, x"));
    double got = 0;
    for (float v : e.features) got += v;
    QCOMPARE(got, sum);
    for (int i : {0, 1, 43690, 299999}) QCOMPARE(e.labels[size_t(i)], int64_t(i % 7));
  }
};

QTEST_GUILESS_MAIN(TestCsvReader)
#include "test_csv_reader.moc"
