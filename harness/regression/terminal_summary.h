// What `infinicts compare` prints: the two runs, warnings, a count of each kind of finding,
// the worst items of each, and the verdict.
#pragma once

#include <string>

#include "regression/comparison.h"

namespace infinicts::regression {

// Lists at most 10 items of each kind; the Markdown and HTML outputs list more.
std::string TerminalSummary(const Comparison &comparison);

}  // namespace infinicts::regression
