#include "ui/design/yaml_view.h"

#include "ui/common/theme.h"
#include "ui/design/model_document.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

namespace tw::ui {

YamlView::YamlView(ModelDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document), m_editor(new QPlainTextEdit(this)), m_error(new QLabel(this)),
      m_debounce(new QTimer(this)) {
  m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_error->setWordWrap(true);
  m_error->setStyleSheet(QStringLiteral("color: #c62828"));
  m_error->hide();
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_editor);
  layout->addWidget(m_error);
  m_debounce->setSingleShot(true);
  m_debounce->setInterval(500);
  connect(m_debounce, &QTimer::timeout, this, &YamlView::applyNow);
  connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
    if (!m_applying) m_debounce->start();
  });
  connect(document, &ModelDocument::changed, this, &YamlView::showModel);
  showModel();
}

QString YamlView::error() const { return m_error->isHidden() ? QString() : m_error->text(); }

void YamlView::applyNow() {
  m_debounce->stop();
  m_applying = true;
  int line = 0, column = 0;
  const QString problem = m_document->setYaml(m_editor->toPlainText(), &line, &column);
  m_applying = false;
  QString text = problem;
  if (!problem.isEmpty() && line > 0)
    text = column > 0 ? tr("Line %1, column %2: %3").arg(line).arg(column).arg(problem)
                      : tr("Line %1: %2").arg(line).arg(problem);
  m_error->setText(text);
  m_error->setVisible(!problem.isEmpty());
  markLine(problem.isEmpty() ? 0 : line);
}

void YamlView::markLine(int line) {
  m_errorLine = line;
  QList<QTextEdit::ExtraSelection> marks;
  const QTextBlock block = m_editor->document()->findBlockByNumber(line - 1);
  if (line > 0 && block.isValid()) {
    QTextEdit::ExtraSelection mark;
    // A pale red under dark text, a deep red under light text (a dark theme).
    mark.format.setBackground(isDarkPalette(m_editor->palette()) ? QColor(0x5c, 0x1e, 0x22) : QColor(0xff, 0xeb, 0xee));
    mark.format.setProperty(QTextFormat::FullWidthSelection, true);
    mark.cursor = QTextCursor(block);
    marks << mark;
  }
  m_editor->setExtraSelections(marks);
}

void YamlView::showModel() {
  // While the person types, their text stays: rewriting it would move the cursor under them.
  if (m_applying || m_debounce->isActive()) return;
  const QString text = m_document->toYaml();
  if (text == m_editor->toPlainText()) return;
  m_applying = true;
  m_editor->setPlainText(text);
  m_applying = false;
  m_error->hide();
  markLine(0);
}

}  // namespace tw::ui
