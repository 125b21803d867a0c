#pragma once
// The model as YAML, synchronised both ways: edits on the canvas rewrite the text, and text typed
// here replaces the model half a second after the last keystroke, as one undoable step, when it
// parses. When it does not, the model stays as it was, the error shows under the text with its
// line and column, and that line is marked. Long lines scroll sideways rather than wrap, so the
// indentation YAML depends on stays visible.

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
  int errorLine() const { return m_errorLine; }  // 1-based; 0 when none
  void applyNow();  // what the debounce timer does

 private:
  void showModel();
  void markLine(int line);

  ModelDocument *m_document;
  QPlainTextEdit *m_editor;
  QLabel *m_error;
  QTimer *m_debounce;
  bool m_applying = false;
  int m_errorLine = 0;
};

}  // namespace tw::ui
