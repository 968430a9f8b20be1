// Ctrl-C and SIGTERM during a run: the suite child in flight is killed with its
// process group (it is not in the terminal's group, so it would not see the
// signal), and the runner winds down, writes its report and re-raises the signal.
#pragma once

#include <sys/types.h>

#include <string>

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
// Restores the default action, removes the paths still owned (RemoveOnReraise) and raises the
// interrupting signal again.
[[noreturn]] void ReraiseInterrupt();

// A file or directory of this process's own (problem lines, a side-by-side or
// fuzzing working directory) that ReraiseInterrupt removes: the destructors that would remove
// it do not run once the signal is raised again. Forget it when it is removed the usual way.
void RemoveOnReraise(const std::string &path);
void ForgetOnReraise(const std::string &path);

}  // namespace infinicts::runner
