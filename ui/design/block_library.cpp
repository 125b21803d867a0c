#include "ui/design/block_library.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>

#include "core/config/safe_path.h"
#include "core/spec/names.h"

namespace tw::ui {

namespace {
constexpr const char *kSuffix = ".block.yaml";
}  // namespace

BlockLibrary::BlockLibrary(QObject *parent)
    : QObject(parent),
      m_directory(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/blocks")) {}

void BlockLibrary::setDirectory(const QString &directory) {
  m_directory = directory;
  Q_EMIT changed();
}

bool BlockLibrary::isValidName(const QString &name) {
  // The model format's rule for a block's name, less the dot: an instance's ids are
  // "<name>_<n>.<node>", split at the first dot.
  return spec::isPortableName(name.toStdString()) && !name.contains(QLatin1Char('.'));
}

QString BlockLibrary::pathOf(const QString &name, config::HardLinks links, QString *problem) const {
  // The library folder may sit anywhere, but a block's file must be in it: a link named like a
  // block that leads elsewhere is refused (config/safe_path.h), as the engine refuses one.
  const config::InsidePath inside =
      config::resolveInside(m_directory.toStdString(), (name + QLatin1String(kSuffix)).toStdString(), links);
  if (problem) *problem = QString::fromStdString(inside.problem);
  return QString::fromStdString(inside.path);
}

QStringList BlockLibrary::names() const {
  QStringList names;
  // A handful of small files: listing and resolving them is cheap enough for the UI thread.
  for (const QString &file : QDir(m_directory).entryList({QStringLiteral("*") + QLatin1String(kSuffix)}, QDir::Files,
                                                          QDir::Name)) {
    const QString name = file.chopped(static_cast<int>(qstrlen(kSuffix)));
    if (isValidName(name) && !pathOf(name, config::HardLinks::Refuse).isEmpty()) names << name;
  }
  return names;
}

QString BlockLibrary::yaml(const QString &name) const {
  if (!isValidName(name)) return {};
  const QString path = pathOf(name, config::HardLinks::Refuse);
  QFile file(path);
  if (path.isEmpty() || !file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

bool BlockLibrary::save(const QString &name, const QString &yaml, QString *error) {
  auto fail = [&](const QString &message) {
    if (error) *error = message;
    return false;
  };
  if (!isValidName(name))
    return fail(tr("'%1' is not a block name: use letters, digits, '_' and '-', starting with a letter.").arg(name));
  if (!QDir().mkpath(m_directory)) return fail(tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(m_directory)));
  QString problem;
  const QString path = pathOf(name, config::HardLinks::Allow, &problem);
  if (path.isEmpty())
    return fail(tr("Cannot write the block %1: %2 %3.").arg(name, name + QLatin1String(kSuffix), problem));
  // QSaveFile writes a temporary and renames it: a full disk never leaves half a block behind,
  // and a hard link at the name is replaced, not written through.
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(yaml.toUtf8()) < 0 || !file.commit())
    return fail(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
  Q_EMIT changed();
  return true;
}

bool BlockLibrary::remove(const QString &name) {
  // Removing a link removes the link, never its target: the plain path, not the resolved one.
  if (!isValidName(name) || !QFile::remove(QDir(m_directory).filePath(name + QLatin1String(kSuffix)))) return false;
  Q_EMIT changed();
  return true;
}

}  // namespace tw::ui
