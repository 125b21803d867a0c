#include "tracking/store_location.h"

#include "tracking/store.h"

#include <regex>

namespace tw::tracking {

namespace {

const std::regex &schemePattern() {
  static const std::regex pattern("^([A-Za-z][A-Za-z0-9+.-]*)://");
  return pattern;
}

// "user:secret@" in the authority, and "password=secret" among the parameters.
const std::regex &userPasswordPattern() {
  static const std::regex pattern("^([A-Za-z]+://[^:/@?]*):([^@/?]*)@");
  return pattern;
}
// libpq's keyword form, "host=db dbname=runs", and the password in it.
const std::regex &keywordStringPattern() {
  static const std::regex pattern(R"(^\s*(host|hostaddr|dbname|user|port|service)\s*=)");
  return pattern;
}
const std::regex &keywordPasswordPattern() {
  static const std::regex pattern(R"(password\s*=\s*\S+)");
  return pattern;
}

const std::regex &parameterPasswordPattern() {
  static const std::regex pattern("([?&]password=)[^&]*");
  return pattern;
}

}  // namespace

StoreLocation StoreLocation::parse(const std::string &text) {
  if (text.empty()) throw TrackingError("the tracking store location is empty");
  StoreLocation location;
  std::smatch match;
  if (!std::regex_search(text, match, schemePattern())) {
    // libpq's other form, "host=db dbname=runs", would otherwise become a file of that name.
    if (std::regex_search(text, keywordStringPattern()))
      throw TrackingError("the tracking store '" + std::regex_replace(text, keywordPasswordPattern(), "password=***") +
                          "' is a libpq keyword string; give it as a URL, postgresql://user@host:port/database");
    location.m_target = text;  // a plain path
    return location;
  }
  const std::string scheme = match[1].str();
  if (scheme == "sqlite") {
    // sqlite:///abs/path as SQLAlchemy and MLflow write it; sqlite://rel/path is relative.
    location.m_target = text.substr(match.length(0));
    if (location.m_target.empty()) throw TrackingError("the tracking store URL '" + text + "' names no file");
    return location;
  }
  if (scheme == "postgresql" || scheme == "postgres") {
    location.m_backend = Backend::Postgres;
    location.m_target = text;
    return location;
  }
  StoreLocation unknown;
  unknown.m_backend = Backend::Postgres;  // so that shown() hides a password in it
  unknown.m_target = text;
  throw TrackingError("the tracking store URL '" + unknown.shown() +
                      "' has the scheme '" + scheme +
                      "'; Torchwright stores runs in sqlite:///path/to/tracking.db or postgresql://user@host/database");
}

std::string StoreLocation::shown() const {
  if (m_backend == Backend::Sqlite) return m_target;
  std::string shown = std::regex_replace(m_target, userPasswordPattern(), "$1:***@");
  return std::regex_replace(shown, parameterPasswordPattern(), "$1***");
}

std::string shownLocation(const std::string &location) {
  try {
    return StoreLocation::parse(location).shown();
  } catch (const TrackingError &) {
    return std::regex_replace(location, std::regex("://[^/@]*@"), "://***@");
  }
}

bool StoreLocation::hasPassword() const { return m_backend == Backend::Postgres && shown() != m_target; }

}  // namespace tw::tracking
