// On demand, not a CTest test: how long Studio's data preview takes on a folder, through the same
// reader the Launch page calls on its worker thread (ui/launch/data_preview_readers.h). Prints the
// seconds of each of `repeat` previews (the first lists the folder cold in the dentry cache, the
// rest warm), the examples and classes counted, and a JSON line.
//
//   bench_preview DATASET PATH [repeat]     e.g. bench_preview image-folder /tmp/million 3
#include "ui/launch/data_preview_readers.h"

#include <QGuiApplication>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <numeric>

int main(int argc, char **argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);  // the preview draws its grid with QPainter
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_preview DATASET PATH [repeat]\n");
    return 2;
  }
  tw::ui::DataPreviewRequest request;
  request.dataset = QString::fromLocal8Bit(argv[1]);
  request.path = QString::fromLocal8Bit(argv[2]);
  const int repeat = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  std::string seconds;
  for (int i = 0; i < repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    tw::ui::DataPreviewResult result;
    try {
      result = tw::ui::readDataPreview(request);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.error.isEmpty()) {
      std::fprintf(stderr, "%s\n", qPrintable(result.error));
      return 1;
    }
    const int64_t examples = std::accumulate(result.classCounts.begin(), result.classCounts.end(), int64_t(0));
    std::printf("preview %d: %.3f s, %lld examples in %lld classes\n", i + 1, s, static_cast<long long>(examples),
                static_cast<long long>(result.classCounts.size()));
    seconds += (seconds.empty() ? "" : ", ") + std::to_string(s);
  }
  std::printf("{\"bench\": \"preview\", \"dataset\": \"%s\", \"seconds\": [%s]}\n", argv[1], seconds.c_str());
  return 0;
}
