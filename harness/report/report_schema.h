// reports/schema/report.schema.json, built into the binary, and the check of a
// report against it (for what `infinicts run` writes and what later commands read).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "report/json_schema.h"

namespace infinicts::report {

const std::string &ReportSchemaText();
const JsonSchemaValidator &ReportSchemaValidator();
inline std::vector<SchemaViolation> ValidateReport(const nlohmann::json &report) {
  return ReportSchemaValidator().Validate(report);
}

}  // namespace infinicts::report
