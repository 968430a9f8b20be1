// What the suite's main reads back from the running case (internal to harness/cts).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace infinicts::cts {

std::vector<std::pair<std::string, double>> TakeMetrics();
nlohmann::json TakeTiming();  // null when the case recorded none
std::string TakeOptionalCapability();  // empty when the case noted none
std::string TakeHowItRan();            // NoteHowItRan's notes, "; "-joined; empty when none

}  // namespace infinicts::cts
