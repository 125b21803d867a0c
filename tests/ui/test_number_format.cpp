// One number format: the digits that matter (core/config/number_text.h), in Studio with the
// locale's separators, and the same digits in the CLI's tables and the HTML report.

#include "ui/common/number_format.h"

#include "app/common/value_text.h"

#include <QLocale>
#include <QtTest>

#include <limits>

class TestNumberFormat : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void cleanup() { QLocale::setDefault(QLocale::c()); }

  void english_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("shown");
    QTest::newRow("learning rate") << 0.002915586427666988 << QStringLiteral("0.002916");
    QTest::newRow("loss") << 0.79321 << QStringLiteral("0.7932");
    QTest::newRow("trailing zeros dropped") << 0.25 << QStringLiteral("0.25");
    QTest::newRow("whole number grouped") << 60000.0 << QStringLiteral("60,000");
    QTest::newRow("small whole number") << 128.0 << QStringLiteral("128");
    QTest::newRow("above the shown digits") << 12345.678 << QStringLiteral("12,346");
    QTest::newRow("mid range") << 12.3456 << QStringLiteral("12.35");
    QTest::newRow("tiny") << 3e-7 << QStringLiteral("3E-07");
    QTest::newRow("negative") << -0.0123456 << QStringLiteral("-0.01235");
    QTest::newRow("negative zero") << -0.0 << QStringLiteral("0");
    QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << QStringLiteral("NaN");
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << QStringLiteral("∞");
  }
  void english() {
    QFETCH(double, value);
    QFETCH(QString, shown);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(tw::ui::formatNumber(value), shown);
    // The CLI's tables and the report (app/common/value_text.h): digit for digit.
    QCOMPARE(QString::fromStdString(tw::app::formatMetric(value)), shown);
  }

  void german() {
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(tw::ui::formatNumber(0.002915586427666988), QStringLiteral("0,002916"));
    QCOMPARE(tw::ui::formatNumber(60000), QStringLiteral("60.000"));
    QCOMPARE(tw::ui::formatNumber(0.5), QStringLiteral("0,5"));
    QCOMPARE(tw::ui::formatValueText(QStringLiteral("0.0003")), QStringLiteral("0,0003"));
  }

  // Shares and sizes: the worker's epoch lines and summary, the CLI's pack and export lines and
  // Studio write the same digits (Studio with the locale's space before % and decimal point).
  void percentagesAndSizes() {
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(QString::fromStdString(tw::config::formatPercent(0.8735)), QStringLiteral("87.35%"));
    QCOMPARE(tw::ui::formatPercent(0.8735), QStringLiteral("87.35 %"));
    QCOMPARE(QString::fromStdString(tw::config::formatPercent(0.784)), QStringLiteral("78.4%"));
    QCOMPARE(tw::ui::formatPercent(0.784), QStringLiteral("78.4 %"));
    QCOMPARE(QString::fromStdString(tw::config::formatPercent(1.0)), QStringLiteral("100%"));
    QCOMPARE(QString::fromStdString(tw::app::formatMetric(0.784)), QStringLiteral("0.784"));
    QCOMPARE(QString::fromStdString(tw::config::formatBytes(943411)), QStringLiteral("921.3 KiB"));
    QCOMPARE(tw::ui::formatBytes(943411), QStringLiteral("921.3 KiB"));
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(tw::ui::formatPercent(0.784), QStringLiteral("78,4 %"));
    QCOMPARE(tw::ui::formatBytes(1536), QStringLiteral("1,5 KiB"));
  }

  void recordedText() {
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(tw::ui::formatValueText(QStringLiteral("0.002915586427666988")), QStringLiteral("0.002916"));
    QCOMPARE(tw::ui::formatValueText(QStringLiteral("1e-3")), QStringLiteral("0.001"));
    QCOMPARE(tw::ui::formatValueText(QStringLiteral("42")), QStringLiteral("42"));
    QCOMPARE(tw::ui::formatValueText(QStringLiteral("adamw")), QStringLiteral("adamw"));
    QCOMPARE(tw::ui::formatValueText(QStringLiteral("nan")), QStringLiteral("nan"));
    QCOMPARE(tw::ui::formatValueText(QStringLiteral("0x10")), QStringLiteral("0x10"));
    QCOMPARE(tw::ui::formatValueText(QStringLiteral("[30, 60]")), QStringLiteral("[30, 60]"));
    QCOMPARE(tw::ui::formatValueText(QString()), QString());
  }
};

QTEST_GUILESS_MAIN(TestNumberFormat)
#include "test_number_format.moc"
