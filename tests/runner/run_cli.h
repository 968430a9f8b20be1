// Runs the infinicts command for a test, against the fake suite and backend.
#pragma once

#include <sys/types.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace infinicts::testing_support {

struct CliRun {
  int exit_code = -1;  // -1 when it was killed by a signal
  std::string out;
  std::string err;
};

// infinicts ARGS with extra environment variables; fails the test past time_limit_s.
CliRun RunCli(const std::vector<std::string> &args, const std::map<std::string, std::string> &env = {},
              double time_limit_s = 20);

// A fresh directory for one test's files.
std::string ScratchDir(const std::string &name);

std::string FakeBackendDir();
nlohmann::json ReadJson(const std::string &path);  // null when absent or not JSON

// The result of one case in a report; null when the report has none.
nlohmann::json FindResult(const nlohmann::json &report, const std::string &id);

}  // namespace infinicts::testing_support
