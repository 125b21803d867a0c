#include "ui/launch/example_run_files.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tw::ui {

QStringList exampleFolders() {
  const QDir exe(QCoreApplication::applicationDirPath());
  return {QStringLiteral(TW_EXAMPLES_DIR), exe.filePath(QStringLiteral("../share/torchwright/examples")),
          exe.filePath(QStringLiteral("../resources/examples"))};
}

QStringList exampleRunFiles() {
  for (const QString &folder : exampleFolders()) {
    const QDir dir(folder);
    const QStringList names = dir.entryList({QStringLiteral("*.run.yaml")}, QDir::Files | QDir::Readable, QDir::Name);
    if (names.isEmpty()) continue;
    QStringList paths;
    for (const QString &name : names) paths << QFileInfo(dir.filePath(name)).absoluteFilePath();
    return paths;
  }
  return {};
}

QString exampleName(const QString &path) {
  QString name = QFileInfo(path).fileName();
  name.chop(int(qstrlen(".run.yaml")));
  return name;
}

}  // namespace tw::ui
