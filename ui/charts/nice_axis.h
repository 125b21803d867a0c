#pragma once
// Round grid lines for value axes: ticks at 1, 2 or 5 times a power of ten, so that the labels
// read 0.2, 0.4, ... rather than 0.1873, 0.3746, ... Used by the charts of ui/charts/.
//
//   setNiceRange(axis, lowest, highest, 6);   // about 6 grid lines, exactly that range

class QValueAxis;

namespace tw::ui {

// 1, 2 or 5 times a power of ten, the one giving closest to `ticks` grid lines over `span`.
double niceTickInterval(double span, int ticks);
// The axis must use QValueAxis::TicksDynamic for the interval to apply.
void setNiceRange(QValueAxis *axis, double min, double max, int ticks);
// The same, and labels with just the decimals the interval needs, so that no two ticks read
// alike: an axis of whole numbers (steps, trials) never ticks between them, and three steps read
// "1 2 3", not "1 1 1 2 2".
void setNiceRangeLabelled(QValueAxis *axis, double min, double max, int ticks, bool wholeNumbers);
// [min, max] widened by a margin on each side, and made non-empty when min == max.
void padRange(double *min, double *max, double fraction = 0.05);

}  // namespace tw::ui
