// An NVIDIA rank: its ncclComm_t, the device it lives on, and its collectives.
//
// Streams: a stream handle must belong to the rank's device (else BAD_PARAM, as on the
// CPU); its cudaStream_t comes from infinictsRefCudaStream. NULL is the default stream of
// the rank's device (cudaStreamLegacy, used with that device current, which is the stream
// the runtime's NULL stream stands for there), not of the caller's current device: as in
// NCCL, and as the CPU path decides. Every NCCL call runs with the rank's device current
// and leaves the caller's current device as it was.
//
// The variable-size forms are NCCL groups, as InfiniCore builds them: AllGatherV one
// ncclBroadcast per rank of a non-empty block (rooted at that rank, into its block of the
// receive buffer), ReduceScatterV one ncclReduce per rank of a non-empty block (rooted
// there, from that block of the send buffer). Every rank skips the same empty blocks.
// Copies (AllGather, AllGatherV, Broadcast, Send, Recv) move bytes (ncclUint8, count x element size):
// bit-exact for every number dtype. Reductions (AllReduce, ReduceScatter) take NCCL's type
// of the dtype, except that
// - I16 and U16, which NCCL cannot reduce, are widened to 32 bits in a stream-ordered
//   temporary (sign-extended for I16: MAX, MIN and AVG need it; SUM and PROD reduce as
//   U32, whose wrap keeps the low 16 bits exact), reduced, and narrowed into the receive
//   buffer;
// - floating AVG is NCCL's SUM divided by nranks afterwards (kernels.h): ncclAvg scales
//   each input by a rounded 1/nranks before summing, which misses the exact average by
//   more than 1 ULP where nranks is not a power of two. Integer AVG is ncclAvg (the sum
//   divided with truncation toward zero).
// Work behind the NCCL call (narrowing, division, freeing) waits for the outermost
// GroupEnd inside a group (groups.h), where NCCL launches the call.
#ifndef INFINICTS_REF_CCL_NCCL_NCCL_RANK_H
#define INFINICTS_REF_CCL_NCCL_NCCL_RANK_H

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "ccl/nccl/device_rank.h"

namespace infinicts::ref::ccl::nccl {

class NcclRank final : public DeviceRank {
 public:
  // Rank `rank` of `nranks` on CUDA device `device`; its communicator comes with Adopt.
  NcclRank(int device, int rank, int nranks) : device_(device), rank_(rank), nranks_(nranks) {}
  ~NcclRank() override;
  NcclRank(const NcclRank &) = delete;
  NcclRank &operator=(const NcclRank &) = delete;

  // Takes ownership of `comm` (destroyed with the rank).
  void Adopt(ncclComm_t comm) noexcept { comm_ = comm; }

  infiniStatus_t AllReduce(const void *sendbuf, void *recvbuf, size_t count, infiniDtype_t dtype,
                           infinicclReduceOp_t op, infinirtStream_t stream) override;
  infiniStatus_t ReduceScatter(const void *sendbuf, void *recvbuf, size_t recv_count, infiniDtype_t dtype,
                               infinicclReduceOp_t op, infinirtStream_t stream) override;
  infiniStatus_t AllGather(const void *sendbuf, void *recvbuf, size_t send_count, infiniDtype_t dtype,
                           infinirtStream_t stream) override;
  infiniStatus_t AllGatherV(const void *sendbuf, void *recvbuf, const BlockLayout &layout, infiniDtype_t dtype,
                            infinirtStream_t stream) override;
  infiniStatus_t ReduceScatterV(const void *sendbuf, void *recvbuf, const BlockLayout &layout, infiniDtype_t dtype,
                                infinicclReduceOp_t op, infinirtStream_t stream) override;
  infiniStatus_t Broadcast(const void *sendbuf, void *recvbuf, size_t count, infiniDtype_t dtype, int root,
                           infinirtStream_t stream) override;
  infiniStatus_t Send(const void *sendbuf, size_t count, infiniDtype_t dtype, int peer,
                      infinirtStream_t stream) override;
  infiniStatus_t Recv(void *recvbuf, size_t count, infiniDtype_t dtype, int peer, infinirtStream_t stream) override;

 private:
  // The CUDA stream a call on `stream` runs on (see above).
  infiniStatus_t CudaStream(infinirtStream_t stream, cudaStream_t *cuda_stream) const;

  // The stream check, count 0's early SUCCESS, then `call(cuda_stream)` (a status) on
  // the rank's device.
  template <class Call>
  infiniStatus_t OnStream(infinirtStream_t stream, size_t count, Call call);

  // A reduction of in_count elements per rank into out_count (in_count 0: count 0): `launch(send, recv, type,
  // op, cuda_stream)` makes the NCCL call (see above for the dtypes and ops it gets).
  template <class Launch>
  infiniStatus_t Reduction(const void *sendbuf, void *recvbuf, size_t in_count, size_t out_count, infiniDtype_t dtype,
                           infinicclReduceOp_t op, infinirtStream_t stream, Launch launch);

  const int device_;
  const int rank_;
  const int nranks_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace infinicts::ref::ccl::nccl

#endif  // INFINICTS_REF_CCL_NCCL_NCCL_RANK_H
