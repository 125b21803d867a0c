#include "ui/runs/run_query.h"

#include "tracking/run_labels.h"

#include <QRegularExpression>

#include <optional>

namespace tw::ui {

namespace {

std::optional<double> number(const QString &text) {
  bool ok = false;
  const double value = text.toDouble(&ok);
  return ok ? std::optional(value) : std::nullopt;
}

// The run's value for key: a metric's latest value first, then a parameter by full key, then a
// parameter whose last dotted part is key ("lr" for "train.lr") when only one has it.
std::optional<QString> valueOf(const RunSnapshot &run, const QString &key) {
  const std::string k = key.toStdString();
  if (const tracking::LatestMetric *metric = run.latestMetric(k)) return QString::number(metric->value, 'g', 17);
  if (auto found = run.params.find(k); found != run.params.end()) return QString::fromStdString(found->second);
  const std::string suffix = "." + k;
  std::optional<QString> match;
  for (const auto &[name, value] : run.params) {
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    if (match) return std::nullopt;  // ambiguous: ask for the full key
    match = QString::fromStdString(value);
  }
  return match;
}

}  // namespace

RunQuery RunQuery::parse(const QString &text) {
  RunQuery query;
  // "lr >= 0.1" reads as one term: spaces around an operator are dropped first.
  QString normalized = text;
  normalized.replace(QRegularExpression(QStringLiteral("\\s*(<=|>=|!=|=|<|>)\\s*")), QStringLiteral("\\1"));
  static const QRegularExpression comparison(QStringLiteral("^([^<>=!]+)(<=|>=|!=|=|<|>)(.+)$"));
  for (const QString &term : normalized.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
    if (term.startsWith(QLatin1String("tag:"), Qt::CaseInsensitive) && term.size() > 4) {
      query.m_labels << term.mid(4);
      continue;
    }
    if (term.startsWith(QLatin1Char('#')) && term.size() > 1) {
      query.m_labels << term.mid(1);
      continue;
    }
    const auto match = comparison.match(term);
    if (!match.hasMatch()) {
      query.m_words << term;
      continue;
    }
    const QString op = match.captured(2);
    Op parsed = Op::Equal;
    if (op == QLatin1String("<")) parsed = Op::Less;
    else if (op == QLatin1String("<=")) parsed = Op::LessEqual;
    else if (op == QLatin1String(">")) parsed = Op::Greater;
    else if (op == QLatin1String(">=")) parsed = Op::GreaterEqual;
    else if (op == QLatin1String("!=")) parsed = Op::NotEqual;
    query.m_comparisons.push_back({match.captured(1), parsed, match.captured(3)});
  }
  return query;
}

bool RunQuery::compare(const Comparison &term, const RunSnapshot &run) {
  const std::optional<QString> actual = valueOf(run, term.key);
  if (!actual) return false;
  int order = 0;
  const auto left = number(*actual), right = number(term.value);
  if (left && right) order = *left < *right ? -1 : (*left > *right ? 1 : 0);
  else order = QString::compare(*actual, term.value, Qt::CaseInsensitive);
  switch (term.op) {
    case Op::Less: return order < 0;
    case Op::LessEqual: return order <= 0;
    case Op::Greater: return order > 0;
    case Op::GreaterEqual: return order >= 0;
    case Op::Equal: return order == 0;
    case Op::NotEqual: return order != 0;
  }
  return false;
}

bool RunQuery::matches(const RunSnapshot &run) const {
  const auto labels = tracking::labelsOf(run.tags);
  auto hasLabel = [&](const QString &wanted) {
    for (const auto &label : labels)
      if (QString::fromStdString(label).compare(wanted, Qt::CaseInsensitive) == 0) return true;
    return false;
  };
  for (const QString &label : m_labels)
    if (!hasLabel(label)) return false;
  for (const QString &word : m_words) {
    bool found = QString::fromStdString(run.run.name).contains(word, Qt::CaseInsensitive) ||
                 QString::fromStdString(run.run.experiment).contains(word, Qt::CaseInsensitive) ||
                 QString::fromStdString(tracking::noteOf(run.tags)).contains(word, Qt::CaseInsensitive) ||
                 QString::fromStdString(run.run.uuid).startsWith(word, Qt::CaseInsensitive);
    for (const auto &label : labels) found = found || QString::fromStdString(label).contains(word, Qt::CaseInsensitive);
    if (!found) return false;
  }
  for (const Comparison &term : m_comparisons)
    if (!compare(term, run)) return false;
  return true;
}

}  // namespace tw::ui
