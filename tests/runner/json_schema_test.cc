#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "report/json_schema.h"
#include "report/report.h"
#include "report/report_schema.h"

namespace infinicts::report {
namespace {

using nlohmann::json;

std::vector<std::string> Pointers(const std::vector<SchemaViolation> &violations) {
  std::vector<std::string> pointers;
  for (const SchemaViolation &violation : violations) pointers.push_back(violation.pointer);
  return pointers;
}

TEST(JsonSchema, ChecksEachKeywordAndNamesThePlace) {
  const JsonSchemaValidator validator(json::parse(R"({
    "type": "object",
    "required": ["name", "count"],
    "additionalProperties": false,
    "properties": {
      "name": {"type": "string", "pattern": "^[a-z]+$"},
      "count": {"type": "integer", "minimum": 0},
      "kind": {"enum": ["a", "b"]},
      "version": {"const": 1},
      "tags": {"type": "array", "items": {"$ref": "#/definitions/tag"}},
      "pair": {"type": "array", "minItems": 2},
      "a/b": {"type": "null"},
      "extra": {"type": "object", "additionalProperties": {"type": ["number", "null"]}}
    },
    "definitions": {"tag": {"type": "string"}}
  })"));
  EXPECT_TRUE(validator.Validate(json::parse(R"({"name": "ok", "count": 3, "kind": "a", "version": 1,
      "tags": ["x"], "a/b": null, "extra": {"x": 1.5, "y": null}})")).empty());
  EXPECT_TRUE(validator.Validate(json::parse(R"({"name": "ok", "count": 3.0})")).empty()) << "3.0 is an integer";

  EXPECT_EQ(Pointers(validator.Validate(json::parse(R"({"name": "ok"})"))), std::vector<std::string>{""});
  EXPECT_EQ(Pointers(validator.Validate(json::parse(R"({"name": "OK", "count": -1})"))),
            (std::vector<std::string>{"/count", "/name"}));  // keys in sorted order
  EXPECT_EQ(Pointers(validator.Validate(json::parse(R"({"name": "a", "count": 1.5})"))),
            std::vector<std::string>{"/count"});
  EXPECT_EQ(Pointers(validator.Validate(json::parse(R"({"name": "a", "count": 1, "kind": "c", "version": 2})"))),
            (std::vector<std::string>{"/kind", "/version"}));
  EXPECT_EQ(Pointers(validator.Validate(json::parse(R"({"name": "a", "count": 1, "tags": ["x", 2]})"))),
            std::vector<std::string>{"/tags/1"});
  EXPECT_EQ(Pointers(validator.Validate(json::parse(R"({"name": "a", "count": 1, "a/b": 0, "more": 1})"))),
            (std::vector<std::string>{"/a~1b", "/more"}));
  EXPECT_EQ(Pointers(validator.Validate(json::parse(R"({"name": "a", "count": 1, "extra": {"x": "1"}})"))),
            std::vector<std::string>{"/extra/x"});
  EXPECT_EQ(Pointers(validator.Validate(json::parse(R"({"name": "a", "count": 1, "pair": [1]})"))),
            std::vector<std::string>{"/pair"});
  EXPECT_TRUE(validator.Validate(json::parse(R"({"name": "a", "count": 1, "pair": [1, 2]})")).empty());
  EXPECT_EQ(Pointers(validator.Validate(json::parse("[]"))), std::vector<std::string>{""});
}

TEST(JsonSchema, RefusesKeywordsItDoesNotImplement) {
  EXPECT_THROW(JsonSchemaValidator(json::parse(R"({"type": "string", "maxLength": 3})")), std::invalid_argument);
  EXPECT_THROW(JsonSchemaValidator(json::parse(R"({"properties": {"a": {"anyOf": []}}})")), std::invalid_argument);
  EXPECT_THROW(JsonSchemaValidator(json::parse(R"({"$ref": "#/definitions/none"})")), std::invalid_argument);
  EXPECT_THROW(JsonSchemaValidator(json::parse(R"({"pattern": "("})")), std::invalid_argument);
  EXPECT_THROW(JsonSchemaValidator(json::parse(R"({"type": "text"})")), std::invalid_argument);
  EXPECT_THROW(JsonSchemaValidator(json::parse(R"({"minItems": -1})")), std::invalid_argument);
}

TEST(ReportSchema, EmbeddedTextIsTheSchemaFile) {
  std::ifstream file(INFINICTS_TEST_SCHEMA);
  ASSERT_TRUE(file) << INFINICTS_TEST_SCHEMA;
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(ReportSchemaText(), text.str());
}

Report SampleReport() {
  Report report;
  report.host = HostInfo::ThisMachine();
  report.backend.libraries = {"/opt/backend/libinfinirt.so"};
  report.backend.device_type = "cpu";
  report.backend.device_ids = {0};
  report.backend.device_count = 1;
  report.backend.exported = {"infinirtMalloc"};
  report.backend.missing = {"infinirtEventCreate"};
  report.run.started = IsoTimeNowUtc();
  report.run.finished = IsoTimeNowUtc();
  report.run.argv = {"infinicts", "run"};
  report.run.suites = {"rt"};
  report.run.modes = {"conformance"};
  CaseResult result;
  result.id = "rt.memory.conformance/malloc/n16";
  result.suite = "rt";
  result.subject = "memory";
  result.mode = "conformance";
  result.clauses = {"RT-MEM-1"};
  result.status = Status::kFail;
  result.message = "expected 4, got 5\nrerun: infinicts run …";
  result.duration_ms = 1.5;
  result.params = json{{"bytes", 16}};
  result.metrics = json{{"max_abs_err", 0.5}, {"max_ulp", nullptr}};
  report.Add(result);
  return report;
}

TEST(ReportSchema, AcceptsWhatTheReportWriterWrites) {
  const json document = json::parse(SampleReport().Serialize());
  const auto violations = ValidateReport(document);
  EXPECT_TRUE(violations.empty()) << FormatViolations(violations);
}

TEST(ReportSchema, RejectsBrokenReports) {
  const json good = json::parse(SampleReport().Serialize());

  json missing_key = good;
  missing_key.erase("host");
  EXPECT_EQ(Pointers(ValidateReport(missing_key)), std::vector<std::string>{""});

  json missing_result_key = good;
  missing_result_key["results"][0].erase("clauses");
  EXPECT_EQ(Pointers(ValidateReport(missing_result_key)), std::vector<std::string>{"/results/0"});

  json bad_status = good;
  bad_status["results"][0]["status"] = "passed";
  EXPECT_EQ(Pointers(ValidateReport(bad_status)), std::vector<std::string>{"/results/0/status"});

  json bad_id = good;
  bad_id["results"][0]["id"] = "memory.conformance/x";
  EXPECT_EQ(Pointers(ValidateReport(bad_id)), std::vector<std::string>{"/results/0/id"});

  json bad_metric = good;
  bad_metric["results"][0]["metrics"]["gflops"] = "fast";
  EXPECT_EQ(Pointers(ValidateReport(bad_metric)), std::vector<std::string>{"/results/0/metrics/gflops"});

  json negative_count = good;
  negative_count["summary"]["pass"] = -1;
  EXPECT_EQ(Pointers(ValidateReport(negative_count)), std::vector<std::string>{"/summary/pass"});

  json wrong_version = good;
  wrong_version["schema_version"] = 3;
  EXPECT_EQ(Pointers(ValidateReport(wrong_version)), std::vector<std::string>{"/schema_version"});

  json unknown_key = good;
  unknown_key["run"]["speed"] = 1;
  EXPECT_EQ(Pointers(ValidateReport(unknown_key)), std::vector<std::string>{"/run/speed"});

  json bad_time = good;
  bad_time["run"]["started"] = "yesterday";
  EXPECT_EQ(Pointers(ValidateReport(bad_time)), std::vector<std::string>{"/run/started"});
}

}  // namespace
}  // namespace infinicts::report
