#pragma once
// The user's reusable blocks: groups of nodes saved by "Group into Block", one YAML file each
// (<name>.block.yaml, the nodes in the model format with ids local to the block), in a folder
// shared by every model. The palette lists them; inserting one adds its nodes under a fresh
// instance prefix ("dense_2.fc"), the same ids the parser gives block instances.

#include <QObject>
#include <QString>
#include <QStringList>

#include "core/config/safe_path.h"

namespace tw::ui {

class BlockLibrary : public QObject {
  Q_OBJECT

 public:
  // Default folder: <application data>/blocks (for example ~/.local/share/Torchwright/Torchwright Studio/blocks).
  explicit BlockLibrary(QObject *parent = nullptr);

  QString directory() const { return m_directory; }
  void setDirectory(const QString &directory);

  // The model format's name rule (spec/names.h) without '.': letters, digits, '_' and '-',
  // starting with a letter. The name becomes a file name and a node id prefix.
  static bool isValidName(const QString &name);

  QStringList names() const;  // sorted
  QString yaml(const QString &name) const;  // empty when unknown or unreadable
  bool save(const QString &name, const QString &yaml, QString *error);
  bool remove(const QString &name);

 Q_SIGNALS:
  void changed();

 private:
  // The block's file, inside the folder by config::resolveInside's rule; empty when refused,
  // with the reason in *problem.
  QString pathOf(const QString &name, config::HardLinks links, QString *problem = nullptr) const;
  QString m_directory;
};

}  // namespace tw::ui
