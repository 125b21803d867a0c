#pragma once
// What a new sweep trains, said before Start: every trial starts from the run the Launch page
// would launch (its model: the open design or the model file it names; its data source), with
// the searched keys changed. The box names both and takes a person to the Launch page to change
// them, so a sweep never trains a model or data nobody looked at.
//
//   auto *box = new BaseRunBox(launchPage, designPage->document(), this);
//   connect(box, &BaseRunBox::changeRequested, mainWindow, [&] { pages->setCurrentWidget(launchPage); });
//   box->refresh();   // when the Sweeps page is shown or the model changes

#include <QGroupBox>

class QLabel;
class QPushButton;

namespace tw::ui {

class LaunchPage;
class ModelDocument;

class BaseRunBox : public QGroupBox {
  Q_OBJECT

 public:
  BaseRunBox(LaunchPage *launch, ModelDocument *model, QWidget *parent = nullptr);

  // Reads the Launch page's form and the model again.
  void refresh();
  // "“spiral”, the Design page's design" and "spirals", as shown.
  QString modelText() const;
  QString dataText() const;
  QLabel *label() const { return m_label; }
  QPushButton *changeButton() const { return m_change; }

 Q_SIGNALS:
  void changeRequested();

 private:
  LaunchPage *m_launch;
  ModelDocument *m_model;
  QLabel *m_label;
  QPushButton *m_change;
};

}  // namespace tw::ui
