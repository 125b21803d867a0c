#include "ui/compare/empty_state.h"

#include <QEvent>

namespace tw::ui {

EmptyState::EmptyState(QWidget *covered) : QLabel(covered) {
  setObjectName(QStringLiteral("emptyState"));
  setAlignment(Qt::AlignCenter);
  setWordWrap(true);
  setMargin(24);
  // Opaque: an empty chart's axes behind the words would read as a chart with no data in it.
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Window);
  setForegroundRole(QPalette::PlaceholderText);
  covered->installEventFilter(this);
  setGeometry(covered->rect());
  hide();
}

void EmptyState::showMessage(const QString &text) {
  setText(text);
  setGeometry(parentWidget()->rect());
  raise();  // above children the view added after this one (a chart built per comparison)
  show();
}

void EmptyState::clear() { hide(); }

QString EmptyState::selectRunsMessage() { return tr("Select two or more runs on Runs and press Compare."); }

bool EmptyState::eventFilter(QObject *watched, QEvent *event) {
  if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
  return QLabel::eventFilter(watched, event);
}

}  // namespace tw::ui
