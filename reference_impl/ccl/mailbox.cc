#include "ccl/mailbox.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace infinicts::ref::ccl {

struct Mailbox::Message {
  // Set by a receiver that came first and waits.
  bool receiver_waiting = false;
  void *dst = nullptr;
  size_t dst_bytes = 0;
  // Set by a sender that came first: the data, set aside (`staged`) or, when no memory
  // could be had for that, lent (`lent`: the sender waits until it has been copied).
  bool has_data = false;
  std::unique_ptr<char[]> staged;
  const void *lent = nullptr;
  size_t data_bytes = 0;
  // The data is in the receiver's buffer (or, when lent, has been copied out).
  bool delivered = false;
};

std::shared_ptr<Mailbox::Message> Mailbox::Find(const Key &key) {
  std::shared_ptr<Message> &slot = messages_[key];
  if (!slot) slot = std::make_shared<Message>();
  return slot;
}

void Mailbox::Send(int from, int to, uint64_t sequence, const void *data, size_t bytes) {
  const Key key{from, to, sequence};
  std::unique_lock<std::mutex> lock(mutex_);
  std::shared_ptr<Message> message = Find(key);
  std::unique_ptr<char[]> staged;
  if (!message->receiver_waiting) {
    lock.unlock();
    staged.reset(new (std::nothrow) char[bytes]);
    if (staged) std::memcpy(staged.get(), data, bytes);
    lock.lock();
  }
  if (message->receiver_waiting) {  // the receiver is here (or came while we copied)
    messages_.erase(key);
    lock.unlock();
    std::memcpy(message->dst, staged ? staged.get() : data, std::min(bytes, message->dst_bytes));
    lock.lock();
    message->delivered = true;
    lock.unlock();
    delivered_.notify_all();
    return;
  }
  message->has_data = true;
  message->data_bytes = bytes;
  if (staged) {
    message->staged = std::move(staged);
    return;
  }
  message->lent = data;
  delivered_.wait(lock, [&] { return message->delivered; });
}

void Mailbox::Recv(int from, int to, uint64_t sequence, void *dst, size_t bytes) {
  const Key key{from, to, sequence};
  std::unique_lock<std::mutex> lock(mutex_);
  std::shared_ptr<Message> message = Find(key);
  if (!message->has_data) {
    message->receiver_waiting = true;
    message->dst = dst;
    message->dst_bytes = bytes;
    delivered_.wait(lock, [&] { return message->delivered; });
    return;
  }
  messages_.erase(key);
  lock.unlock();
  const void *source = message->staged ? static_cast<const void *>(message->staged.get()) : message->lent;
  std::memcpy(dst, source, std::min(bytes, message->data_bytes));
  if (message->staged) return;  // the staged copy dies with the message
  lock.lock();
  message->delivered = true;
  lock.unlock();
  delivered_.notify_all();
}

}  // namespace infinicts::ref::ccl
