#include "ui/charts/confusion_matrix.h"

#include <QCoreApplication>

#include <algorithm>

namespace tw::ui {

namespace {

QString trText(const char *text) { return QCoreApplication::translate("tw::ui::ConfusionMatrix", text); }

// Records of RFC 4180 CSV; a quoted field may hold commas, doubled quotes and line breaks.
std::vector<QStringList> csvRecords(const QString &text) {
  std::vector<QStringList> records;
  QStringList record;
  QString field;
  bool quoted = false, fieldStarted = false;
  auto endRecord = [&] {
    if (fieldStarted || !record.isEmpty()) {
      record.append(field);
      records.push_back(record);
    }
    record.clear();
    field.clear();
    fieldStarted = false;
  };
  for (int i = 0; i < text.size(); ++i) {
    const QChar c = text.at(i);
    if (quoted) {
      if (c != QLatin1Char('"')) {
        field += c;
      } else if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
        field += c;
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == QLatin1Char('"')) {
      quoted = true;
      fieldStarted = true;
    } else if (c == QLatin1Char(',')) {
      record.append(field);
      field.clear();
      fieldStarted = true;
    } else if (c == QLatin1Char('\n')) {
      endRecord();
    } else if (c != QLatin1Char('\r')) {
      field += c;
      fieldStarted = true;
    }
  }
  endRecord();
  return records;
}

}  // namespace

int64_t ConfusionMatrix::rowTotal(int truth) const {
  int64_t sum = 0;
  for (int p = 0; p < size(); ++p) sum += count(truth, p);
  return sum;
}

int64_t ConfusionMatrix::total() const {
  int64_t sum = 0;
  for (int64_t n : counts) sum += n;
  return sum;
}

int64_t ConfusionMatrix::maxCount() const {
  return counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
}

bool parseConfusionCsv(const QString &text, ConfusionMatrix *matrix, QString *error) {
  *matrix = {};
  const std::vector<QStringList> records = csvRecords(text);
  auto fail = [&](int line, const QString &reason) {
    if (error) *error = trText("line %1: %2").arg(line).arg(reason);
    *matrix = {};
    return false;
  };
  if (records.size() < 2) return fail(1, trText("no class rows under the header"));
  const int classes = static_cast<int>(records.size()) - 1;
  if (records[0].size() != classes + 1)
    return fail(1, trText("%1 class columns for %2 class rows").arg(records[0].size() - 1).arg(classes));
  ConfusionMatrix parsed;
  parsed.counts.reserve(static_cast<size_t>(classes * classes));
  for (int row = 1; row <= classes; ++row) {
    const QStringList &fields = records[static_cast<size_t>(row)];
    if (fields.size() != classes + 1)
      return fail(row + 1, trText("%1 fields where the header has %2").arg(fields.size()).arg(classes + 1));
    // Columns are the classes in row order: the header would only repeat the names.
    if (fields[0] != records[0][row])
      return fail(row + 1, trText("row class '%1' is not column class '%2'").arg(fields[0], records[0][row]));
    parsed.classes.append(fields[0]);
    for (int column = 1; column <= classes; ++column) {
      bool ok = false;
      const qlonglong n = fields[column].trimmed().toLongLong(&ok);
      if (!ok || n < 0) return fail(row + 1, trText("'%1' is not a count").arg(fields[column]));
      parsed.counts.push_back(n);
    }
  }
  *matrix = std::move(parsed);
  return true;
}

}  // namespace tw::ui
