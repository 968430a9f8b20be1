#include "ccl/process_group.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>

#include "ccl/communicator.h"
#include "infinicts_ref/runtime_internal.h"

namespace infinicts::ref::ccl {
namespace {

constexpr uint32_t kReady = 0x43434c31;  // "CCL1": the maker has filled the header
constexpr auto kPoll = std::chrono::milliseconds(50);  // a futex wait's longest sleep
// Staging per rank and direction: a collective larger than this runs in windows.
constexpr size_t kMaxSlotBytes = 4 << 20;
constexpr size_t kMinSlotBytes = 256 << 10;
constexpr size_t kSlotBudgetBytes = 256 << 20;  // every rank's two slots together, at most

static_assert(std::atomic<uint32_t>::is_always_lock_free, "shared atomics must be address-free");

struct Member {
  std::atomic<uint32_t> taken;
  int32_t pid;
  int32_t device;
};

// The shared state of a meeting and, once formed, of the group: a header, a Member per rank,
// nranks x nranks message counters (row: sender), two BufferPlaces per rank, and a flag per
// rank.
struct Header {
  std::atomic<uint32_t> ready;
  int32_t nranks;
  uint64_t token;  // random: names the group's other objects
  uint64_t slot_bytes;
  std::atomic<uint32_t> arrived;
  std::atomic<uint32_t> formed;        // 1 once every rank is there (a futex word)
  std::atomic<uint32_t> slots_state;   // 0 not yet, 1 made, 2 could not be made (a futex word)
  std::atomic<uint32_t> slots_opened;
  std::atomic<uint32_t> barrier_waiting;
  std::atomic<uint32_t> barrier_generation;  // a futex word
};

size_t PlacesOffset(int nranks) {
  const size_t n = static_cast<size_t>(nranks);
  const size_t end_of_counters = sizeof(Header) + n * sizeof(Member) + n * n * sizeof(std::atomic<uint32_t>);
  return (end_of_counters + alignof(BufferPlace) - 1) / alignof(BufferPlace) * alignof(BufferPlace);
}

size_t MeetingBytes(int nranks) {
  const size_t n = static_cast<size_t>(nranks);
  return PlacesOffset(nranks) + 2 * n * sizeof(BufferPlace) + n * sizeof(std::atomic<uint32_t>);
}
Header *HeaderOf(const SharedRegion &region) { return static_cast<Header *>(region.data()); }
Member *MembersOf(const SharedRegion &region) {
  return reinterpret_cast<Member *>(static_cast<char *>(region.data()) + sizeof(Header));
}
std::atomic<uint32_t> *CountersOf(const SharedRegion &region) {
  return reinterpret_cast<std::atomic<uint32_t> *>(static_cast<char *>(region.data()) + sizeof(Header) +
                                                   static_cast<size_t>(HeaderOf(region)->nranks) * sizeof(Member));
}

// Waits until `word` leaves `value`, or the deadline passes; answers whether it left.
bool WaitWhile(const std::atomic<uint32_t> &word, uint32_t value, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    if (word.load(std::memory_order_acquire) != value) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) + std::chrono::milliseconds(1);
    WaitWhileEqual(&word, value, std::min<std::chrono::milliseconds>(left, kPoll));
  }
}

std::string Hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string GroupName(uint64_t token) { return "/infinicts-ccl-group-" + Hex(token); }

size_t SlotBytesFor(int nranks) {
  const size_t per_slot = kSlotBudgetBytes / (2 * static_cast<size_t>(nranks));
  return std::clamp(per_slot / 4096 * 4096, kMinSlotBytes, kMaxSlotBytes);
}

// The in-process groups formed under a shared name, by token: the ranks of this process get
// the same one.
std::shared_ptr<CommGroup> LocalGroup(uint64_t token, const std::vector<int> &devices) {
  static std::mutex *mutex = new std::mutex;
  static auto *groups = new std::unordered_map<uint64_t, std::weak_ptr<CommGroup>>;
  std::lock_guard<std::mutex> lock(*mutex);
  for (auto it = groups->begin(); it != groups->end();) it = it->second.expired() ? groups->erase(it) : std::next(it);
  std::shared_ptr<CommGroup> group = (*groups)[token].lock();
  if (!group) {
    group = std::make_shared<CommGroup>(devices);
    (*groups)[token] = group;
  }
  return group;
}

}  // namespace

