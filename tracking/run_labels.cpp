#include "tracking/run_labels.h"

#include <algorithm>
#include <cctype>

namespace tw::tracking {

std::vector<std::string> labelsOf(const std::map<std::string, std::string> &tags) {
  std::vector<std::string> labels;
  const std::string prefix = kLabelPrefix;
  // The map is sorted, so the labels are one contiguous, sorted range.
  for (auto it = tags.lower_bound(prefix); it != tags.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
    labels.push_back(it->first.substr(prefix.size()));
  return labels;
}

std::string noteOf(const std::map<std::string, std::string> &tags) {
  auto found = tags.find(kNoteTag);
  return found == tags.end() ? std::string() : found->second;
}

bool isArchived(const std::map<std::string, std::string> &tags) {
  auto found = tags.find(kArchivedTag);
  return found != tags.end() && found->second == "1";
}

std::string normalizeLabel(const std::string &typed) {
  std::string label = typed;
  std::replace(label.begin(), label.end(), ',', ' ');
  auto notSpace = [](unsigned char c) { return !std::isspace(c); };
  label.erase(label.begin(), std::find_if(label.begin(), label.end(), notSpace));
  label.erase(std::find_if(label.rbegin(), label.rend(), notSpace).base(), label.end());
  return label;
}

}  // namespace tw::tracking
