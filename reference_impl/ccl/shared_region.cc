#include "ccl/shared_region.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <ctime>
#include <thread>

namespace infinicts::ref::ccl {

std::unique_ptr<SharedRegion> SharedRegion::Create(const std::string &name, size_t bytes) {
  const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return nullptr;
  // posix_fallocate reserves the pages now: a tmpfs that runs out answers here.
  if (posix_fallocate(fd, 0, static_cast<off_t>(bytes)) != 0) {
    close(fd);
    shm_unlink(name.c_str());
    return nullptr;
  }
  void *data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (data == MAP_FAILED) {
    shm_unlink(name.c_str());
    return nullptr;
  }
  return std::unique_ptr<SharedRegion>(new SharedRegion(data, bytes));
}

std::unique_ptr<SharedRegion> SharedRegion::Open(const std::string &name,
                                                 std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const int fd = shm_open(name.c_str(), O_RDWR, 0600);
    if (fd >= 0) {
      struct stat status {};
      // The maker sizes the object right after making it: an empty one is not ready yet.
      if (fstat(fd, &status) == 0 && status.st_size > 0) {
        const size_t bytes = static_cast<size_t>(status.st_size);
        void *data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (data == MAP_FAILED) return nullptr;
        return std::unique_ptr<SharedRegion>(new SharedRegion(data, bytes));
      }
      close(fd);
    }
    if (std::chrono::steady_clock::now() >= deadline) return nullptr;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void SharedRegion::Unlink(const std::string &name) { shm_unlink(name.c_str()); }

SharedRegion::~SharedRegion() { munmap(data_, size_); }

void WaitWhileEqual(const void *word, uint32_t expected, std::chrono::milliseconds at_most) {
  const long ms = static_cast<long>(at_most.count());
  struct timespec timeout {ms / 1000, (ms % 1000) * 1000000L};
  syscall(SYS_futex, word, FUTEX_WAIT, expected, &timeout, nullptr, 0);
}

void WakeAll(const void *word) { syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0); }

}  // namespace infinicts::ref::ccl
