// The outcome words of a case (docs/usage.md "Statuses") and their tallies.
#pragma once

#include <array>
#include <optional>
#include <string>

namespace infinicts::report {

// In the order the report's summary lists them.
enum class Status { kPass, kFail, kUnsupported, kSkip, kBlocked, kCrash, kTimeout, kXfail };

inline constexpr int kStatusCount = 8;
inline constexpr std::array<Status, kStatusCount> kAllStatuses = {Status::kPass,    Status::kFail,  Status::kUnsupported,
                                                                  Status::kSkip,    Status::kBlocked, Status::kCrash,
                                                                  Status::kTimeout, Status::kXfail};

const char *StatusName(Status status);  // "pass", "fail", …
std::optional<Status> ParseStatus(const std::string &name);

// fail, blocked, crash and timeout: the run's exit code is 1 and the terminal names the case.
// A blocked case did not fail its own clauses, but it did not pass either: what it needs failed.
bool IsFailure(Status status);
// What keeps a conformance level from being reached: any outcome but pass and skip.
bool BlocksLevel(Status status);

struct StatusCounts {
  std::array<int, kStatusCount> by_status{};
  int total = 0;

  void Add(Status status) {
    ++by_status[static_cast<int>(status)];
    ++total;
  }
  int operator[](Status status) const { return by_status[static_cast<int>(status)]; }
};

}  // namespace infinicts::report
