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

// The classes the run's data has (core/data's dataClassCount: it may read the data, so off the UI
// thread) and the class scores its model gives, 0 where unknown (regression, unreadable data, an
// output that is not one score vector per sample). The Launch page offers Replace Head when they differ.
struct ClassFit {
  qint64 dataClasses = 0, modelClasses = 0;
  bool differs() const { return dataClasses > 0 && modelClasses > 0 && dataClasses != modelClasses; }
};
ClassFit runClassFit(const QString &yaml, const QString &path);

}  // namespace tw::ui
