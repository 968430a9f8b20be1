// End-to-end: the infinicts command against the fake rt suite and fake backend.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli_fixture.h"
#include "report/load_report.h"
#include "runner/child_process.h"

namespace infinicts {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::FakeBackendDir;
using testing_support::FindResult;
using testing_support::ReadJson;
using testing_support::RunCli;
using testing_support::ScratchDir;

const char *const kPassing = "rt.device.conformance/count_is_one";
const char *const kChatty = "rt.device.conformance/chatty";
const char *const kFailing = "rt.memory.conformance/wrong_value";
const char *const kAborts = "rt.event.conformance/aborts";
const char *const kSegfaults = "rt.event.conformance/segfaults";
const char *const kHangs = "rt.event.conformance/hangs";
const char *const kSkipped = "rt.stream.conformance/needs_two_devices";
const char *const kUnsupported = "rt.guard.conformance/stream_create";
const char *const kBlocked = "rt.memory.conformance/setup_blocked";
const char *const kAccuracy16 = "rt.memory.accuracy/malloc_free/n16";
const char *const kAccuracy64 = "rt.memory.accuracy/malloc_free/n64";
const char *const kPerf = "rt.memory.perf/malloc_free/n1024";

class CliTest : public testing_support::CliFixture {
 protected:
  json Report() const { return ReadJson(out_); }

