#include "ui/design/yaml_view.h"

#include "ui/design/model_document.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
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
  const QString problem = m_document->setYaml(m_editor->toPlainText());
  m_applying = false;
  m_error->setText(problem);
  m_error->setVisible(!problem.isEmpty());
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
}

}  // namespace tw::ui
