#pragma once
// How rows of `studies` and `trials` map to StudyRecord and TrialRecord, and the bumps every
// write about a trial makes, shared by the store's study and trial halves.

#include "tracking/study_record.h"

#include <string>
#include <vector>

namespace tw::tracking {
namespace sql {
class Connection;
class Statement;
}

// "SELECT <columns> FROM studies s " in the order readStudyRow expects.
extern const char *const kStudySelect;
StudyRecord readStudyRow(const sql::Statement &query);

// "SELECT <columns> FROM trials t " in the order readTrialRow expects; readTrialRow fills the
// row's own fields, attachTrialDetails the parameters, values and intermediate values.
extern const char *const kTrialSelect;
TrialRecord readTrialRow(const sql::Statement &query);
void attachTrialDetails(sql::Connection *db, std::vector<TrialRecord> &trials, const std::string &operation);

// Bumps studies.updated_ms inside the caller's transaction; throws TrackingError when the study
// does not exist.
void touchStudy(sql::Connection *db, int64_t studyId, int64_t nowMs, const std::string &operation);
// The trial's row id, after bumping its updated_ms and its study's; throws TrackingError when
// the study has no trial of that number.
int64_t touchTrial(sql::Connection *db, int64_t studyId, int number, int64_t nowMs, const std::string &operation);

}  // namespace tw::tracking