  static std::string Status(const json &report, const std::string &id) {
    const json result = FindResult(report, id);
    return result.is_object() ? result["status"].get<std::string>() : "(no result)";
  }

};

TEST_F(CliTest, EveryStatusWithItsMessageAndAValidReport) {
  const CliRun run = RunCli(RunArgs({"--quiet"}));
  EXPECT_EQ(run.exit_code, 1) << run.err;  // one case fails
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(Status(report, kPassing), "pass");
  EXPECT_EQ(Status(report, kChatty), "pass");
  EXPECT_EQ(Status(report, kFailing), "fail");
  EXPECT_EQ(Status(report, kSkipped), "skip");
  EXPECT_EQ(Status(report, kUnsupported), "unsupported");
  EXPECT_EQ(Status(report, kAborts), "pass");
  EXPECT_EQ(Status(report, kAccuracy64), "pass");
  EXPECT_TRUE(FindResult(report, kPerf).is_null()) << "perf runs only when asked";
  EXPECT_EQ(report["summary"]["total"], 11);
  EXPECT_EQ(report["summary"]["fail"], 1);
  EXPECT_EQ(report["run"]["complete"], true);
  EXPECT_EQ(report["run"]["modes"], json({"conformance", "accuracy"}));
  EXPECT_EQ(report["backend"]["device_count"], 1);
  EXPECT_EQ(report["backend"]["device_ids"], json({0}));
  EXPECT_EQ(report["summary"]["levels"]["minimal"], false);
  // The fake backend has no libinfiniop.so: the op suite is not run, and that is no narrowing.
  EXPECT_EQ(report["summary"]["level_verdicts"]["minimal"], "not reached");
  EXPECT_EQ(report["backend"]["missing_libraries"], json({"libinfiniop.so", "libinfiniccl.so"}));
  EXPECT_EQ(report["summary"]["levels_detail"]["minimal"],
            json({"op suite not run", "rt.stream: all 1 cases skipped",
                  "rt.guard: 1 unsupported (first: rt.guard.conformance/stream_create)",
                  "1 fail in rt.memory on every case of conformance/wrong_value: RT-MEM-1: fake check: expected 4 "
                  "bytes, got 5: expected expected (4) to equal got (5) (rt.memory.conformance/wrong_value)"}));

  const json failing = FindResult(report, kFailing);
  const std::string message = failing["message"];
  EXPECT_NE(message.find("fake check: expected 4 bytes, got 5"), std::string::npos) << message;
  // The command as it was started (by its path), so that the line works without it on PATH.
  const std::string rerun = std::string("rerun: ") + INFINICTS_TEST_CLI + " run --backend " + FakeBackendDir() +
                            " --device cpu --suite rt --mode conformance --filter " + kFailing;
  EXPECT_EQ(message.substr(message.size() - rerun.size()), rerun) << message;
  EXPECT_EQ(failing["clauses"], json({"RT-MEM-1"}));
  EXPECT_EQ(FindResult(report, kSkipped)["message"], "needs two cpu devices");
  EXPECT_EQ(FindResult(report, kUnsupported)["message"], "the backend does not export infinirtStreamCreate");
  const json accuracy = FindResult(report, kAccuracy16);
  EXPECT_EQ(accuracy["params"], json({{"bytes", 16}}));
  EXPECT_EQ(accuracy["metrics"], json({{"bytes_allocated", 16.0}}));

  // Not a terminal: one line per failing case, then the summary.
  EXPECT_NE(run.out.find(std::string("FAIL     ") + kFailing + ": "), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find(kSkipped), std::string::npos) << "only failures are named";
  EXPECT_NE(run.out.find("report: " + out_), std::string::npos);
  EXPECT_NE(run.out.find("level minimal   not reached"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("failures by root cause (1):\n  1 fail in rt.memory on every case of conformance/wrong_value: "
                         "RT-MEM-1: fake check"),
            std::string::npos)
      << run.out;
}

TEST_F(CliTest, ACaseWhoseSetupFailsIsBlockedNamingTheRootCause) {
  const CliRun run = RunCli(RunArgs({"--quiet"}), {{"FAKE_SUITE_FAULTS", "blocked"}});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const json report = Report();
  ExpectValid(report);
  const json blocked = FindResult(report, kBlocked);
  EXPECT_EQ(blocked["status"], "blocked");
  const std::string message = blocked["message"];
  // What came back, the clause the call broke and the case that checks it, on the first line.
  EXPECT_EQ(message.rfind("infinirtSetDevice answered INFINI_STATUS_DEVICE_NOT_FOUND; blocked by RT-DEV-7, which "
                          "rt.device.conformance/set_get_round_trip/* checks",
                          0),
            0u)
      << message;
  EXPECT_EQ(report["summary"]["blocked"], 1);
  EXPECT_EQ(report["summary"]["fail"], 1);
  EXPECT_NE(run.out.find(std::string("BLOCKED  ") + kBlocked + ": infinirtSetDevice answered"), std::string::npos)
      << run.out;
  const json reasons = report["summary"]["levels_detail"]["minimal"];
  EXPECT_NE(std::find(reasons.begin(), reasons.end(),
                      "1 blocked in rt.memory: infinirtSetDevice answered INFINI_STATUS_DEVICE_NOT_FOUND; blocked by "
                      "RT-DEV-7, which "
                      "rt.device.conformance/set_get_round_trip/* checks (rt.memory.conformance/setup_blocked)"),
            reasons.end())
      << reasons;
  EXPECT_EQ(report["summary"]["root_causes"].size(), 2u);
}

TEST_F(CliTest, AFailureNamesItsClauseAndWhatCameBackFirst) {
  const CliRun run = RunCli(RunArgs({"--quiet", "--filter", kFailing}));
  const json failing = FindResult(Report(), kFailing);
  const std::string message = failing["message"];
  // GoogleTest's "Expected equality of these values" reworded, the clause in front.
  EXPECT_EQ(message.substr(0, message.find('\n')),
            "RT-MEM-1: fake check: expected 4 bytes, got 5: expected expected (4) to equal got (5)")
      << message;
  EXPECT_NE(message.find("\n  at fake_suite.cc:"), std::string::npos) << message;
}

TEST_F(CliTest, ACrashEndsOnlyItsCase) {
  const CliRun run = RunCli(RunArgs({}), {{"FAKE_SUITE_FAULTS", "abort,segv"}});
  EXPECT_EQ(run.exit_code, 1);
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(Status(report, kAborts), "crash");
  EXPECT_EQ(Status(report, kSegfaults), "crash");
  EXPECT_EQ(Status(report, kHangs), "pass");
  EXPECT_EQ(Status(report, kSkipped), "skip");
  EXPECT_EQ(Status(report, kAccuracy64), "pass");
  EXPECT_EQ(report["summary"]["total"], 11);
  const std::string aborted = FindResult(report, kAborts)["message"];
  EXPECT_NE(aborted.find("was killed by signal 6 (SIGABRT) during this case"), std::string::npos) << aborted;
  EXPECT_NE(aborted.find("fake suite: aborting on purpose"), std::string::npos) << aborted;
  const std::string segfault = FindResult(report, kSegfaults)["message"];
  EXPECT_NE(segfault.find("(SIGSEGV)"), std::string::npos) << segfault;
  EXPECT_NE(segfault.find("fake suite: segfaulting on purpose"), std::string::npos) << segfault;
  EXPECT_EQ(segfault.find("xxxxxxxx"), std::string::npos) << "an earlier case's output is not this crash's";
  EXPECT_NE(segfault.find("--filter " + std::string(kSegfaults)), std::string::npos);
  EXPECT_NE(run.out.find(std::string("CRASH    ") + kAborts), std::string::npos) << run.out;
}

TEST_F(CliTest, ACrashInTheBackendNamesTheCallAndOnlyItsOwnOutput) {
  // aborts prints to stderr and survives (no fault asked); segfaults then dies in the backend.
  const CliRun run = RunCli(RunArgs({"--filter", "rt.device.*,rt.event.*"}), {{"FAKE_RT_CRASH_IN_SYNCHRONIZE", "1"}});
  EXPECT_EQ(run.exit_code, 1);
  const std::string segfault = FindResult(Report(), kSegfaults)["message"];
  EXPECT_EQ(segfault.rfind("the suite process was killed by signal 11 (SIGSEGV) during this case, in the backend call "
                           "infinirtDeviceSynchronize\n",
                           0),
            0u)
      << segfault;
  EXPECT_EQ(segfault.find("xxxxxxxx"), std::string::npos) << "the chatty case's stderr is not this crash's";
}

TEST_F(CliTest, AChildThatFailsAfterItsLastCaseFailsTheRun) {
  const CliRun run = RunCli(RunArgs({"--filter", "rt.device.*"}), {{"FAKE_SUITE_FAULTS", "exit_error_after_cases"}});
  EXPECT_EQ(run.exit_code, 1) << "every case passed, but the process did not end well";
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(report["summary"]["pass"], 2);
  ASSERT_EQ(report["run"]["failures"].size(), 1u);
  const std::string failure = report["run"]["failures"][0];
  EXPECT_EQ(failure.rfind("the rt suite process exited with code 3 after its last case (backend " + FakeBackendDir() + ")", 0),
            0u)
      << failure;
  EXPECT_NE(failure.find("==1==ERROR: FakeSanitizer: something found at exit"), std::string::npos) << failure;
  EXPECT_NE(run.out.find("RUN FAILURE the rt suite process exited with code 3"), std::string::npos) << run.out;
}

TEST_F(CliTest, AHangBecomesTimeoutAndTheRestRun) {
  const auto started = std::chrono::steady_clock::now();
  const CliRun run = RunCli(RunArgs({"--timeout", "1.5"}), {{"FAKE_SUITE_FAULTS", "hang"}});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_LT(seconds, 10);
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(Status(report, kHangs), "timeout");
  EXPECT_EQ(Status(report, kSkipped), "skip");
  EXPECT_EQ(Status(report, kAccuracy64), "pass");
  const json hung = FindResult(report, kHangs);
  EXPECT_GE(hung["duration_ms"].get<double>(), 1500);
  const std::string message = hung["message"];
  EXPECT_NE(message.find("did not finish within 1.5 s"), std::string::npos) << message;
  EXPECT_NE(message.find("--timeout 1.5 --suite rt"), std::string::npos) << message;
}

TEST_F(CliTest, AResultLineWithoutEndEndsItsCaseCrashAndTheRestRun) {
  // The timeout is far off: the runner stops reading at the bound, not at the time limit.
  const auto started = std::chrono::steady_clock::now();
  const CliRun run = RunCli(RunArgs({"--timeout", "120"}), {{"FAKE_SUITE_FAULTS", "endless_result_line"}});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_LT(seconds, 60);
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(Status(report, kHangs), "crash");
  const std::string message = FindResult(report, kHangs)["message"];
  EXPECT_NE(message.find("wrote a result line of more than 4 MiB with no end"), std::string::npos) << message;
  EXPECT_LT(report.dump().size(), size_t{1} << 20) << "the line itself stays out of the report";
  EXPECT_EQ(Status(report, kAccuracy64), "pass");
  EXPECT_EQ(Status(report, kPassing), "pass");
}

TEST_F(CliTest, AChildThatExitsBetweenCasesIsRestarted) {
  const CliRun run = RunCli(RunArgs({}), {{"FAKE_SUITE_FAULTS", "exit_after_case"}});
  EXPECT_EQ(run.exit_code, 1);
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(report["summary"]["total"], 11);
  EXPECT_EQ(report["summary"]["crash"], 0);
  EXPECT_EQ(Status(report, kAccuracy64), "pass");
}

TEST_F(CliTest, AChildThatRunsNothingEndsTheRestAsCrash) {
  const CliRun run = RunCli(RunArgs({}), {{"FAKE_SUITE_FAULTS", "exit_before_cases"}});
  EXPECT_EQ(run.exit_code, 1);
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(report["summary"]["crash"], 11);
  const std::string message = FindResult(report, kPassing)["message"];
  EXPECT_NE(message.find("exited with code 0 without starting this case"), std::string::npos) << message;
}

TEST_F(CliTest, AChildThatHangsBeforeItsFirstCaseEndsTheRestAsTimeout) {
  const CliRun run = RunCli(RunArgs({"--timeout", "1"}), {{"FAKE_SUITE_FAULTS", "hang_before_cases"}});
  EXPECT_EQ(run.exit_code, 1);
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(report["summary"]["timeout"], 11);
  const std::string message = FindResult(report, kAccuracy16)["message"];
  EXPECT_NE(message.find("started no case within 1 s"), std::string::npos) << message;
}

bool ProcessGone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
}

// The report as `infinicts report` reads it: completed from its journal when the run was killed.
json ReportWithJournal(const std::string &path) {
  json report;
  std::string error;
  return report::LoadReportFile(path, &report, &error) ? report : json();
}

// The files in `dir` whose names start with `prefix` or end with `suffix`.
std::vector<std::string> FilesIn(const std::string &dir, const std::string &prefix, const std::string &suffix) {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename();
    const bool ends = name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    if ((!prefix.empty() && name.rfind(prefix, 0) == 0) || (!suffix.empty() && ends)) names.push_back(name);
  }
  return names;
}

