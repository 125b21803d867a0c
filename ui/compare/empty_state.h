#pragma once
// A message over a view that has nothing to show, saying what to do next ("Select two or more
// runs on Runs and press Compare."), instead of an empty frame that looks broken. It covers the
// view it is made for and follows its size; hidden, the view shows as usual.
//
//   auto *empty = new EmptyState(m_chart);
//   empty->showMessage(EmptyState::selectRunsMessage());
//   empty->clear();   // once there is something to draw

#include <QLabel>

namespace tw::ui {

class EmptyState : public QLabel {
  Q_OBJECT

 public:
  explicit EmptyState(QWidget *covered);

  void showMessage(const QString &text);
  void clear();
  // The message shown now; empty when the view shows its content.
  QString message() const { return isHidden() ? QString() : text(); }

  // What every Compare tab says before there is a comparison.
  static QString selectRunsMessage();

 protected:
  bool eventFilter(QObject *watched, QEvent *event) override;
};

}  // namespace tw::ui
