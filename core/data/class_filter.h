#pragma once
// data.keep_classes: a run on some of a source's classes, as fine-tuning experiments split a
// dataset (pretrain on classes 0-4, fine-tune on 5-9). The examples of the kept classes stay, in
// their order, relabelled 0..k-1 in the order the classes are listed; class names follow.
//
//   const ClassFilter f = classFilter({"5", "Sandal", "7"}, all.classes, all.classNames, source);
//   const std::vector<int64_t> rows = keepClasses(all, f);   // the kept examples' old indices

#include "core/data/examples.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

struct ClassFilter {
  std::vector<int64_t> newIndex;  // per source class: its index in the run, or -1 when dropped
  std::vector<std::string> names; // the kept classes' names (their indices when the source has none)
};

// Each entry a class index or a class name of the source. Throws std::runtime_error naming the
// source and the entry that is neither, or one listed twice.
ClassFilter classFilter(const std::vector<std::string> &keep, int64_t classes, const std::vector<std::string> &classNames,
                        const std::string &source);

// Keeps the examples of the filter's classes (relabelled, classes and classNames updated) and
// returns the indices they had.
std::vector<int64_t> keepClasses(Examples &examples, const ClassFilter &filter);

}  // namespace tw::data
