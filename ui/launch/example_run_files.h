#pragma once
// The example run files Torchwright ships (resources/examples/*.run.yaml), for File > Examples.
// Found the way Studio finds its translations: the source tree's folder for a build
// (TW_EXAMPLES_DIR), then beside the executable: ../share/torchwright/examples when installed,
// ../resources/examples in a build tree. They stay files on disk, since a run file names its model
// and data relative to itself.
//
//   for (const QString &path : exampleRunFiles()) menu->addAction(exampleName(path));

#include <QString>
#include <QStringList>

namespace tw::ui {

// The folders searched, in order.
QStringList exampleFolders();
// Every *.run.yaml of the first folder that has any, sorted by name, as absolute paths; empty when
// none is found.
QStringList exampleRunFiles();
// "fashion_mlp" for ".../fashion_mlp.run.yaml".
QString exampleName(const QString &path);

}  // namespace tw::ui
