#include "runner/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace infinicts::runner {
namespace {

constexpr size_t kReadChunk = 65536;

void CloseFd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

bool MakePipe(int fds[2]) { return pipe2(fds, O_CLOEXEC) == 0; }

// Puts the pipes on 0..4 in the forked child. Only async-signal-safe calls here.
bool SetUpChildFds(int out, int err, int results, int input = -1) {
  // First above 9, then down: no target descriptor may clobber a source still needed.
  const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd < 0) return false;
  const int moved_null = fcntl(null_fd, F_DUPFD_CLOEXEC, 10);
  const int moved_out = fcntl(out, F_DUPFD_CLOEXEC, 10);
  const int moved_err = fcntl(err, F_DUPFD_CLOEXEC, 10);
  const int moved_results = results >= 0 ? fcntl(results, F_DUPFD_CLOEXEC, 10) : -1;
  const int moved_input = input >= 0 ? fcntl(input, F_DUPFD_CLOEXEC, 10) : -1;
  if (moved_null < 0 || moved_out < 0 || moved_err < 0 || (results >= 0 && moved_results < 0)) return false;
  if (input >= 0 && moved_input < 0) return false;
  if (dup2(moved_null, 0) < 0 || dup2(moved_out, 1) < 0 || dup2(moved_err, 2) < 0) return false;
  if (moved_input >= 0 && dup2(moved_input, kInputFd) < 0) return false;
  return moved_results < 0 || dup2(moved_results, kResultsFd) >= 0;
}

[[noreturn]] void ExecChild(const char *program, char *const argv[], int out, int err, int results, int input,
                            int exec_error, pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the runner died before prctl took effect
  if (SetUpChildFds(out, err, results, input)) {
    signal(SIGPIPE, SIG_DFL);
    execv(program, argv);
  }
  const int code = errno;
  ssize_t ignored = write(exec_error, &code, sizeof(code));
  (void)ignored;
  _exit(127);
}

}  // namespace

namespace {

struct Pipes {
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
  int results[2] = {-1, -1};
  int input[2] = {-1, -1};
  int exec_error[2] = {-1, -1};

  bool Open(bool with_results, std::string *error, bool with_input = false) {
    if (MakePipe(out) && MakePipe(err) && (!with_results || MakePipe(results)) && (!with_input || MakePipe(input)) &&
        MakePipe(exec_error)) {
      return true;
    }
    *error = std::string("cannot create pipes: ") + std::strerror(errno);
    return false;
  }
  void CloseChildEnds() {
    CloseFd(&out[1]);
    CloseFd(&err[1]);
    CloseFd(&results[1]);
    CloseFd(&input[0]);
    CloseFd(&exec_error[1]);
  }
  void CloseAll() {
    for (int *fds : {out, err, results, input, exec_error}) {
      CloseFd(&fds[0]);
      CloseFd(&fds[1]);
    }
  }
};

// The parent's half of a fork: true when the child started; otherwise the child is
// reaped, every pipe closed and *error says why.
bool ConfirmStart(pid_t pid, Pipes *pipes, const std::string &what, std::string *error) {
  setpgid(pid, pid);  // also here: the parent may signal the group before the child ran setpgid
  pipes->CloseChildEnds();
  int child_errno = 0;
  ssize_t got;
  do {
    got = read(pipes->exec_error[0], &child_errno, sizeof(child_errno));
  } while (got < 0 && errno == EINTR);
  CloseFd(&pipes->exec_error[0]);
  if (got == static_cast<ssize_t>(sizeof(child_errno))) {
    int status = 0;
    waitpid(pid, &status, 0);
    *error = "cannot start " + what + ": " + std::strerror(child_errno);
    pipes->CloseAll();
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::Start(const std::string &program, const std::vector<std::string> &args,
                                                  bool results_pipe, std::string *error, bool input_pipe) {
  std::vector<std::string> strings;
  strings.push_back(program);
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &text : strings) argv.push_back(text.data());
  argv.push_back(nullptr);

  Pipes pipes;
  if (!pipes.Open(results_pipe, error, input_pipe)) {
    pipes.CloseAll();
    return nullptr;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    *error = std::string("cannot fork: ") + std::strerror(errno);
    pipes.CloseAll();
    return nullptr;
  }
  if (pid == 0) {
    ExecChild(program.c_str(), argv.data(), pipes.out[1], pipes.err[1], pipes.results[1], pipes.input[0],
              pipes.exec_error[1], parent);
  }
  if (!ConfirmStart(pid, &pipes, program, error)) return nullptr;
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  child->Adopt(pid, pipes.out[0], pipes.err[0], pipes.results[0]);
  child->input_fd_ = pipes.input[1];
  return child;
}

std::unique_ptr<ChildProcess> ChildProcess::Fork(const std::function<int(int results_fd)> &body,
                                                 std::string *error) {
  Pipes pipes;
  if (!pipes.Open(/*with_results=*/true, error)) {
    pipes.CloseAll();
    return nullptr;
  }
  std::fflush(nullptr);  // else the child would flush the parent's buffered output a second time
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    *error = std::string("cannot fork: ") + std::strerror(errno);
    pipes.CloseAll();
    return nullptr;
  }
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (!SetUpChildFds(pipes.out[1], pipes.err[1], pipes.results[1])) {
      const int code = errno;
      ssize_t ignored = write(pipes.exec_error[1], &code, sizeof(code));
      (void)ignored;
      _exit(127);
    }
    close(pipes.exec_error[1]);  // the body runs: the parent stops waiting for a start error
    const int code = body(kResultsFd);
    std::fflush(nullptr);
    _exit(code);  // no static destructors: a backend's teardown is not the probe's business
  }
  if (!ConfirmStart(pid, &pipes, "a forked child", error)) return nullptr;
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  child->Adopt(pid, pipes.out[0], pipes.err[0], pipes.results[0]);
  return child;
}

