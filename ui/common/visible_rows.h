#pragma once
// A table or tree that is given too little height shows two rows and a scroll bar; on a small
// screen (1024x640) every list in Studio still shows at least kMinimumVisibleRows rows.
//
//   keepRowsVisible(m_table);   // the splitter or layout around it can no longer squeeze it

#include <QAbstractItemView>

namespace tw::ui {

inline constexpr int kMinimumVisibleRows = 8;

// The height one row takes in `view` (a table's section size, else a line of its font).
int rowHeightOf(const QAbstractItemView *view);
// Sets the view's minimum height to show `rows` rows below its header, frame included.
void keepRowsVisible(QAbstractItemView *view, int rows = kMinimumVisibleRows);

}  // namespace tw::ui
