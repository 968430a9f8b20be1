#include "ccl/collectives_across.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "ccl/block_layout.h"

namespace infinicts::ref::ccl {
namespace {

// The meeting of one window: every rank's buffers are its slots, and the ranks synchronize
// on the group's barrier.
class SlotMeeting final : public Meeting {
 public:
  explicit SlotMeeting(ProcessGroup &group) : Meeting(Slots(group)), group_(group) {}
  void Synchronize() override { group_.Barrier(); }

 private:
  static std::vector<RankBuffers> Slots(const ProcessGroup &group) {
    std::vector<RankBuffers> slots(static_cast<size_t>(group.nranks()));
    for (int q = 0; q < group.nranks(); ++q) slots[static_cast<size_t>(q)] = {group.send_slot(q), group.recv_slot(q)};
    return slots;
  }
  ProcessGroup &group_;
};

void CopyElements(void *dst, const void *src, size_t elements, size_t element_size) {
  if (elements > 0) std::memcpy(dst, src, elements * element_size);
}

// The part of each block from `first` on, at most `window` elements each.
BlockLayout WindowOfBlocks(const BlockLayout &layout, int nranks, size_t first, size_t window, size_t element_size) {
  std::vector<size_t> counts(static_cast<size_t>(nranks));
  for (int q = 0; q < nranks; ++q) {
    const size_t count = layout.count(q);
    counts[static_cast<size_t>(q)] = count > first ? std::min(window, count - first) : 0;
  }
  return BlockLayout(counts.data(), nranks, element_size);
}

// The meeting of ranks whose buffers every rank has mapped.
class MappedMeeting final : public Meeting {
 public:
  MappedMeeting(ProcessGroup &group, std::vector<RankBuffers> buffers) : Meeting(std::move(buffers)), group_(group) {}
  void Synchronize() override { group_.Barrier(); }

