// The Design page's fine-tuning keys, driven through the real page, form and document: the
// Fine-tuning group shows for nodes with parameters; clearing Trainable writes `trainable: false`,
// marks the node frozen on the canvas and splits the status line's parameter count, and undo takes
// it back; a learning-rate factor of 0, -0.5 or "abc" is refused red with nothing changed, 0.1 is
// written as `lr_factor: 0.1` and tagged on the node; a block instance's keys reach its members,
// each edited on its own; the tags read in a light and a dark palette.

#include "studio_fixture.h"

#include "ui/design/design_page.h"
#include "ui/design/fine_tuning_fields.h"
#include "ui/design/graph_scene.h"
#include "ui/design/model_document.h"
#include "ui/design/node_item.h"
#include "ui/design/property_editor.h"
#include "ui/design/yaml_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QGraphicsScene>
#include <QLineEdit>
#include <QPainter>
#include <QPlainTextEdit>
#include <QStyleOptionButton>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <memory>

using tw::ui::DesignPage;
using tw::ui::ModelDocument;
using tw::ui::NodeItem;

namespace {

// fc1: 4 * 3 + 3 = 15 parameters, fc2: 3 * 2 + 2 = 8; act has none.
const char *kModel = R"(
name: tiny
nodes:
  - {id: x, op: Input, shape: [4]}
  - {id: fc1, op: Linear, out_features: 3}
  - {id: act, op: ReLU}
  - {id: fc2, op: Linear, out_features: 2}
)";

// A block instance frozen as a whole: its members inherit the key, each written on its own.
const char *kBlockModel = R"(
name: blocks
blocks:
  dense:
    params: {width: 3}
    inputs: [x]
    nodes:
      - {id: fc, op: Linear, out_features: $width, inputs: [x]}
      - {id: act, op: ReLU}
    output: act
nodes:
  - {id: x, op: Input, shape: [4]}
  - {id: h1, block: dense, trainable: false}
  - {id: out, op: Linear, out_features: 2}
)";

QPalette darkPalette() {
  QPalette dark;
  dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
  dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
  dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
  dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
  return dark;
}

// One node drawn at zoom 1 on the window colour, as the canvas draws it.
QImage renderNode(NodeItem *item) {
  QGraphicsScene scene;
  scene.addItem(item);
  QImage image(QSize(int(NodeItem::kWidth), int(NodeItem::kHeight)), QImage::Format_ARGB32);
  image.fill(QApplication::palette().color(QPalette::Window));
  QPainter painter(&image);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  const QRectF box(0, 0, NodeItem::kWidth, NodeItem::kHeight);
  scene.render(&painter, box, box, Qt::IgnoreAspectRatio);
  painter.end();
  scene.removeItem(item);
  return image;
}

// Pixels in `area` drawn in (nearly) `color`: the text of a tag drawn in that colour.
int pixelsNear(const QImage &image, const QRect &area, const QColor &color) {
  int n = 0;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x)
      if (std::abs(qGray(image.pixel(x, y)) - qGray(color.rgb())) < 50) ++n;
  return n;
}

double meanGray(const QImage &image, const QRect &area) {
  double sum = 0;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x) sum += qGray(image.pixel(x, y));
  return sum / (area.width() * area.height());
}

}  // namespace

