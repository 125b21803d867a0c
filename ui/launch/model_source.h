#pragma once
// Which model a launch trains: the Design page's open design, or a model file the run file then
// names (`model: path`) instead of carrying the design inline. Says which, in words.
//
//   ModelSource *source = new ModelSource(document, this);
//   source->setModelFile("/data/models/cnn.model.yaml");   // switches to "Model file..."
//   yaml += source->usesFile() ? "model: '" + source->modelFile() + "'\n" : inlineDesign;

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace tw::ui {

class ModelDocument;

class ModelSource : public QWidget {
  Q_OBJECT

 public:
  explicit ModelSource(ModelDocument *document, QWidget *parent = nullptr);

  QComboBox *choice() const { return m_choice; }
  QLineEdit *fileField() const { return m_file; }
  QPushButton *browseButton() const { return m_browse; }
  // "Model: the open design mlp (5 nodes)" or "Model: file /path/cnn.model.yaml".
  QString summary() const;

  bool usesFile() const;
  QString modelFile() const;  // trimmed; empty when none is chosen
  void setModelFile(const QString &path);
  void useOpenDesign();
  // Where Browse starts when no file is chosen yet.
  void setStartFolder(const QString &folder) { m_startFolder = folder; }

 protected:
  void resizeEvent(QResizeEvent *event) override;

 private:
  void fitSummaryHeight();
  void browse();
  void refresh();

  ModelDocument *m_document;
  QComboBox *m_choice;
  QLineEdit *m_file;
  QPushButton *m_browse;
  QLabel *m_summary;
  QString m_startFolder;
};

}  // namespace tw::ui