 private:
  ProcessGroup &group_;
};

// The bytes of each buffer of `call` as rank `rank` passes it.
std::pair<size_t, size_t> BufferBytes(const CollectiveCall &call, int rank, int nranks) {
  const size_t e = call.element_size, n = static_cast<size_t>(nranks);
  switch (call.kind) {
    case CollectiveKind::kAllReduce: return {call.count * e, call.count * e};
    case CollectiveKind::kBroadcast: return {rank == call.root ? call.count * e : 0, call.count * e};
    case CollectiveKind::kAllGather: return {call.count * e, n * call.count * e};
    case CollectiveKind::kReduceScatter: return {n * call.count * e, call.count * e};
    case CollectiveKind::kAllGatherV:
      return {call.layout->count(rank) * e, call.layout->total() * e};
    case CollectiveKind::kReduceScatterV:
      return {call.layout->total() * e, call.layout->count(rank) * e};
  }
  return {0, 0};
}

// Zero-copy: every rank says where its buffers lie; when all of them are in shareable device
// blocks (and none is too small to be), each rank maps its peers' and the in-process algorithm
// runs on them directly, as if the ranks shared a process. Every rank reads the same places,
// so all of them take this path or none does. Answers whether it ran the collective.
bool RunOnMappedBuffers(ProcessGroup &group, int rank, const CollectiveCall &call) {
  const int n = group.nranks();
  const auto [send_bytes, recv_bytes] = BufferBytes(call, rank, n);
  group.place(rank, 0) = PlaceOf(call.mine.send, send_bytes);
  group.place(rank, 1) = PlaceOf(call.mine.recv, recv_bytes);
  group.Barrier();
  bool shared = true;
  for (int q = 0; q < n; ++q) {
    for (int which : {0, 1}) shared = shared && group.place(q, which).state != BufferPlace::kPrivate;
  }
  if (!shared) {
    group.Barrier();  // every rank has read the places before any writes the next collective's
    return false;
  }
  std::vector<RankBuffers> buffers(static_cast<size_t>(n));
  std::vector<std::shared_ptr<MappedBlock>> held;
  bool mapped = true;
  for (int q = 0; q < n && mapped; ++q) {
    if (q == rank) {
      buffers[static_cast<size_t>(q)] = call.mine;
      continue;
    }
    unsigned char *at[2] = {nullptr, nullptr};
    for (int which : {0, 1}) {
      const BufferPlace place = group.place(q, which);
      if (place.state != BufferPlace::kShared) continue;
      std::shared_ptr<MappedBlock> block = MapPeerBlock(place);
      if (!block) {
        mapped = false;
        break;
      }
      at[which] = block->data() + place.offset;
      held.push_back(std::move(block));
    }
    buffers[static_cast<size_t>(q)] = {at[0], at[1]};
  }
  // A rank that could not map a peer's block makes every rank stage instead.
  group.mapped_peers(rank).store(mapped ? 1 : 0, std::memory_order_relaxed);
  group.Barrier();
  for (int q = 0; q < n; ++q) {
    if (group.mapped_peers(q).load(std::memory_order_relaxed) == 0) return false;
  }
  MappedMeeting meeting(group, std::move(buffers));
  RunCollective(meeting, rank, call);
  return true;
}

}  // namespace

void RunCollectiveAcross(ProcessGroup &group, int rank, const CollectiveCall &call) {
  if (RunOnMappedBuffers(group, rank, call)) return;
  const int n = group.nranks();
  const size_t e = call.element_size;
  SlotMeeting meeting(group);
  unsigned char *send_slot = group.send_slot(rank);
  unsigned char *recv_slot = group.recv_slot(rank);
  CollectiveCall window = call;
  window.mine = {send_slot, recv_slot};
  // Windows of whole buffers, and of segments or blocks when n of them share a slot.
  const size_t whole = group.slot_bytes() / e;
  const size_t shared = group.slot_bytes() / (e * static_cast<size_t>(n));

  switch (call.kind) {
    case CollectiveKind::kAllReduce:
    case CollectiveKind::kBroadcast:
      for (size_t first = 0; first < call.count; first += whole) {
        window.count = std::min(whole, call.count - first);
        const bool stages = call.kind == CollectiveKind::kAllReduce || rank == call.root;
        if (stages) CopyElements(send_slot, ElementAt(call.mine.send, first, e), window.count, e);
        RunCollective(meeting, rank, window);
        CopyElements(ElementAt(call.mine.recv, first, e), recv_slot, window.count, e);
      }
      return;
    case CollectiveKind::kAllGather:
      for (size_t first = 0; first < call.count; first += shared) {
        window.count = std::min(shared, call.count - first);
        CopyElements(send_slot, ElementAt(call.mine.send, first, e), window.count, e);
        RunCollective(meeting, rank, window);
        for (int q = 0; q < n; ++q) {
          CopyElements(ElementAt(call.mine.recv, static_cast<size_t>(q) * call.count + first, e),
                       ElementAt(recv_slot, static_cast<size_t>(q) * window.count, e), window.count, e);
        }
      }
      return;
    case CollectiveKind::kReduceScatter:
      for (size_t first = 0; first < call.count; first += shared) {
        window.count = std::min(shared, call.count - first);
        for (int q = 0; q < n; ++q) {
          CopyElements(ElementAt(send_slot, static_cast<size_t>(q) * window.count, e),
                       ElementAt(call.mine.send, static_cast<size_t>(q) * call.count + first, e), window.count, e);
        }
        RunCollective(meeting, rank, window);
        CopyElements(ElementAt(call.mine.recv, first, e), recv_slot, window.count, e);
      }
      return;
    case CollectiveKind::kAllGatherV:
    case CollectiveKind::kReduceScatterV: {
      const BlockLayout &layout = *call.layout;
      const size_t longest = layout.longest();
      const bool gathers = call.kind == CollectiveKind::kAllGatherV;
      for (size_t first = 0; first < longest; first += shared) {
        auto blocks = std::make_shared<const BlockLayout>(WindowOfBlocks(layout, n, first, shared, e));
        window.layout = blocks;
        if (gathers) {
          // The send buffer holds this rank's block (NULL when empty); the receive buffer every block.
          if (blocks->count(rank) > 0) CopyElements(send_slot, ElementAt(call.mine.send, first, e), blocks->count(rank), e);
        } else {
          for (int q = 0; q < n; ++q) {
            CopyElements(ElementAt(send_slot, blocks->offset(q), e), ElementAt(call.mine.send, layout.offset(q) + first, e),
                         blocks->count(q), e);
          }
        }
        RunCollective(meeting, rank, window);
        if (gathers) {
          for (int q = 0; q < n; ++q) {
            CopyElements(ElementAt(call.mine.recv, layout.offset(q) + first, e), ElementAt(recv_slot, blocks->offset(q), e),
                         blocks->count(q), e);
          }
        } else {
          if (blocks->count(rank) > 0) CopyElements(ElementAt(call.mine.recv, first, e), recv_slot, blocks->count(rank), e);
        }
      }
      return;
    }
  }
}

}  // namespace infinicts::ref::ccl
