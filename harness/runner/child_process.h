// A child process with its stdout, stderr and (optionally) a results pipe on fd 3,
// in its own process group so that killing it also kills whatever it started, and
// bound to die with the runner (PR_SET_PDEATHSIG) so that no suite outlives a
// killed run.
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace infinicts::runner {

inline constexpr int kResultsFd = 3;
inline constexpr int kInputFd = 4;  // the optional pipe the runner writes to the child on

class ChildProcess {
 public:
  enum class Stream { kStdout, kStderr, kResults };
  using Sink = std::function<void(Stream, std::string_view)>;

  // Starts program with args (argv[0] is program). Returns nullptr and a reason when it cannot start.
  static std::unique_ptr<ChildProcess> Start(const std::string &program, const std::vector<std::string> &args,
                                             bool results_pipe, std::string *error, bool input_pipe = false);
  // Forks a child that runs body(kResultsFd) and exits with its return value; stdout
  // and stderr are captured as for Start. Only for a single-threaded caller: the
  // body runs ordinary code (dlopen, malloc) in the forked copy.
  static std::unique_ptr<ChildProcess> Fork(const std::function<int(int results_fd)> &body, std::string *error);
  ~ChildProcess();  // kills the group and reaps the child if it still runs
  ChildProcess(const ChildProcess &) = delete;
  ChildProcess &operator=(const ChildProcess &) = delete;

  pid_t pid() const { return pid_; }

  // Waits up to timeout_ms for output, hands every chunk read to sink. Never
  // blocks on a pipe: a chatty child is drained as fast as it writes.
  void Pump(int timeout_ms, const Sink &sink);
  // Reads whatever is left in the pipes without waiting (after the child exited).
  void Drain(const Sink &sink);

  // The wait status once the child has exited (reaped), else nullopt.
  std::optional<int> TryReap();
  int Reap();  // blocks until the child exits

  void KillGroup();  // SIGKILL to the child's whole process group
  // Writes to the child's input pipe on kInputFd (started with input_pipe); false when it is gone.
  bool WriteInput(const std::string &text);

 private:
  ChildProcess() = default;
  void Adopt(pid_t pid, int stdout_fd, int stderr_fd, int results_fd);
  int ReadAvailable(int *fd, Stream stream, const Sink &sink);  // bytes read; closes fd at EOF

  pid_t pid_ = -1;
  std::optional<int> wait_status_;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  int results_fd_ = -1;
  int input_fd_ = -1;
};

// "exited with code 3", "was killed by signal 11 (SIGSEGV)".
std::string DescribeWaitStatus(int wait_status);
// "SIGSEGV", or "signal 42".
std::string SignalName(int signal_number);

// The last bytes of a stream, for crash messages.
class OutputTail {
 public:
  explicit OutputTail(size_t keep = 4096) : keep_(keep) {}
  void Append(std::string_view data);
  // The kept text, starting at a line boundary where there is one.
  std::string Text() const;
  // Whether bytes were dropped from the front.
  bool truncated() const { return truncated_ || text_.size() > keep_; }

 private:
  size_t keep_;
  std::string text_;
  bool truncated_ = false;
};

}  // namespace infinicts::runner
