// The fault `prod_counts_rank_0_twice`: AllReduce and ReduceScatter with PROD take rank 0's
// contribution twice. On rank 0 the wrapper waits for the stream, reads the send buffer,
// squares every element on the host (in the dtype's own arithmetic: integers wrap, floats
// round) and forwards the call with the squared copy as the send buffer; the other ranks
// forward unchanged. Calls the target would refuse (NULL, count 0, not a number dtype) go
// to it as they are.
#include <cstring>
#include <type_traits>
#include <vector>

#include "ccl/ccl_faults.h"
#include "ccl/ccl_runtime.h"
#include "ccl/comm_registry.h"
#include "ccl/number_size.h"
#include "tensor/half.h"

namespace infinicts::fault {
namespace {

template <class T>
void SquareEach(uint8_t *bytes, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, bytes + i * sizeof(T), sizeof(T));
    if constexpr (std::is_integral_v<T>) {
      using Wide = std::make_unsigned_t<T>;  // wraps instead of overflowing
      value = static_cast<T>(static_cast<Wide>(static_cast<Wide>(value) * static_cast<Wide>(value)));
    } else {
      value = value * value;
    }
    std::memcpy(bytes + i * sizeof(T), &value, sizeof(T));
  }
}

void SquareHalves(uint8_t *bytes, size_t count, bool brain) {
  for (size_t i = 0; i < count; ++i) {
    uint16_t bits;
    std::memcpy(&bits, bytes + 2 * i, 2);
    const double value = brain ? Bf16BitsToDouble(bits) : F16BitsToDouble(bits);
    const float squared = static_cast<float>(value * value);
    bits = brain ? FloatToBf16Bits(squared) : FloatToF16Bits(squared);
    std::memcpy(bytes + 2 * i, &bits, 2);
  }
}

void SquareElements(infiniDtype_t dtype, uint8_t *bytes, size_t count) {
  switch (dtype) {
    case INFINI_DTYPE_I8: SquareEach<int8_t>(bytes, count); break;
    case INFINI_DTYPE_I16: SquareEach<int16_t>(bytes, count); break;
    case INFINI_DTYPE_I32: SquareEach<int32_t>(bytes, count); break;
    case INFINI_DTYPE_I64: SquareEach<int64_t>(bytes, count); break;
    case INFINI_DTYPE_U8: SquareEach<uint8_t>(bytes, count); break;
    case INFINI_DTYPE_U16: SquareEach<uint16_t>(bytes, count); break;
    case INFINI_DTYPE_U32: SquareEach<uint32_t>(bytes, count); break;
    case INFINI_DTYPE_U64: SquareEach<uint64_t>(bytes, count); break;
    case INFINI_DTYPE_F32: SquareEach<float>(bytes, count); break;
    case INFINI_DTYPE_F64: SquareEach<double>(bytes, count); break;
    case INFINI_DTYPE_F16: SquareHalves(bytes, count, false); break;
    case INFINI_DTYPE_BF16: SquareHalves(bytes, count, true); break;
    default: break;
  }
}

// Rank 0's send buffer squared, in device memory freed when the communicator goes; NULL
// when the call is not one the fault changes.
const void *SquaredContribution(const void *send, size_t elements, infiniDtype_t dtype, infinicclReduceOp_t op,
                                infinicclComm_t comm, infinirtStream_t stream) {
  const size_t size = NumberSize(dtype);
  if (op != INFINICCL_PROD || send == nullptr || elements == 0 || size == 0) return nullptr;
  const auto member = FindMember(comm);
  if (!member || member->rank != 0) return nullptr;
  const CclRuntime &rt = RealRuntimeForCcl();
  RealDeviceScope on_device(member->type, member->device);
  const size_t bytes = elements * size;
  std::vector<uint8_t> host(bytes);
  void *squared = nullptr;
  // The send buffer as the stream has it when the collective is issued.
  if (rt.StreamSynchronize(stream) != INFINI_STATUS_SUCCESS ||
      rt.Memcpy(host.data(), send, bytes, INFINIRT_MEMCPY_D2H) != INFINI_STATUS_SUCCESS ||
      rt.Malloc(&squared, bytes) != INFINI_STATUS_SUCCESS) {
    return nullptr;
  }
  SquareElements(dtype, host.data(), elements);
  if (rt.Memcpy(squared, host.data(), bytes, INFINIRT_MEMCPY_H2D) != INFINI_STATUS_SUCCESS) {
    rt.Free(squared);
    return nullptr;
  }
  FreeAtDestroy(comm, squared);
  return squared;
}

infiniStatus_t TwiceAllReduce(void *send, void *recv, size_t count, infiniDtype_t dtype, infinicclReduceOp_t op,
                              infinicclComm_t comm, infinirtStream_t stream) {
  const void *squared = recv == nullptr ? nullptr : SquaredContribution(send, count, dtype, op, comm, stream);
  if (squared != nullptr) send = const_cast<void *>(squared);
  return TargetCcl().infinicclAllReduce(send, recv, count, dtype, op, comm, stream);
}

infiniStatus_t TwiceReduceScatter(void *send, void *recv, size_t count, infiniDtype_t dtype, infinicclReduceOp_t op,
                                  infinicclComm_t comm, infinirtStream_t stream) {
  const auto member = FindMember(comm);
  const size_t elements = member ? count * static_cast<size_t>(member->nranks) : 0;
  const void *squared = recv == nullptr ? nullptr : SquaredContribution(send, elements, dtype, op, comm, stream);
  if (squared != nullptr) send = const_cast<void *>(squared);
  return TargetCcl().infinicclReduceScatter(send, recv, count, dtype, op, comm, stream);
}

}  // namespace

void InstallProdCountsRankZeroTwice(CclTable &calls) {
  TrackCommunicators(calls);
  calls.infinicclAllReduce = &TwiceAllReduce;
  calls.infinicclReduceScatter = &TwiceReduceScatter;
}

INFINICTS_FAULT(CclTable, "prod_counts_rank_0_twice",
                "AllReduce and ReduceScatter PROD multiply rank 0's contribution in twice",
                InstallProdCountsRankZeroTwice);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments;
// ${infinicts_ccl_on_4_devices}: the collective suite on 4 CPU devices, whose cases for 8
// ranks skip there and are left out).
// No PROD factor is +1, so a contribution counted twice always shows, one rank included.
// fault-detection: prod_counts_rank_0_twice ${infinicts_ccl_on_4_devices} TIMEOUT 60 MAX_SECONDS 240 EXPECT
// fault-detection:   ccl.all_reduce.conformance/exact/prod/*
// fault-detection:   ccl.reduce_scatter.conformance/exact/prod/*
