// The comparison as GitHub-flavoured Markdown (a CI job summary, a pull-request comment).
#pragma once

#include <string>

#include "regression/comparison.h"

namespace infinicts::regression {

// Tables hold at most 30 rows each (a job summary is limited in size); the HTML page has more.
std::string ComparisonMarkdown(const Comparison &comparison);

}  // namespace infinicts::regression
