#include "ui/design/onnx_import_report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace tw::ui {

bool OnnxImportText::parse(const QString &json, OnnxImportReport *report, QString *error) {
  QJsonParseError parseError;
  const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &parseError);
  if (!doc.isObject() || !doc.object().value(QLatin1String("nodes")).isArray()) {
    if (error)
      *error = tr("torchwright import printed no report: %1")
                   .arg(parseError.error != QJsonParseError::NoError ? parseError.errorString() : tr("no node list"));
    return false;
  }
  const QJsonObject root = doc.object();
  report->onnxFile = root.value(QLatin1String("file")).toString();
  report->modelFile = root.value(QLatin1String("model_file")).toString();
  report->weightsFile = root.value(QLatin1String("weights_file")).toString();
  report->opset = root.value(QLatin1String("opset")).toInt();
  report->modelNodes = root.value(QLatin1String("model_nodes")).toInteger();
  report->parameters = root.value(QLatin1String("parameters")).toInteger();
  report->seconds = root.value(QLatin1String("seconds")).toDouble();
  report->rows.clear();
  for (const QJsonValue &value : root.value(QLatin1String("nodes")).toArray()) {
    const QJsonObject o = value.toObject();
    report->rows.append({o.value(QLatin1String("name")).toString(), o.value(QLatin1String("op_type")).toString(),
                         o.value(QLatin1String("fate")).toString(), o.value(QLatin1String("node")).toString(),
                         o.value(QLatin1String("op")).toString(), o.value(QLatin1String("note")).toString()});
  }
  return true;
}

QString OnnxImportText::became(const OnnxImportRow &row) {
  const QString target = row.node.isEmpty() ? QString() : QStringLiteral("%1 (%2)").arg(row.node, row.op);
  if (row.fate == QLatin1String("mapped")) return target;
  if (row.fate == QLatin1String("folded")) return tr("folded into %1").arg(target);
  if (row.fate == QLatin1String("constant")) return tr("computed as a constant");
  if (row.fate == QLatin1String("dropped")) return tr("dropped (no effect at inference)");
  return row.fate;
}

bool OnnxImportText::asksForInputShape(const QString &refusal) {
  return refusal.contains(QLatin1String("--input-shape"));
}

}  // namespace tw::ui
