#include "ui/common/state_labels.h"

#include "ui/common/number_format.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace tw::ui {

QString trialStateText(const QString &state) {
  if (state == QLatin1String("WAITING")) return QCoreApplication::translate("tw::ui::TrialState", "Waiting");
  if (state == QLatin1String("RUNNING")) return QCoreApplication::translate("tw::ui::TrialState", "Running");
  if (state == QLatin1String("COMPLETE")) return QCoreApplication::translate("tw::ui::TrialState", "Complete");
  if (state == QLatin1String("PRUNED")) return QCoreApplication::translate("tw::ui::TrialState", "Pruned");
  if (state == QLatin1String("FAILED")) return QCoreApplication::translate("tw::ui::TrialState", "Failed");
  return state;
}

QString modelStageText(const QString &stage) {
  if (stage == QLatin1String("none")) return QCoreApplication::translate("tw::ui::ModelStage", "None");
  if (stage == QLatin1String("staging")) return QCoreApplication::translate("tw::ui::ModelStage", "Staging");
  if (stage == QLatin1String("production")) return QCoreApplication::translate("tw::ui::ModelStage", "Production");
  if (stage == QLatin1String("archived")) return QCoreApplication::translate("tw::ui::ModelStage", "Archived");
  return stage;
}

QString exportCheckText(const QString &detailsJson) {
  const QString check = QJsonDocument::fromJson(detailsJson.toUtf8()).object().value(QStringLiteral("check")).toString();
  // The worker's two sentences, as export_run.cpp writes them (numbers in the C locale).
  static const QRegularExpression reloaded(QStringLiteral(
      "^reloaded; largest difference from the trained model (\\S+) on (\\d+) test examples$"));
  static const QRegularExpression onnx(QStringLiteral(
      "^ONNX checker and shape inference passed \\(opset (\\d+)\\); largest difference from the "
      "(int8 simulation|trained model) (\\S+) on (\\d+) test examples \\(Torchwright's reference ONNX evaluator\\)$"));
  if (const auto m = reloaded.match(check); m.hasMatch())
    return QCoreApplication::translate("tw::ui::ExportCheck",
                                       "Loaded again: the largest difference from the trained model is %1 on %2 test "
                                       "examples.")
        .arg(formatValueText(m.captured(1)), formatValueText(m.captured(2)));
  if (const auto m = onnx.match(check); m.hasMatch()) {
    const QString text =
        m.captured(2) == QLatin1String("int8 simulation")
            ? QCoreApplication::translate("tw::ui::ExportCheck",
                                          "ONNX checker and shape inference passed (opset %1); the largest difference "
                                          "from the int8 simulation is %2 on %3 test examples (Torchwright's "
                                          "reference ONNX evaluator).")
            : QCoreApplication::translate("tw::ui::ExportCheck",
                                          "ONNX checker and shape inference passed (opset %1); the largest difference "
                                          "from the trained model is %2 on %3 test examples (Torchwright's reference "
                                          "ONNX evaluator).");
    return text.arg(m.captured(1), formatValueText(m.captured(3)), formatValueText(m.captured(4)));
  }
  return check;
}

}  // namespace tw::ui
