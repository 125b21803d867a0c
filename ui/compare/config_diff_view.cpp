#include "ui/compare/config_diff_view.h"

#include "ui/common/number_format.h"
#include "ui/compare/comparison.h"
#include "ui/compare/empty_state.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tw::ui {

ConfigDiffView::ConfigDiffView(QWidget *parent)
    : QWidget(parent), m_onlyDifferences(new QCheckBox(tr("Only differences"), this)), m_table(new QTableWidget(this)),
      m_empty(new EmptyState(m_table)) {
  m_empty->showMessage(EmptyState::selectRunsMessage());
  m_onlyDifferences->setChecked(true);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  m_table->horizontalHeader()->setStretchLastSection(true);
  auto *controls = new QHBoxLayout;
  controls->addWidget(m_onlyDifferences);
  controls->addStretch(1);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_table, 1);
  connect(m_onlyDifferences, &QCheckBox::toggled, this, &ConfigDiffView::applyFilter);
}

void ConfigDiffView::setComparison(const Comparison *comparison) {
  const auto &runs = comparison->data.runs;
  m_table->setUpdatesEnabled(false);  // hundreds of runs: one repaint, not one per cell
  m_table->clear();
  m_table->setRowCount(static_cast<int>(comparison->columns.size()));
  m_table->setColumnCount(static_cast<int>(runs.size()) + 1);
  QStringList headers{tr("Parameter")};
  for (const auto &compared : runs) headers << QString::fromStdString(compared.run.name);
  m_table->setHorizontalHeaderLabels(headers);
  const QColor highlight = palette().color(QPalette::Highlight).lighter(170);
  QFont bold = m_table->font();
  bold.setBold(true);
  int row = 0;
  for (const ParamColumn &column : comparison->columns) {
    auto *name = new QTableWidgetItem(QString::fromStdString(column.key));
    name->setData(Qt::UserRole, column.differs);
    m_table->setItem(row, 0, name);
    for (size_t run = 0; run < runs.size(); ++run) {
      // The digits that matter in the locale; the value as recorded stays in the tooltip.
      const QString recorded = QString::fromStdString(column.values[run]);
      auto *value = new QTableWidgetItem(formatValueText(recorded));
      if (value->text() != recorded) value->setToolTip(recorded);
      m_table->setItem(row, static_cast<int>(run) + 1, value);
    }
    if (column.differs) {
      for (int c = 0; c < m_table->columnCount(); ++c) {
        QTableWidgetItem *item = m_table->item(row, c);
        item->setBackground(highlight);
        item->setFont(bold);
      }
    }
    ++row;
  }
  m_table->resizeColumnToContents(0);
  applyFilter();
  m_table->setUpdatesEnabled(true);
}

QStringList ConfigDiffView::differingKeys() const {
  QStringList keys;
  for (int row = 0; row < m_table->rowCount(); ++row)
    if (m_table->item(row, 0)->data(Qt::UserRole).toBool()) keys << m_table->item(row, 0)->text();
  return keys;
}

void ConfigDiffView::applyFilter() {
  int shown = 0;
  for (int row = 0; row < m_table->rowCount(); ++row) {
    const bool differs = m_table->item(row, 0)->data(Qt::UserRole).toBool();
    m_table->setRowHidden(row, m_onlyDifferences->isChecked() && !differs);
    shown += m_table->isRowHidden(row) ? 0 : 1;
  }
  if (m_table->rowCount() == 0)
    m_empty->showMessage(tr("These runs recorded no parameters."));
  else if (shown == 0)
    m_empty->showMessage(tr("The runs share every parameter. Clear \"Only differences\" to see them all."));
  else
    m_empty->clear();
}

}  // namespace tw::ui
