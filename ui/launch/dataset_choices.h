#pragma once
// The data-source list shows which datasets are on this machine: one whose files are missing
// (core/data/dataset_presence.h, the loader's own lookup) reads "fashion-mnist (not installed)"
// in the list, carries a warning icon, and says how to get it in its tooltip. The item's text
// stays the source's name, which the form writes into the run file.
//
//   markInstalledDatasets(m_dataset);
//   m_note->setText(datasetMissingNote(m_dataset->currentText()));

#include <QModelIndex>
#include <QString>

class QComboBox;

namespace tw::ui {

// Marks every item of a data.dataset combo box; call again to re-check (after an install).
void markInstalledDatasets(QComboBox *box);
// What the open list shows for an item: "fashion-mnist (not installed)" or the name.
QString datasetListText(const QModelIndex &index);
// Whether the box's item `index` was found missing by the last markInstalledDatasets().
bool datasetMarkedMissing(const QComboBox *box, int index);
// "Fashion-MNIST is not installed here: sudo apt-get install dataset-fashion-mnist", or empty
// when `dataset` is installed or needs no installing.
QString datasetMissingNote(const QString &dataset);

}  // namespace tw::ui
