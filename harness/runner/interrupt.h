// Ctrl-C and SIGTERM during a run: the suite child in flight is killed with its
// process group (it is not in the terminal's group, so it would not see the
// signal), and the runner winds down, writes its report and re-raises the signal.
#pragma once

#include <sys/types.h>

#include <string>
#include <utility>

namespace infinicts::runner {

void InstallInterruptHandlers();
// Under mpirun: OpenMPI ends a job by sending each rank SIGCONT, then, a second later
// (odls_base_sigkill_timeout), SIGTERM and at once SIGKILL. SIGCONT is taken as the
// interrupt, so that rank 0 has that second to write its report.
void InterruptOnContinue();
bool Interrupted();
int InterruptSignal();  // the signal that interrupted the run, 0 if none
// The process group a signal must take down with the runner; 0 for none.
void SetActiveChildGroup(pid_t group);
// Restores the default action, removes the paths still owned (OwnedPath) and raises the
// interrupting signal again.
[[noreturn]] void ReraiseInterrupt();

// A file or directory of this process's own (problem lines, a side-by-side or fuzzing working
// directory): removed when the object ends, and by ReraiseInterrupt while it is owned, since
// destructors do not run once the signal is raised again.
class OwnedPath {
 public:
  OwnedPath() = default;
  explicit OwnedPath(std::string path) { Own(std::move(path)); }
  OwnedPath(const OwnedPath &) = delete;
  OwnedPath &operator=(const OwnedPath &) = delete;
  ~OwnedPath();

  void Own(std::string path);  // once: an OwnedPath owns one path
  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace infinicts::runner
