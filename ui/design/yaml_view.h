#pragma once
// The model as YAML, synchronised both ways: edits on the canvas rewrite the text, and text typed
// here replaces the model half a second after the last keystroke, as one undoable step, when it
// parses. When it does not, the model stays as it was and the error shows under the text.

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTimer;

namespace tw::ui {

class ModelDocument;

class YamlView : public QWidget {
  Q_OBJECT

 public:
  explicit YamlView(ModelDocument *document, QWidget *parent = nullptr);
  QPlainTextEdit *editor() const { return m_editor; }
  QString error() const;
  void applyNow();  // what the debounce timer does

 private:
  void showModel();

  ModelDocument *m_document;
  QPlainTextEdit *m_editor;
  QLabel *m_error;
  QTimer *m_debounce;
  bool m_applying = false;
};

}  // namespace tw::ui
