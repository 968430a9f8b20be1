#include "run_cli.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "runner/child_process.h"

namespace infinicts::testing_support {

CliRun RunCli(const std::vector<std::string> &args, const std::map<std::string, std::string> &env,
              double time_limit_s) {
  // The child inherits the environment: set what this run needs, restore it afterwards.
  std::map<std::string, std::optional<std::string>> saved;
  for (const auto &[name, value] : env) {
    const char *old = std::getenv(name.c_str());
    saved[name] = old ? std::optional<std::string>(old) : std::nullopt;
    setenv(name.c_str(), value.c_str(), 1);
  }
  CliRun run;
  std::string error;
  auto child = runner::ChildProcess::Start(INFINICTS_TEST_CLI, args, /*results_pipe=*/false, &error);
  EXPECT_NE(child, nullptr) << error;
  if (child) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(time_limit_s);
    const auto sink = [&](runner::ChildProcess::Stream stream, std::string_view data) {
      (stream == runner::ChildProcess::Stream::kStdout ? run.out : run.err).append(data);
    };
    std::optional<int> status;
    while (!(status = child->TryReap())) {
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "infinicts ran past " << time_limit_s << " s";
        child->KillGroup();
        status = child->Reap();
        break;
      }
      child->Pump(20, sink);
    }
    child->Drain(sink);
    if (WIFEXITED(*status)) run.exit_code = WEXITSTATUS(*status);
  }
  for (const auto &[name, value] : saved) {
    if (value) setenv(name.c_str(), value->c_str(), 1);
    else unsetenv(name.c_str());
  }
  return run;
}

std::string ScratchDir(const std::string &name) {
  std::string dir = ::testing::TempDir() + "infinicts-runner-" + std::to_string(getpid()) + "-" + name;
  std::string command = "rm -rf '" + dir + "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  EXPECT_EQ(mkdir(dir.c_str(), 0777), 0) << dir;
  return dir;
}

std::string FakeBackendDir() { return INFINICTS_TEST_BACKEND_DIR; }

nlohmann::json ReadJson(const std::string &path) {
  std::ifstream file(path);
  if (!file) return nullptr;
  std::stringstream text;
  text << file.rdbuf();
  return nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
}

nlohmann::json FindResult(const nlohmann::json &report, const std::string &id) {
  if (!report.is_object() || !report.contains("results")) return nullptr;
  for (const nlohmann::json &result : report["results"]) {
    if (result.value("id", "") == id) return result;
  }
  return nullptr;
}

}  // namespace infinicts::testing_support
