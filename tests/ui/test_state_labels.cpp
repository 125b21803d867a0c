// What Studio shows for stored state names and an export's recorded check: English words (not the
// store's capitals), German ones under the German translation with its number format, and the
// stored names untouched.

#include "studio_fixture.h"

#include "ui/common/state_labels.h"
#include "ui/i18n/translations.h"

#include <QLocale>
#include <QtTest>

namespace {

// Details as export_run.cpp records them (moc reads this file: no raw strings).
const QString kTorchScriptCheck = QStringLiteral(
    "{\"format\": \"torchscript\", \"checkpoint\": \"best\", \"preprocessing_baked\": true, \"int8\": false, "
    "\"check\": \"reloaded; largest difference from the trained model 1.19e-07 on 1000 test examples\"}");
const QString kOnnxCheck = QStringLiteral(
    "{\"format\": \"onnx\", \"checkpoint\": \"best\", \"opset\": 17, \"check\": \"ONNX checker and shape "
    "inference passed (opset 17); largest difference from the int8 simulation 0.0123 on 256 test examples "
    "(Torchwright's reference ONNX evaluator)\"}");

}  // namespace

class TestStateLabels : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    m_settingsDir = tw::test::freshSettings();
    QVERIFY(m_settingsDir);
  }

  void englishWords() {
    tw::ui::TranslationResult result;
    QString error;
    QVERIFY(tw::ui::installTranslations(QStringLiteral("en"), {}, &result, &error));
    QCOMPARE(tw::ui::trialStateText(QStringLiteral("PRUNED")), QStringLiteral("Pruned"));
    QCOMPARE(tw::ui::trialStateText(QStringLiteral("COMPLETE")), QStringLiteral("Complete"));
    QCOMPARE(tw::ui::modelStageText(QStringLiteral("production")), QStringLiteral("Production"));
    QCOMPARE(tw::ui::trialStateText(QStringLiteral("SOMETHING")), QStringLiteral("SOMETHING"));  // unknown: as stored
    QCOMPARE(tw::ui::exportCheckText(kTorchScriptCheck),
             QStringLiteral("Loaded again: the largest difference from the trained model is 1.19E-07 on 1,000 test "
                            "examples."));
    QVERIFY(tw::ui::exportCheckText(kOnnxCheck).contains(QStringLiteral("int8 simulation is 0.0123 on 256")));
    // A sentence of another shape is shown as recorded; no check, nothing.
    QCOMPARE(tw::ui::exportCheckText(QStringLiteral("{\"check\": \"a newer worker's words\"}")),
             QStringLiteral("a newer worker's words"));
    QVERIFY(tw::ui::exportCheckText(QStringLiteral("{\"format\": \"onnx\"}")).isEmpty());
  }

  void germanWords() {
    tw::ui::TranslationResult result;
    QString error;
    QVERIFY2(tw::ui::installTranslations(QStringLiteral("de"), {QStringLiteral(TW_BINARY_DIR "/translations")}, &result,
                                         &error),
             qPrintable(error));
    QCOMPARE(tw::ui::trialStateText(QStringLiteral("PRUNED")), QStringLiteral("Abgebrochen"));
    QCOMPARE(tw::ui::trialStateText(QStringLiteral("FAILED")), QStringLiteral("Fehlgeschlagen"));
    QCOMPARE(tw::ui::modelStageText(QStringLiteral("staging")), QStringLiteral("Erprobung"));
    QCOMPARE(tw::ui::modelStageText(QStringLiteral("archived")), QStringLiteral("Archiviert"));
    const QString check = tw::ui::exportCheckText(kTorchScriptCheck);
    QVERIFY2(check.contains(QStringLiteral("1,19E-07")) && check.contains(QStringLiteral("1.000")), qPrintable(check));
    QVERIFY2(!check.contains(QStringLiteral("largest difference")), qPrintable(check));
    const QString onnx = tw::ui::exportCheckText(kOnnxCheck);
    QVERIFY2(onnx.contains(QStringLiteral("0,0123")) && onnx.contains(QStringLiteral("int8")), qPrintable(onnx));
    QVERIFY(tw::ui::installTranslations(QStringLiteral("en"), {}, &result, &error));
  }

 private:
  std::unique_ptr<QTemporaryDir> m_settingsDir;
};

QTEST_MAIN(TestStateLabels)
#include "test_state_labels.moc"
