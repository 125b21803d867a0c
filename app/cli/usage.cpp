#include "app/cli/usage.h"

#include "app/cli/rank_supervisor.h"

#include "core/config/config_fields.h"
#include "core/search/catalog.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>

namespace tw::cli {

namespace {

const OptionHelp kWorkspace{"--workspace", "DIR", "workspace folder (default: $XDG_DATA_HOME/torchwright)"};
// Every command that reads the workspace takes it (makeTable adds it after --workspace).
const OptionHelp kStore{"--store", "URL",
                        "tracking store: sqlite:///path/tracking.db or postgresql://user@host/db (default: TW_STORE, "
                        "else workspace.yaml's store:, else the workspace's tracking.db); a password belongs in "
                        "~/.pgpass or PGPASSWORD"};
const OptionHelp kSet{"--set", "KEY=VALUE", "override a run-file key, e.g. train.lr=3e-4 (repeatable)"};
const OptionHelp kJson{"--json", "", "print JSON instead of a table"};
const OptionHelp kHelp{"--help", "", "show this help"};
const OptionHelp kTrial{"--trial", "STUDY:N", "record the run as trial N of a study (the sweep driver passes it)"};

std::string joined(const std::vector<std::string> &keys) {
  std::string text;
  for (const std::string &key : keys) text += (text.empty() ? "" : ", ") + key;
  return text;
}

std::vector<CommandHelp> makeTable() {
  const std::vector<OptionHelp> launchOptions = {
      {"--nproc-per-node", "N", "ranks on this machine (default: distributed.nproc_per_node)"},
      {"--nnodes", "M", "machines taking part (default 1, or SLURM_NNODES under srun)"},
      {"--node-rank", "R", "this machine's place among them, 0..M-1 (node 0 records the run)"},
      {"--master-addr", "ADDR", "address of node 0's rendezvous store (default MASTER_ADDR or 127.0.0.1)"},
      {"--master-port", "PORT", "its TCP port (default MASTER_PORT; several machines need one agreed in advance)"},
      {"--max-restarts", "K", "restart all ranks from the last checkpoint this many times (default: the run file's)"},
      {"--heartbeat-timeout", "S",
       "seconds a rank may stay silent before it counts as hung (default " + std::to_string(LaunchPlan{}.heartbeatTimeoutS) +
           "; at least " + std::to_string(kStartupGraceS) + " before its first heartbeat)"},
      kSet,
      {"--detach", "", "keep training when the terminal or Studio closes (output in the run's launcher.log)"},
      {"--resume", "RUN", "continue a stopped, failed or killed run from its last checkpoint"},
      {"--force", "", "with --resume: also a run recorded as RUNNING (its worker is gone)"},
      kTrial,
      kWorkspace};
  const std::string runRef = "RUN is a run name or any unique prefix of its id.";
  const std::string studyRef = "STUDY is a study name or any unique prefix of its id.";
  return {
      {"check",
       {"check MODEL.yaml|RUN.yaml [--set KEY=VALUE ...] [--workspace DIR]", "check --ops"},
       "validate a model or run file and print its per-node summary",
       {kSet, {"--ops", "", "list the registry's ops with their parameters, types, defaults and ranges"}, kWorkspace},
       "Exit 0 when the model is valid, 1 with one diagnostic per problem (file:line:column, node, field). A run "
       "file with train.init_from also prints which of the model's tensors the weights would give (taken, of "
       "another shape, missing, unused), read without loading anything (run references resolve in the workspace)."},
      {"train",
       {"train RUN.yaml [--set KEY=VALUE ...] [--workspace DIR]",
        "train --resume RUN [--set KEY=VALUE ...] [--force] [--workspace DIR]"},
       "train and record a run on this machine (no restarts; see launch)",
       {kSet, {"--resume", "RUN", "continue a stopped, failed or killed run from its last checkpoint"},
        {"--force", "", "with --resume: also a run recorded as RUNNING (its worker is gone)"}, kTrial, kWorkspace},
       "Everything wrong with the run file is reported before a run is recorded. A resumed run may change "
       "only what makes it faster (--set " + joined(config::speedOnlyKeys()) + ") and ends bit-identical all the "
       "same. " + runRef},
      {"launch",
       {"launch RUN.yaml [--nproc-per-node N] [--nnodes M --node-rank R --master-addr ADDR --master-port PORT]",
        "       [--max-restarts K] [--heartbeat-timeout S] [--set KEY=VALUE ...] [--detach] [--workspace DIR]",
        "launch --resume RUN [--nproc-per-node N] [--max-restarts K] [--force] [--detach] [--workspace DIR]"},
       "train on N processes (c10d), restarting all ranks from the last checkpoint when one dies",
       launchOptions,
       "Under srun, one launcher per node takes --nnodes, --node-rank and --master-addr from SLURM."},
      {"reproduce",
       {"reproduce RUN [--detach] [--workspace DIR]"},
       "re-run a recorded run and report whether its metrics match (exit 3 if not)",
       {{"--detach", "", "return once the new run is recorded; it trains in the background (output and verdict "
                         "in its launcher.log, the verdict also in its `reproduction` tag)"},
        kWorkspace},
       runRef},
      {"runs list",
       {"runs list [--limit N] [--all] [--json] [--workspace DIR]"},
       "list the workspace's runs, newest first",
       {{"--limit", "N", "at most N runs (0 = all)"}, {"--all", "", "include archived runs"}, kJson, kWorkspace},
       ""},
      {"runs show", {"runs show RUN [--json] [--workspace DIR]"}, "a run's configuration, params, tags and metrics",
       {kJson, kWorkspace}, runRef},
      {"runs tag", {"runs tag RUN LABEL [--workspace DIR]"}, "add a label (Studio's Tags column)", {kWorkspace}, runRef},
      {"runs untag", {"runs untag RUN LABEL [--workspace DIR]"}, "remove a label", {kWorkspace}, runRef},
      {"runs note", {"runs note RUN [TEXT] [--workspace DIR]"}, "set the run's note; no text clears it", {kWorkspace},
       runRef},
      {"runs archive", {"runs archive RUN [--workspace DIR]"}, "hide a run from lists and Studio (its data stays)",
       {kWorkspace}, runRef},
      {"runs unarchive", {"runs unarchive RUN [--workspace DIR]"}, "show an archived run again", {kWorkspace}, runRef},
      {"runs export",
       {"runs export RUN... --to tensorboard|mlflow DIR [--force] [--workspace DIR]"},
       "write runs where TensorBoard or MLflow reads them",
       {{"--to", "FORMAT", "tensorboard: DIR/<name>_<id>/events.out.tfevents.* with every metric as a scalar; "
                           "mlflow: DIR is an MLflow file store (mlruns), the run under its experiment"},
        {"--force", "", "replace a run exported there before (without it, that is refused)"},
        kWorkspace},
       runRef},
      {"runs import",
       {"runs import tensorboard|mlflow|csv PATH [--experiment NAME] [--workspace DIR]"},
       "bring in runs recorded by TensorBoard, MLflow or a CSV metric log; importing again changes nothing",
       {{"--experiment", "NAME", "experiment of TensorBoard and CSV runs (default: imported; MLflow runs keep theirs)"},
        kWorkspace},
       "tensorboard: every folder under PATH with events.out.tfevents.* files is a run (scalars); mlflow: PATH is an "
       "MLflow file store (mlruns); csv: a header row, the step column (else epoch, else the row number) as the "
       "step, every other column a metric."},
      {"sweep",
       {"sweep SWEEP.yaml [--set KEY=VALUE ...] [--continue] [--detach] [--workspace DIR]",
        "sweep --resume STUDY [--set KEY=VALUE ...] [--detach] [--workspace DIR]"},
       "search hyperparameters: run a study's trials to its budget, several at a time",
       {{"--set", "KEY=VALUE", "override a sweep-file key, e.g. budget.trials=10 (repeatable; with --resume only "
                               "budget.*, parallel, retries, sampler.*, pruner.*)"},
        {"--resume", "STUDY", "continue a study: the budget counts its trials so far, numbering goes on"},
        {"--continue", "", "with a sweep file: resume its study if it exists, else start it (a driver run as a "
                           "requeueable SLURM job restarts with the same command)"},
        {"--detach", "", "run in the background (output in the study's driver.log); prints the study id"},
        kWorkspace},
       "The sweep file names the base run, the objective, the space, the sampler, the pruner, the budget and\n"
       "how many trials run at once (parallel: N or auto). Every trial is a tracked run tagged with its study\n"
       "and trial number. Ctrl-C once: no new trials, the running ones finish; twice: they stop now.\n"
       "With `executor: {type: slurm, ...}` each trial is a SLURM batch job; SIGTERM then stops the driver\n"
       "alone, and the driver that resumes the study takes over the jobs still running.\n"
       "Without a sampler key the sampler is " +
           search::defaultSamplerText() + ", the best of the TPE's\nmodes in the README's sampler benchmark.\n" +
           studyRef},
      {"study list",
       {"study list [--json] [--workspace DIR]"},
       "list the workspace's studies with their trials and best values",
       {kJson, kWorkspace},
       ""},
      {"study show",
       {"study show STUDY [--json] [--workspace DIR]"},
       "a study's trials (state, value, parameters, run) and its best trial or Pareto front",
       {kJson, kWorkspace},
       studyRef},
      {"study create",
       {"study create SWEEP.yaml [--set KEY=VALUE ...] [--workspace DIR]"},
       "record a study for an outside objective (ask/tell); prints its id",
       {{"--set", "KEY=VALUE", "override a sweep-file key (repeatable)"}, kWorkspace},
       "The sweep file needs no base run: any program can evaluate trials with `study ask` and `study tell`."},
      {"study ask",
       {"study ask STUDY [--json] [--workspace DIR]"},
       "start the study's next trial: the sampler's parameters, as {\"number\": N, \"params\": {...}}",
       {kJson, kWorkspace},
       studyRef},
      {"study tell",
       {"study tell STUDY NUMBER VALUE [VALUE2] [--workspace DIR]", "study tell STUDY NUMBER --pruned|--failed"},
       "finish a trial with its objective value(s), or as pruned or failed",
       {{"--pruned", "", "the trial was stopped early"}, {"--failed", "", "the trial failed"}, kWorkspace},
       "One VALUE per objective. " + studyRef},
      {"export",
       {"export RUN --format torchscript|onnx --out FILE [--checkpoint best|last|epoch-N] [--opset N] [--int8]",
        "       [--no-preprocessing] [--workspace DIR]",
        "export MODEL.model.yaml --format torchscript|onnx --out FILE [--weights FILE] [--seed N] [--opset N]"},
       "write a run's trained model (recorded with its SHA-256), or a model file with its weights, as TorchScript or "
       "ONNX, and check it",
       {{"--format", "FORMAT", "torchscript (a scripted module for torch.jit.load) or onnx"},
        {"--out", "FILE", "the file to write (its folder must exist)"},
        {"--checkpoint", "WHICH", "best (default) or last"},
        {"--opset", "N", "ONNX opset, 13 to 17 (default 17)"},
        {"--int8", "", "ONNX: int8 Linear and Conv weights and inputs (static QDQ, calibrated on training data); "
                       "prints the size and the test accuracy beside the float model's"},
        {"--no-preprocessing", "", "leave the run's standardisation out: the model takes standardised inputs and "
                                   "the file's metadata says what to apply"},
        {"--weights", "FILE", "a model file's weights: a checkpoint or PyTorch state_dict giving every tensor "
                              "(default: <stem>.weights.pt beside the model file when it exists)"},
        {"--seed", "N", "a model file without weights is initialised from this seed (default 42)"},
        kWorkspace},
       "By default the run's standardisation is baked in: the model takes raw inputs (pixels in 0..1, the CSV's "
       "numbers). TorchScript is reloaded and compared with the trained model on the run's test data; ONNX passes "
       "the ONNX checker and shape inference. " + runRef},
      {"predict",
       {"predict MODEL --out FILE [--data RUN.yaml] [--set data.KEY=VALUE ...] [--split train|val|test|all]",
        "        [--checkpoint best|last|epoch-N] [--trust-torchscript] [--workspace DIR]",
        "predict MODEL.model.yaml --data RUN.yaml --out FILE [--weights FILE] [--seed N] [--split ...]"},
       "apply a run's model, an exported TorchScript file or a model file to data; per-row predictions to a CSV file",
       {{"--out", "FILE", "the CSV to write: per row the predicted class and each class's probability (or the "
                          "predicted values), and the label when the data has one"},
        {"--data", "RUN.yaml", "take the data section of this run file (default: the run's own data)"},
        {"--set", "KEY=VALUE", "override a data key, e.g. data.path=new.csv (repeatable)"},
        {"--split", "SPLIT", "which split of the data: test (default), val, train or all"},
        {"--checkpoint", "WHICH", "with a run: best (default) or last"},
        {"--weights", "FILE", "with a model file: its weights, a checkpoint or PyTorch state_dict giving every tensor "
                              "(default: <stem>.weights.pt beside it when it exists)"},
        {"--seed", "N", "with a model file without weights: initialise it from this seed (default 42)"},
        {"--trust-torchscript", "", "load a TorchScript file that this workspace did not export (it is code and "
                                    "runs with your permissions); without it such a file is refused"},
        kWorkspace},
       "MODEL is a run (name or id prefix), a TorchScript file from `export`, or a model file. TorchScript is "
       "code: a file whose SHA-256 no export recorded in the workspace has loads only with --trust-torchscript, "
       "and with a warning. The data is read raw "
       "and prepared with the model's own recorded statistics; a model file has none, so its data is standardised "
       "as a run on it would be (statistics of the data's training split; data.normalize=false for raw). With "
       "labels, prints accuracy and F1 (classification) or R2."},
      {"import",
       {"import MODEL.onnx [-o NAME.model.yaml] [--input-shape C,H,W] [--json]"},
       "turn an ONNX network into a model file of registry ops plus a weights file beside it",
       {{"--out", "FILE", "(or -o) the model file to write (default: MODEL.model.yaml beside the ONNX file); the "
                          "weights go beside it as NAME.weights.pt"},
        {"--input-shape", "C,H,W", "one sample's shape, for a file that leaves dimensions other than the batch open"},
        {"--json", "", "print the import report as JSON"}},
       "Prints what every ONNX node became: a node of the model, folded into one (a bias, x * HardSigmoid(x) as "
       "Hardswish, x * Sigmoid(x) as SiLU, a channel shuffle's Reshape, Transpose, Reshape as ChannelShuffle), a "
       "constant computed now, or dropped (Dropout, Identity). Opsets 11 to 17. Nothing is written when "
       "any node has no registry counterpart (each such node is named, with counts per operator), for control flow "
       "(Loop, If), a file that is not ONNX or is truncated, or external data outside the file's folder. "
       "`train: {init_from: NAME.weights.pt}` in a run file starts training from the imported weights."},
      {"models list", {"models list [--json] [--workspace DIR]"}, "the registered models, their versions and which is in production",
       {kJson, kWorkspace}, ""},
      {"models show",
       {"models show NAME [VERSION] [--json] [--workspace DIR]"},
       "a model's versions, or one version's lineage back to its run's configuration",
       {kJson, kWorkspace},
       "With VERSION: the file and whether it still has its SHA-256, the export's options and check, the run's "
       "metrics, configuration hash and data fingerprint, and the run's configuration."},
      {"models register",
       {"models register NAME FILE [--description TEXT] [--workspace DIR]"},
       "register an exported file as the next version of NAME (created on its first version)",
       {{"--description", "TEXT", "what the model is for (replaces the model's description)"}, kWorkspace},
       "FILE must be an export recorded by `torchwright export`; it is found by its SHA-256, so a moved file "
       "registers too."},
      {"models promote",
       {"models promote NAME VERSION [--stage staging|production] [--archive-existing] [--workspace DIR]"},
       "move a version to staging or production",
       {{"--stage", "STAGE", "staging or production (default)"},
        {"--archive-existing", "", "archive the versions that were in that stage"},
        kWorkspace},
       ""},
      {"models archive", {"models archive NAME VERSION [--workspace DIR]"}, "take a version out of use (it stays listed)",
       {kWorkspace}, ""},
      {"config",
       {"config --keys [--json]"},
       "every run-file key with its type, range, choices, default and meaning",
       {{"--keys", "", "list the keys (the only form for now)"}, kJson},
       "The same table parses run files and --set overrides, so what it lists is what they accept."},
      {"pack",
       {"pack SRC OUT [--shard-mb N] [--decoded] [--set KEY=VALUE ...] [--json]"},
       "write a dataset as packed shards (WebDataset tar files with an index and a manifest)",
       {{"--shard-mb", "N", "close a shard once it holds N MB (default 64)"},
        {"--decoded", "", "image folders: store each image's 8-bit pixels at data.image_size and data.channels "
                          "instead of its file (larger shards that are read without decoding)"},
        {"--set", "KEY=VALUE", "a data key, as in a run file, e.g. data.target=price for a CSV file (repeatable)"},
        kJson},
       "SRC is an image folder (one subfolder per class; the files' bytes are kept as they are), a folder of IDX "
       "files, a CSV file, fashion-mnist or mnist, or a run file whose data section says what to read. OUT is a new "
       "or empty folder; on any error the partial output is removed. Python reads the shards with tarfile or "
       "webdataset; OUT/manifest.json lists every shard with its SHA-256."},
      {"data bench",
       {"data bench RUN.yaml [--workers 1,2,auto] [--set KEY=VALUE ...] [--json]"},
       "read a run's data at each worker count and print examples per second",
       {{"--workers", "LIST", "decoding thread counts to try, comma-separated (default 1,2,auto)"}, kSet, kJson},
       "Reads, decodes and checks the data as training does, after one untimed pass that fills the page cache, so "
       "`data.workers` can be chosen before training: a source read whole up to its split and standardisation, a "
       "streamed image folder as a first epoch reads it (every training image, shuffled, in batches, no cache), "
       "with the time to its first batch."},
      {"demo-images",
       {"demo-images DIR [--per-class N] [--size PIXELS] [--gray]"},
       "draw the shapes image set the image-folder example trains on",
       {{"--per-class", "N", "images per class (default 300)"},
        {"--size", "PIXELS", "width and height (default 32)"},
        {"--gray", "", "one channel instead of RGB"}},
       ""},
      {"report",
       {"report RUN... [-o|--out report.html] [--force] [--workspace DIR]"},
       "write one self-contained HTML page about the runs",
       {{"--out", "FILE", "where to write it (-o FILE too; default: report.html); an existing file is refused without --force"},
        {"--force", "", "replace an existing FILE"},
        kWorkspace},
       "Curves as inline SVG, the configuration with the keys that differ marked, the lineage, the test confusion "
       "matrix, the system readings, and for the trials of one study its history and the parameters' importance. "
       "Nothing in it reaches the network. " + runRef},
      {"man", {"man DIR"}, "write the manual pages (torchwright(1) and one per command) into DIR", {},
       "Generated from the same table as every --help; the build writes them into build/share/man/man1."},
      {"completion", {"completion bash"}, "print the bash completion script", {},
       "Generated from the same table as every --help. Use: source <(torchwright completion bash); the build "
       "writes it to build/share/bash-completion/completions/torchwright."},
      {"version", {"version"}, "print the version", {}, ""},
  };
}

std::string join(const std::vector<std::string> &lines, const std::string &first, const std::string &rest) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    // A line that starts with spaces continues the one before it.
    const bool continuation = !lines[i].empty() && lines[i][0] == ' ';
    out += (i == 0 ? first : continuation ? std::string(first.size(), ' ') : rest) + lines[i] + "\n";
  }
  return out;
}

