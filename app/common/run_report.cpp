#include "app/common/run_report.h"

#include "app/common/study_records.h"
#include "app/common/value_text.h"
#include "core/config/metric_keys.h"
#include "core/search/analysis_importance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace tw::app {

namespace {

const char *const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string esc(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// A coordinate in the SVG, not a number a reader is shown.
std::string number(double v, int decimals = 1) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

struct Line {
  std::string label;
  std::string color;
  std::vector<std::pair<double, double>> points;  // x, y
};

// An SVG line chart: one polyline per line, the axes' ends labelled, a legend under it.
std::string chart(const std::string &title, const std::vector<Line> &lines, const std::string &xLabel) {
  constexpr double W = 560, H = 240, left = 64, right = 12, top = 26, bottom = 34;
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const Line &line : lines)
    for (const auto &[x, y] : line.points) {
      x0 = std::min(x0, x), x1 = std::max(x1, x);
      y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
  if (!std::isfinite(x0)) return {};
  if (x1 == x0) x0 -= 1, x1 += 1;
  if (y1 == y0) y0 -= std::max(1e-12, std::abs(y0) * 0.05), y1 += std::max(1e-12, std::abs(y1) * 0.05);
  auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * (W - left - right); };
  auto py = [&](double y) { return H - bottom - (y - y0) / (y1 - y0) * (H - top - bottom); };
  std::string svg = "<figure><svg class=\"chart\" viewBox=\"0 0 560 240\" width=\"560\" height=\"240\" role=\"img\" aria-label=\"" +
                    esc(title) + "\">\n<text x=\"" + number(left) + "\" y=\"16\" class=\"title\">" + esc(title) + "</text>\n";
  svg += "<line class=\"axis\" x1=\"" + number(left) + "\" y1=\"" + number(H - bottom) + "\" x2=\"" + number(W - right) +
         "\" y2=\"" + number(H - bottom) + "\"/><line class=\"axis\" x1=\"" + number(left) + "\" y1=\"" + number(top) +
         "\" x2=\"" + number(left) + "\" y2=\"" + number(H - bottom) + "\"/>\n";
  svg += "<text x=\"" + number(left - 4) + "\" y=\"" + number(top + 4) + "\" class=\"tick\" text-anchor=\"end\">" +
         esc(formatMetric(y1)) + "</text><text x=\"" + number(left - 4) + "\" y=\"" + number(H - bottom) +
         "\" class=\"tick\" text-anchor=\"end\">" + esc(formatMetric(y0)) + "</text>\n";
  svg += "<text x=\"" + number(left) + "\" y=\"" + number(H - bottom + 14) + "\" class=\"tick\">" + esc(number(x0, 0)) +
         "</text><text x=\"" + number(W - right) + "\" y=\"" + number(H - bottom + 14) + "\" class=\"tick\" text-anchor=\"end\">" +
         esc(number(x1, 0)) + "</text><text x=\"" + number((W + left) / 2) + "\" y=\"" + number(H - 4) +
         "\" class=\"tick\" text-anchor=\"middle\">" + esc(xLabel) + "</text>\n";
  for (const Line &line : lines) {
    std::string points;
    for (const auto &[x, y] : line.points) points += number(px(x)) + "," + number(py(y)) + " ";
    if (line.points.size() == 1)  // a single point is a dot, not an invisible line
      svg += "<circle class=\"mark\" cx=\"" + number(px(line.points[0].first)) + "\" cy=\"" +
             number(py(line.points[0].second)) + "\" r=\"3\" fill=\"" + line.color + "\"/>\n";
    else
      svg += "<polyline class=\"mark\" fill=\"none\" stroke=\"" + line.color + "\" stroke-width=\"1.5\" points=\"" + points +
             "\"/>\n";
  }
  svg += "</svg><figcaption>";
  for (const Line &line : lines)
    svg += "<span class=\"key\"><span class=\"swatch\" style=\"background:" + line.color + "\"></span>" + esc(line.label) +
           "</span> ";
  return svg + "</figcaption></figure>\n";
}

std::string runLabel(const tracking::RunRecord &run) { return run.name + " (" + run.uuid.substr(0, 8) + ")"; }

std::string table(const std::vector<std::string> &headers, const std::vector<std::vector<std::string>> &rows,
                  const std::vector<std::string> &rowClasses = {}) {
  std::string out = "<table><thead><tr>";
  for (const std::string &h : headers) out += "<th>" + esc(h) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    out += i < rowClasses.size() && !rowClasses[i].empty() ? "<tr class=\"" + rowClasses[i] + "\">" : std::string("<tr>");
    for (const std::string &cell : rows[i]) out += "<td>" + esc(cell) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string tagOr(const std::map<std::string, std::string> &tags, const std::string &key, const std::string &fallback = "-") {
  auto it = tags.find(key);
  return it == tags.end() || it->second.empty() ? fallback : it->second;
}

// The CSV the run wrote (artifacts/test_confusion_matrix.csv: a header of predicted classes, a row
// per true class), as a table whose cells are shaded by their share of the row.
std::string confusion(const tracking::RunRecord &run) {
  std::ifstream in(run.runDir + "/artifacts/test_confusion_matrix.csv");
  if (!in) return {};
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream split(line);
    for (std::string cell; std::getline(split, cell, ',');) cells.push_back(cell);
    if (!cells.empty()) rows.push_back(cells);
  }
  if (rows.size() < 2) return {};
  std::string out = "<h3>" + esc(runLabel(run)) + "</h3><table class=\"confusion\"><thead><tr>";
  for (const std::string &h : rows[0]) out += "<th>" + esc(h) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (size_t r = 1; r < rows.size(); ++r) {
    double total = 0;
    for (size_t c = 1; c < rows[r].size(); ++c) total += std::atof(rows[r][c].c_str());
    out += "<tr><th>" + esc(rows[r][0]) + "</th>";
    for (size_t c = 1; c < rows[r].size(); ++c) {
      const double share = total > 0 ? std::atof(rows[r][c].c_str()) / total : 0.0;
      out += "<td style=\"background:rgba(31,119,180," + number(share, 2) + ")\">" + esc(rows[r][c]) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

// The trials' study, when every run is a trial of the same one.
std::optional<int64_t> commonStudy(const tracking::Store &store, const std::vector<tracking::RunRecord> &runs) {
  std::optional<int64_t> study;
  for (const auto &run : runs) {
    const auto trial = store.trialOfRun(run.id);
    if (!trial || (study && *study != trial->studyId)) return std::nullopt;
    study = trial->studyId;
  }
  return study;
}

std::string studySection(const tracking::Store &store, int64_t studyId) {
  const auto study = store.study(studyId);
  if (!study) return {};
  const auto trials = store.trials(studyId);
  const std::vector<search::Direction> directions = studyDirections(*study);
  const bool maximize = !directions.empty() && directions.front() == search::Direction::Maximize;
  Line values{"trial value", kColors[0], {}}, best{"best so far", kColors[1], {}};
  for (const auto &t : trials) {
    if (t.state != "COMPLETE" || t.values.empty()) continue;
    values.points.push_back({double(t.number), t.values.front()});
    const double v = best.points.empty() ? t.values.front()
                     : maximize           ? std::max(best.points.back().second, t.values.front())
                                          : std::min(best.points.back().second, t.values.front());
    best.points.push_back({double(t.number), v});
  }
  std::string out = "<section id=\"study\"><h2>Study " + esc(study->name) + "</h2>\n<p>" +
                    esc(std::to_string(trials.size())) + " trials, " + esc(study->metrics) + " " +
                    esc(study->directions) + ".</p>\n";
  out += chart("history: " + study->metrics, {values, best}, "trial");
  try {
    const sweep::SweepFile sweep = recordedSweep(*study, false);
    const auto importances = search::paramImportances(sweep.space, searchTrials(sweep.space, trials));
    if (!importances.empty()) {
      out += "<h3>Parameter importance (fANOVA)</h3><table class=\"importance\"><tbody>\n";
      for (const auto &p : importances)
        out += "<tr><td>" + esc(p.key) + "</td><td>" + esc(formatMetric(p.importance)) +
               "</td><td><span class=\"bar\" style=\"width:" + number(200.0 * p.importance, 0) + "px\"></span></td></tr>\n";
      out += "</tbody></table>\n";
    }
  } catch (const std::exception &e) {
    out += "<p>Parameter importance is not available: " + esc(e.what()) + "</p>\n";
  }
  return out + "</section>\n";
}

const char *kStyle = R"(body{font-family:sans-serif;margin:2em;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;font-size:13px}
tr.differs td{background:#fff3cd}figure{display:inline-block;margin:0 1em 1em 0}figcaption{font-size:12px}
.chart .axis{stroke:#666}.chart .title{font-size:13px;font-weight:bold}.chart .tick{font-size:10px;fill:#444}
.swatch{display:inline-block;width:10px;height:10px;margin:0 4px 0 8px}.bar{display:inline-block;height:10px;background:#1f77b4}
table.confusion td{text-align:right})";

}  // namespace

std::string runReport(const tracking::Store &store, const std::vector<tracking::RunRecord> &runs,
                      const std::function<void(int done, int total)> &onSection) {
  int sectionsDone = 0;
  auto sectionDone = [&] {
    if (onSection) onSection(++sectionsDone, kReportSections);
  };
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      "<title>Torchwright report: " + esc(runs.size() == 1 ? runs[0].name : std::to_string(runs.size()) + " runs") +
      "</title>\n<style>" + kStyle + "</style></head><body>\n<h1>Torchwright report</h1>\n";

  // The runs.
  std::set<std::string> testKeys;
  std::vector<std::vector<tracking::LatestMetric>> latest;
  for (const auto &run : runs) {
    latest.push_back(store.latestMetrics(run.id));
    for (const auto &m : latest.back())
      if (m.key.rfind(config::metrics::kTestPrefix, 0) == 0) testKeys.insert(m.key);
  }
  std::vector<std::string> headers = {"run", "experiment", "status", "started", "duration"};
  headers.insert(headers.end(), testKeys.begin(), testKeys.end());
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto &run = runs[i];
    std::vector<std::string> row = {runLabel(run), run.experiment, tracking::runStatusName(run.status),
                                    formatTimestamp(run.startMs),
                                    formatDuration(run.endMs > run.startMs && run.startMs > 0 ? run.endMs - run.startMs : 0)};
    for (const std::string &key : testKeys) {
      std::string value = "-";
      for (const auto &m : latest[i])
        if (m.key == key) value = formatMetric(m.value);
      row.push_back(value);
    }
    rows.push_back(row);
  }
  html += "<section id=\"runs\"><h2>Runs</h2>\n" + table(headers, rows) + "</section>\n";
  sectionDone();

  // Curves: every metric that moves over steps, but the per-parameter norms (one chart each would
  // drown the rest); the test metrics, recorded once, are in the table above.
  std::set<std::string> keys;
  for (const auto &run : runs)
    for (const std::string &key : store.metricKeys(run.id))
      if (key.rfind(config::metrics::kWeightNormPrefix, 0) != 0 && key.rfind(config::metrics::kGradNormPrefix, 0) != 0 &&
          key.rfind(config::metrics::kTestPrefix, 0) != 0 && key != config::metrics::kEpoch)
        keys.insert(key);
  html += "<section id=\"curves\"><h2>Curves</h2>\n";
  for (const std::string &key : keys) {
    std::vector<Line> lines;
    for (size_t i = 0; i < runs.size(); ++i) {
      const auto points = store.metricPoints(runs[i].id, key);
      if (points.empty()) continue;
      Line line{runLabel(runs[i]), kColors[i % 8], {}};
      const size_t stride = std::max<size_t>(1, points.size() / 1000);  // a page, not a database
      for (size_t p = 0; p < points.size(); p += stride)
        if (std::isfinite(points[p].value)) line.points.push_back({double(points[p].step), points[p].value});
      if (!line.points.empty()) lines.push_back(line);
    }
    html += chart(key, lines, "step");
  }
  html += "</section>\n";
  sectionDone();

  // Configuration, the differing keys marked.
  std::vector<std::map<std::string, std::string>> params;
  std::set<std::string> paramKeys;
  for (const auto &run : runs) {
    params.push_back(store.params(run.id));
    for (const auto &[key, value] : params.back()) paramKeys.insert(key);
  }
  std::vector<std::string> configHeaders = {"key"};
  for (const auto &run : runs) configHeaders.push_back(runLabel(run));
  std::vector<std::vector<std::string>> configRows;
  std::vector<std::string> classes;
  int differing = 0;
  for (const std::string &key : paramKeys) {
    std::vector<std::string> row = {key};
    std::set<std::string> distinct;
    for (const auto &p : params) {
      auto it = p.find(key);
      row.push_back(it == p.end() ? "-" : it->second);
      distinct.insert(row.back());
    }
    const bool differs = distinct.size() > 1;
    differing += differs;
    configRows.push_back(row);
    classes.push_back(differs ? "differs" : "");
  }
  html += "<section id=\"configuration\"><h2>Configuration</h2>\n<p>" + std::to_string(differing) + " of " +
          std::to_string(paramKeys.size()) + " keys differ between the runs (marked).</p>\n" +
          table(configHeaders, configRows, classes) + "</section>\n";
  sectionDone();

  // Lineage.
  std::vector<std::vector<std::string>> lineage;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto &run = runs[i];
    const auto tags = store.tags(run.id);
    const auto trial = store.trialOfRun(run.id);
    std::string trialText = "-";
    if (trial)
      if (const auto study = store.study(trial->studyId)) trialText = study->name + " #" + std::to_string(trial->number);
    auto init = params[i].find("train.init_from");
    lineage.push_back({runLabel(run), run.configHash.empty() ? "-" : run.configHash.substr(0, 16),
                       run.dataFingerprint.empty() ? "-" : run.dataFingerprint.substr(0, 16),
                       tagOr(tags, "weights_sha256").substr(0, 16),
                       init == params[i].end() || init->second.empty() ? "-" : init->second,
                       tagOr(tags, "imported_from"), trialText});
  }
  html += "<section id=\"lineage\"><h2>Lineage</h2>\n" +
          table({"run", "configuration hash", "data fingerprint", "weights", "started from", "imported from", "trial"},
                lineage) +
          "</section>\n";
  sectionDone();

  // Confusion matrices.
  std::string matrices;
  for (const auto &run : runs) matrices += confusion(run);
  if (!matrices.empty()) html += "<section id=\"confusion\"><h2>Test confusion matrix</h2>\n" + matrices + "</section>\n";
  sectionDone();

  // System readings: the mean and the largest value of each reading, per rank.
  std::vector<std::vector<std::string>> system;
  for (const auto &run : runs) {
    std::map<std::pair<int, std::string>, std::pair<double, double>> sums;  // (rank, key) -> (sum, max)
    std::map<std::pair<int, std::string>, int> counts;
    for (const auto &row : store.systemMetrics(run.id)) {
      auto &s = sums[{row.rank, row.key}];
      s.first += row.value;
      s.second = counts[{row.rank, row.key}]++ == 0 ? row.value : std::max(s.second, row.value);
    }
    for (const auto &[where, s] : sums)
      system.push_back({runLabel(run), std::to_string(where.first), where.second, formatMetric(s.first / counts[where]),
                        formatMetric(s.second)});
  }
  if (!system.empty())
    html += "<section id=\"system\"><h2>System readings</h2>\n" + table({"run", "rank", "reading", "mean", "max"}, system) +
            "</section>\n";
  sectionDone();

  if (const auto study = commonStudy(store, runs)) html += studySection(store, *study);
  sectionDone();
  return html + "</body></html>\n";
}

}  // namespace tw::app
