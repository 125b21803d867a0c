#include "tracking/run_record.h"

#include <chrono>

namespace tw::tracking {

namespace {
struct StatusName {
  RunStatus status;
  const char *name;
};
constexpr StatusName kStatusNames[] = {
    {RunStatus::Created, "CREATED"},   {RunStatus::Running, "RUNNING"},
    {RunStatus::Finished, "FINISHED"}, {RunStatus::Failed, "FAILED"},
    {RunStatus::Killed, "KILLED"},
};
}  // namespace

std::string runStatusName(RunStatus status) {
  for (const auto &entry : kStatusNames)
    if (entry.status == status) return entry.name;
  return "UNKNOWN";
}

bool parseRunStatus(const std::string &name, RunStatus *status) {
  for (const auto &entry : kStatusNames) {
    if (name == entry.name) {
      *status = entry.status;
      return true;
    }
  }
  return false;
}

int64_t nowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace tw::tracking
