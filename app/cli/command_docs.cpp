#include "app/cli/command_docs.h"

#include <algorithm>
#include <map>
#include <set>

namespace tw::cli {

namespace {

// Text as roff reads it: a backslash escaped, every hyphen a minus (options stay typeable when
// copied from the page), and a line that would start with a control character guarded.
std::string roff(const std::string &text) {
  std::string out;
  bool lineStart = true;
  for (char c : text) {
    if (lineStart && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
    lineStart = c == '\n';
  }
  return out;
}

std::string dashed(const std::string &name) {
  std::string out = name;
  std::replace(out.begin(), out.end(), ' ', '-');
  return out;
}

std::string upper(std::string text) {
  for (char &c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string header(const std::string &title, const std::string &what) {
  return ".TH " + upper(roff(title)) + " 1 \"\" \"torchwright " TW_VERSION "\" \"Torchwright Manual\"\n.SH NAME\n" +
         roff(title) + " \\- " + roff(what) + "\n";
}

std::string sentence(const std::string &summary) {
  std::string out = summary;
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out + ".";
}

}  // namespace

std::string manPageName(const CommandHelp &command) { return "torchwright-" + dashed(command.name) + ".1"; }

std::string manPage(const CommandHelp &c) {
  std::string out = header("torchwright-" + dashed(c.name), c.summary);
  out += ".SH SYNOPSIS\n.nf\n";
  for (const std::string &line : c.usage) out += "\\fBtorchwright\\fR " + roff(line) + "\n";
  out += ".fi\n.SH DESCRIPTION\n" + roff(sentence(c.summary)) + "\n";
  if (!c.details.empty()) out += ".PP\n" + roff(c.details) + "\n";
  out += ".SH OPTIONS\n";
  for (const OptionHelp &o : c.options) {
    out += ".TP\n\\fB" + roff(o.name) + "\\fR";
    if (!o.value.empty()) out += " \\fI" + roff(o.value) + "\\fR";
    out += "\n" + roff(o.doc) + "\n";
  }
  out += ".TP\n\\fB\\-\\-help\\fR\nshow this help\n";
  out += ".SH EXIT STATUS\n0 success, 1 failure, 2 bad usage.\n.SH SEE ALSO\n\\fBtorchwright\\fR(1)\n";
  return out;
}

std::string overviewManPage() {
  std::string out = header("torchwright", "design, train, track, search and export neural networks");
  out += ".SH SYNOPSIS\n\\fBtorchwright\\fR \\fIcommand\\fR [\\fIoptions\\fR]\n.SH DESCRIPTION\n"
         "The command line of Torchwright. Every command answers \\fB\\-\\-help\\fR with its usage; RUN is a run "
         "name or any unique prefix of its id.\n.SH COMMANDS\n";
  for (const CommandHelp &c : commandTable())
    out += ".TP\n\\fB" + roff("torchwright " + c.name) + "\\fR\n" + roff(c.summary) + " (\\fB" +
           roff("torchwright-" + dashed(c.name)) + "\\fR(1))\n";
  out += ".SH EXIT STATUS\n0 success, 1 failure, 2 bad usage.\n";
  return out;
}

std::string bashCompletion() {
  // The words after `torchwright`: commands, and a group's subcommands ("runs" -> list, show ...).
  std::vector<std::string> top;
  std::map<std::string, std::vector<std::string>> groups;
  for (const CommandHelp &c : commandTable()) {
    const size_t space = c.name.find(' ');
    const std::string first = c.name.substr(0, space);
    if (std::find(top.begin(), top.end(), first) == top.end()) top.push_back(first);
    if (space != std::string::npos) groups[first].push_back(c.name.substr(space + 1));
  }
  auto words = [](const std::vector<std::string> &list) {
    std::string out;
    for (const std::string &w : list) out += (out.empty() ? "" : " ") + w;
    return out;
  };
  std::string out =
      "# bash completion for torchwright, generated from its command table (`torchwright completion bash`)\n"
      "_torchwright() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command options valued\n"
      "  COMPREPLY=()\n"
      "  if (( COMP_CWORD == 1 )); then\n"
      "    COMPREPLY=( $(compgen -W \"" + words(top) + " --help --version\" -- \"$cur\") )\n"
      "    return\n"
      "  fi\n"
      "  command=${COMP_WORDS[1]}\n"
      "  case \"$command\" in\n";
  for (const auto &[group, subcommands] : groups)
    out += "    " + group + ")\n      if (( COMP_CWORD == 2 )); then\n        COMPREPLY=( $(compgen -W \"" +
           words(subcommands) + "\" -- \"$cur\") )\n        return\n      fi\n      command=\"$command ${COMP_WORDS[2]}\" ;;\n";
  out += "  esac\n  case \"$command\" in\n";
  for (const CommandHelp &c : commandTable()) {
    std::vector<std::string> options, valued;
    for (const OptionHelp &o : c.options) {
      options.push_back(o.name);
      if (!o.value.empty()) valued.push_back(o.name);
    }
    options.push_back("--help");
    out += "    \"" + c.name + "\") options=\"" + words(options) + "\" valued=\"" + words(valued) + "\" ;;\n";
  }
  out += "  esac\n"
         "  # An option's value, and every other word, is a file or folder name more often than not.\n"
         "  if [[ -n $valued && \" $valued \" == *\" $prev \"* ]]; then\n"
         "    COMPREPLY=( $(compgen -f -- \"$cur\") )\n"
         "  elif [[ $cur == -* ]]; then\n"
         "    COMPREPLY=( $(compgen -W \"$options\" -- \"$cur\") )\n"
         "  else\n"
         "    COMPREPLY=( $(compgen -f -- \"$cur\") )\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -o bashdefault -F _torchwright torchwright\n";
  return out;
}

}  // namespace tw::cli
