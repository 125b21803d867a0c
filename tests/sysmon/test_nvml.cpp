// NVML through dlopen: on a machine without NVIDIA's driver (CI, this project's build machines)
// it says so plainly and samples nothing; with one it lists every GPU with sane readings.

#include "core/sysmon/nvml.h"

#include <QtTest>

#include <dlfcn.h>

class TestNvml : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void answersWithOrWithoutADriver() {
    tw::sysmon::Nvml nvml;
    void *driver = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!nvml.available()) {
      QVERIFY2(QString::fromStdString(nvml.why()).contains("no NVIDIA GPU") ||
                   QString::fromStdString(nvml.why()).contains("NVML"),
               nvml.why().c_str());
      QVERIFY(nvml.sample().empty());
      return;
    }
    QVERIFY(driver);
    const auto gpus = nvml.sample();
    QVERIFY(!gpus.empty());
    for (const auto &gpu : gpus) {
      QVERIFY(gpu.memoryTotalMb > 0);
      QVERIFY(gpu.utilPercent >= 0 && gpu.utilPercent <= 100);
    }
  }
};

QTEST_GUILESS_MAIN(TestNvml)
#include "test_nvml.moc"
