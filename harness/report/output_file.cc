#include "report/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "report/atomic_file.h"

namespace infinicts::report {
namespace {

constexpr int kMaxLinkHops = 40;  // as the kernel's own limit on a path's symlinks


// The descriptor a path names when it is one of this process's open streams: "-",
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N. Writing to it keeps a shell's
// redirection (`> out.md`, a pipe) as it is; reopening the path would truncate or replace it.
int OpenStreamOf(const std::string &path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const char *prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::string head = prefix;
    if (path.compare(0, head.size(), head) != 0) continue;
    const std::string digits = path.substr(head.size());
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::atoi(digits.c_str());
  }
  return -1;
}

std::string DirectoryOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Follows `path` through its symlinks to the name that is not one (which may not exist yet,
// as a link to a file still to be written). False on a loop.
bool FinalName(std::string path, std::string *final_name) {
  for (int hop = 0; hop < kMaxLinkHops; ++hop) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      *final_name = path;
      return true;
    }
    std::string target(PATH_MAX, '\0');
    const ssize_t length = readlink(path.c_str(), target.data(), target.size());
    if (length < 0) return false;
    target.resize(static_cast<size_t>(length));
    path = target.front() == '/' ? target : DirectoryOf(path) + "/" + target;
  }
  return false;
}

bool AppendTo(const std::string &path, const std::string &text, bool durable, std::string *error) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  bool ok = WriteAllToDescriptor(fd, text);
  if (ok && durable) ok = fsync(fd) == 0;
  const int saved_errno = errno;
  if (close(fd) != 0) ok = false;
  if (!ok) *error = "cannot write " + path + ": " + std::strerror(saved_errno);
  return ok;
}

}  // namespace

OutputKind KindOfOutput(const std::string &path) {
  if (OpenStreamOf(path) >= 0) return OutputKind::kInPlace;
  struct stat st {};
  if (stat(FinalPathOf(path).c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    return OutputKind::kInPlace;
  }
  return OutputKind::kFile;
}

std::string FinalPathOf(const std::string &path) {
  std::string final_name;
  return FinalName(path, &final_name) ? final_name : path;
}

bool WriteOutput(const std::string &path, const std::string &text, WriteMode mode, bool durable, std::string *error) {
  if (const int stream = OpenStreamOf(path); stream >= 0) {
    if (!WriteAllToDescriptor(stream, text)) {
      *error = "cannot write " + path + ": " + std::strerror(errno);
      return false;
    }
    return true;
  }
  std::string target;
  if (!FinalName(path, &target)) {
    *error = "cannot write " + path + ": its symlinks do not end in a file";
    return false;
  }
  struct stat st {};
  if (stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      *error = "cannot write " + path + ": it is a directory";
      return false;
    }
    if (!S_ISREG(st.st_mode)) {
      // A device, FIFO or socket: written as it is, never replaced by a regular file.
      const int fd = open(target.c_str(), O_WRONLY | O_CLOEXEC | (mode == WriteMode::kAppend ? O_APPEND : 0));
      if (fd < 0) {
        *error = "cannot write " + path + ": " + std::strerror(errno);
        return false;
      }
      const bool ok = WriteAllToDescriptor(fd, text);
      const int saved_errno = errno;
      close(fd);
      if (!ok) *error = "cannot write " + path + ": " + std::strerror(saved_errno);
      return ok;
    }
  }
  if (mode == WriteMode::kAppend) return AppendTo(target, text, durable, error);
  return WriteFileAtomically(target, text, durable, error);
}

std::string InputOverwrittenBy(const std::string &output, const std::vector<std::string> &inputs) {
  if (OpenStreamOf(output) >= 0) return "";
  struct stat out {};
  if (stat(output.c_str(), &out) != 0) return "";  // nothing there yet: no input can be it
  for (const std::string &input : inputs) {
    struct stat in {};
    if (stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) return input;
  }
  return "";
}

bool IsJobSummary(const std::string &path) {
  const char *summary = std::getenv("GITHUB_STEP_SUMMARY");
  if (summary == nullptr || *summary == '\0') return false;
  if (path == summary) return true;
  struct stat a {}, b {};
  return stat(path.c_str(), &a) == 0 && stat(summary, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace infinicts::report
