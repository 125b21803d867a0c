// The Design page's files: New, Open, Save and Save As, the question before unsaved edits are
// replaced, and the folder each dialog starts in.

#include "ui/design/design_page.h"

#include "ui/common/file_dialogs.h"
#include "ui/design/graph_view.h"
#include "ui/design/model_document.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>

namespace tw::ui {

bool DesignPage::confirmReplace() {
  if (!m_document->isModified()) return true;
  const QString name = m_document->filePath().isEmpty() ? QString::fromStdString(m_document->spec().name)
                                                        : QFileInfo(m_document->filePath()).fileName();
  QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"),
                  tr("The model %1 has changes that are not saved. Save them first?").arg(name),
                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
  box.setObjectName(QStringLiteral("unsavedChanges"));
  box.setDefaultButton(QMessageBox::Save);
  const int answer = box.exec();
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) {
    save();
    return !m_document->isModified();  // the save was cancelled or failed: keep the model
  }
  return true;
}

bool DesignPage::newModel(const QString &templateName) {
  spec::ModelSpec spec;
  QString error;
  if (!templateName.isEmpty() && !ModelDocument::templateSpec(templateName, &spec, &error)) {
    m_status->setText(error);
    return false;
  }
  if (!confirmReplace()) return false;
  m_document->replaceModel(spec, templateName.isEmpty() ? tr("New empty model")
                                                        : tr("New %1").arg(ModelDocument::templateTitle(templateName)));
  m_view->showModel();
  return true;
}

bool DesignPage::openFile(const QString &path, QString *error) {
  if (!m_document->load(path, error)) return false;
  m_view->showModel();
  updateStatus();
  return true;
}

bool DesignPage::saveFile(const QString &path, QString *error) {
  const bool ok = m_document->save(path, error);
  updateStatus();
  return ok;
}

void DesignPage::setWorkspace(const QString &dir) { m_workspace = dir; }

QString DesignPage::dialogFolder() const {
  if (!m_document->filePath().isEmpty()) return QFileInfo(m_document->filePath()).absolutePath();
  if (m_workspace.isEmpty()) return QDir::homePath();
  const QString models = QDir(m_workspace).filePath(QStringLiteral("models"));
  QDir().mkpath(models);  // a folder, made once, so the dialog can open in it
  return models;
}

void DesignPage::openDialog() {
  Q_EMIT showRequested();
  if (!confirmReplace()) return;
  const QString path = chooseOpenFile(this, tr("Open Model"), dialogFolder(),
                                      tr("Model files (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!openFile(path, &error)) QMessageBox::warning(this, tr("Open Model"), error);
}

void DesignPage::save() {
  if (m_document->filePath().isEmpty()) {
    saveAs();
    return;
  }
  QString error;
  if (!saveFile(m_document->filePath(), &error)) QMessageBox::warning(this, tr("Save Model"), error);
}

void DesignPage::saveAs() {
  const QString start = m_document->filePath().isEmpty()
                            ? QDir(dialogFolder()).filePath(m_document->spec().name.empty()
                                                                 ? QStringLiteral("model.model.yaml")
                                                                 : QString::fromStdString(m_document->spec().name) + ".model.yaml")
                            : m_document->filePath();
  const QString path = chooseSaveFile(this, tr("Save Model"), start,
                                      tr("Model files (*.model.yaml *.yaml)"));
  if (path.isEmpty()) return;
  QString error;
  if (!saveFile(path, &error)) QMessageBox::warning(this, tr("Save Model"), error);
}

}  // namespace tw::ui
