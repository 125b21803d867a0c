#include "core/config/init_from.h"

#include "core/config/checkpoint_choice.h"

namespace tw::config {

namespace {
constexpr const char *kRunPrefix = "run:";
}

bool isRunReference(const std::string &text) { return text.rfind(kRunPrefix, 0) == 0; }

InitFrom parseInitFrom(const std::string &text) {
  InitFrom out;
  if (text.empty()) return out;
  if (!isRunReference(text)) {
    out.file = text;
    return out;
  }
  const std::string reference = text.substr(std::string(kRunPrefix).size());
  const size_t at = reference.rfind('@');
  out.run = reference.substr(0, at);
  out.checkpoint = at == std::string::npos ? "best" : reference.substr(at + 1);
  if (out.run.empty()) {
    out.problem = "'" + text + "' names no run (expected run:<run name or id>[@best|@last|@epoch-N])";
  } else if (const CheckpointChoice choice = parseCheckpointChoice(out.checkpoint); !choice.problem.empty()) {
    out.problem = "'" + text + "': @" + out.checkpoint + " names no checkpoint of a run (expected @best, @last or "
                  "@epoch-N, N an epoch the run kept with train.keep_epochs)";
  }
  return out;
}

}  // namespace tw::config
