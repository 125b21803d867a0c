#include "tracking/store.h"

#include <sqlite3.h>

namespace tw::tracking {

std::string Store::sqliteVersion() { return sqlite3_libversion(); }

}  // namespace tw::tracking
