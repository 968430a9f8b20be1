#include "ccl/mpi/mpi_group.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "ccl/block_layout.h"
#include "ccl/mpi/mpi_messages.h"

namespace infinicts::ref::ccl {
namespace {

// The reduce step's receive space is bounded: it runs in windows whose parts from every
// peer take at most this many bytes together (as the shared-memory slots do).
constexpr size_t kWindowBytes = size_t{4} << 20;

// `count` elements cut into n nearly equal blocks (AllReduce's), or n blocks of `count`.
BlockLayout EqualParts(size_t count, int n, size_t element_size) {
  std::vector<size_t> counts(static_cast<size_t>(n), count / static_cast<size_t>(n));
  for (size_t q = 0; q < count % static_cast<size_t>(n); ++q) ++counts[q];
  return BlockLayout(counts.data(), n, element_size);
}
BlockLayout Repeated(size_t count, int n, size_t element_size) {
  const std::vector<size_t> counts(static_cast<size_t>(n), count);
  return BlockLayout(counts.data(), n, element_size);
}


struct Step {
  MPI_Comm comm;
  int tag;
  int rank;
  int nranks;
  size_t element_size;
};

// Block `rank` of `layout` in every rank's `send`, reduced over the ranks in rank order
// into `dst`: each rank sends every peer that peer's block, and reduces what it receives
// with its own, window by window. `dst` may be this rank's own block of `send` (in place).
void ReduceOwnBlock(const Step &step, const BlockLayout &layout, const void *send, void *dst, ReduceFunction reduce) {
  const int n = step.nranks, me = step.rank;
  const size_t e = step.element_size;
  const size_t window = std::max<size_t>(1, kWindowBytes / (e * static_cast<size_t>(n)));
  const size_t longest = layout.longest();
  const auto part = [&](int q, size_t first) { return layout.count(q) > first ? std::min(window, layout.count(q) - first) : 0; };
  const size_t slot_elements = std::min(longest, window);  // one peer's part of a window
  std::vector<unsigned char> received(slot_elements * e * static_cast<size_t>(n - 1));
  std::vector<const void *> sources(static_cast<size_t>(n));
  for (size_t first = 0; first < longest; first += window) {
    const size_t mine = part(me, first);
    MpiExchange exchange(step.comm, step.tag);
    int slot = 0;
    for (int q = 0; q < n; ++q) {
      if (q == me) {
        sources[static_cast<size_t>(q)] = ElementAt(send, layout.offset(me) + first, e);
        continue;
      }
      const size_t theirs = part(q, first);
      if (theirs > 0) exchange.Send(ElementAt(send, layout.offset(q) + first, e), theirs * e, q);
      void *into = ElementAt(received.data(), static_cast<size_t>(slot++) * slot_elements, e);
      if (mine > 0) exchange.Recv(into, mine * e, q);
      sources[static_cast<size_t>(q)] = into;
    }
    exchange.Wait();
    if (mine > 0) reduce(sources.data(), n, ElementAt(dst, first, e), mine, n);
  }
}

// Every rank's block `own` of `layout` into every rank's `recv` at the block's offset.
// `own` may already be there (in place).
void GatherBlocks(const Step &step, const BlockLayout &layout, const void *own, void *recv) {
  const int n = step.nranks, me = step.rank;
  const size_t e = step.element_size;
  void *own_in_recv = ElementAt(recv, layout.offset(me), e);
  if (own != own_in_recv && layout.count(me) > 0) std::memmove(own_in_recv, own, layout.count(me) * e);
  MpiExchange exchange(step.comm, step.tag);
  for (int q = 0; q < n; ++q) {
    if (q == me) continue;
    if (layout.count(me) > 0) exchange.Send(own_in_recv, layout.count(me) * e, q);
    if (layout.count(q) > 0) exchange.Recv(ElementAt(recv, layout.offset(q), e), layout.count(q) * e, q);
  }
  exchange.Wait();
}

void Broadcast(const Step &step, const CollectiveCall &call) {
  const size_t bytes = call.count * step.element_size;
  MpiExchange exchange(step.comm, step.tag);
  if (step.rank != call.root) {
    exchange.Recv(call.mine.recv, bytes, call.root);
    return;
  }
  if (call.mine.send != call.mine.recv) std::memmove(call.mine.recv, call.mine.send, bytes);
  for (int q = 0; q < step.nranks; ++q) {
    if (q != step.rank) exchange.Send(call.mine.recv, bytes, q);
  }
}

// A Send's copy of its message, kept until MPI has sent it.
struct SendInFlight {
  std::unique_ptr<unsigned char[]> copy;
  std::vector<MPI_Request> requests;
  bool Done() {
    int done = 1;
    if (!requests.empty()) MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
    return done != 0;
  }
};

// Sends still in flight, of every group of this process: a group destroyed before its peer
// received leaves them here rather than waiting for a receiver that may never come.
std::mutex sends_mutex;
std::vector<SendInFlight> *sends_in_flight = new std::vector<SendInFlight>();  // never freed: see above

void ForgetSentMessages() {
  auto &sends = *sends_in_flight;
  sends.erase(std::remove_if(sends.begin(), sends.end(), [](SendInFlight &send) { return send.Done(); }), sends.end());
}

}  // namespace

MpiGroup::MpiGroup(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &nranks_);
  int *tag_ub = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm_, MPI_TAG_UB, &tag_ub, &found);
  // MPI guarantees tags up to at least 32767.
  const int largest = found && tag_ub != nullptr ? *tag_ub : 32767;
  tag_span_ = (static_cast<uint64_t>(largest) + 1) / 2;
}