ProcessGroup::ProcessGroup(std::unique_ptr<SharedRegion> meeting, std::unique_ptr<SharedRegion> slots, int nranks,
                           uint64_t token, size_t slot_bytes)
    : meeting_(std::move(meeting)), slots_(std::move(slots)), nranks_(nranks), token_(token), slot_bytes_(slot_bytes) {}

ProcessGroup::~ProcessGroup() = default;

unsigned char *ProcessGroup::send_slot(int q) const {
  return static_cast<unsigned char *>(slots_->data()) + (2 * static_cast<size_t>(q)) * slot_bytes_;
}

unsigned char *ProcessGroup::recv_slot(int q) const { return send_slot(q) + slot_bytes_; }

BufferPlace &ProcessGroup::place(int q, int which) const {
  auto *places = reinterpret_cast<BufferPlace *>(static_cast<char *>(meeting_->data()) + PlacesOffset(nranks_));
  return places[2 * static_cast<size_t>(q) + static_cast<size_t>(which)];
}

std::atomic<uint32_t> &ProcessGroup::mapped_peers(int q) const {
  auto *flags = reinterpret_cast<std::atomic<uint32_t> *>(static_cast<char *>(meeting_->data()) +
                                                          PlacesOffset(nranks_) +
                                                          2 * static_cast<size_t>(nranks_) * sizeof(BufferPlace));
  return flags[q];
}

void ProcessGroup::Barrier() {
  Header &header = *HeaderOf(*meeting_);
  const uint32_t generation = header.barrier_generation.load(std::memory_order_acquire);
  if (header.barrier_waiting.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(nranks_)) {
    header.barrier_waiting.store(0, std::memory_order_relaxed);
    header.barrier_generation.fetch_add(1, std::memory_order_acq_rel);
    WakeAll(&header.barrier_generation);
    return;
  }
  for (int spin = 0; spin < 2000; ++spin) {
    if (header.barrier_generation.load(std::memory_order_acquire) != generation) return;
    __builtin_ia32_pause();
  }
  while (header.barrier_generation.load(std::memory_order_acquire) == generation) {
    WaitWhileEqual(&header.barrier_generation, generation, kPoll);
  }
}

std::string ProcessGroup::MessageName(int from, int to, uint64_t sequence) const {
  return GroupName(token_) + "-p2p-" + std::to_string(from) + "-" + std::to_string(to) + "-" + std::to_string(sequence);
}

void ProcessGroup::Send(int from, int to, uint64_t sequence, const void *data, size_t bytes) {
  const std::string name = MessageName(from, to, sequence);
  // A stale object of a dead process would block the name: take it over.
  std::unique_ptr<SharedRegion> message = SharedRegion::Create(name, bytes);
  if (!message) {
    SharedRegion::Unlink(name);
    message = SharedRegion::Create(name, bytes);
  }
  if (!message) {
    std::fprintf(stderr, "libinfiniccl: cannot make the shared memory for a %zu-byte message\n", bytes);
    std::abort();  // the stream has no way to report it, and the peer would wait forever
  }
  std::memcpy(message->data(), data, bytes);
  message.reset();
  std::atomic<uint32_t> &sent = CountersOf(*meeting_)[static_cast<size_t>(from) * nranks_ + to];
  sent.fetch_add(1, std::memory_order_acq_rel);
  WakeAll(&sent);
}

void ProcessGroup::Recv(int from, int to, uint64_t sequence, void *data, size_t bytes) {
  std::atomic<uint32_t> &sent = CountersOf(*meeting_)[static_cast<size_t>(from) * nranks_ + to];
  for (;;) {
    const uint32_t seen = sent.load(std::memory_order_acquire);
    if (seen > static_cast<uint32_t>(sequence)) break;
    WaitWhileEqual(&sent, seen, kPoll);
  }
  const std::string name = MessageName(from, to, sequence);
  std::unique_ptr<SharedRegion> message = SharedRegion::Open(name, std::chrono::steady_clock::now());
  if (!message || message->size() < bytes) {
    std::fprintf(stderr, "libinfiniccl: the %zu-byte message %s is missing\n", bytes, name.c_str());
    std::abort();
  }
  std::memcpy(data, message->data(), bytes);
  SharedRegion::Unlink(name);
}

