#include "ui/design/op_palette.h"

#include "core/spec/registry.h"
#include "ui/common/studio_icons.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QMimeData>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <functional>

namespace tw::ui {

namespace {

Q_LOGGING_CATEGORY(lcPalette, "tw.ui.palette")

constexpr int kOpRole = Qt::UserRole + 1;  // the op name on op items; empty on group headings

QString categoryTitle(spec::OpCategory category) {
  switch (category) {
    case spec::OpCategory::Input: return OpPalette::tr("Inputs");
    case spec::OpCategory::Layer: return OpPalette::tr("Layers");
    case spec::OpCategory::Activation: return OpPalette::tr("Activations");
    case spec::OpCategory::Normalization: return OpPalette::tr("Normalization");
    case spec::OpCategory::Pooling: return OpPalette::tr("Pooling");
    case spec::OpCategory::Merge: return OpPalette::tr("Merge");
    case spec::OpCategory::Reshape: return OpPalette::tr("Reshape");
    case spec::OpCategory::Block: return OpPalette::tr("Blocks");
  }
  return QString::fromStdString(spec::opCategoryName(category));
}

QString inputCountText(const spec::OpDef &op) {
  if (op.maxInputs < 0) return OpPalette::tr("Inputs: %1 or more").arg(op.minInputs);
  if (op.minInputs == op.maxInputs) return OpPalette::tr("Inputs: %1").arg(op.minInputs);
  return OpPalette::tr("Inputs: %1 to %2").arg(op.minInputs).arg(op.maxInputs);
}

// Drags carry the op name under our own mime type only, so that dropping on a text field or
// another application does nothing surprising; Enter activates like a double-click.
class OpTree : public QTreeWidget {
 public:
  using QTreeWidget::QTreeWidget;
  std::function<void(QTreeWidgetItem *)> onActivate;

 protected:
  QStringList mimeTypes() const override { return {QString::fromLatin1(OpPalette::kMimeType)}; }

  QMimeData *mimeData(const QList<QTreeWidgetItem *> &items) const override {
    for (QTreeWidgetItem *item : items) {
      const QString op = item ? item->data(0, kOpRole).toString() : QString();
      if (op.isEmpty()) continue;
      auto *mime = new QMimeData;
      mime->setData(QString::fromLatin1(OpPalette::kMimeType), op.toUtf8());
      return mime;
    }
    return nullptr;
  }

  void keyPressEvent(QKeyEvent *event) override {
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && currentItem() && onActivate) {
      onActivate(currentItem());
      event->accept();
      return;
    }
    QTreeWidget::keyPressEvent(event);
  }
};

}  // namespace

OpPalette::OpPalette(QWidget *parent) : QWidget(parent) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);

  m_search = new QLineEdit(this);
  m_search->setObjectName(QStringLiteral("opSearch"));
  m_search->setPlaceholderText(tr("Search layers…"));
  m_search->setClearButtonEnabled(true);
  layout->addWidget(m_search);

  auto *tree = new OpTree(this);
  tree->onActivate = [this](QTreeWidgetItem *item) { activate(item); };
  m_tree = tree;
  m_tree->setObjectName(QStringLiteral("opTree"));
  m_tree->setHeaderHidden(true);
  m_tree->setColumnCount(1);
  m_tree->setDragEnabled(true);
  m_tree->setDragDropMode(QAbstractItemView::DragOnly);
  m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
  layout->addWidget(m_tree, 1);

  populate();
  connect(m_search, &QLineEdit::textChanged, this, &OpPalette::applyFilter);
  // Not itemActivated: on single-click styles that would add a node on every click.
  connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item) { activate(item); });
}