MpiGroup::~MpiGroup() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  {
    std::lock_guard<std::mutex> lock(sends_mutex);
    ForgetSentMessages();
  }
  MPI_Comm_free(&comm_);  // pending messages still complete (MPI marks it for freeing)
}

int MpiGroup::CollectiveTag(uint64_t sequence) const { return static_cast<int>(2 * (sequence % tag_span_)); }
int MpiGroup::MessageTag(uint64_t sequence) const { return static_cast<int>(2 * (sequence % tag_span_) + 1); }

void MpiGroup::RunCollective(uint64_t sequence, const CollectiveCall &call) {
  const int n = nranks_;
  const size_t e = call.element_size;
  const Step step{comm_, CollectiveTag(sequence), rank_, n, e};
  switch (call.kind) {
    case CollectiveKind::kAllReduce: {
      const BlockLayout parts = EqualParts(call.count, n, e);
      void *own = ElementAt(call.mine.recv, parts.offset(rank_), e);
      ReduceOwnBlock(step, parts, call.mine.send, own, call.reduce);
      GatherBlocks(step, parts, own, call.mine.recv);
      return;
    }
    case CollectiveKind::kReduceScatter:
      ReduceOwnBlock(step, Repeated(call.count, n, e), call.mine.send, call.mine.recv, call.reduce);
      return;
    case CollectiveKind::kReduceScatterV:
      ReduceOwnBlock(step, *call.layout, call.mine.send, call.mine.recv, call.reduce);
      return;
    case CollectiveKind::kAllGather:
      GatherBlocks(step, Repeated(call.count, n, e), call.mine.send, call.mine.recv);
      return;
    case CollectiveKind::kAllGatherV:
      GatherBlocks(step, *call.layout, call.mine.send, call.mine.recv);
      return;
    case CollectiveKind::kBroadcast:
      Broadcast(step, call);
      return;
  }
}

void MpiGroup::Send(int to, uint64_t sequence, const void *data, size_t bytes) {
  SendInFlight send;
  send.copy.reset(new unsigned char[bytes]);
  std::memcpy(send.copy.get(), data, bytes);
  MpiExchange exchange(comm_, MessageTag(sequence));
  exchange.Send(send.copy.get(), bytes, to);
  send.requests = exchange.Release();
  std::lock_guard<std::mutex> lock(sends_mutex);
  ForgetSentMessages();
  sends_in_flight->push_back(std::move(send));
}

void MpiGroup::Recv(int from, uint64_t sequence, void *data, size_t bytes) {
  MpiExchange exchange(comm_, MessageTag(sequence));
  exchange.Recv(data, bytes, from);
}

}  // namespace infinicts::ref::ccl