void ChildProcess::Adopt(pid_t pid, int stdout_fd, int stderr_fd, int results_fd) {
  pid_ = pid;
  stdout_fd_ = stdout_fd;
  stderr_fd_ = stderr_fd;
  results_fd_ = results_fd;
  for (int fd : {stdout_fd_, stderr_fd_, results_fd_}) {
    if (fd >= 0) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
}

ChildProcess::~ChildProcess() {
  if (!wait_status_) {
    KillGroup();
    Reap();
  }
  CloseFd(&stdout_fd_);
  CloseFd(&stderr_fd_);
  CloseFd(&results_fd_);
  CloseFd(&input_fd_);
}

bool ChildProcess::WriteInput(const std::string &text) {
  size_t done = 0;
  while (input_fd_ >= 0 && done < text.size()) {
    const ssize_t written = write(input_fd_, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;  // the child is gone (SIGPIPE is ignored by the runner)
    done += static_cast<size_t>(written);
  }
  return input_fd_ >= 0;
}

int ChildProcess::ReadAvailable(int *fd, Stream stream, const Sink &sink) {
  int total = 0;
  char buffer[kReadChunk];
  while (*fd >= 0) {
    const ssize_t got = read(*fd, buffer, sizeof(buffer));
    if (got > 0) {
      sink(stream, std::string_view(buffer, static_cast<size_t>(got)));
      total += static_cast<int>(got);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    CloseFd(fd);  // EOF or a broken pipe
  }
  return total;
}

void ChildProcess::Pump(int timeout_ms, const Sink &sink) {
  struct pollfd fds[3];
  int *owners[3];
  Stream streams[3];
  nfds_t count = 0;
  for (auto [fd, stream] : {std::pair{&stdout_fd_, Stream::kStdout}, std::pair{&stderr_fd_, Stream::kStderr},
                            std::pair{&results_fd_, Stream::kResults}}) {
    if (*fd < 0) continue;
    fds[count] = {*fd, POLLIN, 0};
    owners[count] = fd;
    streams[count] = stream;
    ++count;
  }
  if (poll(fds, count, timeout_ms) <= 0) return;  // timeout, or EINTR: the caller looks again
  for (nfds_t i = 0; i < count; ++i) {
    if (fds[i].revents != 0) ReadAvailable(owners[i], streams[i], sink);
  }
}

void ChildProcess::Drain(const Sink &sink) {
  for (auto [fd, stream] : {std::pair{&stdout_fd_, Stream::kStdout}, std::pair{&stderr_fd_, Stream::kStderr},
                            std::pair{&results_fd_, Stream::kResults}}) {
    ReadAvailable(fd, stream, sink);
  }
}

std::optional<int> ChildProcess::TryReap() {
  if (wait_status_) return wait_status_;
  int status = 0;
  pid_t got;
  do {
    got = waitpid(pid_, &status, WNOHANG);
  } while (got < 0 && errno == EINTR);
  if (got == pid_) wait_status_ = status;
  return wait_status_;
}

int ChildProcess::Reap() {
  while (!wait_status_) {
    int status = 0;
    const pid_t got = waitpid(pid_, &status, 0);
    if (got == pid_) wait_status_ = status;
    else if (got < 0 && errno != EINTR) wait_status_ = 0;  // not ours to reap any more
  }
  return *wait_status_;
}

void ChildProcess::KillGroup() {
  if (pid_ > 0) kill(-pid_, SIGKILL);
}

std::string SignalName(int signal_number) {
  switch (signal_number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGPIPE: return "SIGPIPE";
    case SIGQUIT: return "SIGQUIT";
    case SIGHUP: return "SIGHUP";
    default: return "signal " + std::to_string(signal_number);
  }
}

std::string DescribeWaitStatus(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int number = WTERMSIG(wait_status);
    return "was killed by signal " + std::to_string(number) + " (" + SignalName(number) + ")";
  }
  if (WIFEXITED(wait_status)) return "exited with code " + std::to_string(WEXITSTATUS(wait_status));
  return "ended with wait status " + std::to_string(wait_status);
}

void OutputTail::Append(std::string_view data) {
  text_.append(data.data(), data.size());
  if (text_.size() > 2 * keep_) {  // trim in batches: appends stay cheap
    text_.erase(0, text_.size() - keep_);
    truncated_ = true;
  }
}

std::string OutputTail::Text() const {
  if (text_.size() <= keep_ && !truncated_) return text_;
  std::string tail = text_.size() <= keep_ ? text_ : text_.substr(text_.size() - keep_);
  const size_t newline = tail.find('\n');
  if (newline != std::string::npos && newline + 1 < tail.size()) tail.erase(0, newline + 1);
  return tail;
}

}  // namespace infinicts::runner
