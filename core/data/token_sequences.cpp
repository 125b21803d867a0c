#include "core/data/token_sequences.h"

#include "core/data/random.h"

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace tw::data {

namespace {

// Float features carry the token ids; beyond 2^24 consecutive integers no longer fit a float.
constexpr int64_t kMaxVocabulary = int64_t{1} << 24;

void checkArguments(int64_t count, int64_t classes, int64_t length, int64_t vocabulary) {
  const auto fail = [](const std::string &message) { throw std::runtime_error("tokens: " + message); };
  if (classes < 2) fail(std::to_string(classes) + " classes (at least 2, set data.classes)");
  if (count < classes)
    fail(std::to_string(count) + " samples for " + std::to_string(classes) +
         " classes (at least one each, set data.samples)");
  if (length < 1) fail("sequence length " + std::to_string(length) + " (at least 1, set data.seq_len)");
  if (vocabulary <= classes)
    fail("vocabulary of " + std::to_string(vocabulary) + " tokens for " + std::to_string(classes) +
         " classes: tokens 0.." + std::to_string(classes - 1) +
         " are the class markers and at least one filler token is needed (set data.vocab_size above data.classes)");
  if (vocabulary > kMaxVocabulary)
    fail("vocabulary of " + std::to_string(vocabulary) + " tokens (at most 2^24 = " + std::to_string(kMaxVocabulary) +
         ", set data.vocab_size)");
}

}  // namespace

Examples makeTokenSequences(int64_t count, int64_t classes, int64_t length, int64_t vocabulary, uint64_t seed) {
  checkArguments(count, classes, length, vocabulary);
  Examples e;
  e.task = Task::Classification;
  e.count = count;
  e.classes = classes;
  e.featureShape = {length};
  e.features.reserve(static_cast<size_t>(count * length));
  e.labels.reserve(static_cast<size_t>(count));
  for (int64_t k = 0; k < classes; ++k) e.classNames.push_back(std::to_string(k));

  // The winner appears w times and every other marker fewer, so all markers together take at most
  // w + (classes - 1) * (w - 1) positions; maxWinner keeps that within the sequence.
  const int64_t maxWinner = 1 + (length - 1) / classes;
  const uint64_t fillers = static_cast<uint64_t>(vocabulary - classes);
  std::mt19937_64 rng(seed);
  std::vector<int64_t> positions(static_cast<size_t>(length));
  std::vector<float> sequence(static_cast<size_t>(length));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t label = i % classes;
    for (float &token : sequence) token = static_cast<float>(classes + static_cast<int64_t>(uniformBelow(rng, fillers)));
    // Markers go to distinct random positions: the first ones of a fresh shuffle.
    for (int64_t p = 0; p < length; ++p) positions[static_cast<size_t>(p)] = p;
    shuffleIndices(positions, rng);
    const int64_t winner = 1 + static_cast<int64_t>(uniformBelow(rng, static_cast<uint64_t>(maxWinner)));
    size_t next = 0;
    for (int64_t k = 0; k < classes; ++k) {
      const int64_t times = k == label ? winner : static_cast<int64_t>(uniformBelow(rng, static_cast<uint64_t>(winner)));
      for (int64_t t = 0; t < times; ++t) sequence[static_cast<size_t>(positions[next++])] = static_cast<float>(k);
    }
    e.features.insert(e.features.end(), sequence.begin(), sequence.end());
    e.labels.push_back(label);
  }
  return e;
}

int64_t majorityMarker(const float *tokens, int64_t length, int64_t classes) {
  std::vector<int64_t> counts(static_cast<size_t>(classes), 0);
  for (int64_t p = 0; p < length; ++p) {
    const int64_t token = static_cast<int64_t>(tokens[p]);
    if (token >= 0 && token < classes) ++counts[static_cast<size_t>(token)];
  }
  int64_t best = -1, bestCount = 0;
  bool tie = false;
  for (int64_t k = 0; k < classes; ++k) {
    const int64_t n = counts[static_cast<size_t>(k)];
    if (n > bestCount) {
      best = k;
      bestCount = n;
      tie = false;
    } else if (n == bestCount && n > 0) {
      tie = true;
    }
  }
  return tie ? -1 : best;
}

}  // namespace tw::data
