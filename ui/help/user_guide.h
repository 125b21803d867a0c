#pragma once
// Help > User Guide: the README's "A tour of Studio" (with the page screenshots) and "Studio"
// sections, or, under a translation, that translation's own guide (docs/user_guide_de.md with
// the German screenshots under docs/studio/de/), all embedded in the binary at build time
// (ui/CMakeLists.txt, under ":/guide/"), rendered as Markdown with the images resolved inside
// the binary. It works offline and cannot disagree with the README it was built from.

#include <QDialog>
#include <QString>
#include <QStringList>

class QPushButton;
class QTextBrowser;
class QTextDocument;

namespace tw::ui {

// The "## <heading>" section of `markdown` up to the next "## " heading, the heading included;
// the whole text when there is no such section (a renamed heading still shows the guide).
QString markdownSection(const QString &markdown, const QString &heading);
// The guide's language: the loaded translation's own code ("de"), "en" without one.
QString guideLanguage();
// The embedded guide in `language`: docs/user_guide_<language>.md when the build has it, else
// the README's tour and Studio sections.
QString studioGuideMarkdown(const QString &language = guideLanguage());
// Where the guide's relative image paths ("docs/studio/runs.png") are found: inside the binary.
QString guideResourceRoot();
// The image names a rendered document refers to, in order.
QStringList documentImages(const QTextDocument *document);

class UserGuideDialog : public QDialog {
  Q_OBJECT

 public:
  explicit UserGuideDialog(QWidget *parent = nullptr);
  QTextBrowser *browser() const { return m_browser; }
  QPushButton *closeButton() const { return m_close; }

 private:
  QTextBrowser *m_browser;
  QPushButton *m_close;
};

}  // namespace tw::ui
