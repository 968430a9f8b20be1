// The cases of a suite binary, from `<suite> --cts-list` (one JSON object a line).
#pragma once

#include <string>
#include <vector>

#include "cts/case_list.h"
#include "report/case_result.h"

namespace infinicts::runner {

// Returns false and a one-line reason when the binary cannot be started, fails or
// prints something that is not a case list.
bool ListSuiteCases(const std::string &binary, std::vector<cts::ListedCase> *cases, std::string *error);

// The result of a listed case: its identity and metadata, with this status and message.
report::CaseResult ResultOfListed(const cts::ListedCase &listed, report::Status status, std::string message,
                                  double duration_ms = 0);

}  // namespace infinicts::runner
