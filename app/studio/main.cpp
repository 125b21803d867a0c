// torchwright-studio: the desktop workbench. Opens a workspace and follows its tracking
// database; training itself always runs in other processes (see DESIGN.md, "Processes").

#include "core/config/workspace.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"
#include "ui/startup_report.h"
#include "ui/studio_log.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace {

void setUpLogging() {
  auto logger = spdlog::stderr_color_mt("studio");
  logger->set_pattern("[%H:%M:%S] [%n] %^%l%$: %v");
  logger->set_level(spdlog::level::info);
}

// --lang decides which translator to install, and the translator must be in place before the
// option descriptions (tr'd) are built, so it is read ahead of the real parser.
QString languageArgument(const QStringList &args) {
  for (int i = 1; i < args.size(); ++i) {
    if (args[i] == QLatin1String("--lang") && i + 1 < args.size()) return args[i + 1];
    if (args[i].startsWith(QLatin1String("--lang="))) return args[i].mid(7);
  }
  return {};
}

}  // namespace

int main(int argc, char **argv) {
  QElapsedTimer started;
  started.start();
  setUpLogging();
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Torchwright"));
  QApplication::setApplicationName(QStringLiteral("Torchwright Studio"));
  QApplication::setApplicationVersion(QStringLiteral(TW_VERSION));

  // --lang for this session, else what View > Language chose, else the system's language.
  QString language = languageArgument(QApplication::arguments());
  if (language.isEmpty()) language = tw::ui::savedLanguage();
  if (!language.isEmpty() && language != QLatin1String("de") && language != QLatin1String("en")) {
    std::fprintf(stderr, "torchwright-studio: --lang must be 'de' or 'en', not '%s'\n", qPrintable(language));
    return 2;
  }
  const QStringList translationDirs = {
      QStringLiteral(TW_TRANSLATIONS_DIR),
      QDir(QApplication::applicationDirPath()).filePath(QStringLiteral("../translations")),
      QDir(QApplication::applicationDirPath()).filePath(QStringLiteral("../share/torchwright/translations")),
  };
  QString translationError;
  if (!tw::ui::installTranslations(language, translationDirs, nullptr, &translationError))
    tw::ui::studioLog()->warn("{}; showing English", translationError.toStdString());

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QCoreApplication::translate("main", "Torchwright Studio: design, train and compare deep-learning models."));
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption workspaceOption(
      QStringLiteral("workspace"),
      QCoreApplication::translate("main", "Workspace folder (default: %1).")
          .arg(QString::fromStdString(tw::config::defaultWorkspaceDir())),
      QCoreApplication::translate("main", "DIR"));
  QCommandLineOption langOption(QStringLiteral("lang"),
                                QCoreApplication::translate("main", "User interface language: de or en "
                                                                    "(default: the system language)."),
                                QCoreApplication::translate("main", "LANG"));
  QCommandLineOption reportStartupOption(
      QStringLiteral("report-startup"),
      QCoreApplication::translate("main", "Print how long the window and the runs list took to appear (one JSON "
                                          "line), then quit."));
  parser.addOption(workspaceOption);
  parser.addOption(langOption);
  parser.addOption(reportStartupOption);
  parser.process(app);

  const QString workspace = parser.isSet(workspaceOption)
                                ? parser.value(workspaceOption)
                                : QString::fromStdString(tw::config::defaultWorkspaceDir());

  tw::ui::MainWindow window;
  window.show();
  if (parser.isSet(reportStartupOption)) new tw::ui::StartupReport(&window, started, &window);
  // A workspace that cannot be opened is reported in a dialog; File > Open Workspace still works.
  window.openWorkspace(workspace);
  return app.exec();
}