void OpPalette::populate() {
  const auto &ops = spec::Registry::instance().ops();
  const spec::OpCategory order[] = {spec::OpCategory::Input,   spec::OpCategory::Layer,
                                    spec::OpCategory::Activation, spec::OpCategory::Normalization,
                                    spec::OpCategory::Pooling, spec::OpCategory::Merge,
                                    spec::OpCategory::Reshape, spec::OpCategory::Block};
  int listed = 0;
  for (spec::OpCategory category : order) {
    QTreeWidgetItem *group = nullptr;
    for (const spec::OpDef &op : ops) {
      if (op.category != category) continue;
      if (!group) {
        group = new QTreeWidgetItem(m_tree, {categoryTitle(category)});
        group->setFlags(Qt::ItemIsEnabled);  // a heading: neither selectable nor draggable
        group->setIcon(0, opCategoryIcon(category));
        QFont bold = group->font(0);
        bold.setBold(true);
        group->setFont(0, bold);
      }
      const QString name = QString::fromStdString(op.name);
      auto *item = new QTreeWidgetItem(group, {name});
      item->setData(0, kOpRole, name);
      item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
      item->setToolTip(0, QString::fromStdString(op.doc) + QLatin1Char('\n') + inputCountText(op));
      ++listed;
    }
  }
  // A category added to the registry but not to `order` would silently vanish from the palette.
  if (listed != static_cast<int>(ops.size()))
    qCWarning(lcPalette) << "palette lists" << listed << "of" << ops.size() << "ops; a category is missing";
  m_tree->expandAll();
}

void OpPalette::applyFilter(const QString &text) {
  const QString needle = text.trimmed();
  const auto &registry = spec::Registry::instance();
  for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
    QTreeWidgetItem *group = m_tree->topLevelItem(g);
    bool any = false;
    for (int i = 0; i < group->childCount(); ++i) {
      QTreeWidgetItem *item = group->child(i);
      const QString name = item->data(0, kOpRole).toString();
      const spec::OpDef *op = registry.find(name.toStdString());
      const QString doc = op ? QString::fromStdString(op->doc) : QString();
      const bool match = needle.isEmpty() || name.contains(needle, Qt::CaseInsensitive) ||
                         doc.contains(needle, Qt::CaseInsensitive);
      item->setHidden(!match);
      any = any || match;
    }
    group->setHidden(!any);
    // Collapsed groups would hide the matches the user is looking for.
    if (any) group->setExpanded(true);
  }
  // Keep the selection on something visible so that Enter adds what the user sees.
  QTreeWidgetItem *current = m_tree->currentItem();
  if (current && (current->isHidden() || (current->parent() && current->parent()->isHidden())))
    m_tree->setCurrentItem(nullptr);
}

void OpPalette::activate(QTreeWidgetItem *item) {
  const QString op = item ? item->data(0, kOpRole).toString() : QString();
  if (!op.isEmpty()) Q_EMIT opActivated(op);
}

void OpPalette::setBlocks(const QStringList &names) {
  delete m_blocks;
  m_blocks = nullptr;
  if (names.isEmpty()) return;
  m_blocks = new QTreeWidgetItem(m_tree, {tr("My Blocks")});
  m_blocks->setFlags(Qt::ItemIsEnabled);
  m_blocks->setIcon(0, myBlocksIcon());
  QFont bold = m_blocks->font(0);
  bold.setBold(true);
  m_blocks->setFont(0, bold);
  for (const QString &name : names) {
    auto *item = new QTreeWidgetItem(m_blocks, {name});
    item->setData(0, kOpRole, QLatin1String(kBlockPrefix) + name);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    item->setToolTip(0, tr("Your block %1: inserts its nodes as one group").arg(name));
  }
  m_blocks->setExpanded(true);
  applyFilter(m_search->text());
}

void OpPalette::setFilter(const QString &text) { m_search->setText(text); }

QStringList OpPalette::visibleOps() const {
  QStringList out;
  for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
    const QTreeWidgetItem *group = m_tree->topLevelItem(g);
    if (group->isHidden()) continue;
    for (int i = 0; i < group->childCount(); ++i)
      if (!group->child(i)->isHidden()) out << group->child(i)->data(0, kOpRole).toString();
  }
  return out;
}

QTreeWidget *OpPalette::tree() const { return m_tree; }

}  // namespace tw::ui
