// count_writes COMMAND [ARGS...]: runs COMMAND and prints, on stderr, the bytes its main thread
// passed to write() and its kin over its whole life (wchar of /proc/PID/task/PID/io, read while
// it is a zombie), as "count_writes: N bytes written". Exits with COMMAND's exit code (128 + signal if killed).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: count_writes COMMAND [ARGS...]\n");
    return 2;
  }
  const pid_t pid = fork();
  if (pid < 0) return 2;
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    std::perror(argv[1]);
    _exit(127);
  }
  siginfo_t info {};
  // WNOWAIT leaves the child a zombie, whose /proc entry still holds its I/O counters.
  while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0) {
  }
  // The task file, not /proc/PID/io: that one adds in the I/O of every child it reaped (the
  // suite processes), and what is measured is the command's own writing.
  std::ifstream io("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/io");
  std::string key;
  long long value = -1, written = -1;
  while (io >> key >> value) {
    if (key == "wchar:") written = value;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (written < 0) {
    std::fprintf(stderr, "count_writes: /proc/%d/io cannot be read\n", static_cast<int>(pid));
    return 2;
  }
  std::fprintf(stderr, "count_writes: %lld bytes written\n", written);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
