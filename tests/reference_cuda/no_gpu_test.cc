// The CUDA runtime where CUDA sees no device: it is absent from InfiniRT's point of view
// (count 0, SetDevice refused), the CPU runtime works beside it, and the runtime suite run
// for nvidia skips every case.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include <sys/wait.h>

#include "cuda_count.h"
#include "suite_run.h"
#include "infinirt.h"

namespace reference_cuda_test {
namespace {

TEST(NoGpu, CountAgreesWithCuda) {
  int count = -1;
  ASSERT_EQ(infinirtGetDeviceCount(INFINI_DEVICE_NVIDIA, &count), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(count, CudaDeviceCount());
  int all[INFINI_DEVICE_TYPE_COUNT];
  ASSERT_EQ(infinirtGetAllDeviceCount(all), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(all[INFINI_DEVICE_NVIDIA], count);
}

TEST(NoGpu, SetDeviceIsRefusedAndLeavesTheCurrentDevice) {
  if (CudaDeviceCount() > 0) GTEST_SKIP() << "CUDA sees a device here";
  ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0), INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  size_t free_bytes = 0, total_bytes = 0;
  EXPECT_EQ(infinirtGetMemInfo(INFINI_DEVICE_NVIDIA, 0, &free_bytes, &total_bytes),
            INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  infiniDevice_t type = INFINI_DEVICE_NVIDIA;
  int id = -1;
  ASSERT_EQ(infinirtGetDevice(&type, &id), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(type, INFINI_DEVICE_CPU);
  EXPECT_EQ(id, 0);
}

TEST(Alongside, CpuRuntimeStillWorks) {
  ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(infinirtMalloc(&device, 64), INFINI_STATUS_SUCCESS);
  infinirtStream_t stream = nullptr;
  ASSERT_EQ(infinirtStreamCreate(&stream), INFINI_STATUS_SUCCESS);
  unsigned char in[64], out[64] = {};
  for (int i = 0; i < 64; ++i) in[i] = static_cast<unsigned char>(i * 3);
  ASSERT_EQ(infinirtMemcpyAsync(device, in, 64, INFINIRT_MEMCPY_H2D, stream), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(infinirtMemcpyAsync(out, device, 64, INFINIRT_MEMCPY_D2H, stream), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], in[i]) << i;
  EXPECT_EQ(infinirtStreamDestroy(stream), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinirtFree(device), INFINI_STATUS_SUCCESS);
}

// docs/usage.md: asking for a device type the backend has none of exits 2, and with
// --allow-no-device ends every case `skip` with the reason and exits 0.
TEST(SuiteRun, NvidiaWithoutGpuSkipsEveryCase) {
  if (CudaDeviceCount() > 0) GTEST_SKIP() << "CUDA sees a device here";
  const nlohmann::json parsed = ExpectNvidiaSuiteSkipsEveryCase("rt", INFINIRT_DIR, INFINICTS_CLI_PATH, REPORT_DIR);
  EXPECT_EQ(parsed.at("backend").at("device_count").get<int>(), 0);
}

}  // namespace
}  // namespace reference_cuda_test
