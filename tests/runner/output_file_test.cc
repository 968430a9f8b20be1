// Outputs never destroy what is at their path, and the journal completes a killed run's report.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "report/atomic_file.h"
#include "report/journal.h"
#include "report/output_file.h"
#include "report/report.h"
#include "run_cli.h"

namespace infinicts::report {
namespace {

std::string Read(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

void Write(const std::string &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }

bool IsSymlink(const std::string &path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// A pid that no process has: a child's, once reaped.
pid_t DeadPid() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);
  return pid;
}

TEST(OutputFile, AFifoIsWrittenInPlaceNotReplaced) {
  const std::string dir = testing_support::ScratchDir("output_fifo");
  const std::string fifo = dir + "/pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0666), 0);
  std::string received;
  std::thread reader([&] { received = Read(fifo); });
  std::string error;
  EXPECT_TRUE(WriteOutput(fifo, "through the pipe", WriteMode::kReplace, false, &error)) << error;
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  struct stat st {};
  ASSERT_EQ(stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced by a file";
  EXPECT_EQ(KindOfOutput(fifo), OutputKind::kInPlace);
}

TEST(OutputFile, StandardOutputByAnyNameIsWrittenInPlace) {
  for (const char *path : {"-", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/proc/self/fd/2"}) {
    EXPECT_EQ(KindOfOutput(path), OutputKind::kInPlace) << path;
  }
  EXPECT_EQ(KindOfOutput("/dev/null"), OutputKind::kInPlace);
  EXPECT_EQ(KindOfOutput(testing_support::ScratchDir("output_kind") + "/r.json"), OutputKind::kFile);
}

TEST(OutputFile, ASymlinkIsFollowedNeverReplaced) {
  const std::string dir = testing_support::ScratchDir("output_symlink");
  Write(dir + "/target.md", "old");
  ASSERT_EQ(symlink("target.md", (dir + "/link.md").c_str()), 0);
  ASSERT_EQ(symlink((dir + "/link.md").c_str(), (dir + "/link2.md").c_str()), 0);
  std::string error;
  ASSERT_TRUE(WriteOutput(dir + "/link2.md", "new", WriteMode::kReplace, false, &error)) << error;
  EXPECT_TRUE(IsSymlink(dir + "/link.md"));
  EXPECT_TRUE(IsSymlink(dir + "/link2.md"));
  EXPECT_EQ(Read(dir + "/target.md"), "new");
  // A link to a file still to be written makes the file.
  ASSERT_EQ(symlink("later.md", (dir + "/dangling.md").c_str()), 0);
  ASSERT_TRUE(WriteOutput(dir + "/dangling.md", "made", WriteMode::kReplace, false, &error)) << error;
  EXPECT_TRUE(IsSymlink(dir + "/dangling.md"));
  EXPECT_EQ(Read(dir + "/later.md"), "made");
  // A loop is an error, not a hang.
  ASSERT_EQ(symlink("loop-b", (dir + "/loop-a").c_str()), 0);
  ASSERT_EQ(symlink("loop-a", (dir + "/loop-b").c_str()), 0);
  EXPECT_FALSE(WriteOutput(dir + "/loop-a", "x", WriteMode::kReplace, false, &error));
}

TEST(OutputFile, AppendKeepsWhatWasThere) {
  const std::string dir = testing_support::ScratchDir("output_append");
  Write(dir + "/summary.md", "## earlier step\n");
  std::string error;
  ASSERT_TRUE(WriteOutput(dir + "/summary.md", "## infinicts\n", WriteMode::kAppend, false, &error)) << error;
  EXPECT_EQ(Read(dir + "/summary.md"), "## earlier step\n## infinicts\n");
  ASSERT_TRUE(WriteOutput(dir + "/new.md", "first\n", WriteMode::kAppend, false, &error)) << error;
  EXPECT_EQ(Read(dir + "/new.md"), "first\n");
}

TEST(OutputFile, ADirectoryIsRefused) {
  const std::string dir = testing_support::ScratchDir("output_dir");
  std::string error;
  EXPECT_FALSE(WriteOutput(dir, "x", WriteMode::kReplace, false, &error));
  EXPECT_NE(error.find("directory"), std::string::npos) << error;
}

TEST(OutputFile, AnOutputThatIsAnInputIsFoundByAnyName) {
  const std::string dir = testing_support::ScratchDir("output_input");
  Write(dir + "/r.json", "{}");
  ASSERT_EQ(symlink("r.json", (dir + "/alias.json").c_str()), 0);
  ASSERT_EQ(link((dir + "/r.json").c_str(), (dir + "/hard.json").c_str()), 0);
  const std::vector<std::string> inputs = {dir + "/other.json", dir + "/r.json"};
  EXPECT_EQ(InputOverwrittenBy(dir + "/r.json", inputs), dir + "/r.json");
  EXPECT_EQ(InputOverwrittenBy(dir + "/alias.json", inputs), dir + "/r.json");
  EXPECT_EQ(InputOverwrittenBy(dir + "/hard.json", inputs), dir + "/r.json");
  EXPECT_EQ(InputOverwrittenBy(dir + "/./r.json", inputs), dir + "/r.json");
  EXPECT_EQ(InputOverwrittenBy(dir + "/new.json", inputs), "");
  EXPECT_EQ(InputOverwrittenBy("-", inputs), "");
}

TEST(AtomicFile, ATemporaryOfAKilledWriterIsRemovedByTheNext) {
  const std::string dir = testing_support::ScratchDir("atomic_stale");
  const std::string stale = dir + "/report.json." + std::to_string(DeadPid()) + ".tmp";
  const std::string live = dir + "/report.json." + std::to_string(getppid()) + ".tmp";
  const std::string legacy_user_file = dir + "/report.json.backup.tmp";
  for (const std::string &path : {stale, live, legacy_user_file}) Write(path, "half");
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(dir + "/report.json", "whole", false, &error)) << error;
  struct stat st {};
  EXPECT_NE(stat(stale.c_str(), &st), 0) << "a dead writer's temporary stayed";
  EXPECT_EQ(stat(live.c_str(), &st), 0) << "a live writer's temporary was removed";
  EXPECT_EQ(stat(legacy_user_file.c_str(), &st), 0) << "a file that is no writer's temporary was removed";
  EXPECT_EQ(Read(dir + "/report.json"), "whole");
}

CaseResult Passed(const std::string &test) {
  CaseResult result;
  result.suite = "rt";
  result.subject = "memory";
  result.mode = "conformance";
  result.id = "rt.memory.conformance/" + test;
  result.clauses = {"RT-MEM-1"};
  result.status = Status::kPass;
  return result;
}

TEST(Journal, CompletesTheReportOfAKilledRunAndSkipsATornLine) {
  const std::string dir = testing_support::ScratchDir("journal_complete");
  const std::string path = dir + "/r.json";
  Report report;
  report.run.started = "2026-12-05T08:00:00Z";
  report.run.suites = {"rt"};
  report.run.modes = {"conformance"};
  report.Add(Passed("a"));
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, report.Serialize(), false, &error)) << error;
  {
    JournalWriter journal;
    ASSERT_TRUE(journal.Open(path, report.run.started, &error)) << error;
    EXPECT_TRUE(journal.AppendResult(Passed("a")));
    EXPECT_TRUE(journal.AppendResult(Passed("b")));
    CaseResult crashed = Passed("c");
    crashed.status = Status::kCrash;
    EXPECT_TRUE(journal.AppendResult(crashed));
    EXPECT_TRUE(journal.AppendFailure("a suite process died between cases"));
  }
  std::ofstream(JournalPath(path), std::ios::app) << "{\"result\": {\"id\": \"rt.memory.conf";  // killed mid-line

