// Communicators whose ranks are separate processes (process_group.h): each rank process is
// reference_ccl_process_rank (process_rank_main.cc), which checks every collective's
// results itself; here they are started with one id, and their exits and output judged.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ccl_test_support.h"

extern char **environ;

namespace ccl_test {
namespace {

std::string Hex(const infinicclUniqueId_t &id) {
  std::string hex;
  char two[3];
  for (char byte : id.internal) {
    std::snprintf(two, sizeof two, "%02x", static_cast<unsigned char>(byte));
    hex += two;
  }
  return hex;
}

struct RankProcess {
  pid_t pid = -1;
  std::string log;  // its stderr
};

// Starts the rank process for ranks [first, first + threads) of `nranks`.
RankProcess Start(int nranks, int first, int threads, const infinicclUniqueId_t &id, int late_ms = 0) {
  RankProcess process;
  process.log = ::testing::TempDir() + "rank_" + std::to_string(getpid()) + "_" + std::to_string(first) + ".log";
  std::vector<std::string> args = {INFINICTS_PROCESS_RANK, std::to_string(nranks), std::to_string(first), Hex(id),
                                   std::to_string(threads)};
  if (late_ms > 0) args.push_back(std::to_string(late_ms));
  std::vector<char *> argv;
  for (std::string &arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, process.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  EXPECT_EQ(posix_spawn(&process.pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  return process;
}

// Its exit code, or -1 (after killing it) when it has not ended within `limit`.
int Finish(const RankProcess &process, std::chrono::seconds limit = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (waitpid(process.pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(process.pid, SIGKILL);
      waitpid(process.pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string Log(const RankProcess &process) {
  std::ifstream in(process.log);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The shared-memory objects the library left under /dev/shm.
std::vector<std::string> Leftovers() {
  std::vector<std::string> names;
  if (DIR *dir = opendir("/dev/shm")) {
    while (dirent *entry = readdir(dir)) {
      if (std::string(entry->d_name).rfind("infinicts-ccl-", 0) == 0) names.push_back(entry->d_name);
    }
    closedir(dir);
  }
  return names;
}

// Runs `layout` (ranks per process) as one communicator; every process must pass.
void RunProcesses(const std::vector<int> &threads_per_process, int late_ms = 0) {
  int nranks = 0;
  for (int threads : threads_per_process) nranks += threads;
  infinicclUniqueId_t id;
  ASSERT_OK(infinicclGetUniqueId(&id));
  std::vector<RankProcess> processes;
  int first = 0;
  for (size_t p = 0; p < threads_per_process.size(); ++p) {
    processes.push_back(Start(nranks, first, threads_per_process[p], id, p == 0 ? late_ms : 0));
    first += threads_per_process[p];
  }
  for (const RankProcess &process : processes) {
    EXPECT_EQ(Finish(process), 0) << Log(process);
  }
}

TEST(ProcessesTest, FourProcessesOfOneRankEach) {
  const std::vector<std::string> before = Leftovers();
  RunProcesses({1, 1, 1, 1});
  EXPECT_EQ(Leftovers(), before) << "every shared-memory object is unlinked once its ranks have it";
}

TEST(ProcessesTest, TwoProcessesOfTwoRanksEach) { RunProcesses({2, 2}); }

TEST(ProcessesTest, AProcessArrivingLateIsWaitedFor) { RunProcesses({1, 1, 1}, 1500); }

TEST(ProcessesTest, ARankThatNeverComesEndsInitRankWithInternalError) {
  setenv("INFINICTS_CCL_INIT_TIMEOUT_MS", "700", 1);
  infinicclUniqueId_t id;
  ASSERT_OK(infinicclGetUniqueId(&id));
  const RankProcess alone = Start(2, 0, 1, id);
  EXPECT_EQ(Finish(alone), 1);
  unsetenv("INFINICTS_CCL_INIT_TIMEOUT_MS");
  EXPECT_NE(Log(alone).find("infinicclCommInitRank(&comm, nranks, id, rank) answered " +
                            std::to_string(INFINI_STATUS_INTERNAL_ERROR)),
            std::string::npos)
      << Log(alone);
}

TEST(ProcessesTest, ATwiceTakenRankIsRefused) {
  infinicclUniqueId_t id;
  ASSERT_OK(infinicclGetUniqueId(&id));
  setenv("INFINICTS_CCL_INIT_TIMEOUT_MS", "3000", 1);
  const RankProcess first = Start(2, 0, 1, id);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const RankProcess again = Start(2, 0, 1, id);
  unsetenv("INFINICTS_CCL_INIT_TIMEOUT_MS");
  EXPECT_EQ(Finish(again), 1);
  EXPECT_NE(Log(again).find("answered " + std::to_string(INFINI_STATUS_BAD_PARAM)), std::string::npos) << Log(again);
  const RankProcess other = Start(2, 1, 1, id);
  EXPECT_EQ(Finish(first), 0) << Log(first);
  EXPECT_EQ(Finish(other), 0) << Log(other);
}

}  // namespace
}  // namespace ccl_test
