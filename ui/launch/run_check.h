#pragma once
// What `torchwright launch` would refuse in a run file Studio is about to write, asked of the
// core's validator (the same rules, data checks, GPU count and memory estimate the CLI applies),
// so the Launch page says it at once instead of through a failed launcher.
//
//   const QString problems = runFileProblems(page->runYaml(), path);
//   if (!problems.isEmpty()) showError(problems);

#include <QString>

namespace tw::ui {

// Every problem with the run file's text, one per line ("field 'train.device': ..."), or an empty
// string when the run may be launched. `path` is where the file will be written: relative data
// paths resolve against it, as the CLI resolves them.
QString runFileProblems(const QString &yaml, const QString &path);

}  // namespace tw::ui