  nlohmann::json read = nlohmann::json::parse(Read(path));
  JournalReplay replay;
  ASSERT_TRUE(ApplyJournal(path, &read, &replay, &error)) << error;
  EXPECT_EQ(replay.added, 2u);
  EXPECT_EQ(read["summary"]["total"], 3);
  EXPECT_EQ(read["summary"]["crash"], 1);
  EXPECT_EQ(read["results"].size(), 3u);
  EXPECT_EQ(read["run"]["failures"], nlohmann::json({"a suite process died between cases"}));
  EXPECT_NE(replay.note.find("1 unreadable line"), std::string::npos) << replay.note;
}

// A lost MPI rank: rank 0 puts the verdicts left and the end in its journal in one write, then
// may be killed while it writes the whole report; the journal alone makes the report complete.
TEST(Journal, AnEndRecordCompletesTheRunWithEveryVerdict) {
  const std::string dir = testing_support::ScratchDir("journal_end");
  const std::string path = dir + "/r.json";
  Report report;
  report.run.started = "2026-12-05T10:00:00Z";
  report.run.suites = {"ccl"};
  report.run.modes = {"conformance"};
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, report.Serialize(), false, &error)) << error;
  {
    JournalWriter journal;
    ASSERT_TRUE(journal.Open(path, report.run.started, &error)) << error;
    EXPECT_TRUE(journal.AppendResult(Passed("a")));
    std::vector<CaseResult> left{Passed("b"), Passed("c")};
    for (CaseResult &result : left) result.status = Status::kCrash;
    EXPECT_TRUE(journal.AppendEnd(left, {"the MPI job was ended while the cases ran: rank 1 lost"}));
  }
  nlohmann::json read = nlohmann::json::parse(Read(path));
  JournalReplay replay;
  ASSERT_TRUE(ApplyJournal(path, &read, &replay, &error)) << error;
  EXPECT_EQ(read["run"]["complete"], true);
  EXPECT_EQ(read["summary"]["total"], 3);
  EXPECT_EQ(read["summary"]["crash"], 2);
  EXPECT_EQ(read["run"]["failures"].size(), 1u);
  EXPECT_NE(replay.note.find("ended before its whole report"), std::string::npos) << replay.note;
}

TEST(Journal, AnotherRunsJournalOrAFinishedReportIsLeftAsItIs) {
  const std::string dir = testing_support::ScratchDir("journal_other");
  const std::string path = dir + "/r.json";
  Report report;
  report.run.started = "2026-12-05T09:00:00Z";
  std::string error;
  JournalWriter journal;
  ASSERT_TRUE(journal.Open(path, "2026-12-05T08:00:00Z", &error)) << error;
  ASSERT_TRUE(journal.AppendResult(Passed("a")));
  nlohmann::json read = nlohmann::json::parse(report.Serialize());
  JournalReplay replay;
  ASSERT_TRUE(ApplyJournal(path, &read, &replay, &error)) << error;
  EXPECT_EQ(read["summary"]["total"], 0) << "a journal of another run was read";
  EXPECT_NE(replay.note.find("another run"), std::string::npos) << replay.note;

  report.run.started = "2026-12-05T08:00:00Z";
  report.run.complete = true;
  read = nlohmann::json::parse(report.Serialize());
  ASSERT_TRUE(ApplyJournal(path, &read, &replay, &error)) << error;
  EXPECT_EQ(read["summary"]["total"], 0) << "a finished report was changed by a journal";
}

}  // namespace
}  // namespace infinicts::report
