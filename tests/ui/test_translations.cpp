// German Studio: the built .qm translates the real widgets' strings, and the .ts source covers
// every tr() string in ui/ and app/studio with a finished translation (lupdate is re-run on the
// sources, so a new untranslated string fails here, not in front of a German user).

#include "studio_fixture.h"

#include "ui/charts/metric_chart.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"
#include "ui/runs/run_status.h"
#include "ui/runs/runs_table_model.h"

#include <QFile>
#include <QMenuBar>
#include <QProcess>
#include <QTableView>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

const QString kTsFile = QStringLiteral(TW_SOURCE_DIR "/translations/torchwright_de.ts");
const QString kQmDir = QStringLiteral(TW_BINARY_DIR "/translations");

struct TsCheck {
  int messages = 0;
  QStringList problems;  // "context: source (why)"
};

// Walks every <message>: its translation must be present, non-empty and not marked
// unfinished, vanished or obsolete (numerus forms each count).
TsCheck checkTs(const QString &path) {
  TsCheck check;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    check.problems << QStringLiteral("cannot read %1").arg(path);
    return check;
  }
  QXmlStreamReader xml(&file);
  QString context, source;
  while (!xml.atEnd()) {
    xml.readNext();
    if (!xml.isStartElement()) continue;
    if (xml.name() == QLatin1String("name")) {
      context = xml.readElementText();
    } else if (xml.name() == QLatin1String("message")) {
      ++check.messages;
    } else if (xml.name() == QLatin1String("source")) {
      source = xml.readElementText();
    } else if (xml.name() == QLatin1String("translation")) {
      const QString type = xml.attributes().value(QLatin1String("type")).toString();
      QString text;
      QStringList forms;
      while (!(xml.isEndElement() && xml.name() == QLatin1String("translation")) && !xml.atEnd()) {
        xml.readNext();
        if (xml.isCharacters()) text += xml.text();
        if (xml.isStartElement() && xml.name() == QLatin1String("numerusform")) forms << xml.readElementText();
      }
      const QString where = context + QStringLiteral(": ") + source;
      if (!type.isEmpty()) check.problems << where + QStringLiteral(" (") + type + QStringLiteral(")");
      if (forms.isEmpty() && text.trimmed().isEmpty()) check.problems << where + QStringLiteral(" (empty)");
      for (const QString &form : forms)
        if (form.trimmed().isEmpty()) check.problems << where + QStringLiteral(" (empty plural form)");
    }
  }
  if (xml.hasError()) check.problems << QStringLiteral("XML error: %1").arg(xml.errorString());
  return check;
}

}  // namespace

