#include "ui/launch/collapsible_section.h"

#include <QFormLayout>
#include <QToolButton>
#include <QVBoxLayout>

namespace tw::ui {

CollapsibleSection::CollapsibleSection(const QString &title, QWidget *parent)
    : QWidget(parent), m_header(new QToolButton(this)), m_body(new QWidget(this)), m_form(new QFormLayout(m_body)) {
  m_header->setText(title);
  m_header->setCheckable(true);
  m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_header->setAutoRaise(true);
  m_form->setContentsMargins(16, 0, 0, 4);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_header);
  layout->addWidget(m_body);
  connect(m_header, &QToolButton::toggled, this, &CollapsibleSection::setExpanded);
  setExpanded(false);
}

bool CollapsibleSection::isExpanded() const { return m_header->isChecked(); }

void CollapsibleSection::setExpanded(bool expanded) {
  m_header->setChecked(expanded);
  m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
  m_body->setVisible(expanded);
}

}  // namespace tw::ui
