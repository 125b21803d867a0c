#pragma once
// Colours for series told apart by colour alone (runs, groups): distinguishable on white and for
// the common colour-vision deficiencies (Okabe-Ito), cycling past six.
//
//   QPen pen(seriesColor(index));

#include <QColor>

#include <iterator>

namespace tw::ui {

inline QColor seriesColor(size_t index) {
  static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x9e, 0x73),
                                  QColor(0xcc, 0x79, 0xa7), QColor(0x56, 0xb4, 0xe9), QColor(0xe6, 0x9f, 0x00)};
  return colors[index % std::size(colors)];
}

}  // namespace tw::ui
