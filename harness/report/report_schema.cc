#include "report/report_schema.h"

namespace infinicts::report {

extern const char kReportSchemaText[];  // generated from reports/schema/report.schema.json

const std::string &ReportSchemaText() {
  static const std::string text = kReportSchemaText;
  return text;
}

const JsonSchemaValidator &ReportSchemaValidator() {
  static const JsonSchemaValidator validator(nlohmann::json::parse(ReportSchemaText()));
  return validator;
}

}  // namespace infinicts::report