std::string column(const std::string &text, size_t width) {
  return text.size() >= width ? text + "  " : text + std::string(width - text.size(), ' ');
}

std::vector<const CommandHelp *> group(const std::string &prefix) {
  std::vector<const CommandHelp *> out;
  for (const auto &c : commandTable())
    if (c.name.rfind(prefix + " ", 0) == 0) out.push_back(&c);
  return out;
}

}  // namespace

const std::vector<CommandHelp> &commandTable() {
  static const std::vector<CommandHelp> table = [] {
    std::vector<CommandHelp> commands = makeTable();
    for (CommandHelp &c : commands) {
      auto workspace = std::find_if(c.options.begin(), c.options.end(),
                                    [](const OptionHelp &o) { return o.name == kWorkspace.name; });
      if (workspace != c.options.end()) c.options.insert(workspace + 1, kStore);
    }
    return commands;
  }();
  return table;
}

const CommandHelp *findCommand(const std::string &name) {
  for (const auto &c : commandTable())
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<std::string> valuedOptions() {
  std::vector<std::string> out = {kWorkspace.name};
  for (const auto &c : commandTable())
    for (const auto &o : c.options)
      if (!o.value.empty() && std::find(out.begin(), out.end(), o.name) == out.end()) out.push_back(o.name);
  return out;
}

std::string generalUsage() {
  std::string out = "usage: torchwright <command> [options]\n\ncommands:\n";
  for (const auto &c : commandTable()) out += "  " + column(c.name, 16) + c.summary + "\n";
  out += "\n`torchwright <command> --help` shows a command's usage and options; RUN is a run name or any unique\n"
         "prefix of its id.\n";
  return out;
}

std::string commandUsage(const CommandHelp &c) {
  std::string out = join(c.usage, "usage: torchwright ", "       torchwright ");
  std::string summary = c.summary;
  summary[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0])));
  out += "\n" + summary + ".\n";
  if (!c.details.empty()) out += c.details + "\n";
  std::vector<OptionHelp> options = c.options;
  options.push_back(kHelp);
  out += "\noptions:\n";
  for (const auto &o : options) out += "  " + column(o.name + (o.value.empty() ? "" : " " + o.value), 26) + o.doc + "\n";
  return out;
}

