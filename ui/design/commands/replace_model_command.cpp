#include "ui/design/commands/replace_model_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

ReplaceModelCommand::ReplaceModelCommand(ModelDocument *document, spec::ModelSpec spec,
                                         QHash<QString, QPointF> positions, const QString &text, bool leavesFile)
    : QUndoCommand(text), m_document(document), m_after(std::move(spec)), m_before(document->spec()),
      m_positionsAfter(std::move(positions)), m_positionsBefore(document->positions()),
      m_fileAfter(leavesFile ? QString() : document->filePath()), m_fileBefore(document->filePath()) {}

void ReplaceModelCommand::redo() {
  m_document->replaceSpecRaw(m_after, m_positionsAfter);
  m_document->setFilePathRaw(m_fileAfter);
  m_document->refresh();
}

void ReplaceModelCommand::undo() {
  m_document->replaceSpecRaw(m_before, m_positionsBefore);
  m_document->setFilePathRaw(m_fileBefore);
  m_document->refresh();
}

}  // namespace tw::ui
