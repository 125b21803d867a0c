#include "ui/workspace/poll_results.h"

namespace tw::ui {

void registerPollMetaTypes() {
  qRegisterMetaType<RunsUpdate>();
  qRegisterMetaType<MetricsUpdate>();
  qRegisterMetaType<DbState>();
}

}  // namespace tw::ui
