#pragma once
// Help > User Guide: the README's Studio section, embedded in the binary at build time
// (ui/CMakeLists.txt, ":/guide/README.md"), rendered as Markdown. It works offline and cannot
// disagree with the README it was built from.

#include <QDialog>
#include <QString>

class QTextBrowser;

namespace tw::ui {

// The "## <heading>" section of `markdown` up to the next "## " heading, the heading included;
// the whole text when there is no such section (a renamed heading still shows the guide).
QString markdownSection(const QString &markdown, const QString &heading);
// The embedded README's Studio section.
QString studioGuideMarkdown();

class UserGuideDialog : public QDialog {
  Q_OBJECT

 public:
  explicit UserGuideDialog(QWidget *parent = nullptr);
  QTextBrowser *browser() const { return m_browser; }

 private:
  QTextBrowser *m_browser;
};

}  // namespace tw::ui
