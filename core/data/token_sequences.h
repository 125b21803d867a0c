#pragma once
// A synthetic set of token sequences for sequence models (Embedding, TransformerEncoderLayer,
// SequenceMean) that needs no file. The label is a rule on the tokens, so a model can learn it:
// tokens 0..classes-1 are markers, the others filler, and the class is the marker that appears
// most often in the sequence (never a tie). Counting, not position, decides, so a bag of
// embeddings can solve it and attention has to look at every position.
//
//   tw::data::Examples e = tw::data::makeTokenSequences(3000, 4, /*length=*/32, /*vocabulary=*/64, /*seed=*/42);
//   // featureShape {32}; features hold token ids 0..63 as floats (exact below 2^24): feed them to
//   // an Input with dtype int64, and never standardise them.
//
// Example i belongs to class i % classes (as in synthetic.h), and the same seed gives the same
// sequences on every platform (random.h). Throws std::runtime_error naming the data.* key when
// classes < 2, count < classes, length < 1, or vocabulary <= classes (no filler token).

#include "core/data/examples.h"

#include <cstdint>

namespace tw::data {

Examples makeTokenSequences(int64_t count, int64_t classes, int64_t length, int64_t vocabulary, uint64_t seed);

// The label rule on its own, which every example of makeTokenSequences satisfies: the marker
// (token < classes) that appears most often, or -1 when no marker appears or two share the
// highest count.
int64_t majorityMarker(const float *tokens, int64_t length, int64_t classes);

}  // namespace tw::data
