#pragma once
// A chart's legend as a wrapping line of entries under the plot: a swatch in the series' colour
// and line style, then its name, elided in the middle when long (the tooltip names every entry
// in full). Qt Charts' own legend keeps one row and cuts names to nothing on a narrow chart with
// a few overlaid runs; this one takes another line instead.
//
//   legend->setEntries({{Qt::red, Qt::SolidLine, "run-a · Training"}, ...});

#include <QColor>
#include <QLabel>
#include <QString>

#include <vector>

namespace tw::ui {

class ChartLegend : public QLabel {
  Q_OBJECT

 public:
  struct Entry {
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    QString name;
  };
  // Characters of a name shown at most; a longer one keeps its start and end.
  static constexpr int kMaxNameChars = 36;

  explicit ChartLegend(QWidget *parent = nullptr);
  void setEntries(const std::vector<Entry> &entries);
  const std::vector<Entry> &entries() const { return m_entries; }
  // The names as shown (elided), for tests.
  QStringList shownNames() const;
  // Lines the entries take at the current width.
  int lineCount() const { return m_lines; }

 protected:
  void resizeEvent(QResizeEvent *event) override;

 private:
  // Packs the entries into lines of the label's width: a line breaks between entries only.
  void relayout();

  std::vector<Entry> m_entries;
  int m_lines = 0;
  int m_laidOutWidth = -1;
};

}  // namespace tw::ui
