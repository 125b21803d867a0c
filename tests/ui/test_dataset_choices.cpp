// The Launch page's data sources say which datasets are on this machine. The lookup is the
// loader's own (core/data/dataset_presence.h), pointed here at folders of the test's making with
// TORCHWRIGHT_DATASETS_DIR: an empty one has no Fashion-MNIST, one with its four files has it.

#include "studio_fixture.h"

#include "core/data/dataset_presence.h"
#include "core/data/idx.h"
#include "ui/design/model_document.h"
#include "ui/launch/dataset_choices.h"
#include "ui/launch/launch_page.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QtTest>

namespace {

int indexOf(const QComboBox *box, const char *text) { return box->findText(QString::fromLatin1(text)); }

// What the open list shows for an item.
QString shownInList(const QComboBox *box, int index) { return tw::ui::datasetListText(box->model()->index(index, 0)); }

}  // namespace

class TestDatasetChoices : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }
  void cleanup() { qunsetenv("TORCHWRIGHT_DATASETS_DIR"); }

  void aMissingDatasetSaysHowToGetIt() {
    QTemporaryDir empty;
    qputenv("TORCHWRIGHT_DATASETS_DIR", empty.path().toUtf8());
    QVERIFY(!tw::data::datasetInstalled("fashion-mnist"));
    QVERIFY(tw::data::datasetInstalled("spirals"));  // generated: nothing to install

    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    page.show();
    QComboBox *box = page.dataset();
    const int fashion = indexOf(box, "fashion-mnist");
    QVERIFY(fashion >= 0);
    QVERIFY(tw::ui::datasetMarkedMissing(box, fashion));
    QVERIFY(!tw::ui::datasetMarkedMissing(box, indexOf(box, "spirals")));
    QCOMPARE(shownInList(box, fashion), QStringLiteral("fashion-mnist (not installed)"));
    QCOMPARE(shownInList(box, indexOf(box, "spirals")), QStringLiteral("spirals"));
    QVERIFY(box->itemData(fashion, Qt::ToolTipRole).toString().contains(
        QStringLiteral("sudo apt-get install dataset-fashion-mnist")));
    QVERIFY(!box->itemIcon(fashion).isNull());
    // The run file still gets the source's name.
    box->setCurrentIndex(fashion);
    QCOMPARE(box->currentText(), QStringLiteral("fashion-mnist"));
    QVERIFY(page.datasetNote()->isVisible());
    QVERIFY2(page.datasetNote()->text().contains(QStringLiteral("dataset-fashion-mnist")),
             qPrintable(page.datasetNote()->text()));
    // A folder of one's own is read instead of the system's copy: nothing to install then.
    page.dataPath()->setText(empty.path());
    QVERIFY(!page.datasetNote()->isVisible());
    // Spirals are generated: nothing to install.
    page.dataPath()->clear();
    QVERIFY(page.datasetNote()->isVisible());
    box->setCurrentIndex(indexOf(box, "spirals"));
    QVERIFY(!page.datasetNote()->isVisible());
  }

  void anInstalledDatasetIsPlain() {
    QTemporaryDir root;
    QVERIFY(QDir(root.path()).mkpath(QStringLiteral("fashion-mnist")));
    for (const std::string &stem : tw::data::idxFileStems()) {
      QFile file(root.path() + QStringLiteral("/fashion-mnist/") + QString::fromStdString(stem) + QStringLiteral(".gz"));
      QVERIFY(file.open(QIODevice::WriteOnly));
    }
    qputenv("TORCHWRIGHT_DATASETS_DIR", root.path().toUtf8());
    QVERIFY(tw::data::datasetInstalled("fashion-mnist"));
    QVERIFY(!tw::data::datasetInstalled("mnist"));  // the same root, no mnist folder

    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    page.show();
    QComboBox *box = page.dataset();
    const int fashion = indexOf(box, "fashion-mnist");
    QVERIFY(!tw::ui::datasetMarkedMissing(box, fashion));
    QCOMPARE(shownInList(box, fashion), QStringLiteral("fashion-mnist"));
    QVERIFY(tw::ui::datasetMarkedMissing(box, indexOf(box, "mnist")));
    box->setCurrentIndex(fashion);
    QVERIFY(!page.datasetNote()->isVisible());
  }

 private:
  QTemporaryDir m_settings;
};

QTEST_MAIN(TestDatasetChoices)
#include "test_dataset_choices.moc"
