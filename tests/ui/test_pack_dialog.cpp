// File > Pack Dataset… on the offscreen platform with real files: a folder packed with progress
// into a set that reads back, Use in Launch filling the Launch page, a cancelled pack leaving
// nothing behind, and a bad source named in the dialog.
#include "core/data/shape_images.h"
#include "core/data/shard_set.h"
#include "ui/launch/pack_dialog.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace tw;
using tw::ui::PackDialog;

namespace {

// A folder of shape images with `perClass` of each of the three classes.
QString writeShapes(const QTemporaryDir &tmp, const char *name, int perClass, int size) {
  const QString images = tmp.path() + "/" + name;
  data::ShapeImageOptions shapes;
  shapes.perClass = perClass;
  shapes.size = size;
  data::writeShapeImages(images.toStdString(), shapes);
  return images;
}

}  // namespace

class TestPackDialog : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void packsAFolderWithProgress() {
    QTemporaryDir tmp;
    const QString images = writeShapes(tmp, "shapes", 40, 12), out = tmp.path() + "/shards";
    PackDialog dialog;
    dialog.show();
    dialog.sourceEdit()->setText(images);
    dialog.outputEdit()->setText(out);
    QVERIFY(!dialog.useButton()->isEnabled());
    QSignalSpy use(&dialog, &PackDialog::useRequested);
    dialog.packButton()->click();
    QCOMPARE(dialog.state(), PackDialog::State::Packing);
    QVERIFY(!dialog.packButton()->isEnabled() && dialog.cancelButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(dialog.state() != PackDialog::State::Packing, 30000);
    QVERIFY2(dialog.state() == PackDialog::State::Done, qPrintable(dialog.statusLabel()->text()));
    QCOMPARE(dialog.progressBar()->value(), 100);
    QVERIFY2(dialog.statusLabel()->text().contains("120"), qPrintable(dialog.statusLabel()->text()));
    const data::ShardManifest manifest = data::readShardManifest(out.toStdString());
    QCOMPARE(manifest.splits.at("train").examples, int64_t(120));
    QCOMPARE(manifest.info.classNames, (std::vector<std::string>{"circle", "square", "triangle"}));
    QVERIFY(dialog.useButton()->isEnabled());
    dialog.useButton()->click();
    QCOMPARE(use.count(), 1);
    QCOMPARE(use.first().first().toString(), out);
  }

  // "Store decoded pixels" packs the folder's 8-bit pixels as arrays.
  void packsDecodedPixelsWhenAsked() {
    QTemporaryDir tmp;
    const QString images = writeShapes(tmp, "shapes", 5, 12), out = tmp.path() + "/decoded";
    PackDialog dialog;
    dialog.show();
    dialog.sourceEdit()->setText(images);
    dialog.outputEdit()->setText(out);
    QVERIFY(!dialog.decodedBox()->isChecked());
    dialog.decodedBox()->setChecked(true);
    dialog.packButton()->click();
    QVERIFY(!dialog.decodedBox()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(dialog.state() != PackDialog::State::Packing, 30000);
    QVERIFY2(dialog.state() == PackDialog::State::Done, qPrintable(dialog.statusLabel()->text()));
    const data::ShardManifest manifest = data::readShardManifest(out.toStdString());
    QCOMPARE(manifest.info.kind, std::string("array"));
    QCOMPARE(manifest.info.dtype, std::string("uint8"));
    QCOMPARE(manifest.info.featureShape, (std::vector<int64_t>{3, 12, 12}));
    QCOMPARE(manifest.splits.at("train").examples, int64_t(15));
  }

  void cancellingRemovesThePartialOutput() {
    QTemporaryDir tmp;
    const QString images = writeShapes(tmp, "many", 1500, 8), out = tmp.path() + "/shards";
    PackDialog dialog;
    dialog.sourceEdit()->setText(images);
    dialog.outputEdit()->setText(out);
    dialog.shardSizeBox()->setValue(1);  // many shards: several files to remove
    dialog.packButton()->click();
    dialog.cancelButton()->click();  // before the 4,500 images are packed
    QTRY_VERIFY_WITH_TIMEOUT(dialog.state() != PackDialog::State::Packing, 30000);
    QVERIFY2(dialog.state() == PackDialog::State::Cancelled, qPrintable(dialog.statusLabel()->text()));
    QVERIFY(!dialog.useButton()->isEnabled());
    std::error_code ec;
    QVERIFY(!std::filesystem::exists(out.toStdString() + "/manifest.json", ec));
    QVERIFY(!std::filesystem::exists(out.toStdString() + "/train-000000.tar", ec));
  }

  void aBadSourceIsNamed() {
    QTemporaryDir tmp;
    PackDialog dialog;
    dialog.packButton()->click();
    QCOMPARE(dialog.state(), PackDialog::State::Failed);  // nothing given
    dialog.sourceEdit()->setText(tmp.path() + "/nowhere");
    dialog.outputEdit()->setText(tmp.path() + "/out");
    dialog.packButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(dialog.state() != PackDialog::State::Packing, 30000);
    QCOMPARE(dialog.state(), PackDialog::State::Failed);
    QVERIFY2(dialog.statusLabel()->text().contains(tmp.path() + "/nowhere: no such file or folder"),
             qPrintable(dialog.statusLabel()->text()));
  }
};

QTEST_MAIN(TestPackDialog)
#include "test_pack_dialog.moc"