// Starts a run whose fifth case hangs, waits until the report holds the four
// cases before it, sends the runner a signal and checks what it left behind.
void CliTestSignalsRunner(const std::string &dir, const std::vector<std::string> &args, const std::string &out,
                          int signal_number) {
  const std::string pid_file = dir + "/suite.pid";
  setenv("FAKE_SUITE_FAULTS", "hang", 1);
  setenv("FAKE_SUITE_PID_FILE", pid_file.c_str(), 1);
  const std::string saved_tmpdir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "";
  setenv("TMPDIR", dir.c_str(), 1);  // where the runner keeps the lists of cases for its suites
  std::string error;
  auto runner = runner::ChildProcess::Start(INFINICTS_TEST_CLI, args, false, &error);
  unsetenv("FAKE_SUITE_FAULTS");
  unsetenv("FAKE_SUITE_PID_FILE");
  if (saved_tmpdir.empty()) unsetenv("TMPDIR");
  else setenv("TMPDIR", saved_tmpdir.c_str(), 1);
  ASSERT_NE(runner, nullptr) << error;

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  pid_t suite_pid = 0;
  auto finished_cases = [&]() {
    const json report = ReportWithJournal(out);
    return report.is_object() ? report["results"].size() : 0;
  };
  while (std::chrono::steady_clock::now() < deadline && (suite_pid == 0 || finished_cases() < 6)) {
    runner->Pump(20, [](runner::ChildProcess::Stream, std::string_view) {});
    if (suite_pid == 0) std::ifstream(pid_file) >> suite_pid;
  }
  ASSERT_NE(suite_pid, 0) << "the hanging case never started";
  ASSERT_EQ(finished_cases(), 6u);
  ASSERT_EQ(kill(runner->pid(), signal_number), 0);
  const int status = runner->Reap();
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number) << "wait status " << status;

  const json report = ReportWithJournal(out);
  ASSERT_TRUE(report.is_object());
  EXPECT_TRUE(report::ValidateReport(report).empty());
  EXPECT_EQ(report["run"]["complete"], false);
  EXPECT_EQ(report["summary"]["total"], 6);
  EXPECT_EQ(FilesIn(dir, "", ".tmp"), std::vector<std::string>()) << "a temporary report was left";
  EXPECT_EQ(FindResult(report, kPassing)["status"], "pass");
  EXPECT_EQ(FindResult(report, kFailing)["status"], "fail");
  EXPECT_EQ(FindResult(report, kSegfaults)["status"], "pass");
  EXPECT_TRUE(FindResult(report, kHangs).is_null());

  // The suite process dies with its runner instead of hanging on.
  const auto gone_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!ProcessGone(suite_pid) && std::chrono::steady_clock::now() < gone_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(ProcessGone(suite_pid)) << "suite process " << suite_pid << " outlived its runner";
}

