// A communicator whose ranks are processes on several hosts, on an MPI communicator of its
// own (made by mpi_rendezvous.h). Collectives are point-to-point messages tagged with the
// collective's number, so ranks pair them up by issue order, as in one process, whatever
// order their stream workers reach them in; no MPI collective (which would need the same
// call order on every rank) and no MPI reduction op is used. The arithmetic is the
// library's own (reduce.h): rank r gathers block r of every rank's input and reduces it
// once, in rank order, as the in-process algorithm does, so the bits do not depend on the
// transport. Needs MPI_THREAD_MULTIPLE: every rank's stream worker calls MPI.
#ifndef INFINICTS_REF_CCL_MPI_MPI_GROUP_H
#define INFINICTS_REF_CCL_MPI_MPI_GROUP_H

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "ccl/remote_ranks.h"

namespace infinicts::ref::ccl {

class MpiGroup final : public RemoteRanks {
 public:
  // Takes `comm` (this process's rank in it is the communicator's rank); frees it when
  // destroyed, unless MPI has been finalized by then.
  explicit MpiGroup(MPI_Comm comm);
  ~MpiGroup() override;

  void RunCollective(uint64_t sequence, const CollectiveCall &call) override;
  void Send(int to, uint64_t sequence, const void *data, size_t bytes) override;
  void Recv(int from, uint64_t sequence, void *data, size_t bytes) override;

 private:
  int CollectiveTag(uint64_t sequence) const;
  int MessageTag(uint64_t sequence) const;

  MPI_Comm comm_;
  int rank_ = 0;
  int nranks_ = 0;
  uint64_t tag_span_ = 0;  // sequence numbers wrap at this many per kind of tag
};

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_MPI_MPI_GROUP_H
