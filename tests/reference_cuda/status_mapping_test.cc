// The CUDA paths' error handling, on the CPU: every status mapping table (CUDA for the
// runtime and for the operators, cuBLAS, cuDNN, NCCL), sticky CUDA errors ending the
// process, and leftover errors cleared before new work.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <utility>
#include <vector>

#include "cuda/cublas_handles.h"
#include "cuda/cuda_status.h"
#include "cuda/launch.h"
#include "infinicts_ref/cuda_errors.h"
#ifdef INFINICTS_TEST_CUDNN
#include "cuda/cudnn/cudnn_handles.h"
#endif
#ifdef INFINICTS_TEST_NCCL
#include "ccl/nccl/nccl_types.h"
#endif

namespace reference_cuda_test {
namespace {

namespace rt = infinicts::ref::cuda;
namespace op = infinicts::ref::op::cuda;

const std::vector<cudaError_t> kStickyErrors = {
    cudaErrorIllegalAddress,      cudaErrorMisalignedAddress, cudaErrorLaunchFailure, cudaErrorLaunchTimeout,
    cudaErrorHardwareStackError,  cudaErrorIllegalInstruction, cudaErrorInvalidAddressSpace, cudaErrorInvalidPc,
    cudaErrorAssert,              cudaErrorECCUncorrectable};

TEST(CudaErrors, StickyErrorsAreTheOnesThatLoseTheContext) {
  for (cudaError_t error : kStickyErrors) EXPECT_TRUE(infinicts::ref::IsStickyCudaError(error)) << cudaGetErrorName(error);
  for (cudaError_t error : {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation, cudaErrorNotReady,
                            cudaErrorNoDevice, cudaErrorInvalidDevice, cudaErrorNoKernelImageForDevice,
                            cudaErrorLaunchOutOfResources, cudaErrorInvalidResourceHandle}) {
    EXPECT_FALSE(infinicts::ref::IsStickyCudaError(error)) << cudaGetErrorName(error);
  }
}

TEST(CudaErrorsDeathTest, AStickyErrorEndsTheProcessWhereverItIsMapped) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (cudaError_t error : kStickyErrors) {
    const std::string name = cudaGetErrorName(error);
    EXPECT_DEATH(rt::ToStatus(error), "libinfinirt.*" + name + ".*lost the CUDA context") << name;
    EXPECT_DEATH(op::ToStatus(error), "libinfiniop.*" + name + ".*lost the CUDA context") << name;
  }
}

// Every row (a library's status, the InfiniCore status it must map to) of a table through `map`.
template <class In, class Map>
void ExpectTable(const std::vector<std::pair<In, infiniStatus_t>> &table, const Map &map) {
  for (const auto &[in, status] : table) EXPECT_EQ(map(in), status) << "mapping " << static_cast<long long>(in);
}

TEST(CudaErrors, RuntimeStatusesFollowTheTable) {
  const std::vector<std::pair<cudaError_t, infiniStatus_t>> table = {
      {cudaSuccess, INFINI_STATUS_SUCCESS},
      {cudaErrorInvalidValue, INFINI_STATUS_BAD_PARAM},
      {cudaErrorInvalidResourceHandle, INFINI_STATUS_BAD_PARAM},
      {cudaErrorInvalidDevicePointer, INFINI_STATUS_BAD_PARAM},
      {cudaErrorInvalidMemcpyDirection, INFINI_STATUS_BAD_PARAM},
      {cudaErrorInvalidDevice, INFINI_STATUS_DEVICE_NOT_FOUND},
      {cudaErrorNoDevice, INFINI_STATUS_DEVICE_NOT_FOUND},
      {cudaErrorInsufficientDriver, INFINI_STATUS_DEVICE_NOT_INITIALIZED},
      {cudaErrorInitializationError, INFINI_STATUS_DEVICE_NOT_INITIALIZED},
      {cudaErrorMemoryAllocation, INFINI_STATUS_INTERNAL_ERROR},  // out of memory: INTERNAL_ERROR (rt.md, Malloc)
      {cudaErrorNotReady, INFINI_STATUS_INTERNAL_ERROR},
      {cudaErrorLaunchOutOfResources, INFINI_STATUS_INTERNAL_ERROR},
  };
  ExpectTable(table, [](cudaError_t error) { return rt::ToStatus(error); });
}

TEST(CudaErrors, OperatorStatusesFollowTheTable) {
  const std::vector<std::pair<cudaError_t, infiniStatus_t>> table = {
      {cudaSuccess, INFINI_STATUS_SUCCESS},
      {cudaErrorNoDevice, INFINI_STATUS_DEVICE_NOT_FOUND},
      {cudaErrorInsufficientDriver, INFINI_STATUS_DEVICE_NOT_FOUND},
      {cudaErrorInvalidDevice, INFINI_STATUS_DEVICE_NOT_FOUND},
      {cudaErrorNoKernelImageForDevice, INFINI_STATUS_DEVICE_ARCHITECTURE_NOT_SUPPORTED},
      {cudaErrorInvalidValue, INFINI_STATUS_BAD_PARAM},
      {cudaErrorLaunchOutOfResources, INFINI_STATUS_INTERNAL_ERROR},
      {cudaErrorMemoryAllocation, INFINI_STATUS_INTERNAL_ERROR},
  };
  ExpectTable(table, [](cudaError_t error) { return op::ToStatus(error); });
}

TEST(CudaErrors, CublasStatusesFollowTheTable) {
  const std::vector<std::pair<cublasStatus_t, infiniStatus_t>> table = {
      {CUBLAS_STATUS_SUCCESS, INFINI_STATUS_SUCCESS},
      {CUBLAS_STATUS_INVALID_VALUE, INFINI_STATUS_BAD_PARAM},
      {CUBLAS_STATUS_ARCH_MISMATCH, INFINI_STATUS_DEVICE_ARCHITECTURE_NOT_SUPPORTED},
      {CUBLAS_STATUS_NOT_SUPPORTED, INFINI_STATUS_NOT_IMPLEMENTED},
      {CUBLAS_STATUS_EXECUTION_FAILED, INFINI_STATUS_INTERNAL_ERROR},
      {CUBLAS_STATUS_ALLOC_FAILED, INFINI_STATUS_INTERNAL_ERROR},
      {CUBLAS_STATUS_NOT_INITIALIZED, INFINI_STATUS_INTERNAL_ERROR},
  };
  ExpectTable(table, op::CublasToStatus);
}

#ifdef INFINICTS_TEST_CUDNN
TEST(CudaErrors, CudnnStatusesFollowTheTable) {
  const std::vector<std::pair<cudnnStatus_t, infiniStatus_t>> table = {
      {CUDNN_STATUS_SUCCESS, INFINI_STATUS_SUCCESS},
      {CUDNN_STATUS_BAD_PARAM, INFINI_STATUS_BAD_PARAM},
      {CUDNN_STATUS_NOT_SUPPORTED, INFINI_STATUS_NOT_IMPLEMENTED},
      {CUDNN_STATUS_EXECUTION_FAILED, INFINI_STATUS_INTERNAL_ERROR},
      {CUDNN_STATUS_INTERNAL_ERROR, INFINI_STATUS_INTERNAL_ERROR},
  };
  ExpectTable(table, op::CudnnToStatus);
}
#endif

#ifdef INFINICTS_TEST_NCCL
TEST(CudaErrors, NcclStatusesFollowTheTable) {
  namespace nccl = infinicts::ref::ccl::nccl;
  const std::vector<std::pair<ncclResult_t, infiniStatus_t>> table = {
      {ncclSuccess, INFINI_STATUS_SUCCESS},
      {ncclInvalidArgument, INFINI_STATUS_BAD_PARAM},
      {ncclInvalidUsage, INFINI_STATUS_BAD_PARAM},
      {ncclUnhandledCudaError, INFINI_STATUS_INTERNAL_ERROR},
      {ncclSystemError, INFINI_STATUS_INTERNAL_ERROR},
      {ncclInternalError, INFINI_STATUS_INTERNAL_ERROR},
      {ncclRemoteError, INFINI_STATUS_INTERNAL_ERROR},
  };
  ExpectTable(table, nccl::ToStatus);
}
#endif

// A machine without the CUDA driver answers every call with one error that nothing
// clears: there the two tests below cannot make a clearable error, and skip.
bool DriverPresent(int *count) {
  *count = 0;
  if (cudaGetDeviceCount(count) == cudaErrorInsufficientDriver) return false;
  cudaGetLastError();
  return true;
}

// A failed call leaves its error as the thread's last error; whoever maps it, or starts
// new work, clears it, so the next launch's check sees only its own.
TEST(CudaErrors, AFailedCallsErrorDoesNotOutliveItsMapping) {
  int count = 0;
  if (!DriverPresent(&count)) GTEST_SKIP() << "no CUDA driver: its error cannot be cleared";
  EXPECT_NE(rt::ToStatus(cudaSetDevice(count + 7)), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
  EXPECT_NE(op::ToStatus(cudaSetDevice(count + 7)), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
}

TEST(CudaErrors, ALeftoverErrorIsClearedBeforeNewWork) {
  int count = 0;
  if (!DriverPresent(&count)) GTEST_SKIP() << "no CUDA driver: its error cannot be cleared";
  ASSERT_NE(cudaSetDevice(count + 7), cudaSuccess);  // left as the thread's last error
  ASSERT_NE(cudaPeekAtLastError(), cudaSuccess);
  infinicts::ref::ClearLeftoverCudaError("test");
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
}

}  // namespace
}  // namespace reference_cuda_test
