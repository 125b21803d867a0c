#pragma once
// Loads Studio's translation (torchwright_<lang>.qm) and Qt's own (qtbase_<lang>.qm) for the
// chosen language and sets the default locale, so numbers and dates read as the user expects.
//
//   TranslationResult result = installTranslations("de", {TW_TRANSLATIONS_DIR, exeDir + "/../translations"});

#include <QString>
#include <QStringList>

namespace tw::ui {

struct TranslationResult {
  QString language;     // "de", "en": the language in effect
  QString studioFile;   // the .qm loaded for Studio's strings; empty when none (English)
  bool qtLoaded = false;
};

// language: "de", "en", or empty to follow the system locale. English is the source language
// and needs no file. Replaces translators installed by an earlier call.
// Returns false with *error set when a non-English language was asked for and no file was found.
bool installTranslations(const QString &language, const QStringList &searchDirs, TranslationResult *result,
                         QString *error);

// The language chosen in View > Language, kept in QSettings: "de", "en", or empty for the
// system's. Read at start-up; --lang overrides it for one session.
QString savedLanguage();
void saveLanguage(const QString &language);

}  // namespace tw::ui