class TestTranslations : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_settingsDir.isValid());
    tw::test::isolateSettings(m_settingsDir.path());
  }

  void englishNeedsNoFile() {
    tw::ui::TranslationResult result;
    QString error;
    QVERIFY(tw::ui::installTranslations(QStringLiteral("en"), {kQmDir}, &result, &error));
    QCOMPARE(result.language, QStringLiteral("en"));
    QVERIFY(result.studioFile.isEmpty());
    QCOMPARE(tw::ui::runStatusText(tw::tracking::RunStatus::Finished), QStringLiteral("Finished"));
  }

  void unknownLanguageIsReported() {
    tw::ui::TranslationResult result;
    QString error;
    QVERIFY(!tw::ui::installTranslations(QStringLiteral("fr"), {kQmDir}, &result, &error));
    QVERIFY(error.contains(QStringLiteral("fr")));
    QCOMPARE(tw::ui::runStatusText(tw::tracking::RunStatus::Finished), QStringLiteral("Finished"));
  }

  void tsHasNoUnfinishedEntries() {
    const TsCheck check = checkTs(kTsFile);
    QVERIFY2(check.problems.isEmpty(), qPrintable(check.problems.join(QLatin1Char('\n'))));
    QVERIFY2(check.messages >= 40, qPrintable(QString::number(check.messages)));
  }

  void tsCoversEverySourceString() {
    // Re-extract into a copy: strings added to the code since the .ts was updated show up there
    // as unfinished.
    QTemporaryDir tmp;
    const QString copy = tmp.filePath(QStringLiteral("check_de.ts"));
    QVERIFY(QFile::copy(kTsFile, copy));
    QFile::setPermissions(copy, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QProcess lupdate;
    lupdate.setProcessChannelMode(QProcess::MergedChannels);
    lupdate.start(QStringLiteral(TW_LUPDATE),
                  {QStringLiteral("-silent"), QStringLiteral("-locations"), QStringLiteral("none"),
                   QStringLiteral("-I"), QStringLiteral(TW_SOURCE_DIR),
                   QStringLiteral(TW_SOURCE_DIR "/ui"), QStringLiteral(TW_SOURCE_DIR "/app/studio"),
                   QStringLiteral("-ts"), copy});
    QVERIFY2(lupdate.waitForFinished(60000), qPrintable(lupdate.errorString()));
    QVERIFY2(lupdate.exitCode() == 0, lupdate.readAll().constData());
    const TsCheck check = checkTs(copy);
    QStringList missing;
    for (const QString &problem : check.problems)
      if (!problem.endsWith(QLatin1String("(vanished)")) && !problem.endsWith(QLatin1String("(obsolete)")))
        missing << problem;
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("run lupdate and translate:\n") + missing.join('\n')));
  }

  void germanWidgets() {
    tw::ui::TranslationResult result;
    QString error;
    QVERIFY2(tw::ui::installTranslations(QStringLiteral("de"), {QStringLiteral("/nonexistent"), kQmDir}, &result,
                                         &error),
             qPrintable(error));
    QCOMPARE(result.language, QStringLiteral("de"));
    QVERIFY(result.studioFile.endsWith(QStringLiteral("torchwright_de.qm")));
    QCOMPARE(QLocale().decimalPoint(), QStringLiteral(","));

    QCOMPARE(tw::ui::runStatusText(tw::tracking::RunStatus::Finished), QStringLiteral("Abgeschlossen"));
    QCOMPARE(tw::ui::runStatusText(tw::tracking::RunStatus::Running), QStringLiteral("Läuft"));

    tw::test::Workspace ws;
    auto run = ws.createRun("de-run");
    ws.store->setStatus(run.id, tw::tracking::RunStatus::Running);
    ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 100));
    ws.store->writeMetrics(run.id, tw::test::validationRows(1, 90, 10));
    ws.store->writeMetrics(run.id, {{"val/accuracy", 100, 0.875, 0}});
    ws.store->setStatus(run.id, tw::tracking::RunStatus::Failed, "out of memory");

    tw::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    const auto menus = window.menuBar()->actions();
    QCOMPARE(menus.size(), 4);
    QCOMPARE(menus.at(0)->text(), QStringLiteral("&Datei"));
    QCOMPARE(menus.at(1)->text(), QStringLiteral("&Modell"));
    QCOMPARE(menus.at(2)->text(), QStringLiteral("&Ansicht"));
    QCOMPARE(menus.at(3)->text(), QStringLiteral("&Hilfe"));
    auto *openWorkspace = window.findChild<QAction *>(QStringLiteral("openWorkspaceAction"));
  QVERIFY(openWorkspace);
  QCOMPARE(openWorkspace->text(), QStringLiteral("Arbeitsbereich ö&ffnen …"));
  QCOMPARE(menus.at(0)->menu()->actions().at(0)->text(), QStringLiteral("&Modell öffnen …"));

    auto *table = window.findChild<QTableView *>(QStringLiteral("runsTable"));
    QCOMPARE(table->model()->headerData(tw::ui::RunsTableModel::Started, Qt::Horizontal).toString(),
             QStringLiteral("Gestartet"));
    QTRY_COMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, tw::ui::RunsTableModel::Status).data().toString(),
             QStringLiteral("Fehlgeschlagen"));
    QCOMPARE(table->model()->index(0, tw::ui::RunsTableModel::ValAccuracy).data().toString(),
             QStringLiteral("87,5 %"));
    QCOMPARE(window.windowTitle(), QStringLiteral("%1 — Torchwright Studio").arg(QDir::toNativeSeparators(ws.dir)));

    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(table->model()->index(0, tw::ui::RunsTableModel::Name)).center());
    auto *loss = window.findChild<tw::ui::MetricChart *>(QStringLiteral("lossChart"));
    QTRY_COMPARE(loss->seriesPointCount("train/loss"), 100);
    tw::test::settleEvents();  // the charts' new axes laid out before the grab
    const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(window.grab().save(dir + QStringLiteral("/studio_runs_de.png")));

    if (result.qtLoaded) QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Abbrechen"));
  }

 private:
  QTemporaryDir m_settingsDir;
};

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