TEST_F(CliTest, ARunnerKilledMidRunLeavesEveryFinishedCase) {
  CliTestSignalsRunner(dir_, RunArgs({"--quiet"}), out_, SIGKILL);
  // What SIGKILL left (the list of cases of the suite in flight) goes with the next run.
  EXPECT_EQ(FilesIn(dir_, "infinicts-cases-", "").size(), 1u);
  const CliRun next = RunCli(RunArgs({"--quiet"}), {{"TMPDIR", dir_}});
  EXPECT_EQ(next.exit_code, 1) << next.err;
  EXPECT_EQ(FilesIn(dir_, "infinicts-cases-", ""), std::vector<std::string>());
  EXPECT_FALSE(std::filesystem::exists(out_ + ".journal")) << "a finished run left its journal";
  EXPECT_EQ(ReadJson(out_)["summary"]["total"], 11);
}

TEST_F(CliTest, AnInterruptedRunnerWritesItsReportAndStopsTheSuite) {
  CliTestSignalsRunner(dir_, RunArgs({"--quiet"}), out_, SIGINT);
}

TEST_F(CliTest, ABackendDirectoryWithoutTheRuntimeExitsTwoWithOneLine) {
  const CliRun run = RunCli({"run", "--backend", dir_, "--device", "cpu", "--out", out_});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "infinicts: backend directory " + dir_ + " has no libinfinirt.so\n");
  EXPECT_TRUE(Report().is_null()) << "no report for a run that never started";
}

