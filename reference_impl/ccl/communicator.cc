#include "ccl/communicator.h"

namespace infinicts::ref::ccl {

std::shared_ptr<Meeting> CommGroup::Join(uint64_t sequence) {
  std::lock_guard<std::mutex> lock(mutex_);
  Pending &pending = pending_[sequence];
  if (!pending.meeting) pending.meeting = std::make_shared<Meeting>(nranks());
  std::shared_ptr<Meeting> meeting = pending.meeting;
  if (++pending.joined == nranks()) pending_.erase(sequence);
  return meeting;
}

}  // namespace infinicts::ref::ccl
