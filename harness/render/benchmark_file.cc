#include "render/benchmark_file.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

namespace infinicts::render {
namespace {

// Keys Google Benchmark writes for every run; any other number is a user counter.
const std::set<std::string> &StandardKeys() {
  static const std::set<std::string> keys = {
      "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
      "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
      "aggregate_unit", "error_occurred", "error_message", "label", "big_o", "rms", "complexity_n"};
  return keys;
}

}  // namespace

bool LoadBenchmarkFile(const std::string &path, BenchmarkFile *file, std::string *error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot be read";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const nlohmann::json parsed = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    *error = path + ": not JSON (expected Google Benchmark output from --benchmark_out=FILE --benchmark_out_format=json)";
    return false;
  }
  const auto benchmarks = parsed.find("benchmarks");
  if (benchmarks == parsed.end() || !benchmarks->is_array()) {
    *error = path + ": not Google Benchmark JSON (no \"benchmarks\" array)";
    return false;
  }
  BenchmarkFile loaded;
  loaded.path = path;
  if (parsed.contains("context") && parsed["context"].is_object()) {
    for (const auto &[key, value] : parsed["context"].items()) {
      if (value.is_string()) loaded.context[key] = value.get<std::string>();
      else if (value.is_primitive()) loaded.context[key] = value.dump();
    }
  }
  for (size_t i = 0; i < benchmarks->size(); ++i) {
    const nlohmann::json &entry = (*benchmarks)[i];
    const std::string where = path + ": benchmarks[" + std::to_string(i) + "]";
    if (!entry.is_object()) {
      *error = where + " is not an object";
      return false;
    }
    BenchmarkRow row;
    if (!entry.contains("name") || !entry["name"].is_string()) {
      *error = where + " has no \"name\" string";
      return false;
    }
    row.name = entry["name"].get<std::string>();
    row.error = entry.value("error_message", "");
    // A benchmark that reported an error may carry no times at all.
    const bool errored = entry.value("error_occurred", false);
    for (const char *key : {"real_time", "cpu_time"}) {
      if (entry.contains(key) && entry[key].is_number()) {
        (std::string(key) == "real_time" ? row.real_time : row.cpu_time) = entry[key].get<double>();
      } else if (!errored) {
        *error = where + " (" + row.name + ") has no numeric \"" + key + "\"";
        return false;
      }
    }
    if (entry.contains("time_unit") && entry["time_unit"].is_string()) {
      row.time_unit = entry["time_unit"].get<std::string>();
    } else if (!errored) {
      *error = where + " (" + row.name + ") has no \"time_unit\" string";
      return false;
    }
    if (entry.contains("iterations") && entry["iterations"].is_number()) row.iterations = entry["iterations"].get<double>();
    for (const auto &[key, value] : entry.items()) {
      if (value.is_number() && !StandardKeys().count(key)) row.counters[key] = value.get<double>();
    }
    loaded.rows.push_back(std::move(row));
  }
  *file = std::move(loaded);
  return true;
}

}  // namespace infinicts::render
