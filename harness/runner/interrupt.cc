#include "runner/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <mutex>
#include <set>
#include <string>
#include <utility>

namespace infinicts::runner {
namespace {

volatile sig_atomic_t interrupt_signal = 0;
volatile sig_atomic_t active_group = 0;

void OnInterrupt(int signal_number) {
  interrupt_signal = signal_number;
  const pid_t group = active_group;
  if (group > 0) kill(-group, SIGKILL);
}

std::mutex owned_paths_mutex;
std::set<std::string> &OwnedPaths() {
  static std::set<std::string> paths;
  return paths;
}

void InterruptOn(int signal_number) {
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked poll() returns and the loop looks at the flag
  sigaction(signal_number, &action, nullptr);
}

}  // namespace

void InstallInterruptHandlers() {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) InterruptOn(signal_number);
}

void InterruptOnContinue() { InterruptOn(SIGCONT); }

bool Interrupted() { return interrupt_signal != 0; }
int InterruptSignal() { return interrupt_signal; }
void SetActiveChildGroup(pid_t group) { active_group = group; }

void OwnedPath::Own(std::string path) {
  path_ = std::move(path);
  std::lock_guard<std::mutex> lock(owned_paths_mutex);
  OwnedPaths().insert(path_);
}

OwnedPath::~OwnedPath() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
  std::lock_guard<std::mutex> lock(owned_paths_mutex);
  OwnedPaths().erase(path_);
}

void ReraiseInterrupt() {
  {
    std::lock_guard<std::mutex> lock(owned_paths_mutex);
    for (const std::string &path : OwnedPaths()) {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
    OwnedPaths().clear();
  }
  const int signal_number = interrupt_signal != 0 ? interrupt_signal : SIGTERM;
  signal(signal_number, SIG_DFL);
  raise(signal_number);
  std::_Exit(128 + signal_number);
}

}  // namespace infinicts::runner
