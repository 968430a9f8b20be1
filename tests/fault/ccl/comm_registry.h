// What the collective faults need to know about a communicator: its rank, the size of its
// group and its device. The wrapper learns it by replacing the calls that make and destroy
// communicators (TrackCommunicators), which then forward to the real library.
#pragma once

#include <optional>

#include "ccl/ccl_table.h"

namespace infinicts::fault {

struct CommMember {
  int rank = 0;
  int nranks = 0;
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int device = 0;
};

// Replaces CommInitAll, CommInitRank and CommDestroy in `calls` with recording versions.
void TrackCommunicators(CclTable &calls);

// The member `comm` is, when the wrapper saw it made.
std::optional<CommMember> FindMember(infinicclComm_t comm);

// Device memory that collectives of `comm` read: freed when `comm` is destroyed, since
// its collectives are done by then (a free on the stream could overtake a collective
// held back by a group).
void FreeAtDestroy(infinicclComm_t comm, void *device_memory);

}  // namespace infinicts::fault
