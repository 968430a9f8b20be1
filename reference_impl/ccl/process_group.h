// Communicators whose ranks live in several processes of one host (CommInitRank with one
// id in each process, as under mpirun). The ranks meet in a shared-memory object named by
// the id; when every rank turns out to be in this process the communicator is an ordinary
// in-process one (communicator.h). Otherwise its ranks share, in a second object, a pair of
// slots each (what a collective stages: collectives_across.h), a barrier, and counters that
// announce point-to-point messages, each of which travels in an object of its own.
#ifndef INFINICTS_REF_CCL_PROCESS_GROUP_H
#define INFINICTS_REF_CCL_PROCESS_GROUP_H

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ccl/peer_blocks.h"
#include "ccl/shared_region.h"
#include "infinirt.h"

namespace infinicts::ref::ccl {

class CommGroup;

class ProcessGroup {
 public:
  int nranks() const { return nranks_; }
  size_t slot_bytes() const { return slot_bytes_; }
  // Rank q's slots, mapped in this process: what it stages to send, and what it receives.
  unsigned char *send_slot(int q) const;
  unsigned char *recv_slot(int q) const;

  // Returns when every rank has called it (the n-th time each); what a rank wrote before
  // is visible to every rank after.
  void Barrier();

  // Where rank q's send (0) and receive (1) buffers of the current collective lie
  // (peer_blocks.h), and whether it mapped every peer's: written by rank q, read by every
  // rank after a Barrier.
  BufferPlace &place(int q, int which) const;
  std::atomic<uint32_t> &mapped_peers(int q) const;

  // Point to point: the message travels in an object of its own, so Send never waits.
  void Send(int from, int to, uint64_t sequence, const void *data, size_t bytes);
  void Recv(int from, int to, uint64_t sequence, void *data, size_t bytes);

  ~ProcessGroup();

 private:
  friend infiniStatus_t JoinAcrossProcesses(const std::string &, int, int, int, std::chrono::milliseconds,
                                            std::shared_ptr<CommGroup> *);
  ProcessGroup(std::unique_ptr<SharedRegion> meeting, std::unique_ptr<SharedRegion> slots, int nranks,
               uint64_t token, size_t slot_bytes);
  std::string MessageName(int from, int to, uint64_t sequence) const;

  std::unique_ptr<SharedRegion> meeting_;
  std::unique_ptr<SharedRegion> slots_;
  const int nranks_;
  const uint64_t token_;
  const size_t slot_bytes_;
};

// CommInitRank's meeting under the shared-memory name `name`: registers `rank` (on CPU
// device `device`) and waits until all `nranks` have, then answers their group: in-process
// when every rank is in this process, else one with ProcessGroup state. BAD_PARAM: the rank
// is already waiting under the name, or the ranks there said another nranks. INTERNAL_ERROR:
// the others did not all come within `timeout` (the rank withdraws), or the shared memory
// could not be had.
infiniStatus_t JoinAcrossProcesses(const std::string &name, int nranks, int rank, int device,
                                   std::chrono::milliseconds timeout, std::shared_ptr<CommGroup> *group);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_PROCESS_GROUP_H
