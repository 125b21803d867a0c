#include "ui/design/block_library.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

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
  static const QRegularExpression valid(QStringLiteral("^[A-Za-z][A-Za-z0-9_-]{0,63}$"));
  return valid.match(name).hasMatch();
}

QString BlockLibrary::pathOf(const QString &name) const {
  return QDir(m_directory).filePath(name + QLatin1String(kSuffix));
}

QStringList BlockLibrary::names() const {
  QStringList names;
  // A handful of small files: listing them is cheap enough for the UI thread.
  for (const QString &file : QDir(m_directory).entryList({QStringLiteral("*") + QLatin1String(kSuffix)}, QDir::Files,
                                                          QDir::Name)) {
    const QString name = file.chopped(static_cast<int>(qstrlen(kSuffix)));
    if (isValidName(name)) names << name;
  }
  return names;
}

QString BlockLibrary::yaml(const QString &name) const {
  if (!isValidName(name)) return {};
  QFile file(pathOf(name));
  if (!file.open(QIODevice::ReadOnly)) return {};
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
  // QSaveFile writes a temporary and renames it: a full disk never leaves half a block behind.
  QSaveFile file(pathOf(name));
  if (!file.open(QIODevice::WriteOnly) || file.write(yaml.toUtf8()) < 0 || !file.commit())
    return fail(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(pathOf(name)), file.errorString()));
  Q_EMIT changed();
  return true;
}

bool BlockLibrary::remove(const QString &name) {
  if (!isValidName(name) || !QFile::remove(pathOf(name))) return false;
  Q_EMIT changed();
  return true;
}

}  // namespace tw::ui
