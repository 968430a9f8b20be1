#include "report/case_result.h"

#include <stdexcept>

namespace infinicts::report {

nlohmann::ordered_json ToJson(const CaseResult &result) {
  nlohmann::ordered_json json;
  json["id"] = result.id;
  json["suite"] = result.suite;
  json["subject"] = result.subject;
  json["mode"] = result.mode;
  json["clauses"] = result.clauses;
  json["status"] = StatusName(result.status);
  json["message"] = result.message;
  json["duration_ms"] = result.duration_ms;
  json["params"] = nlohmann::ordered_json(result.params);
  json["metrics"] = nlohmann::ordered_json(result.metrics);
  if (!result.timing.is_null()) json["timing"] = nlohmann::ordered_json(result.timing);
  if (!result.optional_capability.empty()) json["optional_capability"] = result.optional_capability;
  if (result.selection_index) json["selection_index"] = *result.selection_index;
  if (result.invalid_input) json["invalid_input"] = true;
  if (result.crash_on_invalid_input) json["crash_on_invalid_input"] = true;
  return json;
}

CaseResult CaseResultFromJson(const nlohmann::json &json) {
  CaseResult result;
  result.id = json.at("id").get<std::string>();
  result.suite = json.at("suite").get<std::string>();
  result.subject = json.at("subject").get<std::string>();
  result.mode = json.at("mode").get<std::string>();
  result.clauses = json.at("clauses").get<std::vector<std::string>>();
  const std::string status = json.at("status").get<std::string>();
  const auto parsed = ParseStatus(status);
  if (!parsed) throw std::invalid_argument("unknown status '" + status + "' in result " + result.id);
  result.status = *parsed;
  result.message = json.at("message").get<std::string>();
  result.duration_ms = json.at("duration_ms").get<double>();
  result.params = json.at("params");
  result.metrics = json.at("metrics");
  if (json.contains("timing")) result.timing = json.at("timing");
  if (json.contains("optional_capability")) result.optional_capability = json.at("optional_capability").get<std::string>();
  if (json.contains("selection_index")) result.selection_index = json.at("selection_index").get<size_t>();
  result.invalid_input = json.value("invalid_input", false);
  result.crash_on_invalid_input = json.value("crash_on_invalid_input", false);
  return result;
}

}  // namespace infinicts::report
