#include "report/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "report/temporary_files.h"

namespace infinicts::report {
namespace {

std::string ParentOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool MakeDirectories(const std::string &dir, std::string *error) {
  struct stat st {};
  if (stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    *error = dir + " is not a directory";
    return false;
  }
  const std::string parent = ParentOf(dir);
  if (parent != dir && !MakeDirectories(parent, error)) return false;
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    *error = "cannot create " + dir + ": " + std::strerror(errno);
    return false;
  }
  return true;
}


// An unnamed file in `dir` (O_TMPFILE), which a killed writer cannot leave behind; -1 where the
// file system has none, and the caller falls back to a named temporary.
int OpenUnnamed(const std::string &dir) {
#ifdef O_TMPFILE
  return open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
#else
  (void)dir;
  return -1;
#endif
}

// Gives the unnamed file behind `fd` the name `temporary`.
bool NameUnnamed(int fd, const std::string &temporary) {
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  return linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temporary.c_str(), AT_SYMLINK_FOLLOW) == 0;
}

}  // namespace

bool WriteAllToDescriptor(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = write(fd, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    done += static_cast<size_t>(written);
  }
  return true;
}

bool WriteFileAtomically(const std::string &path, const std::string &text, bool durable, std::string *error) {
  const std::string dir = ParentOf(path);
  if (!MakeDirectories(dir, error)) return false;
  const size_t slash = path.rfind('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  // A writer killed between naming its temporary and the rename leaves "<base>.<pid>.tmp".
  RemoveStaleTemporaries(dir, base + ".", ".tmp");
  const std::string temporary = (dir == "." && slash == std::string::npos ? "" : dir + "/") + PidTaggedName(base + ".", ".tmp");
  unlink(temporary.c_str());  // this process's own, from a write that failed half-way
  int fd = OpenUnnamed(dir);
  const bool unnamed = fd >= 0;
  if (!unnamed) fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    *error = "cannot write " + temporary + ": " + std::strerror(errno);
    return false;
  }
  bool ok = WriteAllToDescriptor(fd, text);
  if (ok && durable) ok = fsync(fd) == 0;
  if (ok && unnamed) ok = NameUnnamed(fd, temporary);
  const int saved_errno = errno;
  if (close(fd) != 0) ok = false;
  if (!ok) {
    *error = "cannot write " + temporary + ": " + std::strerror(saved_errno);
    unlink(temporary.c_str());
    return false;
  }
  if (rename(temporary.c_str(), path.c_str()) != 0) {
    *error = "cannot rename " + temporary + " to " + path + ": " + std::strerror(errno);
    unlink(temporary.c_str());
    return false;
  }
  if (durable) {
    const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd >= 0) {
      fsync(dir_fd);
      close(dir_fd);
    }
  }
  return true;
}

}  // namespace infinicts::report
