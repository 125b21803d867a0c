#pragma once
// Every file dialog Studio shows. Qt's dialog guesses a file's type by reading its first bytes,
// and closing any descriptor of tracking.db in this process drops every POSIX lock SQLite holds
// on it (fcntl locks belong to the process, not the descriptor). A training process closing the
// database then believes it is the last one, deletes the WAL and shared-memory files, and
// Studio's connections go on reading a file that is no longer the workspace's. These dialogs
// name types from the file name alone, and are Qt's own: a native dialog sniffs in-process too.
//
//   const QString dir = chooseDirectory(this, tr("Open Workspace"), current);
//   if (!dir.isEmpty()) open(dir);

#include <QString>

class QFileDialog;
class QWidget;

namespace tw::ui {

// An existing folder; empty when cancelled.
QString chooseDirectory(QWidget *parent, const QString &title, const QString &dir);
// An existing file matching `filter` ("YAML files (*.yaml *.yml);;All files (*)"); empty when
// cancelled.
QString chooseOpenFile(QWidget *parent, const QString &title, const QString &dir, const QString &filter = {});
// A file to write, confirmed before an existing one is overwritten; empty when cancelled.
// `selectedFilter`, when given, receives the filter the person chose.
QString chooseSaveFile(QWidget *parent, const QString &title, const QString &path, const QString &filter = {},
                       QString *selectedFilter = nullptr);

// Makes a dialog built elsewhere safe in the same way (Qt's own, types from names only).
void makeLockSafe(QFileDialog *dialog);

}  // namespace tw::ui
