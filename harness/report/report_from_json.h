// A report read back into the result model, so that what is derived from the results (the
// summary, the levels, the parts, the root causes) is computed again rather than trusted:
// `infinicts report` and `compare` on a report whose stored summary disagrees with its
// results, a report completed from its journal, `infinicts merge`.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "report/report.h"

namespace infinicts::report {

HostInfo HostFromJson(const nlohmann::json &host);
BackendInfo BackendFromJson(const nlohmann::json &backend);
RunInfo RunFromJson(const nlohmann::json &run);

// `json` must have passed the schema (report/report_schema.h). False with the reason when a
// part cannot be read; *report then holds what was read before it.
bool ReportFromJson(const nlohmann::json &json, Report *report, std::string *error);

// The report, with its summary computed from its results, as `infinicts run` would write it.
bool RecomputedReport(const nlohmann::json &json, nlohmann::json *recomputed, std::string *error);

}  // namespace infinicts::report
