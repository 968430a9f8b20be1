// The collectives of a rank whose work runs on an accelerator through a vendor library
// (NCCL, for INFINI_DEVICE_NVIDIA ranks). The interface names no vendor header, so the
// dispatch of api_collectives.cc compiles in every build; only CUDA builds make one.
//
// The exported functions run the checks every device type shares, in the CPU path's order:
// NULL comm, NULL buffers, number dtype, op / root / peer; then they call these, which
// check the stream and answer count 0 with SUCCESS. Every number dtype and op is carried.
#ifndef INFINICTS_REF_CCL_NCCL_DEVICE_RANK_H
#define INFINICTS_REF_CCL_NCCL_DEVICE_RANK_H

#include <cstddef>

#include "ccl/block_layout.h"
#include "infiniccl.h"

namespace infinicts::ref::ccl {

class DeviceRank {
 public:
  virtual ~DeviceRank() = default;

  virtual infiniStatus_t AllReduce(const void *sendbuf, void *recvbuf, size_t count, infiniDtype_t dtype,
                                   infinicclReduceOp_t op, infinirtStream_t stream) = 0;
  virtual infiniStatus_t ReduceScatter(const void *sendbuf, void *recvbuf, size_t recv_count, infiniDtype_t dtype,
                                       infinicclReduceOp_t op, infinirtStream_t stream) = 0;
  virtual infiniStatus_t AllGather(const void *sendbuf, void *recvbuf, size_t send_count, infiniDtype_t dtype,
                                   infinirtStream_t stream) = 0;
  // The variable-size forms: `layout` holds the counts, one per rank; a total of 0 is count 0.
  virtual infiniStatus_t AllGatherV(const void *sendbuf, void *recvbuf, const BlockLayout &layout, infiniDtype_t dtype,
                                    infinirtStream_t stream) = 0;
  virtual infiniStatus_t ReduceScatterV(const void *sendbuf, void *recvbuf, const BlockLayout &layout,
                                        infiniDtype_t dtype, infinicclReduceOp_t op, infinirtStream_t stream) = 0;
  virtual infiniStatus_t Broadcast(const void *sendbuf, void *recvbuf, size_t count, infiniDtype_t dtype, int root,
                                   infinirtStream_t stream) = 0;
  virtual infiniStatus_t Send(const void *sendbuf, size_t count, infiniDtype_t dtype, int peer,
                              infinirtStream_t stream) = 0;
  virtual infiniStatus_t Recv(void *recvbuf, size_t count, infiniDtype_t dtype, int peer, infinirtStream_t stream) = 0;
};

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_NCCL_DEVICE_RANK_H
