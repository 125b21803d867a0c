// Run files in and out of the Launch form: File > Open Run File… and the examples read a file
// through the config table's own parser on a worker thread and put every key of it on the form;
// Save Run File… writes the text Launch writes.

#include "ui/launch/launch_page.h"

#include "core/config/config_fields.h"
#include "core/config/run_config.h"
#include "core/spec/diagnostic.h"
#include "core/spec/model_spec.h"
#include "ui/common/file_dialogs.h"
#include "ui/design/model_document.h"
#include "ui/launch/model_source.h"
#include "ui/studio_log.h"

#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLineEdit>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

namespace tw::ui {

namespace {

struct OpenedRunFile {
  config::RunConfig config;
  QString error;  // file:line:column, the key and what is wrong
};

OpenedRunFile readRunFile(const std::string &path) {
  OpenedRunFile opened;
  try {
    opened.config = config::loadRunConfig(path);
    // An inline model is checked here, so a broken one leaves the form and the design untouched;
    // a model file is the model picker's, and Launch's check reads it.
    if (opened.config.modelFile.empty()) spec::parseModelYaml(opened.config.modelYaml, path);
  } catch (const spec::SpecError &e) {
    opened.error = QString::fromStdString(e.diagnostics().empty() ? std::string(e.what())
                                                                  : spec::formatDiagnostics(e.diagnostics()));
  } catch (const std::exception &e) {
    opened.error = QString::fromStdString(e.what());
  }
  return opened;
}

}  // namespace

void LaunchPage::openRunFile(const QString &path) {
  const quint64 generation = ++m_openGeneration;
  setStatus(tr("Reading %1…").arg(QDir::toNativeSeparators(path)), false);
  auto *watcher = new QFutureWatcher<OpenedRunFile>(this);
  connect(watcher, &QFutureWatcher<OpenedRunFile>::finished, this, [this, watcher, path, generation] {
    const OpenedRunFile opened = watcher->result();
    watcher->deleteLater();
    if (generation != m_openGeneration) return;  // another file was asked for since
    QString error = opened.error;
    if (error.isEmpty()) error = applyRunFile(opened.config);
    if (error.isEmpty())
      setStatus(tr("Opened %1; Launch trains it as the form now shows.").arg(QDir::toNativeSeparators(path)), false);
    else
      showRefusal(tr("Cannot open the run file: %1").arg(error));
    Q_EMIT runFileOpened(path, error);
  });
  watcher->setFuture(QtConcurrent::run(readRunFile, path.toStdString()));
}

QString LaunchPage::applyRunFile(const config::RunConfig &config) {
  if (config.modelFile.empty()) {
    if (const QString problem = m_model->setYaml(QString::fromStdString(config.modelYaml)); !problem.isEmpty())
      return problem;
    m_modelSource->useOpenDesign();
  } else {
    m_modelSource->setModelFile(QDir::toNativeSeparators(QString::fromStdString(config.modelFile)));
  }
  // Every key, defaults included, so nothing of what the form held before stays behind.
  std::map<std::string, std::string> settings = config::flattenConfig(config);
  for (auto it = settings.begin(); it != settings.end();)
    it = it->first.rfind("model.", 0) == 0 ? settings.erase(it) : std::next(it);
  // Lists as the form writes them, comma and space: "district, garden".
  for (auto &[key, value] : settings)
    if (const config::ConfigField *field = config::findConfigField(key);
        field && (field->kind == config::FieldKind::IntList || field->kind == config::FieldKind::StringList))
      value = QString::fromStdString(value).split(QLatin1Char(',')).join(QStringLiteral(", ")).toStdString();
  const QStringList skipped = applySettings(settings);
  // Every key of a parsed run file is a table key, which the form shows or keeps for the file.
  if (!skipped.isEmpty())
    studioLog()->warn("run file keys the Launch form did not take: {}", skipped.join(QStringLiteral(", ")).toStdString());
  return {};
}

bool LaunchPage::saveRunFile(const QString &path, QString *error) {
  if (m_modelSource->usesFile() && m_modelSource->modelFile().isEmpty()) {
    *error = tr("Choose a model file first.");
    return false;
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(runYaml().toUtf8()) < 0 || !file.commit()) {
    *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return false;
  }
  m_runFileFolder = QFileInfo(path).absolutePath();
  return true;
}

void LaunchPage::chooseRunFileToOpen() {
  const QString start = !m_runFileFolder.isEmpty() ? m_runFileFolder
                        : m_workspace.isEmpty()    ? QString()
                                                   : QDir(m_workspace).filePath(QStringLiteral("studio-runs"));
  const QString path = chooseOpenFile(this, tr("Open Run File"), start, tr("Run files (*.run.yaml *.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  m_runFileFolder = QFileInfo(path).absolutePath();  // not an example's: Save never writes among them
  openRunFile(path);
}

void LaunchPage::chooseRunFileToSave() {
  const QString folder = !m_runFileFolder.isEmpty() ? m_runFileFolder
                         : m_workspace.isEmpty()    ? QDir::homePath()
                                                    : QDir(m_workspace).filePath(QStringLiteral("studio-runs"));
  const QString name = m_runName->text().trimmed().isEmpty() ? QStringLiteral("run") : m_runName->text().trimmed();
  const QString path = chooseSaveFile(this, tr("Save Run File"), QDir(folder).filePath(name + QStringLiteral(".run.yaml")),
                                      tr("Run files (*.run.yaml *.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (saveRunFile(path, &error)) setStatus(tr("Saved %1.").arg(QDir::toNativeSeparators(path)), false);
  else showRefusal(error);
}

}  // namespace tw::ui
