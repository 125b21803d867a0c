#include "ui/common/number_format.h"

#include <QLocale>

#include <cmath>
#include <cstdlib>
#include <string>

namespace tw::ui {

QString formatNumber(double value, int significant) {
  if (std::isnan(value)) return QStringLiteral("NaN");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("∞") : QStringLiteral("-∞");
  const QLocale locale;
  if (value == 0.0) return locale.toString(0);  // also -0.0, which reads as a glitch
  const double magnitude = std::fabs(value);
  if (magnitude < 1e15 && value == std::round(value)) return locale.toString(static_cast<qlonglong>(value));
  significant = std::max(1, significant);
  // Past the shown digits a fraction is noise: 12345.678 reads "12,346", not "1.235e+04".
  if (magnitude >= std::pow(10.0, significant)) {
    if (magnitude < 1e15) return locale.toString(static_cast<qlonglong>(std::llround(value)));
    return locale.toString(value, 'g', significant);
  }
  if (magnitude < 1e-4) return locale.toString(value, 'g', significant);
  // Fixed notation with exactly the decimals that `significant` digits need, then no trailing zeros.
  const int integerDigits = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
  const int decimals = std::max(0, significant - integerDigits);
  QString text = locale.toString(value, 'f', decimals);
  const QString point = locale.decimalPoint();
  if (decimals > 0 && text.contains(point)) {
    while (text.endsWith(locale.zeroDigit())) text.chop(1);
    if (text.endsWith(point)) text.chop(point.size());
  }
  return text;
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
