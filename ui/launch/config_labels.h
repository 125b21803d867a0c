#pragma once
// The label a person reads beside a run-file key's field ("Step size" for train.step_size); the
// key itself stays in the field's tooltip, as the run file and `torchwright config --keys` spell
// it. Labels are translated; a key without one (a row the table gains first) shows its name.
//
//   form->addRow(configLabel(QStringLiteral("train.pct_start")), box);   // "Warm-up share (onecycle)"

#include <QString>

namespace tw::ui {

QString configLabel(const QString &key);
// Whether the key has a label of its own, for the test that walks the config table.
bool hasConfigLabel(const QString &key);

}  // namespace tw::ui