infiniStatus_t JoinAcrossProcesses(const std::string &name, int nranks, int rank, int device,
                                   std::chrono::milliseconds timeout, std::shared_ptr<CommGroup> *group) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_ptr<SharedRegion> region = SharedRegion::Create(name, MeetingBytes(nranks));
  if (region) {
    Header &header = *HeaderOf(*region);
    header.nranks = nranks;
    header.token = std::random_device{}() * 0x100000001ULL ^ static_cast<uint64_t>(getpid()) << 20 ^
                   static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    header.slot_bytes = SlotBytesFor(nranks);
    header.ready.store(kReady, std::memory_order_release);
    WakeAll(&header.ready);
  } else {
    region = SharedRegion::Open(name, deadline);
    if (!region) return INFINI_STATUS_INTERNAL_ERROR;
  }
  Header &header = *HeaderOf(*region);
  if (!WaitWhile(header.ready, 0, deadline) || header.ready.load() != kReady) return INFINI_STATUS_INTERNAL_ERROR;
  if (header.nranks != nranks || region->size() < MeetingBytes(nranks)) return INFINI_STATUS_BAD_PARAM;

  Member &me = MembersOf(*region)[rank];
  uint32_t free_slot = 0;
  if (!me.taken.compare_exchange_strong(free_slot, 1)) return INFINI_STATUS_BAD_PARAM;
  me.pid = static_cast<int32_t>(getpid());
  me.device = device;
  if (header.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(nranks)) {
    header.formed.store(1, std::memory_order_release);
    WakeAll(&header.formed);
    SharedRegion::Unlink(name);  // everyone has it mapped; the id may start another group
  } else if (!WaitWhile(header.formed, 0, deadline)) {
    // Withdraw, so that the id does not stay half-taken, unless the last rank came meanwhile
    // (then the group is formed, and this rank is in it); the last to leave frees the name.
    uint32_t arrived = header.arrived.load(std::memory_order_acquire);
    while (arrived < static_cast<uint32_t>(nranks)) {
      if (header.arrived.compare_exchange_weak(arrived, arrived - 1, std::memory_order_acq_rel)) {
        me.taken.store(0, std::memory_order_release);
        if (arrived == 1) SharedRegion::Unlink(name);
        return INFINI_STATUS_INTERNAL_ERROR;
      }
    }
    WaitWhile(header.formed, 0, std::chrono::steady_clock::time_point::max());
  }

  std::vector<int> devices(static_cast<size_t>(nranks));
  bool all_here = true;
  for (int r = 0; r < nranks; ++r) {
    const Member &member = MembersOf(*region)[r];
    devices[static_cast<size_t>(r)] = member.device;
    all_here = all_here && member.pid == static_cast<int32_t>(getpid());
  }
  if (all_here) {
    *group = LocalGroup(header.token, devices);
    return INFINI_STATUS_SUCCESS;
  }

  // The collectives reach the peers' device blocks where they can (collectives_across.h).
  infinictsRefShareLargeDeviceBlocks();
  // Rank 0 makes the slots; the last rank to map them frees their name.
  const std::string slots_name = GroupName(header.token) + "-slots";
  const size_t slot_bytes = header.slot_bytes;
  std::unique_ptr<SharedRegion> slots;
  if (rank == 0) {
    SharedRegion::Unlink(slots_name);
    slots = SharedRegion::Create(slots_name, 2 * static_cast<size_t>(nranks) * slot_bytes);
    header.slots_state.store(slots ? 1 : 2, std::memory_order_release);
    WakeAll(&header.slots_state);
  } else if (WaitWhile(header.slots_state, 0, deadline) && header.slots_state.load() == 1) {
    slots = SharedRegion::Open(slots_name, deadline);
  }
  const bool every_rank_mapped =
      header.slots_opened.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(nranks);
  if (every_rank_mapped) SharedRegion::Unlink(slots_name);
  if (!slots) return INFINI_STATUS_INTERNAL_ERROR;
  const uint64_t token = header.token;
  auto across = std::shared_ptr<ProcessGroup>(new ProcessGroup(std::move(region), std::move(slots), nranks, token, slot_bytes));
  *group = std::make_shared<CommGroup>(devices, std::move(across));
  return INFINI_STATUS_SUCCESS;
}

}  // namespace infinicts::ref::ccl
