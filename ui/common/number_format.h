#pragma once
// Numbers as Studio shows them: the digits that matter (core/config/number_text.h, as the CLI and
// the report write them), in the user's locale (QLocale's default, which the German translation
// sets), the same way in every table, label, tooltip and axis.
//
//   formatNumber(0.002915586427666988)  // "0.002916", in German "0,002916"
//   formatNumber(60000)                 // "60,000", in German "60.000"
//   formatNumber(3e-7)                  // "3E-07"
//   formatPercent(0.784)                // "78.4 %"
//   formatValueText("0.0003")           // a recorded parameter: "0.0003"; "adamw" stays "adamw"

#include "core/config/number_text.h"

#include <QString>

namespace tw::ui {

// Significant digits Studio shows unless a view asks for more (a value to compare closely).
inline constexpr int kShownDigits = config::kShownDigits;

// A whole number (below 1e15) is shown exactly with the locale's grouping; any other finite value
// with `significant` digits, trailing zeros dropped, in exponent form only when it is below 1e-4;
// NaN and the infinities as "NaN", "∞" and "-∞".
QString formatNumber(double value, int significant = kShownDigits);

// A share as a percentage with formatNumber's digits and the locale's way of writing one:
// 0.784 -> "78.4 %" (German "78,4 %"), the digits the CLI writes as 0.784 or 78.4%.
QString formatPercent(double share, int significant = kShownDigits);

// A size in binary units (config::formatBytes) with the locale's decimal point: "1.5 KiB".
QString formatBytes(double bytes);

// A value recorded as text (a run's parameter, a trial's value): shown through formatNumber when
// the whole text is a number, otherwise unchanged (a choice, a path, a list).
QString formatValueText(const QString &text, int significant = kShownDigits);

}  // namespace tw::ui
