// Reading a report back (for `infinicts compare` and `infinicts report`): the file
// must parse as JSON and validate against the report schema, or the reader gets
// one clear reason and nothing half-read.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace infinicts::report {

// False with *error = "<path>: <why>" (unreadable, not JSON, or the first schema
// violations) when the file is not a report this tool can read. A report of a run that did not
// finish is completed from its journal (report/journal.h); *note, when given, then says so.
bool LoadReportFile(const std::string &path, nlohmann::json *report, std::string *error, std::string *note = nullptr);

}  // namespace infinicts::report
