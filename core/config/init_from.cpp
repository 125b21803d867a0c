#include "core/config/init_from.h"

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
  if (out.run.empty())
    out.problem = "'" + text + "' names no run (expected run:<run name or id>[@best|@last])";
  else if (out.checkpoint != "best" && out.checkpoint != "last")
    out.problem = "'" + text + "': a run keeps its best and last checkpoints only (expected @best or @last, got @" +
                  out.checkpoint + ")";
  return out;
}

}  // namespace tw::config
