#include "report/load_report.h"

#include <fstream>
#include <sstream>

#include "report/journal.h"
#include "report/report_schema.h"

namespace infinicts::report {
namespace {

constexpr size_t kViolationsShown = 5;

// Version 1 had no status `blocked`: its reports read as version 2 reports without a blocked
// case, so a baseline kept from before still compares.
void UpgradeFromVersion1(nlohmann::json *report) {
  auto version = report->find("schema_version");
  if (version == report->end() || *version != 1) return;
  auto summary = report->find("summary");
  if (summary != report->end() && summary->is_object() && !summary->contains("blocked")) (*summary)["blocked"] = 0;
  *version = 2;
}

}  // namespace

bool LoadReportFile(const std::string &path, nlohmann::json *report, std::string *error, std::string *note) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot be read";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json parsed = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    *error = path + ": not JSON (a report from `infinicts run` is a JSON object)";
    return false;
  }
  if (parsed.is_object()) UpgradeFromVersion1(&parsed);
  std::vector<SchemaViolation> violations = ValidateReport(parsed);
  if (!violations.empty()) {
    const size_t total = violations.size();
    if (total > kViolationsShown) violations.resize(kViolationsShown);
    *error = path + ": not a valid infinicts report (" + std::to_string(total) + " schema violation" +
             (total == 1 ? "" : "s") + "):\n" + FormatViolations(violations);
    return false;
  }
  JournalReplay replay;
  if (!ApplyJournal(path, &parsed, &replay, error)) {
    *error = path + ": " + *error;
    return false;
  }
  if (note) *note = replay.note;
  *report = std::move(parsed);
  return true;
}

}  // namespace infinicts::report
