// A run side by side with another backend (infinicts run --against; docs/usage.md "Two
// backends side by side"). The runner runs the other backend first with
// $INFINICTS_AGAINST = "save:DIR": each side-by-side case saves what its call wrote under
// DIR. Then the backend under test with "compare:DIR": each compares what its call wrote with
// the other backend's. $INFINICTS_AGAINST_NAMES holds the two backends' names, the one under
// test first, one a line, for the messages. Unset, the side-by-side cases are not declared.
#pragma once

#include <cstdlib>
#include <string>

namespace infinicts::cts {

inline constexpr const char *kAgainstVariable = "INFINICTS_AGAINST";
inline constexpr const char *kAgainstNamesVariable = "INFINICTS_AGAINST_NAMES";

enum class AgainstRole { kNone, kSave, kCompare };

struct AgainstRun {
  AgainstRole role = AgainstRole::kNone;
  std::string dir;
  std::string under_test, other;  // the backends' names
};

// The process's side-by-side run, read once from the environment.
inline const AgainstRun &AgainstRunOfProcess() {
  static const AgainstRun run = [] {
    AgainstRun read;
    const char *value = std::getenv(kAgainstVariable);
    const std::string text = value ? value : "";
    for (const auto &[prefix, role] : {std::pair<const char *, AgainstRole>{"save:", AgainstRole::kSave},
                                       std::pair<const char *, AgainstRole>{"compare:", AgainstRole::kCompare}}) {
      if (text.rfind(prefix, 0) == 0 && text.size() > std::string(prefix).size()) {
        read.role = role;
        read.dir = text.substr(std::string(prefix).size());
      }
    }
    const char *names = std::getenv(kAgainstNamesVariable);
    const std::string both = names ? names : "";
    const size_t newline = both.find('\n');
    read.under_test = both.substr(0, newline);
    read.other = newline == std::string::npos ? "the other backend" : both.substr(newline + 1);
    if (read.under_test.empty()) read.under_test = "the backend under test";
    return read;
  }();
  return run;
}

inline bool AgainstActive() { return AgainstRunOfProcess().role != AgainstRole::kNone; }

}  // namespace infinicts::cts
