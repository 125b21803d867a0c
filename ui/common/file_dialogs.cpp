#include "ui/common/file_dialogs.h"

#include <QFileDialog>
#include <QFileIconProvider>
#include <QMimeDatabase>

namespace tw::ui {

namespace {

// Icons and type names from the file name (QMimeDatabase::MatchExtension never opens the file).
class NameOnlyIconProvider : public QFileIconProvider {
 public:
  QIcon icon(IconType type) const override { return QFileIconProvider::icon(type); }
  QIcon icon(const QFileInfo &info) const override {
    if (info.isDir()) return QFileIconProvider::icon(Folder);
    const QMimeType mime = m_mimes.mimeTypeForFile(info, QMimeDatabase::MatchExtension);
    return QIcon::fromTheme(mime.iconName(), QFileIconProvider::icon(File));
  }
  QString type(const QFileInfo &info) const override {
    if (info.isDir()) return QFileDialog::tr("Folder");
    return m_mimes.mimeTypeForFile(info, QMimeDatabase::MatchExtension).comment();
  }

 private:
  QMimeDatabase m_mimes;
};

QFileIconProvider *nameOnlyIconProvider() {
  static NameOnlyIconProvider provider;  // outlives every dialog; read only after construction
  return &provider;
}

QString runDialog(QFileDialog &dialog, QString *selectedFilter = nullptr) {
  if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
  if (selectedFilter) *selectedFilter = dialog.selectedNameFilter();
  return dialog.selectedFiles().constFirst();
}

}  // namespace

void makeLockSafe(QFileDialog *dialog) {
  dialog->setOption(QFileDialog::DontUseNativeDialog, true);
  dialog->setIconProvider(nameOnlyIconProvider());
}

QString chooseDirectory(QWidget *parent, const QString &title, const QString &dir) {
  QFileDialog dialog(parent, title, dir);
  makeLockSafe(&dialog);
  dialog.setFileMode(QFileDialog::Directory);
  dialog.setOption(QFileDialog::ShowDirsOnly, true);
  return runDialog(dialog);
}

QString chooseOpenFile(QWidget *parent, const QString &title, const QString &dir, const QString &filter) {
  QFileDialog dialog(parent, title, dir, filter);
  makeLockSafe(&dialog);
  dialog.setFileMode(QFileDialog::ExistingFile);
  dialog.setAcceptMode(QFileDialog::AcceptOpen);
  return runDialog(dialog);
}

QString chooseSaveFile(QWidget *parent, const QString &title, const QString &path, const QString &filter,
                       QString *selectedFilter) {
  QFileDialog dialog(parent, title, path, filter);
  makeLockSafe(&dialog);
  dialog.setFileMode(QFileDialog::AnyFile);
  dialog.setAcceptMode(QFileDialog::AcceptSave);
  if (selectedFilter && !selectedFilter->isEmpty()) dialog.selectNameFilter(*selectedFilter);
  return runDialog(dialog, selectedFilter);
}

}  // namespace tw::ui
