#include "ui/compare/compare_page.h"

#include "ui/charts/metric_chart.h"
#include "ui/compare/compare_loader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace tw::ui {

ComparePage::ComparePage(QWidget *parent)
    : QWidget(parent), m_loader(new CompareLoader(this)), m_metric(new QComboBox(this)),
      m_onlyDifferences(new QCheckBox(tr("Only differences"), this)), m_summary(new QLabel(this)),
      m_chartBox(new QVBoxLayout), m_table(new QTableWidget(this)) {
  m_metric->setEditable(true);  // any recorded metric, not only the usual ones
  m_metric->addItems({"train/loss", "val/loss", "val/accuracy", "train/lr", "train/grad_norm"});
  m_onlyDifferences->setChecked(true);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  m_table->horizontalHeader()->setStretchLastSection(true);

  auto *controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Metric"), this));
  controls->addWidget(m_metric);
  controls->addWidget(m_onlyDifferences);
  controls->addWidget(m_summary, 1);
  auto *chartHolder = new QWidget(this);
  chartHolder->setLayout(m_chartBox);
  m_chartBox->setContentsMargins(0, 0, 0, 0);
  auto *splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(chartHolder);
  splitter->addWidget(m_table);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setSizes({480, 320});
  chartHolder->setMinimumHeight(220);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(splitter, 1);
  m_summary->setText(tr("Select two or more runs on the Runs page and press Compare."));

  connect(m_metric, &QComboBox::currentTextChanged, this, [this] { reload(); });
  connect(m_onlyDifferences, &QCheckBox::toggled, this, &ComparePage::applyFilter);
  connect(m_loader, &CompareLoader::loaded, this, &ComparePage::showData);
}

void ComparePage::compareRuns(const QString &databasePath, const std::vector<int64_t> &runIds) {
  m_databasePath = databasePath;
  m_runIds = runIds;
  reload();
}

void ComparePage::reload() {
  if (m_runIds.empty() || m_databasePath.isEmpty()) return;
  m_summary->setText(tr("Loading %1 runs…").arg(m_runIds.size()));
  m_loader->load(m_databasePath, m_runIds, m_metric->currentText().trimmed());
}

void ComparePage::showData(const CompareData &data) {
  if (!data.error.isEmpty()) {
    m_summary->setText(tr("Cannot read the runs: %1").arg(data.error));
    return;
  }
  // A fresh chart per comparison: the set of series changes with the selection.
  delete m_chart;
  m_chart = new MetricChart(QString::fromStdString(data.metric), this);
  m_chart->setObjectName(QStringLiteral("compareChart"));
  m_chartBox->addWidget(m_chart);
  m_chart->show();  // created after the page was shown: hidden until told
  for (const auto &compared : data.runs) {
    m_chart->addSeries(compared.run.uuid, QString::fromStdString(compared.run.name));
    m_chart->appendPoints(compared.run.uuid, compared.points);
  }

  std::set<std::string> keys;
  for (const auto &compared : data.runs)
    for (const auto &[key, value] : compared.params) keys.insert(key);
  m_table->clear();
  m_table->setRowCount(static_cast<int>(keys.size()));
  m_table->setColumnCount(static_cast<int>(data.runs.size()) + 1);
  QStringList headers{tr("Parameter")};
  for (const auto &compared : data.runs) headers << QString::fromStdString(compared.run.name);
  m_table->setHorizontalHeaderLabels(headers);
  int row = 0;
  const QColor highlight = palette().color(QPalette::Highlight).lighter(170);
  for (const std::string &key : keys) {
    auto *name = new QTableWidgetItem(QString::fromStdString(key));
    m_table->setItem(row, 0, name);
    std::set<std::string> values;
    for (size_t c = 0; c < data.runs.size(); ++c) {
      auto it = data.runs[c].params.find(key);
      const std::string value = it == data.runs[c].params.end() ? std::string("—") : it->second;
      values.insert(value);
      m_table->setItem(row, static_cast<int>(c) + 1, new QTableWidgetItem(QString::fromStdString(value)));
    }
    const bool differs = values.size() > 1;
    name->setData(Qt::UserRole, differs);
    if (differs) {
      for (int c = 0; c < m_table->columnCount(); ++c) {
        QTableWidgetItem *item = m_table->item(row, c);
        item->setBackground(highlight);
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
      }
    }
    ++row;
  }
  m_table->resizeColumnToContents(0);
  applyFilter();
  m_summary->setText(tr("%1 runs, %2 of %3 parameters differ").arg(data.runs.size()).arg(differingKeys().size()).arg(keys.size()));
  Q_EMIT loaded();
}

QStringList ComparePage::differingKeys() const {
  QStringList keys;
  for (int row = 0; row < m_table->rowCount(); ++row)
    if (m_table->item(row, 0)->data(Qt::UserRole).toBool()) keys << m_table->item(row, 0)->text();
  return keys;
}

void ComparePage::applyFilter() {
  for (int row = 0; row < m_table->rowCount(); ++row) {
    const bool differs = m_table->item(row, 0)->data(Qt::UserRole).toBool();
    m_table->setRowHidden(row, m_onlyDifferences->isChecked() && !differs);
  }
}

}  // namespace tw::ui
