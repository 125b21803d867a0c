// The confusion matrix artifact as the engine writes it and Studio reads it.

#include "core/metrics/confusion_csv.h"

#include <QtTest>

class TestConfusionCsv : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void namesQuotedWhereNeeded() {
    const std::string csv = tw::metrics::confusionCsv({8, 2, 0, 0, 5, 5, 0, 0, 10}, 3, {"a", "b,c", "say \"hi\""});
    QCOMPARE(QString::fromStdString(csv), QStringLiteral("truth\\predicted,a,\"b,c\",\"say \"\"hi\"\"\"\n"
                                                         "a,8,2,0\n"
                                                         "\"b,c\",0,5,5\n"
                                                         "\"say \"\"hi\"\"\",0,0,10\n"));
  }

  void unnamedClassesAreTheirIndex() {
    QCOMPARE(QString::fromStdString(tw::metrics::confusionCsv({1, 0, 0, 1}, 2, {"x"})),
             QStringLiteral("truth\\predicted,x,1\nx,1,0\n1,0,1\n"));
    QCOMPARE(QString::fromStdString(tw::metrics::confusionCsv({}, 0, {})), QStringLiteral("truth\\predicted\n"));
  }
};

QTEST_APPLESS_MAIN(TestConfusionCsv)
#include "test_confusion_csv.moc"
