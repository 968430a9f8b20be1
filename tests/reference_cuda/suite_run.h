// Runs `infinicts run --device nvidia --suite <suite>` against the reference backend on a
// machine without a GPU and checks what docs/usage.md asks of a device type the backend has
// none of: exit 2 with one line, and with --allow-no-device exit 0, every case `skip` with a
// reason. Answers the parsed report of the allowed run for further checks.
#ifndef INFINICTS_TESTS_REFERENCE_CUDA_SUITE_RUN_H
#define INFINICTS_TESTS_REFERENCE_CUDA_SUITE_RUN_H

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace reference_cuda_test {

inline nlohmann::json ExpectNvidiaSuiteSkipsEveryCase(const std::string &suite, const std::string &backend_dir,
                                                      const std::string &cli_path, const std::string &report_dir) {
  const std::string report = report_dir + "/suite_" + suite + "_nvidia.json";
  std::remove(report.c_str());
  const std::string refused = cli_path + " run --backend " + backend_dir + " --device nvidia --suite " + suite +
                              " --quiet --out " + report + " 2>/dev/null";
  const int refused_status = std::system(refused.c_str());
  EXPECT_TRUE(WIFEXITED(refused_status) && WEXITSTATUS(refused_status) == 2) << refused << " ended with " << refused_status;
  const std::string command = cli_path + " run --backend " + backend_dir + " --device nvidia --allow-no-device --suite " +
                              suite + " --quiet --out " + report;
  const int status = std::system(command.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << " ended with " << status;
  std::ifstream file(report);
  if (!file.good()) {
    ADD_FAILURE() << "no report at " << report;
    return nlohmann::json::object();
  }
  const nlohmann::json parsed = nlohmann::json::parse(file);
  const nlohmann::json &summary = parsed.at("summary");
  EXPECT_GT(summary.at("total").get<int>(), 0);
  EXPECT_EQ(summary.at("skip").get<int>(), summary.at("total").get<int>());
  for (const nlohmann::json &result : parsed.at("results")) {
    EXPECT_EQ(result.at("status").get<std::string>(), "skip") << result.at("id");
    EXPECT_FALSE(result.at("message").get<std::string>().empty()) << result.at("id");
  }
  return parsed;
}

}  // namespace reference_cuda_test

#endif  // INFINICTS_TESTS_REFERENCE_CUDA_SUITE_RUN_H
