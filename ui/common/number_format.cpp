#include "ui/common/number_format.h"

#include "core/config/number_text.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>
#include <cstdlib>
#include <string>

namespace tw::ui {

QString formatNumber(double value, int significant) {
  // The core's rules (config/number_text.h), in the user's locale: the CLI and the report show the
  // same digits with a '.' and ','.
  const QLocale locale;
  return QString::fromStdString(config::formatNumber(value, significant, locale.decimalPoint().toStdString(),
                                                     locale.groupSeparator().toStdString()));
}

QString formatPercent(double share, int significant) {
  return QCoreApplication::translate("tw::ui::NumberFormat", "%1 %").arg(formatNumber(100.0 * share, significant));
}

QString formatBytes(double bytes) {
  QString text = QString::fromStdString(config::formatBytes(bytes));
  return text.replace(QLatin1Char('.'), QLocale().decimalPoint());
}

QString formatValueText(const QString &text, int significant) {
  const std::string raw = text.trimmed().toStdString();
  if (raw.empty()) return text;
  // Recorded values are written in the C locale; strtod must consume all of it to be a number.
  char *end = nullptr;
  const double value = std::strtod(raw.c_str(), &end);
  if (end != raw.c_str() + raw.size()) return text;
  // "nan", "inf" and hexadecimal spellings are names here, not measurements.
  const char first = raw[0] == '-' || raw[0] == '+' ? (raw.size() > 1 ? raw[1] : '\0') : raw[0];
  if (!(std::isdigit(static_cast<unsigned char>(first)) || first == '.')) return text;
  if (raw.find_first_of("xX") != std::string::npos) return text;
  return formatNumber(value, significant);
}

}  // namespace tw::ui
