// NVML through dlopen. With NVIDIA's driver every GPU is listed with sane readings, in the order
// and number the driver reports; without one the readings are skipped (QSKIP says why) and what
// is checked is that Nvml says why in words and samples nothing.

#include "core/sysmon/nvml.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

#include <cmath>
#include <set>

class TestNvml : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void readsEveryGpu() {
    tw::sysmon::Nvml nvml;
    if (!nvml.available()) QSKIP(qPrintable(QStringLiteral("no GPU readings to check: %1")
                                                .arg(QString::fromStdString(nvml.why()))));
    const auto gpus = nvml.sample();
    QVERIFY(!gpus.empty());
    std::set<int> indices;
    for (const auto &gpu : gpus) {
      const std::string where = "GPU " + std::to_string(gpu.index) + " (" + gpu.name + ")";
      QVERIFY2(indices.insert(gpu.index).second, where.c_str());
      QVERIFY2(!gpu.name.empty(), where.c_str());
      QVERIFY2(gpu.memoryTotalMb > 0, where.c_str());
      QVERIFY2(gpu.memoryUsedMb >= 0 && gpu.memoryUsedMb <= gpu.memoryTotalMb, where.c_str());
      QVERIFY2(gpu.utilPercent >= 0 && gpu.utilPercent <= 100, where.c_str());
      QVERIFY2(gpu.temperatureC > 0 && gpu.temperatureC < 130, where.c_str());
      QVERIFY2(gpu.powerW >= 0 && gpu.powerW < 2000, where.c_str());
    }
    // Indices are the driver's 0..N-1.
    QCOMPARE(*indices.begin(), 0);
    QCOMPARE(*indices.rbegin(), int(gpus.size()) - 1);
  }

  // The driver's own tool sees the same GPUs, by index, with the same names and total memory.
  void agreesWithNvidiaSmi() {
    tw::sysmon::Nvml nvml;
    if (!nvml.available()) QSKIP(qPrintable(QString::fromStdString(nvml.why())));
    const QString smi = QStandardPaths::findExecutable(QStringLiteral("nvidia-smi"));
    if (smi.isEmpty()) QSKIP("nvidia-smi is not installed: nothing to compare with");
    const auto gpus = nvml.sample();
    QProcess query;
    query.start(smi, {"--query-gpu=index,name,memory.total", "--format=csv,noheader,nounits"});
    QVERIFY(query.waitForFinished(30000));
    const QStringList lines = QString::fromUtf8(query.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), int(gpus.size()));
    for (const auto &gpu : gpus) {
      const QStringList fields = lines.at(gpu.index).split(',');
      QCOMPARE(fields.size(), 3);
      QCOMPARE(fields[0].trimmed().toInt(), gpu.index);
      QCOMPARE(fields[1].trimmed(), QString::fromStdString(gpu.name));
      QVERIFY2(std::abs(fields[2].trimmed().toDouble() - gpu.memoryTotalMb) <= 1.0, qPrintable(lines.at(gpu.index)));
    }
  }

  void saysWhyWhenThereIsNoGpu() {
    tw::sysmon::Nvml nvml;
    if (nvml.available()) QSKIP("this machine has an NVIDIA GPU; readsEveryGpu checks it");
    QVERIFY2(QString::fromStdString(nvml.why()).startsWith("no NVIDIA GPU (") ||
                 QString::fromStdString(nvml.why()).startsWith("NVML is too old"),
             nvml.why().c_str());
    QVERIFY(nvml.sample().empty());
  }
};

QTEST_GUILESS_MAIN(TestNvml)
#include "test_nvml.moc"
