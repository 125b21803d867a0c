#pragma once
// The Design page's layer palette: every op of the registry, grouped by category, with a search
// field. Items are dragged onto the canvas (mime kMimeType carries the op name) or activated
// with a double-click or Enter to add them at a default place.

#include <QStringList>
#include <QWidget>

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace tw::ui {

class OpPalette : public QWidget {
  Q_OBJECT

 public:
  // The drag payload: the op's registry name in UTF-8 ("Conv2d").
  static constexpr const char *kMimeType = "application/x-torchwright-op";

  explicit OpPalette(QWidget *parent = nullptr);

  // Blocks from the user's library, listed under "My Blocks"; their items carry
  // kBlockPrefix + name instead of an op name, in drags and in opActivated.
  static constexpr const char *kBlockPrefix = "block:";
  void setBlocks(const QStringList &names);

  // Sets the search text (as if typed); "" shows every op.
  void setFilter(const QString &text);
  // Names of the ops not hidden by the filter, in the order shown.
  QStringList visibleOps() const;
  QTreeWidget *tree() const;

 Q_SIGNALS:
  void opActivated(const QString &op);

 private:
  void populate();
  void applyFilter(const QString &text);
  void activate(QTreeWidgetItem *item);

  QLineEdit *m_search = nullptr;
  QTreeWidget *m_tree = nullptr;
  QTreeWidgetItem *m_blocks = nullptr;
};

}  // namespace tw::ui
