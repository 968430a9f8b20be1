// The comparison as a self-contained HTML page (the shared shell of harness/render).
#pragma once

#include <string>

#include "regression/comparison.h"

namespace infinicts::regression {

// Tables hold up to 1000 rows each, and the page lists every perf case timed in both.
std::string ComparisonHtml(const Comparison &comparison);

}  // namespace infinicts::regression
