// `torchwright report RUN... [-o report.html] [--force]`: one self-contained HTML page about the
// runs (app/common/run_report.h), for someone who does not run Torchwright.

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "app/cli/run_ref.h"
#include "app/cli/usage.h"
#include "app/common/progress_line.h"
#include "app/common/run_report.h"
#include "core/config/number_text.h"
#include "tracking/store.h"
#include "tracking/workspace_store.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace tw::cli {

int runReport(const CliArgs &args) {
  if (args.positionals.empty()) return usageError("report");
  const std::string out = args.option("--out", "report.html");
  std::error_code ec;
  if (std::filesystem::exists(out, ec) && !args.hasFlag("--force")) {
    std::fprintf(stderr, "torchwright: %s exists (write it again with --force to replace it)\n", out.c_str());
    return 1;
  }
  // A folder that is missing or not writable is refused before the runs are read.
  if (checkOutputFile(out).empty()) return 1;
  const std::string db = tracking::workspaceStore(args.workspace());
  if (!tracking::storeMayExist(db)) {
    std::fprintf(stderr, "torchwright: no tracking database at %s (train a run first, or pass --workspace)\n", db.c_str());
    return 1;
  }
  auto store = tracking::Store::open(db);
  std::vector<tracking::RunRecord> runs;
  for (const std::string &reference : args.positionals) {
    auto run = resolveRun(*store, reference);
    if (!run) return 1;
    runs.push_back(*run);
  }
  app::ProgressLine progress("writing the report:", "sections", app::kReportSections);
  const std::string html = app::runReport(*store, runs, [&](int done, int) { progress.update(done); });
  progress.finish();
  const std::string temporary = out + ".part";
  {
    std::ofstream file(temporary, std::ios::binary);
    file << html;
    if (!file) {
      std::fprintf(stderr, "torchwright: cannot write %s\n", temporary.c_str());
      std::filesystem::remove(temporary, ec);
      return 1;
    }
  }
  std::filesystem::rename(temporary, out, ec);
  if (ec) {
    std::fprintf(stderr, "torchwright: cannot write %s: %s\n", out.c_str(), ec.message().c_str());
    return 1;
  }
  std::printf("wrote %s (%zu run%s, %s)\n", out.c_str(), runs.size(), runs.size() == 1 ? "" : "s",
              config::formatBytes(double(html.size())).c_str());
  return 0;
}

}  // namespace tw::cli
