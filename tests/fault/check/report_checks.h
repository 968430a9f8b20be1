// What a detection test asserts about an `infinicts run` report, as pure functions of
// the report's JSON: each answers the problems it found (empty = the check holds).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace infinicts::fault::check {

// The case ids in the output of `infinicts list`: one case per line, either a JSON
// object with an "id" or a line whose first word is the id (starting "<suite>.").
std::vector<std::string> ParseListedIds(const std::string &list_output, const std::string &suite);

// Every listed case has exactly one result, no other result is there, and the summary's
// total counts them: a crash or a hang must not cost the report any case.
std::vector<std::string> CheckComplete(const nlohmann::json &report, const std::vector<std::string> &listed_ids);

// Each glob matches at least one case, and every case it matches ended fail, crash or timeout.
std::vector<std::string> CheckCaught(const nlohmann::json &report, const std::vector<std::string> &globs);

// Each glob matches at least one case, and every case it matches ended `status` (blocked, say).
std::vector<std::string> CheckEndedAs(const nlohmann::json &report, const std::vector<std::string> &globs,
                                      const std::string &status);

// Each glob matches at least one case, and every case it matches ended `crash` with
// crash_on_invalid_input: the backend died on a NULL or bad argument, which counts apart.
std::vector<std::string> CheckCrashedOnInvalidInput(const nlohmann::json &report, const std::vector<std::string> &globs);

// Every case a glob matches that did not pass has a message holding each text of `has` and
// none of `lacks`.
std::vector<std::string> CheckMessages(const nlohmann::json &report, const std::vector<std::string> &globs,
                                       const std::vector<std::string> &has, const std::vector<std::string> &lacks);
// Every case no glob matches ended pass: the fault costs nothing beyond the cases named.
// With rank_skips_pass, a case skipped for want of ranks under mpirun counts as passed.
std::vector<std::string> CheckOthersPass(const nlohmann::json &report, const std::vector<std::string> &globs,
                                         bool rank_skips_pass = false);
// Whether a result is a skip for want of rank processes ("needs 4 ranks (one per process); …").
bool SkippedForWantOfRanks(const nlohmann::json &result);

// The run recorded itself complete and holds a run failure with the text (a lost MPI rank).
std::vector<std::string> CheckRunFailure(const nlohmann::json &report, const std::string &text);

// The report's failures form exactly `expected` root causes (summary.root_causes): one broken
// call reads as one problem however many cases it reaches.
std::vector<std::string> CheckRootCauses(const nlohmann::json &report, int expected);

// Each "PART=VERDICT" holds in summary.parts (e.g. "ccl=pass": a refused optional capability
// leaves the part passing).
std::vector<std::string> CheckPartVerdicts(const nlohmann::json &report, const std::vector<std::string> &expected);

// Each capability is listed in summary.missing_capabilities.
std::vector<std::string> CheckMissingCapabilities(const nlohmann::json &report,
                                                  const std::vector<std::string> &capabilities);

// Every case ended pass (or, with rank_skips_pass, skipped for want of rank processes).
std::vector<std::string> CheckAllPass(const nlohmann::json &report, bool rank_skips_pass = false);

}  // namespace infinicts::fault::check
