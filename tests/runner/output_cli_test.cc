// End-to-end: what the commands write never destroys what is at the path (docs/usage.md
// "Outputs"), against the fake suite and backend.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_fixture.h"

namespace infinicts {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::ReadJson;
using testing_support::RunCli;

std::string Read(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

class OutputCliTest : public testing_support::CliFixture {
 protected:
  OutputCliTest() : CliFixture("output_") {}

  // A finished run's report at out_ (its exit is 1: the fake suite has a failing case).
  void MakeReport() {
    const CliRun run = RunCli(RunArgs({"--quiet"}));
    ASSERT_EQ(run.exit_code, 1) << run.err;
    report_text_ = Read(out_);
    ASSERT_FALSE(report_text_.empty());
  }

  std::string report_text_;
};

TEST_F(OutputCliTest, TheReportCanGoToStandardOutputWholeAndAlone) {
  const CliRun run = RunCli({"run", "--backend", testing_support::FakeBackendDir(), "--device", "cpu", "--out", "-",
                             "--quiet"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const json report = json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(report.is_object()) << "stdout is not the report alone:\n" << run.out.substr(0, 400);
  ExpectValid(report);
  EXPECT_EQ(report["summary"]["total"], 11);
  EXPECT_NE(run.err.find("wrong_value"), std::string::npos) << "the failures go to stderr instead: " << run.err;
  EXPECT_FALSE(std::filesystem::exists("-")) << "a file named '-' was written";
}

TEST_F(OutputCliTest, MarkdownToStandardOutputByDashOrDescriptor) {
  MakeReport();
  // /dev/fd/1 rather than /dev/stdout: a writer that replaced the path, as root, would replace
  // the machine's /dev/stdout (report::KindOfOutput is checked on it in output_file_test.cc).
  for (const char *to : {"-", "/dev/fd/1"}) {
    const CliRun run = RunCli({"report", out_, "--md", to});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("wrong_value"), std::string::npos) << to << " printed:\n" << run.out;
  }
  EXPECT_FALSE(std::filesystem::exists("-")) << "a file named '-' was written";
}

TEST_F(OutputCliTest, AnOutputThatIsTheInputIsRefused) {
  MakeReport();
  ASSERT_EQ(symlink(out_.c_str(), (dir_ + "/alias.json").c_str()), 0);
  for (const std::vector<std::string> &args : std::vector<std::vector<std::string>>{
           {"report", out_, "--html", out_},
           {"report", out_, "--md", dir_ + "/alias.json"},
           {"report", out_, "--junit", dir_ + "/../" + std::string(std::filesystem::path(dir_).filename()) + "/report.json"},
           {"compare", out_, out_, "--html", out_},
       }) {
    const CliRun run = RunCli(args);
    EXPECT_EQ(run.exit_code, 2) << args[0] << " " << args.back() << ": " << run.err;
    EXPECT_NE(run.err.find("would destroy the input"), std::string::npos) << run.err;
    EXPECT_TRUE(Read(out_) == report_text_) << "the input was changed by " << args[0] << " " << args.back();
  }
  const CliRun both = RunCli({"report", out_, "--html", dir_ + "/page", "--md", dir_ + "/page"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("name the same file"), std::string::npos) << both.err;
}

TEST_F(OutputCliTest, MergeRefusesToWriteOverAShard) {
  const std::string first = dir_ + "/s1.json", second = dir_ + "/s2.json";
  ASSERT_NE(RunCli({"run", "--backend", testing_support::FakeBackendDir(), "--device", "cpu", "--quiet", "--shard",
                    "1/2", "--out", first})
                .exit_code,
            2);
  ASSERT_NE(RunCli({"run", "--backend", testing_support::FakeBackendDir(), "--device", "cpu", "--quiet", "--shard",
                    "2/2", "--out", second})
                .exit_code,
            2);
  const std::string before = Read(first);
  const CliRun run = RunCli({"merge", first, second, "--out", first});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("would destroy the input"), std::string::npos) << run.err;
  EXPECT_TRUE(Read(first) == before) << "the shard was changed";
}

TEST_F(OutputCliTest, TheJobSummaryIsAppendedTo) {
  MakeReport();
  const std::string summary = dir_ + "/step_summary.md";
  std::ofstream(summary) << "## an earlier step\n";
  const CliRun run = RunCli({"report", out_, "--md", summary}, {{"GITHUB_STEP_SUMMARY", summary}});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const std::string text = Read(summary);
  EXPECT_EQ(text.rfind("## an earlier step\n", 0), 0u) << "the earlier steps' summary was wiped:\n" << text;
  EXPECT_NE(text.find("wrong_value"), std::string::npos) << text;

  const std::string other = dir_ + "/notes.md";
  std::ofstream(other) << "kept\n";
  EXPECT_EQ(RunCli({"report", out_, "--md-append", other}).exit_code, 0);
  EXPECT_EQ(Read(other).rfind("kept\n", 0), 0u);
  EXPECT_GT(Read(other).size(), 5u);
  EXPECT_EQ(RunCli({"report", out_, "--md", other}).exit_code, 0);
  EXPECT_EQ(Read(other).find("kept\n"), std::string::npos) << "--md outside a job summary replaces";
}

TEST_F(OutputCliTest, AReportWhoseSummaryContradictsItsResultsIsRenderedFromTheResults) {
  MakeReport();
  json report = ReadJson(out_);
  report["summary"]["fail"] = 0;
  report["summary"]["pass"] = report["summary"]["pass"].get<int>() + 1;
  const std::string forged = dir_ + "/forged.json";
  std::ofstream(forged) << report.dump();
  const CliRun run = RunCli({"report", forged, "--md", "-"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("stored summary disagrees with its results"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("fail 0 stored, 1 counted"), std::string::npos) << run.err;
}

TEST_F(OutputCliTest, APipedRunSaysWhatItRunsBeatsAndPrintsEachFailureWithItsRerunLine) {
  const CliRun run = RunCli(RunArgs({"--timeout", "1.5"}),
                            {{"FAKE_SUITE_FAULTS", "hang"}, {"INFINICTS_HEARTBEAT_SECONDS", "0.3"}});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out.rfind("infinicts ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("1 cpu device (using 0); suites rt; modes conformance, accuracy; 11 cases"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  report " + out_ + "\n"), std::string::npos) << run.out;
  // The hanging case keeps the run going past several heartbeats.
  EXPECT_NE(run.out.find(" failed, 0:0"), std::string::npos) << "no heartbeat line:\n" << run.out;
  EXPECT_NE(run.out.find("running rt.event.conformance/hangs"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(std::string("\n         rerun: ") + INFINICTS_TEST_CLI + " run --backend"), std::string::npos)
      << run.out;
}

TEST_F(OutputCliTest, PerfCasesPrintTheirFiguresAsTheyEnd) {
  const CliRun run = RunCli(RunArgs({"--mode", "perf"}));
  EXPECT_NE(run.out.find("time       rate"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("rt.memory.perf/copy/"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(" GB/s "), std::string::npos) << run.out;
  const CliRun quiet = RunCli(RunArgs({"--mode", "perf", "--quiet"}));
  EXPECT_EQ(quiet.out.find("time       rate"), std::string::npos) << "--quiet prints failures and the summary only";
}

}  // namespace
}  // namespace infinicts