TEST_F(CliTest, ABackendThatCrashesWhileLoadingExitsTwoWithOneLine) {
  const CliRun run = RunCli(RunArgs({}), {{"FAKE_RT_CRASH_IN_INIT", "1"}});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_EQ(run.err.rfind("infinicts: the backend crashed while loading: the probe was killed by signal 11 (SIGSEGV)", 0),
            0u)
      << run.err;
}

TEST_F(CliTest, ADeviceTypeWithoutDevicesExitsTwoWithOneLine) {
  // A CI gate must never pass with its accelerator missing.
  const CliRun run = RunCli({"run", "--backend", FakeBackendDir(), "--device", "nvidia", "--out", out_});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.err, "infinicts: the backend has no nvidia device (" + FakeBackendDir() +
                         "/libinfinirt.so); --allow-no-device runs anyway, every case ending skip\n");
  EXPECT_TRUE(ReadJson(out_).is_null()) << "no report for a run that never started";
}

TEST_F(CliTest, ADeviceTypeWithoutDevicesSkipsEveryCaseWhenAllowed) {
  const CliRun run =
      RunCli({"run", "--backend", FakeBackendDir(), "--device", "nvidia", "--allow-no-device", "--out", out_});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "infinicts: warning: the backend has no nvidia device; every selected case is skipped\n");
  const json report = Report();
  EXPECT_EQ(report["summary"]["level_verdicts"]["minimal"], "not judged");
  ExpectValid(report);
  EXPECT_EQ(report["summary"]["skip"], 11);
  EXPECT_EQ(report["summary"]["total"], 11);
  EXPECT_EQ(FindResult(report, kFailing)["message"], "the backend has no nvidia device");
  EXPECT_EQ(report["backend"]["device_count"], 0);
  EXPECT_EQ(report["backend"]["device_type"], "nvidia");
}

TEST_F(CliTest, FiltersModesAndExitZeroWhenNothingFails) {
  const CliRun run = RunCli(RunArgs({"--filter", "rt.device.*,rt.memory.*", "--filter=-*wrong_value", "--mode",
                                     "accuracy,conformance", "--mode", "perf"}));
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const json report = Report();
  ExpectValid(report);
  EXPECT_EQ(report["summary"]["total"], 8);  // 2 device, 1 memory, 2 memory accuracy, 3 perf (flaky_once, malloc_free, copy)
  EXPECT_EQ(Status(report, kPerf), "pass");
  EXPECT_TRUE(FindResult(report, kFailing).is_null());
  EXPECT_EQ(report["run"]["modes"], json({"accuracy", "conformance", "perf"}));
}

