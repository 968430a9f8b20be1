// `infinicts report` end to end: outputs, stdout Markdown, and exit code 2 with a clear
// reason for a report or benchmark file it cannot read and an output it cannot write.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

const std::string kFixtures = INFINICTS_RENDER_FIXTURES;
const std::string kCli = INFINICTS_RENDER_CLI;

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

std::string ReadFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class ReportCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("infinicts-render-cli-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Outcome Run(const std::string &arguments) {
    const std::string out = (dir_ / "stdout").string(), err = (dir_ / "stderr").string();
    const int status = std::system((kCli + " report " + arguments + " >" + out + " 2>" + err).c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ReadFile(out), ReadFile(err)};
  }
  std::string Path(const std::string &name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

TEST_F(ReportCli, WritesEveryOutputAtomically) {
  const Outcome outcome = Run(kFixtures + "/perf_report.json --html " + Path("out/r.html") + " --md " + Path("r.md") +
                              " --junit " + Path("r.xml") + " --benchmark " + kFixtures + "/google_benchmark.json");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "");
  EXPECT_NE(ReadFile(Path("out/r.html")).find("BM_GemmOracle/64"), std::string::npos);
  EXPECT_NE(ReadFile(Path("r.md")).find("## Failures (4)"), std::string::npos);
  EXPECT_NE(ReadFile(Path("r.xml")).find("<testsuites "), std::string::npos);
  for (const auto &entry : std::filesystem::recursive_directory_iterator(dir_)) {
    EXPECT_NE(entry.path().extension(), ".tmp") << "temporary file left: " << entry.path();
  }
}

TEST_F(ReportCli, PrintsMarkdownWithoutAnOutputOption) {
  const Outcome outcome = Run(kFixtures + "/perf_report.json");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out.rfind("# infinicts report: cpu", 0), 0u);
  EXPECT_NE(outcome.out.find("## Conformance levels"), std::string::npos);
}

TEST_F(ReportCli, AnInvalidReportIsExitTwoWithTheSchemaReason) {
  Outcome outcome = Run(kFixtures + "/invalid_report.json --html " + Path("r.html"));
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("invalid_report.json: not a valid infinicts report"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(Path("r.html")));

  std::ofstream(Path("not.json")) << "{ \"schema_version\": 1, ";
  outcome = Run(Path("not.json"));
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("not.json: not JSON"), std::string::npos) << outcome.err;
  EXPECT_EQ(outcome.out, "");
}

TEST_F(ReportCli, AMalformedBenchmarkFileIsExitTwo) {
  const Outcome outcome = Run(kFixtures + "/perf_report.json --md " + Path("r.md") + " --benchmark " + kFixtures +
                              "/bad_google_benchmark.json");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("BM_NoTimes"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(Path("r.md")));
}

TEST_F(ReportCli, AnUnwritableOutputIsExitTwo) {
  std::ofstream(Path("a_file")) << "x";
  const Outcome outcome = Run(kFixtures + "/perf_report.json --junit " + Path("a_file/r.xml"));
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("a_file"), std::string::npos) << outcome.err;
}

}  // namespace
