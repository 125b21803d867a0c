#pragma once
// A trial's parameters as text, keyed by the space's dotted keys, as the tracking store keeps them
// and `study show` prints them: {"train.lr": "0.0031", "train.optimizer": "sgd"}.

#include "core/spec/param.h"
#include "core/sweep/sweep_file.h"

#include <map>
#include <string>

namespace tw::sweep {

std::map<std::string, std::string> paramsText(const SweepFile &sweep, const search::Params &params);

// The inverse; throws config::ConfigError naming the key when a key is not in the space or its
// text is not a value the parameter can take (outside the range, off the step, not a choice).
search::Params paramsFromText(const SweepFile &sweep, const std::map<std::string, std::string> &text);

// A value's text typed as YAML reads it, for output that keeps types (`study show --json`): "64"
// is an int, "0.5" a float, "true" a bool, anything else text as written. ParamSpec keeps a
// categorical's choices as text, so this is what gives `choices: [32, 64]` back as numbers. It
// reads the text plainly, as trialConfig hands a value over: a choice written quoted ('64') has
// lost its quotes by then and reads as a number too.
spec::ParamValue paramValue(const std::string &text);

}  // namespace tw::sweep