std::string groupUsage(const std::string &prefix) {
  std::string out;
  if (group(prefix).empty()) return out;
  for (const CommandHelp *c : group(prefix)) {
    out += join(c->usage, out.empty() ? "usage: torchwright " : "       torchwright ", "       torchwright ");
  }
  out += "\n";
  for (const CommandHelp *c : group(prefix)) out += "  " + column(c->name, 16) + c->summary + "\n";
  out += "\n`torchwright " + prefix + " <subcommand> --help` shows a subcommand's options.\n";
  return out;
}

std::string resolveCommandName(const CliArgs &args) {
  if (findCommand(args.command)) return args.command;
  const auto sub = group(args.command);
  if (sub.empty()) return {};
  // A group without a subcommand runs its first one (`runs` lists runs).
  if (args.positionals.empty()) return sub.front()->name;
  const std::string name = args.command + " " + args.positionals.front();
  return findCommand(name) ? name : std::string();
}

int usageError(const std::string &command, const std::string &why) {
  if (!why.empty()) std::fprintf(stderr, "torchwright %s: %s\n", command.c_str(), why.c_str());
  if (const CommandHelp *c = findCommand(command)) {
    std::fputs(join(c->usage, "usage: torchwright ", "       torchwright ").c_str(), stderr);
  } else if (const std::string text = groupUsage(command); !text.empty()) {
    std::fputs(text.c_str(), stderr);
    return 2;
  }
  std::fprintf(stderr, "(`torchwright %s --help` explains every option)\n", command.c_str());
  return 2;
}

std::string unknownOption(const CliArgs &args, const std::string &command) {
  const CommandHelp *c = findCommand(command);
  if (!c) return {};
  auto takes = [&](const std::string &name, bool valued) {
    if (name == kHelp.name) return !valued;
    for (const auto &o : c->options)
      if (o.name == name) return o.value.empty() != valued;
    return false;
  };
  for (const auto &[name, values] : args.options)
    if (!takes(name, true) && name != kWorkspace.name) return name;
  for (const auto &flag : args.flags)
    if (!takes(flag, false)) return flag;
  return {};
}

long long integerOption(const CliArgs &args, const std::string &name, long long fallback, long long min,
                        long long max) {
  const std::string text = args.option(name);
  if (text.empty()) return fallback;
  char *end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  const bool whole = end && *end == '\0' && errno == 0 && text.find_first_not_of("+-0123456789") == std::string::npos;
  if (!whole || value < min || value > max) {
    std::string range = "a whole number";
    if (max >= INT_MAX) range += " >= " + std::to_string(min);
    else range += " from " + std::to_string(min) + " to " + std::to_string(max);
    throw UsageError("option " + name + " expects " + range + ", got '" + text + "'");
  }
  return value;
}

}  // namespace tw::cli
