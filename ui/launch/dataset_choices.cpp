#include "ui/launch/dataset_choices.h"

#include "core/data/dataset_presence.h"

#include <QApplication>
#include <QComboBox>
#include <QStyle>
#include <QStyledItemDelegate>

namespace tw::ui {

namespace {

constexpr int kMissingRole = Qt::UserRole + 7;

QString tr(const char *text) { return QCoreApplication::translate("tw::ui::DatasetChoices", text); }

// The popup's rows say "(not installed)" after the name; the text itself stays the name, which
// currentText() and findText() (the run file, applied settings) rely on.
class DatasetDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

 protected:
  void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override {
    QStyledItemDelegate::initStyleOption(option, index);
    option->text = datasetListText(index);
  }
};

}  // namespace

void markInstalledDatasets(QComboBox *box) {
  if (!dynamic_cast<DatasetDelegate *>(box->itemDelegate())) box->setItemDelegate(new DatasetDelegate(box));
  const QIcon warning = QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
  for (int i = 0; i < box->count(); ++i) {
    const QString dataset = box->itemText(i);
    const QString note = datasetMissingNote(dataset);
    box->setItemData(i, !note.isEmpty(), kMissingRole);
    box->setItemData(i, note.isEmpty() ? QVariant() : QVariant(note), Qt::ToolTipRole);
    box->setItemIcon(i, note.isEmpty() ? QIcon() : warning);
  }
}

QString datasetListText(const QModelIndex &index) {
  const QString name = index.data(Qt::DisplayRole).toString();
  return index.data(kMissingRole).toBool() ? tr("%1 (not installed)").arg(name) : name;
}

bool datasetMarkedMissing(const QComboBox *box, int index) { return box->itemData(index, kMissingRole).toBool(); }

QString datasetMissingNote(const QString &dataset) {
  const std::string name = dataset.toStdString();
  if (data::datasetInstalled(name)) return {};
  return tr("%1 is not installed here: %2")
      .arg(dataset, QString::fromStdString(data::datasetInstallHint(name)));
}

}  // namespace tw::ui
