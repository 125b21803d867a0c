#pragma once
// `torchwright-worker --predict`: a trained run (its best or last checkpoint) or an exported
// TorchScript file applied to any data source the engine reads, in batches with the engine's
// thread plan; per-row class probabilities (or predicted values) and the label to a CSV file,
// and accuracy and F1 (or R²) when the data has labels. The CLI's `predict` has checked the usage.

namespace tw::worker {

int predictRun(int argc, char **argv);

}  // namespace tw::worker
