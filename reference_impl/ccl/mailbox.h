// Point-to-point messages between the ranks of one communicator. The k-th Send from rank
// a to rank b meets the k-th Recv on b from a. A Send never waits: if its receiver is
// not there yet, it copies the data aside (eager), so any order of Sends and Recvs on the
// ranks' streams (a ring of Send-then-Recv included) makes progress. A Recv waits until
// its data is in place.
#ifndef INFINICTS_REF_CCL_MAILBOX_H
#define INFINICTS_REF_CCL_MAILBOX_H

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace infinicts::ref::ccl {

class Mailbox {
 public:
  // Runs on the sender's stream worker at the Send's place in its stream.
  void Send(int from, int to, uint64_t sequence, const void *data, size_t bytes);
  // Runs on the receiver's stream worker; returns when `dst` holds the message (at most
  // `bytes` of it).
  void Recv(int from, int to, uint64_t sequence, void *dst, size_t bytes);

 private:
  struct Message;
  using Key = std::tuple<int, int, uint64_t>;

  // The message for `key`, made by whichever side comes first. Under mutex_.
  std::shared_ptr<Message> Find(const Key &key);

  std::mutex mutex_;
  std::condition_variable delivered_;
  std::map<Key, std::shared_ptr<Message>> messages_;
};

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_MAILBOX_H
