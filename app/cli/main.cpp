// torchwright: the command line. It never links LibTorch; training runs in torchwright-worker.

#include "app/cli/commands.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>
#include <string>

namespace {

const char *kUsage =
    "usage: torchwright <command> [options]\n"
    "\n"
    "commands:\n"
    "  check MODEL.yaml|RUN.yaml         validate a model and print its per-node summary\n"
    "  train RUN.yaml [--set key=value]  train and record a run (repeat --set; e.g. train.lr=3e-4)\n"
    "  train --resume RUN [--force]      continue a stopped, failed or killed run from its last checkpoint\n"
    "  launch RUN.yaml --nproc-per-node N  train on N processes (c10d); restarts ranks from the last checkpoint\n"
    "        [--nnodes M --node-rank R --master-addr A --master-port P] [--max-restarts K] [--detach]\n"
    "  reproduce RUN                     re-run a recorded run and report whether its metrics match (exit 3 if not)\n"
    "  runs list [--limit N] [--all]     list the workspace's runs, newest first (--all: with archived ones)\n"
    "  runs show RUN                     a run's configuration, params and metrics (id prefix or name)\n"
    "  runs tag|untag RUN LABEL          add or remove a label (Studio's Tags column)\n"
    "  runs note RUN [TEXT]              set the run's note; no text clears it\n"
    "  runs archive|unarchive RUN        hide a run from lists and Studio (its data stays)\n"
    "  demo-images DIR [--per-class N]   draw the shapes image set the image-folder example trains on\n"
    "  version                           print the version\n"
    "\n"
    "options:\n"
    "  --workspace DIR   workspace folder (default: $XDG_DATA_HOME/torchwright)\n";

}  // namespace

int main(int argc, char **argv) {
  spdlog::set_pattern("[%H:%M:%S] [%n] %^%l%$: %v");
  try {
    auto args = tw::cli::parseArgs(argc, argv, {"--workspace", "--set", "--limit", "--resume", "--per-class", "--size", "--nproc-per-node",
                                             "--nnodes", "--node-rank", "--master-addr", "--master-port",
                                             "--max-restarts", "--heartbeat-timeout"});
    if (args.command.empty() || args.command == "help" || args.hasFlag("--help")) {
      std::fputs(kUsage, args.command.empty() && !args.hasFlag("--help") ? stderr : stdout);
      return args.command.empty() && !args.hasFlag("--help") ? 2 : 0;
    }
    if (args.command == "version" || args.hasFlag("--version")) {
      std::printf("torchwright %s\n", TW_VERSION);
      return 0;
    }
    if (args.command == "check") return tw::cli::runCheck(args);
    if (args.command == "train") return tw::cli::runTrain(args, argv[0]);
    if (args.command == "launch") return tw::cli::runLaunch(args, argv[0]);
    if (args.command == "runs") return tw::cli::runRuns(args);
    if (args.command == "demo-images") return tw::cli::runDemoImages(args);
    if (args.command == "reproduce") return tw::cli::runReproduce(args, argv[0]);
    std::fprintf(stderr, "torchwright: unknown command '%s'\n\n%s", args.command.c_str(), kUsage);
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
}
