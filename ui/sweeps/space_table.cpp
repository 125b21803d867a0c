#include "ui/sweeps/space_table.h"

#include "ui/common/number_format.h"

#include <QComboBox>
#include <QCompleter>
#include <QHeaderView>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace tw::ui {

namespace {

const search::ParamType kTypes[] = {search::ParamType::Float, search::ParamType::Int, search::ParamType::Categorical};

// A bound a person edits: every digit the sweep file will hold, in the locale's decimal
// separator but without grouping, so that what is shown reads back unchanged.
QString number(double value) {
  QLocale locale;
  locale.setNumberOptions(QLocale::OmitGroupSeparator);
  return locale.toString(value, 'g', 12);
}

// The locale's form ("0,003" in German) or the C form a sweep file and the CLI use ("0.003").
// Group separators are refused, so a German "0.003" is not read as 3.
bool readNumber(const QString &text, double *value) {
  QLocale locale;
  locale.setNumberOptions(QLocale::RejectGroupSeparator);
  bool ok = false;
  *value = locale.toDouble(text.trimmed(), &ok);
  if (!ok) *value = QLocale::c().toDouble(text.trimmed(), &ok);
  return ok && std::isfinite(*value);
}

// The key's allowed values as shown: numbers through formatNumber, a range with a dash (a comma
// would be ambiguous beside the German decimal comma).
QString allowedShown(const SearchableKey &key) {
  if (key.type == search::ParamType::Categorical) return QString::fromStdString(allowedText(key));
  if (key.min && key.max) return QStringLiteral("%1 – %2").arg(formatNumber(*key.min, 12), formatNumber(*key.max, 12));
  if (key.min) return QStringLiteral("≥ %1").arg(formatNumber(*key.min, 12));
  if (key.max) return QStringLiteral("≤ %1").arg(formatNumber(*key.max, 12));
  return {};
}

}  // namespace

QString conditionText(const std::vector<search::Condition> &when) {
  QStringList parts;
  for (const auto &condition : when) {
    QStringList values;
    for (const auto &value : condition.values) values << QString::fromStdString(value);
    parts << QString::fromStdString(condition.key) + QLatin1Char('=') + values.join(QLatin1Char(','));
  }
  return parts.join(QStringLiteral("; "));
}

bool parseConditions(const QString &text, std::vector<search::Condition> *when) {
  when->clear();
  for (const QString &part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
    if (part.trimmed().isEmpty()) continue;
    const int eq = part.indexOf(QLatin1Char('='));
    if (eq <= 0) return false;
    search::Condition condition;
    condition.key = part.left(eq).trimmed().toStdString();
    for (const QString &value : part.mid(eq + 1).split(QLatin1Char(','), Qt::SkipEmptyParts))
      if (!value.trimmed().isEmpty()) condition.values.push_back(value.trimmed().toStdString());
    if (condition.key.empty() || condition.values.empty()) return false;
    when->push_back(std::move(condition));
  }
  return true;
}

SpaceTable::SpaceTable(QWidget *parent) : QTableWidget(0, ColumnCount, parent) {
  setHorizontalHeaderLabels({tr("Parameter"), tr("Type"), tr("Low"), tr("High"), tr("Log"), tr("Step"),
                             tr("Choices"), tr("When"), tr("Allowed")});
  horizontalHeaderItem(ChoicesColumn)->setToolTip(tr("Categorical values, separated by commas"));
  horizontalHeaderItem(WhenColumn)
      ->setToolTip(tr("Search this parameter only when others take given values, e.g. train.optimizer=sgd"));
  horizontalHeader()->setSectionResizeMode(KeyColumn, QHeaderView::Stretch);
  horizontalHeader()->setSectionResizeMode(AllowedColumn, QHeaderView::ResizeToContents);
  verticalHeader()->setVisible(false);
  setSelectionBehavior(QAbstractItemView::SelectRows);
}

void SpaceTable::setKeys(std::vector<SearchableKey> keys) {
  m_keys = std::move(keys);
  m_keyNames.clear();
  for (const auto &key : m_keys) m_keyNames << QString::fromStdString(key.key);
  for (int row = 0; row < rowCount(); ++row) {
    QComboBox *box = keyBox(row);
    const QString current = box->currentText();
    const QSignalBlocker block(box);
    box->clear();
    box->addItems(m_keyNames);
    box->setCurrentText(current);
    const SearchableKey *key = findKey(current);
    setText(row, AllowedColumn, key ? allowedShown(*key) : tr("not offered by the current model"));
  }
}

const SearchableKey *SpaceTable::findKey(const QString &key) const {
  const std::string wanted = key.toStdString();
  for (const auto &candidate : m_keys)
    if (candidate.key == wanted) return &candidate;
  return nullptr;
}

QComboBox *SpaceTable::keyBox(int row) const { return qobject_cast<QComboBox *>(cellWidget(row, KeyColumn)); }
QComboBox *SpaceTable::typeBox(int row) const { return qobject_cast<QComboBox *>(cellWidget(row, TypeColumn)); }

