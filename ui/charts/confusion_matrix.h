#pragma once
// A confusion matrix as the engine writes it to a run's artifacts (confusionCsv): class names as
// the header row and first column, row = truth, column = prediction, counts in the cells.
//
//   ConfusionMatrix m;
//   QString error;
//   if (!parseConfusionCsv(text, &m, &error)) show(error);
//   m.count(/*truth=*/3, /*predicted=*/5);

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace tw::ui {

struct ConfusionMatrix {
  QStringList classes;
  std::vector<int64_t> counts;  // classes x classes, row-major

  int size() const { return static_cast<int>(classes.size()); }
  bool isEmpty() const { return classes.isEmpty(); }
  int64_t count(int truth, int predicted) const { return counts[static_cast<size_t>(truth * size() + predicted)]; }
  int64_t rowTotal(int truth) const;
  int64_t total() const;
  int64_t maxCount() const;

  bool operator==(const ConfusionMatrix &other) const {
    return classes == other.classes && counts == other.counts;
  }
  bool operator!=(const ConfusionMatrix &other) const { return !(*this == other); }
};

// RFC 4180 fields (names with commas or quotes come quoted). False with the line and reason in
// *error for a ragged, non-square or non-numeric file; *matrix is then left empty.
bool parseConfusionCsv(const QString &text, ConfusionMatrix *matrix, QString *error);

}  // namespace tw::ui
