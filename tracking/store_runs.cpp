// The store's reads about runs: records, lookup by id, prefix or name, listings, and the
// small per-run tables.
#include "tracking/store.h"

#include "tracking/run_rows.h"
#include "tracking/sql.h"


namespace tw::tracking {

namespace {

std::vector<RunRecord> collectRuns(sql::Statement &query) {
  std::vector<RunRecord> runs;
  while (query.step()) runs.push_back(readRunRow(query));
  return runs;
}

std::map<std::string, std::string> keyValues(sql::Connection *db, const char *table, int64_t runId,
                                             const std::string &operation) {
  sql::Statement query(db, (std::string("SELECT key, value FROM ") + table + " WHERE run_id = ? ORDER BY key").c_str(),
                       operation);
  query.bindInt64(1, runId);
  std::map<std::string, std::string> values;
  while (query.step()) values.emplace(query.text(0), query.text(1));
  return values;
}

}  // namespace

std::optional<RunRecord> Store::run(int64_t runId) const {
  sql::Statement query(m_db, (std::string(kRunSelect) + "WHERE r.id = ?").c_str(),
                       "reading run " + std::to_string(runId));
  query.bindInt64(1, runId);
  if (!query.step()) return std::nullopt;
  return readRunRow(query);
}

std::optional<RunRecord> Store::findRun(const std::string &idPrefixOrName) const {
  auto runs = findRuns(idPrefixOrName, 2);
  if (runs.size() != 1) return std::nullopt;
  return std::move(runs.front());
}

std::vector<RunRecord> Store::findRuns(const std::string &idPrefixOrName, int limit) const {
  if (idPrefixOrName.empty()) return {};
  const std::string operation = "looking up run '" + idPrefixOrName + "'";
  const bool hex = isHexText(idPrefixOrName);
  const std::string uuidText = hex ? lowercase(idPrefixOrName) : idPrefixOrName;

  sql::Statement exact(m_db, (std::string(kRunSelect) + "WHERE r.uuid = ?").c_str(), operation);
  exact.bindText(1, uuidText);
  if (exact.step()) return {readRunRow(exact)};

  // A prefix and a name can both match: two different runs are as ambiguous as two prefixes.
  std::map<int64_t, RunRecord> candidates;
  if (hex) {
    sql::Statement prefix(m_db, kRunSelect + ("WHERE " + sql::prefixMatch(m_db, "r.uuid") + " LIMIT ?"), operation);
    prefix.bindText(1, sql::prefixPattern(m_db, uuidText));
    prefix.bindInt64(2, sql::limitOrAll(limit));
    for (auto &run : collectRuns(prefix)) candidates.emplace(run.id, std::move(run));
  }
  sql::Statement byName(m_db, (std::string(kRunSelect) + "WHERE r.name = ? LIMIT ?").c_str(), operation);
  byName.bindText(1, idPrefixOrName);
  byName.bindInt64(2, sql::limitOrAll(limit));
  for (auto &run : collectRuns(byName)) candidates.emplace(run.id, std::move(run));

  std::vector<RunRecord> runs;
  for (auto &[id, run] : candidates) runs.push_back(std::move(run));
  if (limit > 0 && runs.size() > size_t(limit)) runs.resize(size_t(limit));
  return runs;
}

std::vector<RunRecord> Store::listRuns(int limit) const {
  sql::Statement query(m_db, (std::string(kRunSelect) + "ORDER BY r.created_ms DESC, r.id DESC LIMIT ?").c_str(),
                       "listing runs");
  query.bindInt64(1, sql::limitOrAll(limit));
  return collectRuns(query);
}

std::vector<RunRecord> Store::runsChangedSince(int64_t updatedMs) const {
  sql::Statement query(m_db, (std::string(kRunSelect) + "WHERE r.updated_ms > ? ORDER BY r.updated_ms, r.id").c_str(),
                       "listing changed runs");
  query.bindInt64(1, updatedMs);
  return collectRuns(query);
}

std::map<std::string, std::string> Store::params(int64_t runId) const {
  return keyValues(m_db, "params", runId, "reading the parameters of run " + std::to_string(runId));
}

std::map<std::string, std::string> Store::tags(int64_t runId) const {
  return keyValues(m_db, "tags", runId, "reading the tags of run " + std::to_string(runId));
}

std::map<int64_t, RunDetails> Store::runDetails(const std::vector<int64_t> &runIds) const {
  std::map<int64_t, RunDetails> details;
  for (int64_t id : runIds) details[id];
  if (details.empty()) return details;
  // A range scan reads rows of runs not asked for too; below this many runs, per-run lookups
  // through the primary key are cheaper.
  constexpr size_t kScanFrom = 32;
  if (details.size() < kScanFrom) {
    for (auto &[id, d] : details) {
      d.latest = latestMetrics(id);
      d.params = params(id);
      d.tags = tags(id);
    }
    return details;
  }
  const int64_t first = details.begin()->first, last = details.rbegin()->first;
  const std::string operation = "reading the details of " + std::to_string(details.size()) + " runs";
  for (const char *table : {"params", "tags"}) {
    sql::Statement query(m_db, (std::string("SELECT run_id, key, value FROM ") + table +
                                " WHERE run_id BETWEEN ? AND ? ORDER BY run_id, key").c_str(),
                         operation);
    query.bindInt64(1, first).bindInt64(2, last);
    const bool isParams = std::string(table) == "params";
    while (query.step()) {
      auto found = details.find(query.int64(0));
      if (found == details.end()) continue;
      (isParams ? found->second.params : found->second.tags).emplace(query.text(1), query.text(2));
    }
  }
  sql::Statement latest(m_db,
                        "SELECT l.run_id, k.key, l.step, l.value FROM latest_metrics l JOIN metric_keys k ON k.id = l.key_id "
                        "WHERE l.run_id BETWEEN ? AND ? ORDER BY l.run_id, k.key",
                        operation);
  latest.bindInt64(1, first).bindInt64(2, last);
  while (latest.step()) {
    auto found = details.find(latest.int64(0));
    if (found != details.end()) found->second.latest.push_back({latest.text(1), latest.int64(2), latest.real(3)});
  }
  return details;
}

std::vector<Artifact> Store::artifacts(int64_t runId) const {
  sql::Statement query(m_db,
                       "SELECT path, kind, created_ms, sha256, details FROM artifacts WHERE run_id = ? ORDER BY created_ms, path",
                       "reading the artifacts of run " + std::to_string(runId));
  query.bindInt64(1, runId);
  std::vector<Artifact> artifacts;
  while (query.step()) artifacts.push_back({query.text(0), query.text(1), query.int64(2), query.text(3), query.text(4)});
  return artifacts;
}

bool Store::stopRequested(int64_t runId) const {
  const std::string operation = "reading the stop flag of run " + std::to_string(runId);
  sql::Statement query(m_db, "SELECT stop_requested FROM runs WHERE id = ?", operation);
  query.bindInt64(1, runId);
  if (!query.step()) throw TrackingError(operation + ": no run with id " + std::to_string(runId));
  return query.int64(0) != 0;
}

}  // namespace tw::tracking
