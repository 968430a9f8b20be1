// A communicator: the state its ranks share (CommGroup) and the handle each rank holds
// (InfinicclComm, the struct infiniccl.h names).
//
// Matching: a rank's collectives are numbered in the order the rank issued them, and its
// Sends (Recvs) per peer likewise; the ranks' stream workers meet on those numbers, so
// the ranks' calls pair up by order whichever threads issued them.
#ifndef INFINICTS_REF_CCL_COMMUNICATOR_H
#define INFINICTS_REF_CCL_COMMUNICATOR_H

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ccl/mailbox.h"
#include "ccl/meeting.h"
#include "ccl/nccl/device_rank.h"

namespace infinicts::ref::ccl {

class ProcessGroup;
class RemoteRanks;

class CommGroup {
 public:
  // Rank r runs on CPU device devices[r] (of its own process). `across` holds the shared
  // state of ranks in several processes (process_group.h); NULL when they are all here.
  explicit CommGroup(std::vector<int> devices, std::shared_ptr<ProcessGroup> across = nullptr)
      : devices_(std::move(devices)), across_(std::move(across)) {}
  // Ranks on several hosts, reached by messages (remote_ranks.h).
  CommGroup(std::vector<int> devices, std::shared_ptr<RemoteRanks> remote)
      : devices_(std::move(devices)), remote_(std::move(remote)) {}

  int nranks() const { return static_cast<int>(devices_.size()); }
  int device(int rank) const { return devices_[static_cast<size_t>(rank)]; }
  ProcessGroup *across() const { return across_.get(); }
  RemoteRanks *remote() const { return remote_.get(); }

  // The meeting of the ranks' `sequence`-th collective: the first rank to come makes it,
  // and it is forgotten here once every rank has joined (they hold it meanwhile).
  std::shared_ptr<Meeting> Join(uint64_t sequence);

  Mailbox &mailbox() { return mailbox_; }

 private:
  struct Pending {
    std::shared_ptr<Meeting> meeting;
    int joined = 0;
  };

  const std::vector<int> devices_;
  const std::shared_ptr<ProcessGroup> across_;
  const std::shared_ptr<RemoteRanks> remote_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, Pending> pending_;
  Mailbox mailbox_;
};

}  // namespace infinicts::ref::ccl

// One rank's handle; its device type decides who runs its collectives. A CPU rank shares
// `group` with its ranks (and has no `device_rank`); stream work holds the group, so
// destroying a handle while its work is still queued leaves that work intact. An NVIDIA
// rank's collectives run on its `device_rank` (NCCL, nccl/), and `group` is NULL.
struct InfinicclComm {
  InfinicclComm(std::shared_ptr<infinicts::ref::ccl::CommGroup> shared, int own_rank)
      : group(std::move(shared)),
        rank(own_rank),
        nranks(group->nranks()),
        sends_issued(static_cast<size_t>(group->nranks()), 0),
        recvs_issued(static_cast<size_t>(group->nranks()), 0) {}

  InfinicclComm(std::unique_ptr<infinicts::ref::ccl::DeviceRank> on_device, int own_rank, int rank_count)
      : device_rank(std::move(on_device)), rank(own_rank), nranks(rank_count) {}

  const std::shared_ptr<infinicts::ref::ccl::CommGroup> group;
  const std::unique_ptr<infinicts::ref::ccl::DeviceRank> device_rank;
  const int rank;
  const int nranks;
  // Guards the counters below: the numbering is per rank, in issue order.
  std::mutex issue_mutex;
  uint64_t collectives_issued = 0;
  std::vector<uint64_t> sends_issued;  // per peer
  std::vector<uint64_t> recvs_issued;  // per peer
};

#endif  // INFINICTS_REF_CCL_COMMUNICATOR_H
