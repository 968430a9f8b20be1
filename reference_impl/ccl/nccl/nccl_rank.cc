#include "ccl/nccl/nccl_rank.h"

#include <cstdint>

#include "ccl/api_guard.h"
#include "ccl/c_enum.h"
#include "ccl/dtype.h"
#include "ccl/nccl/groups.h"
#include "ccl/nccl/kernels.h"
#include "ccl/nccl/nccl_types.h"
#include "cuda/cuda_status.h"
#include "infinicts_ref/runtime_internal.h"

namespace infinicts::ref::ccl::nccl {
namespace {

bool IsFloating(int dtype) {
  return dtype == INFINI_DTYPE_F16 || dtype == INFINI_DTYPE_BF16 || dtype == INFINI_DTYPE_F32 ||
         dtype == INFINI_DTYPE_F64;
}

}  // namespace

NcclRank::~NcclRank() {
  if (comm_ == nullptr) return;
  // NCCL finishes the communicator's outstanding work before it lets go.
  const cuda::DeviceGuard on_rank_device(device_);
  ncclCommDestroy(comm_);
}

infiniStatus_t NcclRank::CudaStream(infinirtStream_t stream, cudaStream_t *cuda_stream) const {
  if (stream == nullptr) {
    *cuda_stream = cudaStreamLegacy;
    return INFINI_STATUS_SUCCESS;
  }
  infiniDevice_t stream_type = INFINI_DEVICE_CPU;
  int stream_device = 0;
  infiniStatus_t status = infinictsRefStreamDevice(stream, &stream_type, &stream_device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (stream_type != INFINI_DEVICE_NVIDIA || stream_device != device_) return INFINI_STATUS_BAD_PARAM;
  void *raw = nullptr;
  status = infinictsRefCudaStream(stream, &raw);
  if (status != INFINI_STATUS_SUCCESS) return status;
  *cuda_stream = static_cast<cudaStream_t>(raw);
  return INFINI_STATUS_SUCCESS;
}

template <class Call>
infiniStatus_t NcclRank::OnStream(infinirtStream_t stream, size_t count, Call call) {
  cudaStream_t cuda_stream = nullptr;
  const infiniStatus_t status = CudaStream(stream, &cuda_stream);
  if (status != INFINI_STATUS_SUCCESS || count == 0) return status;
  const cuda::DeviceGuard on_rank_device(device_);
  if (on_rank_device.status() != INFINI_STATUS_SUCCESS) return on_rank_device.status();
  return Guarded([&] { return call(cuda_stream); });
}

template <class Launch>
infiniStatus_t NcclRank::Reduction(const void *sendbuf, void *recvbuf, size_t in_count, size_t out_count,
                                   infiniDtype_t dtype, infinicclReduceOp_t op, infinirtStream_t stream,
                                   Launch launch) {
  const int dtype_value = EnumValue(dtype);
  const int op_value = EnumValue(op);
  const int device = device_;
  return OnStream(stream, in_count, [&](cudaStream_t cuda_stream) -> infiniStatus_t {
    ncclDataType_t type;
    if (ReductionType(dtype_value, &type)) {
      const bool divide_after = op_value == INFINICCL_AVG && IsFloating(dtype_value);
      const infiniStatus_t launched =
          ToStatus(launch(sendbuf, recvbuf, type, divide_after ? ncclSum : ReductionOp(op_value), cuda_stream));
      if (launched != INFINI_STATUS_SUCCESS || !divide_after) return launched;
      const int divisor = nranks_;
      return AfterLaunch([=] {
        const cuda::DeviceGuard on_rank_device(device);
        if (on_rank_device.status() != INFINI_STATUS_SUCCESS) return on_rank_device.status();
        return cuda::ToStatus(LaunchDivide(recvbuf, out_count, dtype_value, divisor, cuda_stream));
      });
    }
    // I16 / U16: one temporary holds the widened send buffer, then the widened result.
    const bool is_signed = dtype_value == INFINI_DTYPE_I16;
    const bool needs_sign =
        is_signed && (op_value == INFINICCL_MAX || op_value == INFINICCL_MIN || op_value == INFINICCL_AVG);
    void *wide = nullptr;
    infiniStatus_t status =
        cuda::ToStatus(cudaMallocAsync(&wide, (in_count + out_count) * sizeof(uint32_t), cuda_stream));
    if (status != INFINI_STATUS_SUCCESS) return status;
    uint32_t *const wide_send = static_cast<uint32_t *>(wide);
    uint32_t *const wide_recv = wide_send + in_count;
    status = cuda::ToStatus(LaunchWiden16(sendbuf, wide_send, in_count, is_signed, cuda_stream));
    if (status == INFINI_STATUS_SUCCESS) {
      status = ToStatus(
          launch(wide_send, wide_recv, needs_sign ? ncclInt32 : ncclUint32, ReductionOp(op_value), cuda_stream));
    }
    if (status != INFINI_STATUS_SUCCESS) {
      cudaFreeAsync(wide, cuda_stream);
      return status;
    }
    return AfterLaunch([=] {
      const cuda::DeviceGuard on_rank_device(device);
      if (on_rank_device.status() != INFINI_STATUS_SUCCESS) return on_rank_device.status();
      const infiniStatus_t narrowed = cuda::ToStatus(LaunchNarrowTo16(wide_recv, recvbuf, out_count, cuda_stream));
      const infiniStatus_t freed = cuda::ToStatus(cudaFreeAsync(wide, cuda_stream));
      return narrowed != INFINI_STATUS_SUCCESS ? narrowed : freed;
    });
  });
}

infiniStatus_t NcclRank::AllReduce(const void *sendbuf, void *recvbuf, size_t count, infiniDtype_t dtype,
                                   infinicclReduceOp_t op, infinirtStream_t stream) {
  return Reduction(sendbuf, recvbuf, count, count, dtype, op, stream,
                   [&](const void *send, void *recv, ncclDataType_t type, ncclRedOp_t nccl_op, cudaStream_t s) {
                     return ncclAllReduce(send, recv, count, type, nccl_op, comm_, s);
                   });
}

infiniStatus_t NcclRank::ReduceScatter(const void *sendbuf, void *recvbuf, size_t recv_count, infiniDtype_t dtype,
                                       infinicclReduceOp_t op, infinirtStream_t stream) {
  return Reduction(sendbuf, recvbuf, recv_count * static_cast<size_t>(nranks_), recv_count, dtype, op, stream,
                   [&](const void *send, void *recv, ncclDataType_t type, ncclRedOp_t nccl_op, cudaStream_t s) {
                     return ncclReduceScatter(send, recv, recv_count, type, nccl_op, comm_, s);
                   });
}

infiniStatus_t NcclRank::AllGather(const void *sendbuf, void *recvbuf, size_t send_count, infiniDtype_t dtype,
                                   infinirtStream_t stream) {
  const size_t bytes = send_count * NumberDtypeSize(EnumValue(dtype));
  return OnStream(stream, send_count, [&](cudaStream_t cuda_stream) {
    return ToStatus(ncclAllGather(sendbuf, recvbuf, bytes, ncclUint8, comm_, cuda_stream));
  });
}

infiniStatus_t NcclRank::AllGatherV(const void *sendbuf, void *recvbuf, const BlockLayout &layout, infiniDtype_t dtype,
                                    infinirtStream_t stream) {
  const size_t element_size = NumberDtypeSize(EnumValue(dtype));
  return OnStream(stream, layout.total(), [&](cudaStream_t cuda_stream) {
    ncclResult_t result = ncclGroupStart();
    for (int root = 0; root < nranks_ && result == ncclSuccess; ++root) {
      if (layout.count(root) == 0) continue;
      void *block = static_cast<char *>(recvbuf) + layout.offset(root) * element_size;
      result = ncclBroadcast(sendbuf, block, layout.count(root) * element_size, ncclUint8, root, comm_, cuda_stream);
    }
    const ncclResult_t ended = ncclGroupEnd();
    return ToStatus(result != ncclSuccess ? result : ended);
  });
}

infiniStatus_t NcclRank::ReduceScatterV(const void *sendbuf, void *recvbuf, const BlockLayout &layout,
                                        infiniDtype_t dtype, infinicclReduceOp_t op, infinirtStream_t stream) {
  return Reduction(sendbuf, recvbuf, layout.total(), layout.count(rank_), dtype, op, stream,
                   [&](const void *send, void *recv, ncclDataType_t type, ncclRedOp_t nccl_op, cudaStream_t s) {
                     const size_t element_size = TypeSize(type);
                     ncclResult_t result = ncclGroupStart();
                     for (int root = 0; root < nranks_ && result == ncclSuccess; ++root) {
                       if (layout.count(root) == 0) continue;
                       const void *block = static_cast<const char *>(send) + layout.offset(root) * element_size;
                       result = ncclReduce(block, recv, layout.count(root), type, nccl_op, root, comm_, s);
                     }
                     const ncclResult_t ended = ncclGroupEnd();
                     return result != ncclSuccess ? result : ended;
                   });
}

infiniStatus_t NcclRank::Broadcast(const void *sendbuf, void *recvbuf, size_t count, infiniDtype_t dtype, int root,
                                   infinirtStream_t stream) {
  const size_t bytes = count * NumberDtypeSize(EnumValue(dtype));
  return OnStream(stream, count, [&](cudaStream_t cuda_stream) {
    return ToStatus(ncclBroadcast(sendbuf, recvbuf, bytes, ncclUint8, root, comm_, cuda_stream));
  });
}

infiniStatus_t NcclRank::Send(const void *sendbuf, size_t count, infiniDtype_t dtype, int peer,
                              infinirtStream_t stream) {
  const size_t bytes = count * NumberDtypeSize(EnumValue(dtype));
  return OnStream(stream, count, [&](cudaStream_t cuda_stream) {
    return ToStatus(ncclSend(sendbuf, bytes, ncclUint8, peer, comm_, cuda_stream));
  });
}

infiniStatus_t NcclRank::Recv(void *recvbuf, size_t count, infiniDtype_t dtype, int peer, infinirtStream_t stream) {
  const size_t bytes = count * NumberDtypeSize(EnumValue(dtype));
  return OnStream(stream, count, [&](cudaStream_t cuda_stream) {
    return ToStatus(ncclRecv(recvbuf, bytes, ncclUint8, peer, comm_, cuda_stream));
  });
}

}  // namespace infinicts::ref::ccl::nccl
