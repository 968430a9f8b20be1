// libinfiniop.so built with its CUDA paths, on a machine where CUDA sees no device: the
// layouts the kernels get are merged as the host loops merge them, the CPU operators work
// as before, and the op suite run for nvidia skips every case.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "cuda/strided_operands.h"
#include "cuda_count.h"
#include "suite_run.h"
#include "infiniop.h"
#include "infinirt.h"

namespace reference_cuda_test {
namespace {

using infinicts::ref::op::cuda::MergeOperands;
using infinicts::ref::op::cuda::StridedOperands;

TEST(OpLayout, ContiguousOperandsMergeIntoOneUnitDim) {
  const std::vector<size_t> shape = {4, 1, 3, 5};
  const std::vector<ptrdiff_t> out = {15, 99, 5, 1}, in = {15, 7, 5, 1};
  const StridedOperands<2> merged = MergeOperands<2>(shape, {&out, &in});
  EXPECT_EQ(merged.numel, 60u);
  ASSERT_EQ(merged.ndim, 1);
  EXPECT_EQ(merged.shape[0], 60);
  EXPECT_EQ(merged.strides[0][0], 1);
  EXPECT_EQ(merged.strides[1][0], 1);
  EXPECT_TRUE(merged.AllContiguous());
}

TEST(OpLayout, TransposedInputKeepsTwoDims) {
  const std::vector<size_t> shape = {3, 4};
  const std::vector<ptrdiff_t> out = {4, 1}, in = {1, 3};
  const StridedOperands<2> merged = MergeOperands<2>(shape, {&out, &in});
  ASSERT_EQ(merged.ndim, 2);
  EXPECT_EQ(merged.shape[0], 3);
  EXPECT_EQ(merged.shape[1], 4);
  EXPECT_EQ(merged.strides[0][0], 4);
  EXPECT_EQ(merged.strides[1][0], 1);
  EXPECT_EQ(merged.strides[0][1], 1);
  EXPECT_EQ(merged.strides[1][1], 3);
  EXPECT_FALSE(merged.AllContiguous());
}

TEST(OpLayout, BroadcastAndPaddingStopMergesWhereTheyMust) {
  // b broadcasts a row (stride 0 along dim 0): dims 0 and 1 cannot merge for it.
  const std::vector<size_t> shape = {2, 3, 4};
  const std::vector<ptrdiff_t> c = {12, 4, 1}, a = {12, 4, 1}, b = {0, 4, 1};
  const StridedOperands<3> merged = MergeOperands<3>(shape, {&c, &a, &b});
  ASSERT_EQ(merged.ndim, 2);
  EXPECT_EQ(merged.shape[0], 2);
  EXPECT_EQ(merged.shape[1], 12);
  EXPECT_EQ(merged.strides[2][0], 0);
  EXPECT_EQ(merged.strides[2][1], 1);
  // A padded output row (stride 5 for 4 elements) keeps its two dims.
  const std::vector<ptrdiff_t> padded = {5, 1}, dense = {4, 1};
  const StridedOperands<2> rows = MergeOperands<2>({3, 4}, {&padded, &dense});
  EXPECT_EQ(rows.ndim, 2);
}

TEST(OpLayout, NegativeStridesAndEmptyTensors) {
  const std::vector<size_t> shape = {3, 2};
  const std::vector<ptrdiff_t> out = {2, 1}, in = {-2, -1};
  const StridedOperands<2> merged = MergeOperands<2>(shape, {&out, &in});
  ASSERT_EQ(merged.ndim, 1);  // -2 == -1 * 2: one reversed run
  EXPECT_EQ(merged.strides[1][0], -1);
  EXPECT_FALSE(merged.AllContiguous());

  const std::vector<ptrdiff_t> s = {2, 1};
  EXPECT_EQ((MergeOperands<2>({0, 2}, {&s, &s}).numel), 0u);
  const std::vector<ptrdiff_t> one = {1, 1};
  const StridedOperands<2> single = MergeOperands<2>({1, 1}, {&one, &one});
  EXPECT_EQ(single.ndim, 0);
  EXPECT_EQ(single.numel, 1u);
  EXPECT_TRUE(single.AllContiguous());
}

// Without a GPU no NVIDIA handle can be made: the runtime refuses the device, so the
// handle stays on the CPU, and the CPU operators still compute on the host.
TEST(OpNoGpu, HandlesStayOnTheCpuAndComputeThere) {
  if (CudaDeviceCount() > 0) GTEST_SKIP() << "CUDA sees a device here";
  ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0), INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  infiniopHandle_t handle = nullptr;
  ASSERT_EQ(infiniopCreateHandle(&handle), INFINI_STATUS_SUCCESS);
  const size_t shape[2] = {2, 3};
  const ptrdiff_t strides[2] = {3, 1};
  infiniopTensorDescriptor_t layout = nullptr;
  ASSERT_EQ(infiniopCreateTensorDescriptor(&layout, 2, shape, strides, INFINI_DTYPE_F32), INFINI_STATUS_SUCCESS);
  infiniopAddDescriptor_t add = nullptr;
  ASSERT_EQ(infiniopCreateAddDescriptor(handle, &add, layout, layout, layout), INFINI_STATUS_SUCCESS);
  infiniDevice_t type = INFINI_DEVICE_NVIDIA;
  ASSERT_EQ(infiniopGetDescriptorDeviceType(add, &type), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(type, INFINI_DEVICE_CPU);
  float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {6, 5, 4, 3, 2, 1}, c[6] = {};
  ASSERT_EQ(infiniopAdd(add, nullptr, 0, c, a, b, nullptr), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(infinirtDeviceSynchronize(), INFINI_STATUS_SUCCESS);
  for (float value : c) EXPECT_EQ(value, 7.0f);
  // The host Gemm keeps its F16 workspace (the CUDA path asks for none).
  infiniopTensorDescriptor_t half = nullptr;
  ASSERT_EQ(infiniopCreateTensorDescriptor(&half, 2, shape, strides, INFINI_DTYPE_F16), INFINI_STATUS_SUCCESS);
  const size_t square_shape[2] = {3, 3};
  infiniopTensorDescriptor_t square = nullptr;
  ASSERT_EQ(infiniopCreateTensorDescriptor(&square, 2, square_shape, nullptr, INFINI_DTYPE_F16),
            INFINI_STATUS_SUCCESS);
  infiniopGemmDescriptor_t gemm = nullptr;
  ASSERT_EQ(infiniopCreateGemmDescriptor(handle, &gemm, half, half, square), INFINI_STATUS_SUCCESS);
  size_t workspace = 0;
  ASSERT_EQ(infiniopGetGemmWorkspaceSize(gemm, &workspace), INFINI_STATUS_SUCCESS);
  EXPECT_GT(workspace, 0u);
  EXPECT_EQ(infiniopDestroyGemmDescriptor(gemm), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infiniopDestroyAddDescriptor(add), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infiniopDestroyTensorDescriptor(square), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infiniopDestroyTensorDescriptor(half), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infiniopDestroyTensorDescriptor(layout), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infiniopDestroyHandle(handle), INFINI_STATUS_SUCCESS);
}

// docs/usage.md: a device type the backend has none of exits 2, and with --allow-no-device
// ends every case `skip` with a reason.
TEST(OpSuiteRun, NvidiaWithoutGpuSkipsEveryCase) {
  if (CudaDeviceCount() > 0) GTEST_SKIP() << "CUDA sees a device here";
  ExpectNvidiaSuiteSkipsEveryCase("op", INFINIRT_DIR, INFINICTS_CLI_PATH, REPORT_DIR);
}

}  // namespace
}  // namespace reference_cuda_test
