// A POSIX shared-memory object mapped into this process: how the ranks of a communicator
// that live in different processes of one host share its state (process_group.h).
#ifndef INFINICTS_REF_CCL_SHARED_REGION_H
#define INFINICTS_REF_CCL_SHARED_REGION_H

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

namespace infinicts::ref::ccl {

class SharedRegion {
 public:
  // Makes the object `name` ("/…") of `bytes` zeroed bytes, its memory reserved up front (a
  // full /dev/shm gives NULL here, never a SIGBUS later); NULL when it exists already or
  // cannot be made.
  static std::unique_ptr<SharedRegion> Create(const std::string &name, size_t bytes);
  // Maps the existing object `name` once its maker has sized it (waiting for that until
  // `deadline`); NULL when there is none by then.
  static std::unique_ptr<SharedRegion> Open(const std::string &name,
                                            std::chrono::steady_clock::time_point deadline);
  static void Unlink(const std::string &name);

  ~SharedRegion();
  SharedRegion(const SharedRegion &) = delete;
  SharedRegion &operator=(const SharedRegion &) = delete;

  void *data() const { return data_; }
  size_t size() const { return size_; }

 private:
  SharedRegion(void *data, size_t size) : data_(data), size_(size) {}
  void *data_;
  size_t size_;
};

// Waits while *word == expected, at most until `deadline` (a futex across processes).
// Returns early on a wake, or spuriously: callers check their condition again.
void WaitWhileEqual(const void *word, uint32_t expected, std::chrono::milliseconds at_most);
// Wakes every waiter on `word`.
void WakeAll(const void *word);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_SHARED_REGION_H
