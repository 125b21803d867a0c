// The Design page's imports and head: File > Import ONNX… (ImportDialog running the CLI, the
// written model opened through openFile) and Replace Head… (model_head.h), from the window's
// Model menu, a node's context menu and the Launch page's offer.

#include "ui/design/design_page.h"

#include "ui/common/file_dialogs.h"
#include "ui/design/graph_scene.h"
#include "ui/design/graph_view.h"
#include "ui/design/import_dialog.h"
#include "ui/design/model_document.h"
#include "ui/design/model_head.h"
#include "ui/design/node_item.h"

#include <QAction>
#include <QDir>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>

namespace tw::ui {

void DesignPage::createImportActions() {
  m_importAction = new QAction(tr("&Import ONNX…"), this);
  m_importAction->setObjectName(QStringLiteral("importOnnxAction"));
  m_importAction->setToolTip(tr("Import an ONNX network as a model file with its weights, and open it here"));
  connect(m_importAction, &QAction::triggered, this, [this] { importOnnx(); });
  m_replaceHeadAction = new QAction(tr("Replace &Head…"), this);
  m_replaceHeadAction->setObjectName(QStringLiteral("replaceHeadAction"));
  m_replaceHeadAction->setToolTip(
      tr("Swap the classifier layer that feeds the output for a new Linear with another number of classes (undoable)"));
  connect(m_replaceHeadAction, &QAction::triggered, this, [this] { askReplaceHead(); });
  // Offered only while the model has a head to replace.
  auto enable = [this] { m_replaceHeadAction->setEnabled(!ModelHead::find(m_document->spec(), m_document->analysis()).isEmpty()); };
  connect(m_document, &ModelDocument::changed, this, enable);
  enable();
  m_view->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_view, &QWidget::customContextMenuRequested, this, &DesignPage::showNodeMenu);
}

ImportDialog *DesignPage::importOnnx(const QString &onnxFile) {
  Q_EMIT showRequested();
  if (!confirmReplace()) return nullptr;
  QString path = onnxFile;
  if (path.isEmpty())
    path = chooseOpenFile(this, tr("Import ONNX"), m_workspace.isEmpty() ? QDir::homePath() : m_workspace,
                          tr("ONNX files (*.onnx);;All files (*)"));
  if (path.isEmpty()) return nullptr;
  QString models;
  if (!m_workspace.isEmpty()) {
    models = QDir(m_workspace).filePath(QStringLiteral("models"));
    QDir().mkpath(models);
  }
  auto *dialog = new ImportDialog(models, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setOnnxFile(path);
  connect(dialog, &ImportDialog::imported, this, [this, dialog](const QString &modelFile) {
    QString error;
    if (openFile(modelFile, &error)) m_status->setText(tr("Imported %1.").arg(QDir::toNativeSeparators(modelFile)));
    dialog->modelOpened(error);
  });
  dialog->open();
  return dialog;
}

bool DesignPage::replaceHead(qint64 classes) {
  QString error;
  if (!ModelHead::replace(m_document, classes, &error)) {
    m_status->setText(tr("Cannot replace the head: %1").arg(error));
    return false;
  }
  return true;
}

void DesignPage::askReplaceHead(qint64 suggested) {
  Q_EMIT showRequested();
  QString why;
  const QString head = ModelHead::find(m_document->spec(), m_document->analysis(), &why);
  if (head.isEmpty()) {
    m_status->setText(tr("Cannot replace the head: %1").arg(why));
    return;
  }
  const qint64 now = ModelHead::classCount(m_document->analysis());
  const qint64 start = suggested > 0 ? suggested : m_datasetClasses > 0 ? m_datasetClasses : std::max<qint64>(now, 1);
  const QString label = now > 0 ? tr("%1 gives %2 class scores. Classes of the new head:").arg(head).arg(now)
                                : tr("Classes of the new head %1:").arg(head);
  bool ok = false;
  const int classes = QInputDialog::getInt(this, tr("Replace Head"), label, int(std::min<qint64>(start, 1000000)), 1,
                                           1000000, 1, &ok);
  if (ok) replaceHead(classes);
}

QMenu *DesignPage::nodeMenu(const QString &id) {
  auto *menu = new QMenu(this);
  const QString head = ModelHead::find(m_document->spec(), m_document->analysis());
  // On the head, and on the parameter-free nodes after it up to the output.
  bool afterHead = !head.isEmpty() && id == head;
  for (const spec::Node *n = m_document->node(QString::fromStdString(m_document->spec().output)); !afterHead && n;) {
    const QString nid = QString::fromStdString(n->id);
    if (nid == head) break;
    afterHead = nid == id;
    n = n->inputs.size() == 1 ? m_document->node(QString::fromStdString(n->inputs.front())) : nullptr;
  }
  QAction *replace = menu->addAction(m_replaceHeadAction->text(), this, [this] { askReplaceHead(); });
  replace->setObjectName(QStringLiteral("replaceHeadMenuAction"));
  replace->setEnabled(afterHead);
  if (!afterHead) replace->setToolTip(tr("Only the classifier layer that feeds the output can be replaced"));
  menu->addSeparator();
  menu->addAction(tr("Delete"), this, [this, id] { m_document->removeNodes({id}); });
  return menu;
}

void DesignPage::showNodeMenu(const QPoint &at) {
  NodeItem *node = nullptr;
  for (QGraphicsItem *item : m_scene->items(m_view->mapToScene(at)))
    if (item->type() == NodeItem::Type) {
      node = static_cast<NodeItem *>(item);
      break;
    }
  if (!node) return;
  m_scene->selectNode(node->id());
  QMenu *menu = nodeMenu(node->id());
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->popup(m_view->viewport()->mapToGlobal(at));
}

}  // namespace tw::ui
