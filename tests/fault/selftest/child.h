// Runs a piece of a test in a forked child, so that each child can load the wrapper
// under a fault of its own (the wrapper reads $INFINICTS_FAULT once) and may crash or hang.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace infinicts::fault::selftest {

struct ChildOutcome {
  bool exited = false;     // returned from main / _exit
  int exit_code = -1;      // when exited
  int signal = 0;          // the signal that killed it, when it did not exit
  bool timed_out = false;  // still running after the limit, then killed
};

// Forks; the child sets `environment` (NAME=VALUE; an empty VALUE unsets NAME), runs
// `body` and _exits with its answer (0 = every expectation held).
ChildOutcome RunInChild(const std::vector<std::pair<std::string, std::string>> &environment,
                        const std::function<int()> &body, double limit_seconds);

}  // namespace infinicts::fault::selftest

// An expectation inside a child: prints where it failed and makes the child answer 1.
#define CHILD_REQUIRE(condition)                                                         \
  do {                                                                                   \
    if (!(condition)) {                                                                  \
      std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #condition);      \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)
