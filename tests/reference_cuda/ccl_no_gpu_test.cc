// InfiniCCL's NVIDIA device type where CUDA sees no device: every NVIDIA request answers
// the status an absent device type gets, NCCL is never needed, the CPU collectives work
// unchanged beside it, and the collective suite run for nvidia skips every case.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuda_count.h"
#include "suite_run.h"
#include "infiniccl.h"
#include "infinirt.h"

namespace reference_cuda_test {
namespace {

class CclNoGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (CudaDeviceCount() > 0) GTEST_SKIP() << "CUDA sees a device here";
    ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
  }
};

TEST_F(CclNoGpu, CommInitAllAnswersTheAbsentTypeStatus) {
  infinicclComm_t comms[2] = {nullptr, nullptr};
  const int ids[2] = {0, 1};
  EXPECT_EQ(infinicclCommInitAll(INFINI_DEVICE_NVIDIA, comms, 1, ids), INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(infinicclCommInitAll(INFINI_DEVICE_NVIDIA, comms, 2, ids), INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  // The same answer a device type without any runtime gets.
  EXPECT_EQ(infinicclCommInitAll(INFINI_DEVICE_CAMBRICON, comms, 1, ids), INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(comms[0], nullptr);
  EXPECT_EQ(comms[1], nullptr);
}

TEST_F(CclNoGpu, CommInitAllChecksComeFirstInTheSharedOrder) {
  infinicclComm_t comm = nullptr;
  const int id = 0;
  EXPECT_EQ(infinicclCommInitAll(INFINI_DEVICE_NVIDIA, nullptr, 1, &id), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinicclCommInitAll(INFINI_DEVICE_NVIDIA, &comm, 1, nullptr), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinicclCommInitAll(INFINI_DEVICE_NVIDIA, &comm, 0, &id), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinicclCommInitAll(INFINI_DEVICE_NVIDIA, &comm, -1, &id), INFINI_STATUS_BAD_PARAM);
  const int out_of_range = 5;
  EXPECT_EQ(infinicclCommInitAll(INFINI_DEVICE_NVIDIA, &comm, 1, &out_of_range),
            INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
}

// With no NVIDIA device current (none can be), ids and CommInitRank are the CPU path's.
TEST_F(CclNoGpu, UniqueIdsAndCommInitRankStayOnTheCpu) {
  EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0), INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(infinicclGetUniqueId(nullptr), INFINI_STATUS_NULL_POINTER);
  infinicclUniqueId_t first, second;
  ASSERT_EQ(infinicclGetUniqueId(&first), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(infinicclGetUniqueId(&second), INFINI_STATUS_SUCCESS);
  EXPECT_NE(std::memcmp(first.internal, second.internal, sizeof first.internal), 0);
  infinicclComm_t comm = nullptr;
  ASSERT_EQ(infinicclCommInitRank(&comm, 1, first, 0), INFINI_STATUS_SUCCESS);
  ASSERT_NE(comm, nullptr);
  EXPECT_EQ(infinicclCommDestroy(comm), INFINI_STATUS_SUCCESS);
}

TEST_F(CclNoGpu, GroupsNeedNoNccl) {
  EXPECT_EQ(infinicclGroupEnd(nullptr), INFINI_STATUS_BAD_PARAM);
  ASSERT_EQ(infinicclGroupStart(nullptr), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(infinicclGroupStart(nullptr), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinicclGroupEnd(nullptr), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinicclGroupEnd(nullptr), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinicclGroupEnd(nullptr), INFINI_STATUS_BAD_PARAM);
}

// A CPU AllReduce over two CPU devices, in a group, in the CUDA build.
TEST_F(CclNoGpu, CpuAllReduceWorksBeside) {
  int cpu_count = 0;
  ASSERT_EQ(infinirtGetDeviceCount(INFINI_DEVICE_CPU, &cpu_count), INFINI_STATUS_SUCCESS);
  const int ranks = cpu_count >= 2 ? 2 : 1;
  std::vector<int> ids(ranks);
  for (int r = 0; r < ranks; ++r) ids[r] = r;
  std::vector<infinicclComm_t> comms(ranks, nullptr);
  ASSERT_EQ(infinicclCommInitAll(INFINI_DEVICE_CPU, comms.data(), ranks, ids.data()), INFINI_STATUS_SUCCESS);
  constexpr size_t kCount = 1000;
  std::vector<void *> buffers(ranks, nullptr);
  for (int r = 0; r < ranks; ++r) {
    ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, r), INFINI_STATUS_SUCCESS);
    ASSERT_EQ(infinirtMalloc(&buffers[r], kCount * sizeof(int32_t)), INFINI_STATUS_SUCCESS);
    std::vector<int32_t> values(kCount);
    for (size_t i = 0; i < kCount; ++i) values[i] = static_cast<int32_t>(i) * (r + 1);
    ASSERT_EQ(infinirtMemcpy(buffers[r], values.data(), kCount * sizeof(int32_t), INFINIRT_MEMCPY_H2D),
              INFINI_STATUS_SUCCESS);
  }
  ASSERT_EQ(infinicclGroupStart(comms[0]), INFINI_STATUS_SUCCESS);
  for (int r = 0; r < ranks; ++r) {
    EXPECT_EQ(infinicclAllReduce(buffers[r], buffers[r], kCount, INFINI_DTYPE_I32, INFINICCL_SUM, comms[r], nullptr),
              INFINI_STATUS_SUCCESS);
  }
  ASSERT_EQ(infinicclGroupEnd(comms[0]), INFINI_STATUS_SUCCESS);
  const int32_t factor = ranks * (ranks + 1) / 2;
  for (int r = 0; r < ranks; ++r) {
    ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, r), INFINI_STATUS_SUCCESS);
    ASSERT_EQ(infinirtStreamSynchronize(nullptr), INFINI_STATUS_SUCCESS);
    std::vector<int32_t> got(kCount);
    ASSERT_EQ(infinirtMemcpy(got.data(), buffers[r], kCount * sizeof(int32_t), INFINIRT_MEMCPY_D2H),
              INFINI_STATUS_SUCCESS);
    for (size_t i = 0; i < kCount; ++i)
      ASSERT_EQ(got[i], static_cast<int32_t>(i) * factor) << "rank " << r << " i " << i;
    EXPECT_EQ(infinirtFree(buffers[r]), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infinicclCommDestroy(comms[r]), INFINI_STATUS_SUCCESS);
  }
  ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
}

// docs/usage.md: asking for a device type the backend has none of exits 2, and with
// --allow-no-device ends every case `skip` with the reason and exits 0.
TEST(CclSuiteRun, NvidiaWithoutGpuSkipsEveryCase) {
  if (CudaDeviceCount() > 0) GTEST_SKIP() << "CUDA sees a device here";
  ExpectNvidiaSuiteSkipsEveryCase("ccl", BACKEND_DIR, INFINICTS_CLI_PATH, REPORT_DIR);
}

}  // namespace
}  // namespace reference_cuda_test
