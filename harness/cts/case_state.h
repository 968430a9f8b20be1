// What the suite's main reads back from the running case (internal to harness/cts).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace infinicts::cts {

std::vector<std::pair<std::string, double>> TakeMetrics();

}  // namespace infinicts::cts
