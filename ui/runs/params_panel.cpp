#include "ui/runs/params_panel.h"

#include "ui/common/number_format.h"
#include "ui/common/visible_rows.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace tw::ui {

namespace {

// Numbers by value, before the texts; texts alphabetically. (QSortFilterProxyModel's own order
// compares a number with a text as if the text were 0, which is no order at all.)
class ValueSortProxy : public QSortFilterProxyModel {
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;

 protected:
  bool lessThan(const QModelIndex &left, const QModelIndex &right) const override {
    const QVariant a = left.data(ParamsPanel::kSortRole), b = right.data(ParamsPanel::kSortRole);
    const bool aNumber = a.typeId() == QMetaType::Double, bNumber = b.typeId() == QMetaType::Double;
    if (aNumber && bNumber) return a.toDouble() < b.toDouble();
    if (aNumber != bNumber) return aNumber;
    return QString::compare(a.toString(), b.toString(), Qt::CaseInsensitive) < 0;
  }
  // A value matches as shown ("0,002916") or as recorded ("0.002915586427666988").
  bool filterAcceptsRow(int row, const QModelIndex &parent) const override {
    const QRegularExpression &wanted = filterRegularExpression();  // the search text, fixed, any case
    if (wanted.pattern().isEmpty()) return true;
    for (int column = 0; column < sourceModel()->columnCount(parent); ++column) {
      const QModelIndex index = sourceModel()->index(row, column, parent);
      for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)})
        if (wanted.match(index.data(role).toString()).hasMatch()) return true;
    }
    return false;
  }
};

}  // namespace

ParamsPanel::ParamsPanel(QWidget *parent)
    : QWidget(parent), m_search(new QLineEdit(this)), m_model(new QStandardItemModel(0, 2, this)),
      m_proxy(new ValueSortProxy(this)), m_table(new QTableView(this)), m_count(new QLabel(this)) {
  m_search->setObjectName(QStringLiteral("paramsSearch"));
  m_search->setPlaceholderText(tr("Search keys and values"));
  m_search->setClearButtonEnabled(true);
  m_model->setHorizontalHeaderLabels({tr("Key"), tr("Value")});
  m_proxy->setSourceModel(m_model);
  m_proxy->setFilterKeyColumn(-1);  // a key or a value may match
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_proxy->setSortRole(kSortRole);
  m_table->setObjectName(QStringLiteral("paramsTable"));
  m_table->setModel(m_proxy);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setAlternatingRowColors(true);
  m_table->setShowGrid(false);
  m_table->setWordWrap(false);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(KeyColumn, Qt::AscendingOrder);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(KeyColumn, QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setStretchLastSection(true);
  // Rows as compact as the runs table's above, so both keep 8 rows on a 640-pixel-high screen.
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
  keepRowsVisible(m_table);

  auto *top = new QHBoxLayout;
  top->addWidget(m_search, 1);
  top->addWidget(m_count);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(m_table, 1);

  connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
    m_proxy->setFilterFixedString(text);
    updateCount();
  });
  updateCount();
}

void ParamsPanel::setParams(const std::map<std::string, std::string> &params) {
  // A live run's snapshot arrives with every poll; rebuilding would lose the selection and scroll.
  if (params == m_params && m_model->rowCount() == static_cast<int>(params.size())) return;
  m_params = params;
  m_model->removeRows(0, m_model->rowCount());
  for (const auto &[key, value] : params) {
    auto *keyItem = new QStandardItem(QString::fromStdString(key));
    const QString recorded = QString::fromStdString(value);
    auto *valueItem = new QStandardItem(formatValueText(recorded));
    valueItem->setToolTip(recorded);  // as recorded; long values (a path, a list) are cut in the cell
    // Numbers sort by value, after them the texts.
    bool numeric = false;
    const double number = recorded.trimmed().toDouble(&numeric);
    valueItem->setData(numeric ? QVariant(number) : QVariant(recorded), kSortRole);
    keyItem->setData(keyItem->text(), kSortRole);
    m_model->appendRow({keyItem, valueItem});
  }
  updateCount();
}

void ParamsPanel::clear() {
  m_params.clear();
  m_model->removeRows(0, m_model->rowCount());
  updateCount();
}

int ParamsPanel::visibleRowCount() const { return m_proxy->rowCount(); }

void ParamsPanel::updateCount() {
  m_count->setText(m_search->text().isEmpty()
                       ? tr("%1 keys").arg(m_model->rowCount())
                       : tr("%1 of %2 keys").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
}

}  // namespace tw::ui
