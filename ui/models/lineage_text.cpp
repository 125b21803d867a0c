#include "ui/models/lineage_text.h"

#include "ui/common/number_format.h"
#include "ui/common/state_labels.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QStringList>

namespace tw::ui {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("tw::ui::ModelsPage", text); }

QString escaped(const std::string &text) { return QString::fromStdString(text).toHtmlEscaped(); }

QString row(const QString &name, const QString &valueHtml) {
  return QStringLiteral("<tr><td style=\"padding-right:12px\"><b>%1</b></td><td>%2</td></tr>").arg(name.toHtmlEscaped(), valueHtml);
}

QJsonObject jsonObject(const std::string &text) {
  return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

// One line per split, "val: accuracy 0.8712 · loss 0.4204", numbers in the locale.
QString metricsText(const std::string &json) {
  const QJsonObject metrics = jsonObject(json);
  QMap<QString, QStringList> bySplit;  // sorted by split, the keys within it as stored (sorted)
  for (auto it = metrics.begin(); it != metrics.end(); ++it) {
    if (!it.value().isDouble()) continue;
    const QString key = it.key();
    const qsizetype slash = key.indexOf(QLatin1Char('/'));
    const QString split = slash > 0 ? key.left(slash) : QString();
    bySplit[split] << QStringLiteral("%1&nbsp;%2").arg(key.mid(slash + 1).toHtmlEscaped(), formatNumber(it.value().toDouble()));
  }
  QStringList lines;
  for (auto it = bySplit.begin(); it != bySplit.end(); ++it)
    lines << (it.key().isEmpty() ? QString() : QStringLiteral("<i>%1</i>: ").arg(it.key().toHtmlEscaped())) +
                 it.value().join(QStringLiteral(" · "));
  return lines.join(QStringLiteral("<br>"));
}

QString exportText(const std::string &json) {
  const QJsonObject details = jsonObject(json);
  if (details.isEmpty()) return {};
  QStringList parts;
  if (details.contains(QStringLiteral("checkpoint")))
    parts << tr("from checkpoint %1").arg(details.value(QStringLiteral("checkpoint")).toString().toHtmlEscaped());
  if (details.contains(QStringLiteral("opset")))
    parts << tr("ONNX opset %1").arg(formatNumber(details.value(QStringLiteral("opset")).toDouble()));
  if (details.value(QStringLiteral("int8")).toBool()) parts << tr("int8 weights and activations");
  if (details.value(QStringLiteral("preprocessing_baked")).toBool()) parts << tr("standardisation inside the model");
  QString text = parts.join(QStringLiteral(", "));
  // The worker's check sentence, in the user's language and number format.
  const QString check = exportCheckText(QString::fromStdString(json));
  if (!check.isEmpty()) text += QStringLiteral("<br>") + check.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
  return text;
}

}  // namespace

QString lineageHtml(const RegistryEntry &entry) {
  const auto &v = entry.version;
  QString html = QStringLiteral("<p><b>%1</b></p>")
                     .arg(tr("%1, version %2 (%3)")
                              .arg(escaped(v.model))
                              .arg(v.version)
                              .arg(modelStageText(QString::fromStdString(v.stage)).toHtmlEscaped()));
  if (!entry.description.empty()) html += QStringLiteral("<p>%1</p>").arg(escaped(entry.description));
  html += QStringLiteral("<table>");
  html += row(tr("File"), tr("%1 (%2, %3)").arg(escaped(v.path), escaped(v.format), escaped(entry.fileState)));
  html += row(tr("SHA-256"), QStringLiteral("<code>%1</code>").arg(escaped(v.sha256)));
  QString run = v.runName.empty() ? tr("not recorded")
                                  : tr("%1 (%2) in experiment %3")
                                        .arg(escaped(v.runName), escaped(v.runUuid.substr(0, 8)), escaped(v.experiment));
  if (!v.runUuid.empty() && entry.runId == 0) run += QLatin1Char(' ') + tr("(deleted since)");
  html += row(tr("Run"), run);
  if (!entry.dataset.empty()) html += row(tr("Data"), escaped(entry.dataset));
  if (!v.dataFingerprint.empty())
    html += row(tr("Data fingerprint"), QStringLiteral("<code>%1</code>").arg(escaped(v.dataFingerprint.substr(0, 16))));
  if (!v.configHash.empty())
    html += row(tr("Configuration hash"), QStringLiteral("<code>%1</code>").arg(escaped(v.configHash.substr(0, 16))));
  if (const QString metrics = metricsText(v.metrics); !metrics.isEmpty()) html += row(tr("Metrics"), metrics);
  if (const QString exported = exportText(v.exportDetails); !exported.isEmpty()) html += row(tr("Export"), exported);
  html += QStringLiteral("</table>");
  return html;
}

}  // namespace tw::ui
