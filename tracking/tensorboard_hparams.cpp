#include "tracking/tensorboard_hparams.h"

#include "tracking/proto_wire.h"

#include "core/config/number_text.h"  // shortestText: inline, nothing to link

#include <charconv>
#include <cmath>

namespace tw::tracking {

namespace {

constexpr const char *kPluginName = "hparams";


// The number a text stands for when writing it as a number loses nothing.
std::optional<double> exactNumber(const std::string &text) {
  double v = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), v);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  if (config::shortestText(v) != text) return std::nullopt;
  return v;
}

// google.protobuf.Value: number_value 2, string_value 3, bool_value 4.
std::string protobufValue(const std::string &text) {
  std::string value;
  if (const auto number = exactNumber(text)) wire::doubleField(value, 2, *number);
  else if (text == "true" || text == "false") wire::varintField(value, 4, text == "true" ? 1 : 0);
  else wire::bytesField(value, 3, text);
  return value;
}

// tensorboard.hparams.DataType of a value as protobufValue writes it.
int dataType(const std::string &text) {
  if (exactNumber(text)) return 3;                   // DATA_TYPE_FLOAT64
  if (text == "true" || text == "false") return 2;  // DATA_TYPE_BOOL
  return 1;                                          // DATA_TYPE_STRING
}

// A Summary with one value: the tag, and metadata naming the plugin and holding HParamsPluginData
// (version 0, then `dataField`: experiment 2, session_start_info 3, session_end_info 4).
std::string pluginSummary(const char *tag, int dataField, const std::string &data) {
  std::string pluginData;  // HParamsPluginData; version 0 is proto3's default, so not written
  wire::bytesField(pluginData, dataField, data);
  std::string plugin;  // SummaryMetadata.PluginData: plugin_name 1, content 2
  wire::bytesField(plugin, 1, kPluginName);
  wire::bytesField(plugin, 2, pluginData);
  std::string metadata;  // SummaryMetadata: plugin_data 1
  wire::bytesField(metadata, 1, plugin);
  std::string value;  // Summary.Value: tag 1, metadata 9
  wire::bytesField(value, 1, tag);
  wire::bytesField(value, 9, metadata);
  std::string summary;  // Summary: value 1
  wire::bytesField(summary, 1, value);
  return summary;
}

}  // namespace

std::string hparamsExperiment(const std::map<std::string, std::string> &hparams,
                              const std::vector<std::string> &metricTags, double createdSecs) {
  std::string experiment;  // Experiment: time_created_secs 3, hparam_infos 4, metric_infos 5
  wire::doubleField(experiment, 3, createdSecs);
  for (const auto &[name, text] : hparams) {
    std::string info;  // HParamInfo: name 1, type 4
    wire::bytesField(info, 1, name);
    wire::varintField(info, 4, static_cast<uint64_t>(dataType(text)));
    wire::bytesField(experiment, 4, info);
  }
  for (const std::string &tag : metricTags) {
    std::string name;  // MetricName: group 1 (the run's own folder: empty), tag 2
    wire::bytesField(name, 2, tag);
    std::string info;  // MetricInfo: name 1, dataset_type 5 (training 1, validation 2)
    wire::bytesField(info, 1, name);
    if (tag.rfind("train/", 0) == 0) wire::varintField(info, 5, 1);
    else if (tag.rfind("val/", 0) == 0) wire::varintField(info, 5, 2);
    wire::bytesField(experiment, 5, info);
  }
  return pluginSummary("_hparams_/experiment", 2, experiment);
}

std::string hparamsSessionStart(const std::map<std::string, std::string> &hparams, double startSecs) {
  std::string start;  // SessionStartInfo: hparams 1 (map entries: key 1, value 2), start_time_secs 5
  for (const auto &[name, text] : hparams) {
    std::string entry;
    wire::bytesField(entry, 1, name);
    wire::bytesField(entry, 2, protobufValue(text));
    wire::bytesField(start, 1, entry);
  }
  wire::doubleField(start, 5, startSecs);
  return pluginSummary("_hparams_/session_start_info", 3, start);
}

std::string hparamsSessionEnd(HParamsStatus status, double endSecs) {
  std::string end;  // SessionEndInfo: status 1, end_time_secs 2
  wire::varintField(end, 1, static_cast<uint64_t>(status));
  wire::doubleField(end, 2, endSecs);
  return pluginSummary("_hparams_/session_end_info", 4, end);
}

std::optional<std::map<std::string, std::string>> hparamsOfSummaryValue(std::string_view value) {
  std::string_view content;
  bool ours = false;
  for (const wire::Field &f : wire::fields(value)) {
    if (f.number != 9 || f.type != wire::Bytes) continue;
    for (const wire::Field &m : wire::fields(f.bytes)) {
      if (m.number != 1 || m.type != wire::Bytes) continue;
      for (const wire::Field &p : wire::fields(m.bytes)) {
        if (p.number == 1 && p.type == wire::Bytes) ours = p.bytes == kPluginName;
        if (p.number == 2 && p.type == wire::Bytes) content = p.bytes;
      }
    }
  }
  if (!ours) return std::nullopt;
  std::optional<std::map<std::string, std::string>> hparams;
  for (const wire::Field &d : wire::fields(content)) {
    if (d.number != 3 || d.type != wire::Bytes) continue;
    hparams.emplace();
    for (const wire::Field &entry : wire::fields(d.bytes)) {
      if (entry.number != 1 || entry.type != wire::Bytes) continue;
      std::string name, text;
      for (const wire::Field &e : wire::fields(entry.bytes)) {
        if (e.number == 1 && e.type == wire::Bytes) name = std::string(e.bytes);
        if (e.number != 2 || e.type != wire::Bytes) continue;
        for (const wire::Field &v : wire::fields(e.bytes)) {
          if (v.number == 2 && v.type == wire::Fixed64) text = config::shortestText(wire::fixedFrom<double>(v.bytes));
          if (v.number == 3 && v.type == wire::Bytes) text = std::string(v.bytes);
          if (v.number == 4 && v.type == wire::Varint) text = v.varint ? "true" : "false";
        }
      }
      if (!name.empty()) (*hparams)[name] = text;
    }
  }
  return hparams;
}

}  // namespace tw::tracking
