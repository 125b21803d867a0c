#pragma once
// A titled group of form rows that folds away behind its header, so the Launch page can offer
// every run-file key without burying the common ones.
//
//   auto *schedule = new CollapsibleSection(tr("Schedule"), this);
//   schedule->form()->addRow(QStringLiteral("gamma"), gammaBox);
//   schedule->setExpanded(true);

#include <QWidget>

class QFormLayout;
class QToolButton;

namespace tw::ui {

class CollapsibleSection : public QWidget {
  Q_OBJECT

 public:
  explicit CollapsibleSection(const QString &title, QWidget *parent = nullptr);

  QFormLayout *form() const { return m_form; }
  QToolButton *header() const { return m_header; }
  bool isExpanded() const;
  void setExpanded(bool expanded);

 private:
  QToolButton *m_header;
  QWidget *m_body;
  QFormLayout *m_form;
};

}  // namespace tw::ui
