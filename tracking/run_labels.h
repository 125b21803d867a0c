#pragma once
// What users attach to a run, kept in its tags so that it needs no schema of its own and travels
// with everything else about the run: labels ("baseline", "ablation"), one note, and the archive
// mark. System tags (environment, restarts, reproduction) live beside them under other keys.
//
//   store.setTag(id, labelKey("baseline"), "");   // the label "baseline"
//   labelsOf(store.tags(id))                       // {"baseline"}

#include <map>
#include <string>
#include <vector>

namespace tw::tracking {

inline constexpr const char *kLabelPrefix = "label.";
inline constexpr const char *kNoteTag = "note";
inline constexpr const char *kArchivedTag = "archived";

inline std::string labelKey(const std::string &label) { return kLabelPrefix + label; }

// The labels among a run's tags, sorted.
std::vector<std::string> labelsOf(const std::map<std::string, std::string> &tags);
std::string noteOf(const std::map<std::string, std::string> &tags);
bool isArchived(const std::map<std::string, std::string> &tags);

// A label as typed: trimmed; empty when it has nothing but spaces. Labels are single words or
// phrases without commas, since the table shows them comma-separated.
std::string normalizeLabel(const std::string &typed);

}  // namespace tw::tracking
