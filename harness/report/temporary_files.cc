#include "report/temporary_files.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace infinicts::report {
namespace {

// The pid in "<prefix><digits><suffix>...", or 0 when `name` is not such a name.
pid_t TaggedPid(const std::string &name, const std::string &prefix, const std::string &suffix) {
  if (name.compare(0, prefix.size(), prefix) != 0) return 0;
  const size_t digits_end = name.find_first_not_of("0123456789", prefix.size());
  if (digits_end == std::string::npos || digits_end == prefix.size() || digits_end - prefix.size() > 9) return 0;
  if (name.compare(digits_end, suffix.size(), suffix) != 0) return 0;
  return static_cast<pid_t>(std::atol(name.substr(prefix.size(), digits_end - prefix.size()).c_str()));
}

bool ProcessIsGone(pid_t pid) { return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

std::string PidTaggedName(const std::string &prefix, const std::string &suffix) {
  return prefix + std::to_string(getpid()) + suffix;
}

void RemoveStaleTemporaries(const std::string &dir, const std::string &prefix, const std::string &suffix) {
  DIR *listing = opendir(dir.c_str());
  if (listing == nullptr) return;
  while (const dirent *entry = readdir(listing)) {
    const std::string name = entry->d_name;
    const pid_t pid = TaggedPid(name, prefix, suffix);
    if (pid != getpid() && ProcessIsGone(pid)) unlink((dir + "/" + name).c_str());
  }
  closedir(listing);
}

}  // namespace infinicts::report
