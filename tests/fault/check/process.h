// Runs a command to its end (or its time limit) with its output in a file.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace infinicts::fault::check {

struct ProcessOutcome {
  bool started = false;
  bool exited = false;    // exited normally; exit_code is then valid
  int exit_code = -1;
  int signal = 0;         // the signal that ended it, when it did not exit
  bool timed_out = false; // killed, with every process it started, at the limit
  double seconds = 0;     // wall time
};

// `environment` entries are set (an empty value unsets the name) on top of ours;
// stdout and stderr go to `output_file`.
ProcessOutcome RunProcess(const std::vector<std::string> &argv, const std::map<std::string, std::string> &environment,
                          const std::string &output_file, double limit_seconds);

std::string ReadFile(const std::string &path);

}  // namespace infinicts::fault::check
