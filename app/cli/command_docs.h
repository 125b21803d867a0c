#pragma once
// What a user reads about the commands besides --help, generated from the same table (usage.h):
// a manual page per command and one for torchwright itself, and the bash completion script.
// Nothing here is written by hand per command.
//
//   std::string page = manPage(*findCommand("runs export"));  // roff, torchwright-runs-export(1)
//   std::string script = bashCompletion();                     // `complete -F _torchwright torchwright`

#include "app/cli/usage.h"

#include <string>

namespace tw::cli {

// The page's file name: "torchwright-runs-export.1"; "torchwright.1" for the overview.
std::string manPageName(const CommandHelp &command);
std::string manPage(const CommandHelp &command);
std::string overviewManPage();

std::string bashCompletion();

}  // namespace tw::cli
