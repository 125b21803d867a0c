#include "ui/i18n/translations.h"

#include "ui/studio_log.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

#include <memory>
#include <vector>

namespace tw::ui {

namespace {

std::vector<std::unique_ptr<QTranslator>> &installed() {
  static std::vector<std::unique_ptr<QTranslator>> translators;
  return translators;
}

void removeInstalled() {
  for (auto &translator : installed()) QCoreApplication::removeTranslator(translator.get());
  installed().clear();
}

}  // namespace

bool installTranslations(const QString &language, const QStringList &searchDirs, TranslationResult *result,
                         QString *error) {
  removeInstalled();
  const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
  TranslationResult out;
  out.language = QLocale::languageToCode(locale.language());
  QLocale::setDefault(locale);

  if (locale.language() == QLocale::English || locale.language() == QLocale::C) {
    out.language = QStringLiteral("en");
    if (result) *result = out;
    return true;
  }

  auto studio = std::make_unique<QTranslator>();
  for (const QString &dir : searchDirs) {
    if (dir.isEmpty() || !QDir(dir).exists()) continue;
    if (studio->load(locale, QStringLiteral("torchwright"), QStringLiteral("_"), dir)) {
      out.studioFile = studio->filePath();
      break;
    }
  }
  if (out.studioFile.isEmpty()) {
    if (result) *result = out;
    // Only an explicit request is an error; a system locale we do not translate is just English.
    if (!language.isEmpty()) {
      if (error)
        *error = QStringLiteral("no translation for '%1' in %2").arg(language, searchDirs.join(QStringLiteral(", ")));
      return false;
    }
    return true;
  }
  QCoreApplication::installTranslator(studio.get());
  installed().push_back(std::move(studio));

  // Qt's own dialogs (file dialog, message box buttons) in the same language.
  auto qt = std::make_unique<QTranslator>();
  if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
               QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    QCoreApplication::installTranslator(qt.get());
    installed().push_back(std::move(qt));
    out.qtLoaded = true;
  }
  studioLog()->info("translations: {}{}", out.studioFile.toStdString(), out.qtLoaded ? " + qtbase" : "");
  if (result) *result = out;
  return true;
}

namespace {
constexpr const char *kLanguageKey = "ui/language";
}  // namespace

QString savedLanguage() {
  const QString language = QSettings().value(QLatin1String(kLanguageKey)).toString();
  return language == QLatin1String("de") || language == QLatin1String("en") ? language : QString();
}

void saveLanguage(const QString &language) {
  QSettings settings;
  if (language.isEmpty()) settings.remove(QLatin1String(kLanguageKey));
  else settings.setValue(QLatin1String(kLanguageKey), language);
}

}  // namespace tw::ui