class TestDesignFineTuning : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  std::unique_ptr<DesignPage> m_page;

  // The page with kModel (or `yaml`) opened from a file, `id` selected so that its form shows.
  DesignPage &pageWith(const QString &id, const char *yaml = kModel) {
    const QString path = m_dir.filePath(QStringLiteral("fine_tuning.model.yaml"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(yaml) < 0) qFatal("cannot write %s", qPrintable(path));
    file.close();
    m_page = std::make_unique<DesignPage>();
    m_page->resize(1400, 900);
    m_page->show();
    if (!QTest::qWaitForWindowExposed(m_page.get())) qFatal("the page is not shown");
    QString error;
    if (!m_page->openFile(path, &error)) qFatal("%s", qPrintable(error));
    m_page->scene()->selectNode(id);
    return *m_page;
  }
  tw::ui::FineTuningFields *fields() const { return m_page->properties()->fineTuning(); }
  const tw::spec::Node &node(const char *id) const { return *m_page->document()->node(QString::fromLatin1(id)); }
  NodeItem *item(const char *id) const { return m_page->scene()->nodeItem(QString::fromLatin1(id)); }

  // Clicks the Trainable box on its indicator, where a person clicks it.
  void clickTrainable() {
    QCheckBox *box = fields()->trainableBox();
    QStyleOptionButton option;
    option.initFrom(box);
    const QRect indicator = box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box);
    QTest::mouseClick(box, Qt::LeftButton, Qt::NoModifier, indicator.center());
  }

  // Types into the factor field as a person does, ending with Return.
  void typeFactor(const QString &text) {
    QLineEdit *edit = fields()->lrFactorEdit();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
  }

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_dir.path()); }
  void cleanup() {
    m_page.reset();
    QApplication::setPalette(QPalette());  // the platform's own again
  }

  // The group is for nodes with parameters, below the op's own rows; a ReLU has none to train.
  void groupShowsForNodesWithParameters() {
    DesignPage &page = pageWith(QStringLiteral("fc1"));
    QTRY_VERIFY(fields()->isVisible());
    QVERIFY(fields()->trainableBox()->isChecked());
    QVERIFY(fields()->lrFactorEdit()->isEnabled());
    QCOMPARE(fields()->lrFactorEdit()->text(), QString());  // the default, as a placeholder
    QWidget *lastParam = page.properties()->editorFor(QStringLiteral("out_features"));
    QVERIFY(lastParam);
    QVERIFY(fields()->mapTo(page.properties(), QPoint(0, 0)).y() >
            lastParam->mapTo(page.properties(), QPoint(0, 0)).y());
    page.scene()->selectNode(QStringLiteral("act"));
    QCOMPARE(page.properties()->nodeId(), QStringLiteral("act"));
    QVERIFY(!fields()->isVisible());
  }

  // Clearing Trainable: one undo step, `trainable: false` in the file, the node frozen on the
  // canvas, the split in the status line; undo and redo take it back and forth.
  void trainableToggleFreezesUndoably() {
    DesignPage &page = pageWith(QStringLiteral("fc1"));
    ModelDocument *doc = page.document();
    QVERIFY(!doc->toYaml().contains(QStringLiteral("trainable")));
    QVERIFY(!item("fc1")->isFrozen());
    QVERIFY2(page.statusText().contains(QStringLiteral("Parameters: 23")), qPrintable(page.statusText()));
    QVERIFY(!page.statusText().contains(QStringLiteral("frozen")));

    clickTrainable();
    QCOMPARE(doc->undoStack()->count(), 1);
    QVERIFY(!node("fc1").trainable);
    QVERIFY(node("fc2").trainable);
    QVERIFY2(doc->toYaml().contains(QStringLiteral("trainable: false")), qPrintable(doc->toYaml()));
    QVERIFY(page.yamlView()->editor()->toPlainText().contains(QStringLiteral("trainable: false")));
    QVERIFY(item("fc1")->isFrozen());
    QCOMPARE(item("fc1")->fineTuningTag(), QStringLiteral("frozen"));
    QVERIFY(!item("fc2")->isFrozen());
    QCOMPARE(doc->analysis().trainableParams, int64_t(8));
    QVERIFY2(page.statusText().contains(QStringLiteral("Parameters: 23 (8 trainable, 15 frozen)")),
             qPrintable(page.statusText()));
    QVERIFY(!fields()->trainableBox()->isChecked());
    QVERIFY(!fields()->lrFactorEdit()->isEnabled());  // a frozen node has no rate to scale

    doc->undoStack()->undo();
    QVERIFY(node("fc1").trainable);
    QVERIFY(!doc->toYaml().contains(QStringLiteral("trainable")));
    QVERIFY(!item("fc1")->isFrozen());
    QCOMPARE(item("fc1")->fineTuningTag(), QString());
    QVERIFY(fields()->trainableBox()->isChecked());
    QVERIFY(!page.statusText().contains(QStringLiteral("frozen")));
    doc->undoStack()->redo();
    QVERIFY(item("fc1")->isFrozen());
    QVERIFY(!fields()->trainableBox()->isChecked());
    doc->setLrFactor(QStringLiteral("fc2"), 0.1);  // both marks in the screenshot
    QVERIFY(page.grab().save(tw::test::screenshotPath(QStringLiteral("design_fine_tuning.png"))));
  }

  // What the parser refuses is refused in the form: red, the reason under it and in the status
  // line, and the model, its file and its history as they were.
  void refusedFactor_data() {
    QTest::addColumn<QString>("typed");
    QTest::newRow("zero") << QStringLiteral("0");
    QTest::newRow("negative") << QStringLiteral("-0.5");
    QTest::newRow("not a number") << QStringLiteral("abc");
    QTest::newRow("infinite") << QStringLiteral("inf");
  }
  void refusedFactor() {
    QFETCH(QString, typed);
    DesignPage &page = pageWith(QStringLiteral("fc1"));
    ModelDocument *doc = page.document();
    const QString before = doc->toYaml();
    QLineEdit *edit = fields()->lrFactorEdit();
    const QColor normal = edit->palette().color(QPalette::Text);
    QSignalSpy refused(page.properties(), &tw::ui::PropertyEditor::paramRefused);

    typeFactor(typed);
    QCOMPARE(refused.size(), 1);
    QCOMPARE(refused.at(0).at(1).toString(), QStringLiteral("lr_factor"));
    QVERIFY(!fields()->problem().isEmpty());
    QCOMPARE(edit->text(), typed);  // left for the person to fix
    QVERIFY(edit->palette().color(QPalette::Text) != normal);
    QVERIFY2(page.statusText().contains(QStringLiteral("lr_factor")) &&
                 page.statusText().contains(QStringLiteral("Not applied")),
             qPrintable(page.statusText()));
    QCOMPARE(doc->undoStack()->count(), 0);
    QCOMPARE(node("fc1").lrFactor, 1.0);
    QCOMPARE(doc->toYaml(), before);
    QCOMPARE(item("fc1")->fineTuningTag(), QString());

    // A good value afterwards clears the red and is applied.
    typeFactor(QStringLiteral("2"));
    QVERIFY(fields()->problem().isEmpty());
    QCOMPARE(edit->palette().color(QPalette::Text), normal);
    QCOMPARE(node("fc1").lrFactor, 2.0);
  }

  // 0.1 is applied as one step, written as lr_factor: 0.1 and tagged on the node; undo restores 1.
  void factorApplied() {
    DesignPage &page = pageWith(QStringLiteral("fc2"));
    ModelDocument *doc = page.document();
    typeFactor(QStringLiteral("0.1"));
    QCOMPARE(doc->undoStack()->count(), 1);
    QCOMPARE(node("fc2").lrFactor, 0.1);
    QCOMPARE(node("fc1").lrFactor, 1.0);
    QVERIFY2(doc->toYaml().contains(QStringLiteral("lr_factor: 0.1")), qPrintable(doc->toYaml()));
    QCOMPARE(item("fc2")->fineTuningTag(), QStringLiteral("lr ×0.1"));
    QVERIFY(!item("fc2")->isFrozen());
    QVERIFY(!page.statusText().contains(QStringLiteral("frozen")));  // scaled is still trainable

    // The same value again is no new step.
    typeFactor(QStringLiteral("0.1"));
    QCOMPARE(doc->undoStack()->count(), 1);

    doc->undoStack()->undo();
    QCOMPARE(node("fc2").lrFactor, 1.0);
    QVERIFY(!doc->toYaml().contains(QStringLiteral("lr_factor")));
    QCOMPARE(item("fc2")->fineTuningTag(), QString());
    QCOMPARE(fields()->lrFactorEdit()->text(), QString());

    // Emptying a written factor goes back to the default, as its own step.
    doc->undoStack()->redo();
    QCOMPARE(fields()->lrFactorEdit()->text(), QStringLiteral("0.1"));
    typeFactor(QString());
    QCOMPARE(doc->undoStack()->count(), 2);
    QCOMPARE(node("fc2").lrFactor, 1.0);
  }

  // The document holds a block instance's members as nodes ("h1.fc", "h1.act"): the instance's
  // key shows on each of them, and the form changes the one selected.
  void blockInstanceMembersEachCarryTheKeys() {
    DesignPage &page = pageWith(QStringLiteral("h1.fc"), kBlockModel);
    ModelDocument *doc = page.document();
    QVERIFY(item("h1.fc")->isFrozen());
    QVERIFY(item("h1.act")->isFrozen());
    QVERIFY(!item("out")->isFrozen());
    QVERIFY(!fields()->trainableBox()->isChecked());
    // A parameterless member keeps the group while the key is set, so it can be taken back.
    page.scene()->selectNode(QStringLiteral("h1.act"));
    QVERIFY(fields()->isVisible());
    QVERIFY(!fields()->trainableBox()->isChecked());

    page.scene()->selectNode(QStringLiteral("h1.fc"));
    clickTrainable();
    QCOMPARE(doc->undoStack()->count(), 1);
    QVERIFY(node("h1.fc").trainable);
    QVERIFY(!node("h1.act").trainable);
    QVERIFY(!item("h1.fc")->isFrozen());
    QVERIFY(item("h1.act")->isFrozen());
  }

  // A frozen node is drawn muted (its fill differs from an unfrozen one's) and its tag in the
  // window's text colour, readable in a light and in a dark palette.
  // The memory toggle: any node but an input; on, one undo step writes checkpoint_activations
  // and the engine gets a segment; undo takes it out. A checkpointed block instance's member says
  // it is recomputed with its instance.
  void checkpointToggleWritesTheKeyUndoably() {
    DesignPage &page = pageWith(QStringLiteral("act"));
    ModelDocument *doc = page.document();
    QCheckBox *box = page.properties()->checkpointBox();
    QTRY_VERIFY(box->isVisible());
    QVERIFY(!box->isChecked());
    box->click();
    QCOMPARE(doc->undoStack()->count(), 1);
    QCOMPARE(node("act").checkpointSegment, std::string("act"));
    QVERIFY2(doc->toYaml().contains(QStringLiteral("checkpoint_activations: true")), qPrintable(doc->toYaml()));
    QCOMPARE(doc->analysis().find("act")->checkpointSegment, std::string("act"));
    doc->undoStack()->undo();
    QCOMPARE(node("act").checkpointSegment, std::string());
    QVERIFY(!doc->toYaml().contains(QStringLiteral("checkpoint_activations")));
    QTRY_VERIFY(!box->isChecked());
    page.scene()->selectNode(QStringLiteral("x"));
    QTRY_VERIFY(!box->isVisible());  // an input has nothing to recompute

    const char *checkpointedBlock = R"(
name: blocks
blocks:
  dense:
    inputs: [x]
    nodes:
      - {id: fc, op: Linear, out_features: 3, inputs: [x]}
      - {id: act, op: ReLU}
    output: act
nodes:
  - {id: x, op: Input, shape: [4]}
  - {id: h1, block: dense, checkpoint_activations: true}
  - {id: out, op: Linear, out_features: 2}
)";
    DesignPage &blocks = pageWith(QStringLiteral("h1.fc"), checkpointedBlock);
    QCheckBox *member = blocks.properties()->checkpointBox();
    QTRY_VERIFY(member->isChecked());
    QCOMPARE(member->text(), QStringLiteral("Recomputed in the backward pass with h1"));
    QVERIFY2(blocks.document()->toYaml().contains(QStringLiteral("checkpoint_activations: h1")),
             qPrintable(blocks.document()->toYaml()));
  }

  void tagsReadInLightAndDark_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void tagsReadInLightAndDark() {
    QFETCH(bool, dark);
    if (dark) QApplication::setPalette(darkPalette());
    const QPalette palette = QApplication::palette();
    auto *plain = new NodeItem(QStringLiteral("fc"));
    plain->setContent(QStringLiteral("Linear"), QStringLiteral("[3]"), 15, QString(), false);
    auto *frozen = new NodeItem(QStringLiteral("fc"));
    frozen->setContent(QStringLiteral("Linear"), QStringLiteral("[3]"), 15, QString(), false);
    frozen->setFineTuning(false, 1.0);
    auto *scaled = new NodeItem(QStringLiteral("fc"));
    scaled->setContent(QStringLiteral("Linear"), QStringLiteral("[3]"), 15, QString(), false);
    scaled->setFineTuning(true, 0.1);
    const QImage plainImage = renderNode(plain), frozenImage = renderNode(frozen), scaledImage = renderNode(scaled);
    QVERIFY(frozenImage.save(tw::test::screenshotPath(dark ? QStringLiteral("design_frozen_dark.png") : QStringLiteral("design_frozen_light.png"))));
    delete plain;
    delete frozen;
    delete scaled;

    // The title row's right end: empty on the plain node, the tag's text on the others.
    const QRect tagArea(100, 7, 100, 13);
    const QColor tagText = palette.color(QPalette::WindowText);
    QCOMPARE(pixelsNear(plainImage, tagArea, tagText), 0);
    QVERIFY2(pixelsNear(frozenImage, tagArea, tagText) >= 15, "the frozen tag is not drawn readably");
    QVERIFY2(pixelsNear(scaledImage, tagArea, tagText) >= 15, "the lr tag is not drawn readably");
    // Between the shape and the parameter count nothing is drawn: the fill alone.
    const QRect fillArea(90, 46, 16, 8);
    QVERIFY2(std::abs(meanGray(frozenImage, fillArea) - meanGray(plainImage, fillArea)) > 8,
             "the frozen node's fill is not muted");
    QVERIFY(std::abs(meanGray(scaledImage, fillArea) - meanGray(plainImage, fillArea)) < 1);
  }
};

QTEST_MAIN(TestDesignFineTuning)
#include "test_design_fine_tuning.moc"