TEST_F(CliTest, TheRerunCommandRunsTheFailingCaseAlone) {
  RunCli(RunArgs({"--quiet"}));
  const std::string message = FindResult(Report(), kFailing)["message"];
  const std::string head = std::string("rerun: ") + INFINICTS_TEST_CLI + " ";
  ASSERT_NE(message.rfind(head), std::string::npos) << message;
  const std::string command = message.substr(message.rfind(head) + head.size());
  std::vector<std::string> args;
  std::istringstream words(command);
  for (std::string word; words >> word;) args.push_back(word);
  const std::string rerun_out = dir_ + "/rerun.json";
  args.push_back("--out");
  args.push_back(rerun_out);
  const CliRun rerun = RunCli(args);
  EXPECT_EQ(rerun.exit_code, 1);
  const json report = ReadJson(rerun_out);
  ASSERT_TRUE(report.is_object());
  ASSERT_EQ(report["results"].size(), 1u);
  EXPECT_EQ(report["results"][0]["id"], kFailing);
}

TEST_F(CliTest, LevelMinimalLeavesOutEventsAndFailsWhenNotReached) {
  const CliRun run = RunCli(RunArgs({"--level", "minimal", "--filter", "-*wrong_value"}));
  EXPECT_EQ(run.exit_code, 1) << "no op suite, an unsupported guard case: minimal is not reached";
  const json report = Report();
  ExpectValid(report);
  EXPECT_TRUE(FindResult(report, kAborts).is_null());
  EXPECT_EQ(report["summary"]["fail"], 0);
  const json reasons = report["summary"]["levels_detail"]["minimal"];
  EXPECT_EQ(reasons, json({"--filter -*wrong_value selected 7 of 8 cases",
                           "op suite not run", "rt.stream: all 1 cases skipped",
                           "rt.guard: 1 unsupported (first: rt.guard.conformance/stream_create)"}));
  EXPECT_EQ(report["summary"]["level_verdicts"]["minimal"], "not judged");
}

TEST_F(CliTest, LevelWithPerfOnlyIsRefusedUpFront) {
  const CliRun run = RunCli(RunArgs({"--level", "minimal", "--mode", "perf"}));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err.rfind("infinicts: --level judges conformance, and --mode perf runs no conformance or accuracy case", 0),
            0u)
      << run.err;
}

TEST_F(CliTest, ListPrintsTheSelectedIds) {
  const CliRun all = RunCli({"list"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(std::count(all.out.begin(), all.out.end(), '\n'), 11) << all.out;
  EXPECT_EQ(all.out.rfind(std::string(kPassing) + "\n", 0), 0u);
  const CliRun some = RunCli({"list", "--mode", "perf,accuracy", "--filter", "*n1024*,*n16"});
  EXPECT_EQ(some.out, std::string(kAccuracy16) + "\n" + kPerf + "\n");
  const CliRun missing = RunCli({"list", "--suite", "op"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("the op suite is not built"), std::string::npos) << missing.err;
}

TEST_F(CliTest, InfoPrintsWhatTheProbeLearned) {
  const CliRun run = RunCli({"info", "--backend", FakeBackendDir(), "--device", "cpu"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(FakeBackendDir() + "/libinfinirt.so"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("exported (7):"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  infinirtMalloc\n"), std::string::npos);
  EXPECT_NE(run.out.find("  infinirtEventCreate\n"), std::string::npos) << "listed as missing";
  EXPECT_NE(run.out.find("* cpu        1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  nvidia     0"), std::string::npos) << run.out;
}

TEST_F(CliTest, BadUsageExitsTwo) {
  for (const std::vector<std::string> &args : std::vector<std::vector<std::string>>{
           {"run", "--device", "cpu"},
           {"run", "--backend", FakeBackendDir(), "--device", "toaster"},
           {"run", "--backend", FakeBackendDir(), "--device", "cpu", "--mode", "fast"},
           {"run", "--backend", FakeBackendDir(), "--device", "cpu", "--device-ids", "0,x"},
           {"run", "--backend", FakeBackendDir(), "--device", "cpu", "--device-ids", "3"},
           {"run", "--backend", FakeBackendDir(), "--device", "cpu", "--timeout", "0"},
           {"run", "--backend", FakeBackendDir(), "--device", "cpu", "--filter", "nothing.matches"},
           {"run", "--backend", FakeBackendDir(), "--device", "cpu", "--bogus"},
           {"compare", "a.json", "b.json"},
           {}}) {
    const CliRun run = RunCli(args);
    std::string joined;
    for (const std::string &arg : args) joined += arg + " ";
    EXPECT_EQ(run.exit_code, 2) << joined << "\n" << run.err;
    EXPECT_FALSE(run.err.empty()) << joined;
  }
  EXPECT_EQ(RunCli({"run", "--help"}).exit_code, 0);
}

}  // namespace
}  // namespace infinicts
