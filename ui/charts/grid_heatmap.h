#pragma once
// A grid of values as a heat map: named rows against named columns (layers against epochs), each
// cell coloured by its value on viridis (color_scale.h), a colour bar beside the grid, and a
// tooltip naming the row, the column and the value. An empty cell (NaN) stays blank. Values
// that are all positive and span more than a decade are coloured on a log scale, so a bias's
// norm does not flatten every weight matrix's into one colour.
//
//   auto *map = new GridHeatmap;
//   map->setColumnTitle(tr("Epoch"));
//   map->setGrid({"fc1.weight", "fc1.bias"}, {"1", "2", "3"}, values);   // row-major, 2 x 3

#include <QStringList>
#include <QWidget>

#include <vector>

namespace tw::ui {

class GridHeatmap : public QWidget {
  Q_OBJECT

 public:
  explicit GridHeatmap(QWidget *parent = nullptr);

  // values: rows.size() x columns.size(), row after row; NaN for a cell without a value.
  void setGrid(const QStringList &rows, const QStringList &columns, std::vector<double> values);
  void clear();
  void setRowTitle(const QString &title);
  void setColumnTitle(const QString &title);

  int rowCount() const { return static_cast<int>(m_rows.size()); }
  int columnCount() const { return static_cast<int>(m_columns.size()); }
  // Cells that hold a value.
  int filledCellCount() const;
  double value(int row, int column) const;  // NaN outside the grid or for an empty cell
  bool logScale() const { return m_log; }

  QString cellToolTip(int row, int column) const;
  // Where a cell is drawn and which cell (x = column, y = row) is under a point; (-1, -1)
  // outside the grid. For the tooltip and for tests.
  QRect cellRect(int row, int column) const;
  QPoint cellAt(const QPoint &position) const;

  QSize sizeHint() const override { return {640, 360}; }
  QSize minimumSizeHint() const override { return {240, 160}; }

 protected:
  void paintEvent(QPaintEvent *event) override;
  bool event(QEvent *event) override;

 private:
  struct Geometry {
    QRect grid;
    double cellWidth = 0, cellHeight = 0;
    int labelWidth = 0;
    QRect bar;
  };
  Geometry geometry() const;
  double shade(double value) const;  // 0..1 on the colour scale

  QStringList m_rows, m_columns;
  std::vector<double> m_values;
  QString m_rowTitle, m_columnTitle;
  double m_min = 0, m_max = 0;
  bool m_log = false;
};

}  // namespace tw::ui
