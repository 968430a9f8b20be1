// `infinicts show ID FILE.json`: one case's whole record from a report (every key, the whole
// message, the timing samples), as indented JSON. ID may be a glob; each match is printed.
#include <fnmatch.h>

#include <cstdio>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "report/load_report.h"

namespace infinicts::cli {

int ShowCommand(const ShowOptions &options) {
  nlohmann::json report;
  std::string error, note;
  if (!report::LoadReportFile(options.report, &report, &error, &note)) return UsageError(error);
  if (!note.empty()) std::fprintf(stderr, "infinicts: %s\n", note.c_str());
  size_t shown = 0;
  for (const nlohmann::json &result : report["results"]) {
    const std::string id = result.value("id", "");
    if (id != options.id && fnmatch(options.id.c_str(), id.c_str(), 0) != 0) continue;
    std::printf("%s\n", result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    ++shown;
  }
  if (shown == 0) {
    return UsageError("no case of " + options.report + " is " + options.id + " (" +
                      std::to_string(report["results"].size()) + " cases; `infinicts list` or the report names them)");
  }
  return kExitOk;
}

}  // namespace infinicts::cli
