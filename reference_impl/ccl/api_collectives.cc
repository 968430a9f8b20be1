// The exported collectives and point-to-point calls: check the arguments, number the call
// in the rank's issue order, and submit the rank's part to its stream (group.h). Checks come in
// this order: NULL comm, NULL buffer (count > 0), dtype, op / root / peer, stream; then
// count 0 answers SUCCESS with nothing enqueued (there is nothing to wait for or touch).
// The variable-size forms check the counts array and nranks right after the comm (their
// buffers' needs follow from the counts), and count 0 means a total of 0 over the ranks.
// A rank on a device library (NVIDIA: nccl/) takes over after the checks before the stream.
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <utility>

#include "ccl/api_guard.h"
#include "ccl/block_layout.h"
#include "ccl/c_enum.h"
#include "ccl/collectives.h"
#include "ccl/collectives_across.h"
#include "ccl/communicator.h"
#include "ccl/dtype.h"
#include "ccl/group.h"
#include "ccl/rank_stream.h"
#include "ccl/reduce.h"
#include "ccl/reduce_to_all.h"
#include "ccl/remote_ranks.h"
#include "infiniccl.h"

namespace {

using infinicts::ref::ccl::CollectiveCall;
using infinicts::ref::ccl::CollectiveKind;
using infinicts::ref::ccl::CommGroup;
using infinicts::ref::ccl::Meeting;
using infinicts::ref::ccl::ReduceFunction;

// NULL comm, then a NULL buffer while there is data, then the dtype.
// The enums come by reference so that an out-of-range value is never loaded as the enum.
infiniStatus_t CheckCommon(const InfinicclComm *comm, size_t count, std::initializer_list<const void *> buffers,
                           const infiniDtype_t &dtype) {
  if (comm == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (count > 0) {
    for (const void *buffer : buffers) {
      if (buffer == nullptr) return INFINI_STATUS_NULL_POINTER;
    }
  }
  if (infinicts::ref::ccl::NumberDtypeSize(infinicts::ref::ccl::EnumValue(dtype)) == 0) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  return INFINI_STATUS_SUCCESS;
}

// The reduction for a checked dtype; NULL when the op is out of range.
ReduceFunction ReductionFor(infiniDtype_t dtype, const infinicclReduceOp_t &op) {
  const int op_value = infinicts::ref::ccl::EnumValue(op);
  if (op_value < INFINICCL_SUM || op_value > INFINICCL_AVG) return nullptr;
  return infinicts::ref::ccl::FindReduceFunction(dtype, op);
}

int Device(const InfinicclComm *comm) { return comm->group->device(comm->rank); }

// The stream check, and count 0's early SUCCESS; `issue` runs when there is work.
template <class Issue>
infiniStatus_t CheckStreamThenIssue(const InfinicclComm *comm, size_t count, infinirtStream_t stream, Issue issue) {
  const infiniStatus_t status = infinicts::ref::ccl::CheckRankStream(Device(comm), stream);
  if (status != INFINI_STATUS_SUCCESS || count == 0) return status;
  return infinicts::ref::ccl::Guarded(issue);
}

// Numbers the call as the rank's next collective and submits it (group.h): it runs on the
// rank's worker once it has joined the meeting of that number, or, for ranks in several
// processes, in windows through the shared slots (collectives_across.h), or, for ranks on
// several hosts, as messages (remote_ranks.h).
infiniStatus_t IssueCollective(InfinicclComm *comm, infinirtStream_t stream, const CollectiveCall &call) {
  std::lock_guard<std::mutex> lock(comm->issue_mutex);
  const uint64_t sequence = comm->collectives_issued;
  const std::shared_ptr<CommGroup> group = comm->group;
  const int rank = comm->rank;
  const infiniStatus_t status =
      infinicts::ref::ccl::SubmitForRank(Device(comm), stream, false, [group, sequence, rank, call] {
        if (infinicts::ref::ccl::RemoteRanks *remote = group->remote()) {
          remote->RunCollective(sequence, call);
          return;
        }
        if (infinicts::ref::ccl::ProcessGroup *across = group->across()) {
          infinicts::ref::ccl::RunCollectiveAcross(*across, rank, call);
          return;
        }
        const std::shared_ptr<Meeting> meeting = group->Join(sequence);
        infinicts::ref::ccl::RunCollective(*meeting, rank, call);
      });
  if (status == INFINI_STATUS_SUCCESS) ++comm->collectives_issued;
  return status;
}

// The counts array and nranks of a variable-size collective (InfiniCore's checks).
infiniStatus_t CheckCounts(const InfinicclComm *comm, const size_t *counts, int nranks) {
  if (comm == nullptr || counts == nullptr) return INFINI_STATUS_NULL_POINTER;
  return nranks == comm->nranks ? INFINI_STATUS_SUCCESS : INFINI_STATUS_BAD_PARAM;
}

bool PeerValid(const InfinicclComm *comm, int peer) {
  return peer >= 0 && peer < comm->nranks && peer != comm->rank;
}

}  // namespace

__INFINI_C infiniStatus_t infinicclAllReduce(void *sendbuf, void *recvbuf, size_t count, infiniDtype_t datatype,
                                             infinicclReduceOp_t op, infinicclComm_t comm, infinirtStream_t stream) {
  infiniStatus_t status = CheckCommon(comm, count, {sendbuf, recvbuf}, datatype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const ReduceFunction reduce = ReductionFor(datatype, op);
  if (reduce == nullptr) return INFINI_STATUS_BAD_PARAM;
  if (comm->device_rank) return comm->device_rank->AllReduce(sendbuf, recvbuf, count, datatype, op, stream);
  return CheckStreamThenIssue(comm, count, stream, [&] {
    CollectiveCall call{CollectiveKind::kAllReduce, {sendbuf, recvbuf}, count,
                        infinicts::ref::ccl::NumberDtypeSize(datatype), reduce};
    call.reduce_to_all = infinicts::ref::ccl::FindReduceToAllFunction(datatype, op);
    return IssueCollective(comm, stream, call);
  });
}

__INFINI_C infiniStatus_t infinicclReduceScatter(void *sendbuf, void *recvbuf, size_t recv_count,
                                                 infiniDtype_t datatype, infinicclReduceOp_t op, infinicclComm_t comm,
                                                 infinirtStream_t stream) {
  infiniStatus_t status = CheckCommon(comm, recv_count, {sendbuf, recvbuf}, datatype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const ReduceFunction reduce = ReductionFor(datatype, op);
  if (reduce == nullptr) return INFINI_STATUS_BAD_PARAM;
  if (comm->device_rank) return comm->device_rank->ReduceScatter(sendbuf, recvbuf, recv_count, datatype, op, stream);
  return CheckStreamThenIssue(comm, recv_count, stream, [&] {
    return IssueCollective(comm, stream,
                           CollectiveCall{CollectiveKind::kReduceScatter, {sendbuf, recvbuf}, recv_count,
                                          infinicts::ref::ccl::NumberDtypeSize(datatype), reduce});
  });
}

__INFINI_C infiniStatus_t infinicclAllGather(void *sendbuf, void *recvbuf, size_t send_count, infiniDtype_t datatype,
                                             infinicclComm_t comm, infinirtStream_t stream) {
  infiniStatus_t status = CheckCommon(comm, send_count, {sendbuf, recvbuf}, datatype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (comm->device_rank) return comm->device_rank->AllGather(sendbuf, recvbuf, send_count, datatype, stream);
  return CheckStreamThenIssue(comm, send_count, stream, [&] {
    return IssueCollective(comm, stream,
                           CollectiveCall{CollectiveKind::kAllGather, {sendbuf, recvbuf}, send_count,
                                          infinicts::ref::ccl::NumberDtypeSize(datatype)});
  });
}

__INFINI_C infiniStatus_t infinicclBroadcast(const void *sendbuf, void *recvbuf, size_t count, infiniDtype_t datatype,
                                             int root, infinicclComm_t comm, infinirtStream_t stream) {
  // Only the root's send buffer is read (as in NCCL): other ranks may pass NULL.
  const bool is_root = comm != nullptr && comm->rank == root;
  infiniStatus_t status =
      is_root ? CheckCommon(comm, count, {sendbuf, recvbuf}, datatype) : CheckCommon(comm, count, {recvbuf}, datatype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (root < 0 || root >= comm->nranks) return INFINI_STATUS_BAD_PARAM;
  if (comm->device_rank) return comm->device_rank->Broadcast(sendbuf, recvbuf, count, datatype, root, stream);
  return CheckStreamThenIssue(comm, count, stream, [&] {
    CollectiveCall call{CollectiveKind::kBroadcast, {sendbuf, recvbuf}, count,
                        infinicts::ref::ccl::NumberDtypeSize(datatype)};
    call.root = root;
    return IssueCollective(comm, stream, call);
  });
}

__INFINI_C infiniStatus_t infinicclSend(const void *sendbuf, size_t count, infiniDtype_t datatype, int peer,
                                        infinicclComm_t comm, infinirtStream_t stream) {
  infiniStatus_t status = CheckCommon(comm, count, {sendbuf}, datatype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (!PeerValid(comm, peer)) return INFINI_STATUS_BAD_PARAM;
  if (comm->device_rank) return comm->device_rank->Send(sendbuf, count, datatype, peer, stream);
  return CheckStreamThenIssue(comm, count, stream, [&] {
    std::lock_guard<std::mutex> lock(comm->issue_mutex);
    uint64_t &issued = comm->sends_issued[static_cast<size_t>(peer)];
    const std::shared_ptr<CommGroup> group = comm->group;
    const int from = comm->rank;
    const uint64_t sequence = issued;
    const size_t bytes = count * infinicts::ref::ccl::NumberDtypeSize(datatype);
    const infiniStatus_t enqueued = infinicts::ref::ccl::SubmitForRank(
        Device(comm), stream, true, [=] {
          if (infinicts::ref::ccl::RemoteRanks *remote = group->remote()) {
            remote->Send(peer, sequence, sendbuf, bytes);
          } else if (infinicts::ref::ccl::ProcessGroup *across = group->across()) {
            across->Send(from, peer, sequence, sendbuf, bytes);
          } else {
            group->mailbox().Send(from, peer, sequence, sendbuf, bytes);
          }
        });
    if (enqueued == INFINI_STATUS_SUCCESS) ++issued;
    return enqueued;
  });
}

__INFINI_C infiniStatus_t infinicclRecv(void *recvbuf, size_t count, infiniDtype_t datatype, int peer,
                                        infinicclComm_t comm, infinirtStream_t stream) {
  infiniStatus_t status = CheckCommon(comm, count, {recvbuf}, datatype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (!PeerValid(comm, peer)) return INFINI_STATUS_BAD_PARAM;
  if (comm->device_rank) return comm->device_rank->Recv(recvbuf, count, datatype, peer, stream);
  return CheckStreamThenIssue(comm, count, stream, [&] {
    std::lock_guard<std::mutex> lock(comm->issue_mutex);
    uint64_t &issued = comm->recvs_issued[static_cast<size_t>(peer)];
    const std::shared_ptr<CommGroup> group = comm->group;
    const int to = comm->rank;
    const uint64_t sequence = issued;
    const size_t bytes = count * infinicts::ref::ccl::NumberDtypeSize(datatype);
    const infiniStatus_t enqueued = infinicts::ref::ccl::SubmitForRank(
        Device(comm), stream, false, [=] {
          if (infinicts::ref::ccl::RemoteRanks *remote = group->remote()) {
            remote->Recv(peer, sequence, recvbuf, bytes);
          } else if (infinicts::ref::ccl::ProcessGroup *across = group->across()) {
            across->Recv(peer, to, sequence, recvbuf, bytes);
          } else {
            group->mailbox().Recv(peer, to, sequence, recvbuf, bytes);
          }
        });
    if (enqueued == INFINI_STATUS_SUCCESS) ++issued;
    return enqueued;
  });
}

__INFINI_C infiniStatus_t infinicclAllGatherV(void *sendbuf, void *recvbuf, const size_t *recv_counts, int nranks,
                                              infiniDtype_t datatype, infinicclComm_t comm, infinirtStream_t stream) {
  infiniStatus_t status = CheckCounts(comm, recv_counts, nranks);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const size_t element_size = infinicts::ref::ccl::NumberDtypeSize(infinicts::ref::ccl::EnumValue(datatype));
  const infinicts::ref::ccl::BlockLayout layout(recv_counts, nranks, element_size);
  if (layout.overflows()) return INFINI_STATUS_BAD_PARAM;
  // The send buffer holds this rank's block; the receive buffer every block.
  if (layout.count(comm->rank) > 0 && sendbuf == nullptr) return INFINI_STATUS_NULL_POINTER;
  status = CheckCommon(comm, layout.total(), {recvbuf}, datatype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (comm->device_rank) return comm->device_rank->AllGatherV(sendbuf, recvbuf, layout, datatype, stream);
  return CheckStreamThenIssue(comm, layout.total(), stream, [&] {
    CollectiveCall call{CollectiveKind::kAllGatherV, {sendbuf, recvbuf}, layout.total(), element_size};
    call.layout = std::make_shared<const infinicts::ref::ccl::BlockLayout>(layout);
    return IssueCollective(comm, stream, call);
  });
}

__INFINI_C infiniStatus_t infinicclReduceScatterV(void *sendbuf, void *recvbuf, const size_t *send_counts, int nranks,
                                                  infiniDtype_t datatype, infinicclReduceOp_t op, infinicclComm_t comm,
                                                  infinirtStream_t stream) {
  infiniStatus_t status = CheckCounts(comm, send_counts, nranks);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const size_t element_size = infinicts::ref::ccl::NumberDtypeSize(infinicts::ref::ccl::EnumValue(datatype));
  const infinicts::ref::ccl::BlockLayout layout(send_counts, nranks, element_size);
  if (layout.overflows()) return INFINI_STATUS_BAD_PARAM;
  // The send buffer holds every block; the receive buffer this rank's.
  if (layout.count(comm->rank) > 0 && recvbuf == nullptr) return INFINI_STATUS_NULL_POINTER;
  status = CheckCommon(comm, layout.total(), {sendbuf}, datatype);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const ReduceFunction reduce = ReductionFor(datatype, op);
  if (reduce == nullptr) return INFINI_STATUS_BAD_PARAM;
  if (comm->device_rank) return comm->device_rank->ReduceScatterV(sendbuf, recvbuf, layout, datatype, op, stream);
  return CheckStreamThenIssue(comm, layout.total(), stream, [&] {
    CollectiveCall call{CollectiveKind::kReduceScatterV, {sendbuf, recvbuf}, layout.total(), element_size, reduce};
    call.layout = std::make_shared<const infinicts::ref::ccl::BlockLayout>(layout);
    return IssueCollective(comm, stream, call);
  });
}
