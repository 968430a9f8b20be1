#include "ccl/rendezvous.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace infinicts::ref::ccl {
namespace {

// What an id holds: a tag, the process that made it, and its serial number there.
struct IdContents {
  char tag[16];
  uint64_t process;
  uint64_t serial;
};
static_assert(sizeof(IdContents) <= sizeof(infinicclUniqueId_t::internal), "an id must fit the public struct");

constexpr char kIdTag[16] = "infinicts-ccl";

std::atomic<uint64_t> last_serial{0};

constexpr long kDefaultTimeoutMs = 60000;

std::chrono::milliseconds RendezvousTimeout() {
  const char *text = std::getenv("INFINICTS_CCL_INIT_TIMEOUT_MS");
  if (text == nullptr || *text == '\0') return std::chrono::milliseconds(kDefaultTimeoutMs);
  char *end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value <= 0) return std::chrono::milliseconds(kDefaultTimeoutMs);
  return std::chrono::milliseconds(value);
}

// The ranks that have called CommInitRank with one id so far.
struct Gathering {
  explicit Gathering(int n) : nranks(n), devices(static_cast<size_t>(n), -1) {}
  const int nranks;
  std::vector<int> devices;  // per rank; -1 until it arrives
  int arrived = 0;
  std::shared_ptr<CommGroup> group;  // set when the last rank arrives
};

struct Rendezvous {
  std::mutex mutex;
  std::condition_variable formed;
  std::unordered_map<uint64_t, std::shared_ptr<Gathering>> by_serial;
};

// Never destroyed: a rank may still wait here while static destructors run at exit.
Rendezvous &TheRendezvous() {
  static Rendezvous *rendezvous = new Rendezvous;
  return *rendezvous;
}

IdContents ReadId(const infinicclUniqueId_t &id) {
  IdContents contents;
  std::memcpy(&contents, id.internal, sizeof contents);
  return contents;
}

}  // namespace

void NewUniqueId(infinicclUniqueId_t *id) {
  IdContents contents{};
  std::memcpy(contents.tag, kIdTag, sizeof contents.tag);
  contents.process = static_cast<uint64_t>(getpid());
  contents.serial = ++last_serial;
  std::memset(id->internal, 0, sizeof id->internal);
  std::memcpy(id->internal, &contents, sizeof contents);
}

bool IsKnownUniqueId(const infinicclUniqueId_t &id) {
  const IdContents contents = ReadId(id);
  return std::memcmp(contents.tag, kIdTag, sizeof contents.tag) == 0 &&
         contents.process == static_cast<uint64_t>(getpid()) && contents.serial >= 1 &&
         contents.serial <= last_serial.load();
}

infiniStatus_t JoinRendezvous(const infinicclUniqueId_t &id, int nranks, int rank, int device,
                              std::shared_ptr<CommGroup> *group) {
  const uint64_t serial = ReadId(id).serial;
  const auto deadline = std::chrono::steady_clock::now() + RendezvousTimeout();
  Rendezvous &rendezvous = TheRendezvous();
  std::unique_lock<std::mutex> lock(rendezvous.mutex);

  std::shared_ptr<Gathering> &slot = rendezvous.by_serial[serial];
  if (!slot) slot = std::make_shared<Gathering>(nranks);
  const std::shared_ptr<Gathering> gathering = slot;
  if (gathering->nranks != nranks || gathering->devices[static_cast<size_t>(rank)] != -1) {
    return INFINI_STATUS_BAD_PARAM;
  }
  gathering->devices[static_cast<size_t>(rank)] = device;
  if (++gathering->arrived == nranks) {
    gathering->group = std::make_shared<CommGroup>(gathering->devices);
    rendezvous.by_serial.erase(serial);  // the id may start a new communicator now
    *group = gathering->group;
    lock.unlock();
    rendezvous.formed.notify_all();
    return INFINI_STATUS_SUCCESS;
  }

  if (rendezvous.formed.wait_until(lock, deadline, [&] { return gathering->group != nullptr; })) {
    *group = gathering->group;
    return INFINI_STATUS_SUCCESS;
  }
  // Timed out: withdraw, so that the id does not stay half-taken.
  gathering->devices[static_cast<size_t>(rank)] = -1;
  if (--gathering->arrived == 0) {
    const auto found = rendezvous.by_serial.find(serial);
    if (found != rendezvous.by_serial.end() && found->second == gathering) rendezvous.by_serial.erase(found);
  }
  return INFINI_STATUS_INTERNAL_ERROR;
}

}  // namespace infinicts::ref::ccl