int SpaceTable::addParam(const QString &key) {
  search::ParamSpec param;
  param.key = key.toStdString();
  if (const SearchableKey *known = findKey(key)) param = suggestedParam(*known);
  return addParam(param);
}

int SpaceTable::addParam(const search::ParamSpec &param) {
  const int row = rowCount();
  insertRow(row);
  auto *key = new QComboBox(this);
  key->setEditable(true);
  key->setInsertPolicy(QComboBox::NoInsert);
  key->addItems(m_keyNames);
  // Typing any part of a key finds it: "width" offers every model.<node>.width.
  key->completer()->setFilterMode(Qt::MatchContains);
  key->completer()->setCompletionMode(QCompleter::PopupCompletion);
  key->setCurrentText(QString::fromStdString(param.key));
  setCellWidget(row, KeyColumn, key);
  auto *type = new QComboBox(this);
  for (search::ParamType t : kTypes) type->addItem(QString::fromStdString(search::paramTypeName(t)));
  setCellWidget(row, TypeColumn, type);
  for (int column = LowColumn; column < ColumnCount; ++column) setItem(row, column, new QTableWidgetItem);
  item(row, LogColumn)->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  item(row, AllowedColumn)->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  showParam(row, param);
  connect(key, &QComboBox::textActivated, this, [this, key](const QString &text) {
    for (int r = 0; r < rowCount(); ++r)
      if (keyBox(r) == key) onKeyChosen(r, text);
  });
  return row;
}

void SpaceTable::onKeyChosen(int row, const QString &key) {
  if (const SearchableKey *known = findKey(key)) showParam(row, suggestedParam(*known));
}

void SpaceTable::showParam(int row, const search::ParamSpec &param) {
  typeBox(row)->setCurrentText(QString::fromStdString(search::paramTypeName(param.type)));
  const bool categorical = param.type == search::ParamType::Categorical;
  const bool isInt = param.type == search::ParamType::Int;
  auto bound = [&](double value) {
    return categorical ? QString() : isInt ? QString::number(std::llround(value)) : number(value);
  };
  setText(row, LowColumn, bound(param.low));
  setText(row, HighColumn, bound(param.high));
  item(row, LogColumn)->setCheckState(param.log ? Qt::Checked : Qt::Unchecked);
  setText(row, StepColumn, param.step > 0.0 ? bound(param.step) : QString());
  QStringList choices;
  for (const auto &choice : param.choices) choices << QString::fromStdString(choice);
  setText(row, ChoicesColumn, choices.join(QStringLiteral(", ")));
  setText(row, WhenColumn, conditionText(param.when));
  const SearchableKey *key = findKey(QString::fromStdString(param.key));
  setText(row, AllowedColumn, key ? allowedShown(*key) : QString());
  if (key) item(row, AllowedColumn)->setToolTip(QString::fromStdString(key->doc));
}

void SpaceTable::setText(int row, int column, const QString &text) { item(row, column)->setText(text); }
QString SpaceTable::text(int row, int column) const { return item(row, column)->text().trimmed(); }

void SpaceTable::removeSelectedRows() {
  QList<int> rows;
  for (const QModelIndex &index : selectionModel()->selectedRows()) rows << index.row();
  std::sort(rows.begin(), rows.end(), std::greater<>());
  for (int row : rows) removeRow(row);
}

search::SearchSpace SpaceTable::space(QStringList *problems) const {
  search::SearchSpace space;
  for (int row = 0; row < rowCount(); ++row) {
    search::ParamSpec param;
    const QString key = keyBox(row)->currentText().trimmed();
    const QString at = tr("row %1 (%2): ").arg(row + 1).arg(key);
    if (key.isEmpty()) {
      problems->append(tr("row %1: choose a parameter").arg(row + 1));
      continue;
    }
    param.key = key.toStdString();
    param.type = kTypes[std::max(0, typeBox(row)->currentIndex())];
    param.log = item(row, LogColumn)->checkState() == Qt::Checked;
    if (param.type == search::ParamType::Categorical) {
      for (const QString &choice : text(row, ChoicesColumn).split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!choice.trimmed().isEmpty()) param.choices.push_back(choice.trimmed().toStdString());
      if (param.choices.empty()) problems->append(at + tr("list the choices"));
      param.log = false;
    } else {
      if (!readNumber(text(row, LowColumn), &param.low) || !readNumber(text(row, HighColumn), &param.high)) {
        problems->append(at + tr("low and high must be numbers"));
        continue;
      }
      if (!text(row, StepColumn).isEmpty() && !readNumber(text(row, StepColumn), &param.step))
        problems->append(at + tr("the step must be a number"));
      if (const SearchableKey *known = findKey(key)) {
        if ((known->min && param.low < *known->min) || (known->max && param.high > *known->max))
          problems->append(at + tr("the range must lie within %1").arg(allowedShown(*known)));
      }
    }
    if (!parseConditions(text(row, WhenColumn), &param.when))
      problems->append(at + tr("write conditions as key=value[,value]; key=value"));
    space.params.push_back(std::move(param));
  }
  for (const std::string &problem : search::checkSpace(space)) problems->append(QString::fromStdString(problem));
  return space;
}

}  // namespace tw::ui
