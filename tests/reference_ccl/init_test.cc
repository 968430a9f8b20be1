// Communicators: CommInitRank from one thread per rank, its time limit, and the statuses
// of the communicator functions.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include "ccl_test_support.h"

namespace ccl_test {
namespace {

// The ranks meet under `id`, each on a thread whose current device is its rank. With
// fewer devices, two ranks would share a device's default stream and their collectives
// would wait for each other forever: no communicator then (the test fails, not hangs).
std::vector<infinicclComm_t> InitRanksFromThreads(const infinicclUniqueId_t &id) {
  std::vector<infinicclComm_t> comms(kRanks, nullptr);
  int devices = 0;
  EXPECT_OK(infinirtGetDeviceCount(INFINI_DEVICE_CPU, &devices));
  if (devices < kRanks) {
    ADD_FAILURE() << "run with INFINICTS_CPU_DEVICES=" << kRanks << " (this process has " << devices << " CPU devices)";
    return comms;
  }
  ForEachRank(Driving::kThreadPerRank, {0, 1, 2, 3},
              [&](int rank) { EXPECT_OK(infinicclCommInitRank(&comms[static_cast<size_t>(rank)], kRanks, id, rank)); });
  return comms;
}

TEST(CommInitRankTest, RanksFromThreadsFormACommunicatorOnTheirDevices) {
  infinicclUniqueId_t id;
  ASSERT_OK(infinicclGetUniqueId(&id));
  const std::vector<infinicclComm_t> comms = InitRanksFromThreads(id);
  // Each thread reduces on its NULL stream: its device's default stream.
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  for (int rank = 0; rank < kRanks; ++rank) {
    buffers.push_back(std::make_unique<DeviceBuffer>(rank, 16));
    buffers.back()->Upload(Encode(INFINI_DTYPE_I64, {static_cast<double>(rank * rank), -1.0 * rank}));
  }
  ForEachRank(Driving::kThreadPerRank, {0, 1, 2, 3}, [&](int rank) {
    void *buffer = buffers[static_cast<size_t>(rank)]->get();
    EXPECT_OK(infinicclAllReduce(buffer, buffer, 2, INFINI_DTYPE_I64, INFINICCL_SUM, comms[static_cast<size_t>(rank)],
                                 nullptr));
    EXPECT_OK(infinirtStreamSynchronize(nullptr));
  });
  for (int rank = 0; rank < kRanks; ++rank) {
    ExpectValues(Decode(INFINI_DTYPE_I64, buffers[static_cast<size_t>(rank)]->Download(16)), {14, -6},
                 "rank " + std::to_string(rank));
  }
  // Rank 1 passes rank 2's stream: another device's stream is refused.
  infinirtStream_t device2_stream = nullptr;
  ASSERT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 2));
  ASSERT_OK(infinirtStreamCreate(&device2_stream));
  EXPECT_EQ(infinicclAllReduce(buffers[1]->get(), buffers[1]->get(), 2, INFINI_DTYPE_I64, INFINICCL_SUM, comms[1],
                               device2_stream),
            INFINI_STATUS_BAD_PARAM);
  EXPECT_OK(infinirtStreamDestroy(device2_stream));
  ASSERT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  for (infinicclComm_t comm : comms) EXPECT_OK(infinicclCommDestroy(comm));
}

TEST(CommInitRankTest, AMissingRankEndsInInternalErrorAndTheIdStaysUsable) {
  infinicclUniqueId_t id;
  ASSERT_OK(infinicclGetUniqueId(&id));
  ASSERT_EQ(setenv("INFINICTS_CCL_INIT_TIMEOUT_MS", "200", 1), 0);
  infinicclComm_t lonely = nullptr;
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(infinicclCommInitRank(&lonely, 2, id, 1), INFINI_STATUS_INTERNAL_ERROR);
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(150));
  ASSERT_EQ(unsetenv("INFINICTS_CCL_INIT_TIMEOUT_MS"), 0);
  const std::vector<infinicclComm_t> comms = InitRanksFromThreads(id);
  for (infinicclComm_t comm : comms) {
    EXPECT_NE(comm, nullptr);
    if (comm != nullptr) {
      EXPECT_OK(infinicclCommDestroy(comm));
    }
  }
}

TEST(CommInitRankTest, SingleRankFormsAtOnce) {
  infinicclUniqueId_t id;
  ASSERT_OK(infinicclGetUniqueId(&id));
  infinicclComm_t comm = nullptr;
  ASSERT_OK(infinicclCommInitRank(&comm, 1, id, 0));
  EXPECT_OK(infinicclCommDestroy(comm));
}

TEST(CommStatusTest, CommInitAllRefusesBadArgumentsAndLeavesCommsAlone) {
  const int devices[] = {0, 1, 2, 3};
  infinicclComm_t comms[4];
  infinicclComm_t *const untouched = comms;
  const auto expect_refused = [&](infiniDevice_t type, infinicclComm_t *out, int n, const int *ids, infiniStatus_t want,
                                  const char *what) {
    for (infinicclComm_t &comm : comms) comm = reinterpret_cast<infinicclComm_t>(untouched);
    EXPECT_EQ(infinicclCommInitAll(type, out, n, ids), want) << what;
    for (infinicclComm_t comm : comms) EXPECT_EQ(comm, reinterpret_cast<infinicclComm_t>(untouched)) << what;
  };
  expect_refused(INFINI_DEVICE_CPU, nullptr, 4, devices, INFINI_STATUS_NULL_POINTER, "NULL comms");
  expect_refused(INFINI_DEVICE_CPU, comms, 4, nullptr, INFINI_STATUS_NULL_POINTER, "NULL ids");
  expect_refused(INFINI_DEVICE_CPU, comms, 0, devices, INFINI_STATUS_BAD_PARAM, "ndevice 0");
  expect_refused(INFINI_DEVICE_CPU, comms, -2, devices, INFINI_STATUS_BAD_PARAM, "ndevice -2");
  const int repeated[] = {1, 2, 1};
  expect_refused(INFINI_DEVICE_CPU, comms, 3, repeated, INFINI_STATUS_BAD_PARAM, "repeated id");
  const int too_high[] = {0, 4}, negative[] = {-1};
  expect_refused(INFINI_DEVICE_CPU, comms, 2, too_high, INFINI_STATUS_DEVICE_NOT_FOUND, "id 4 of 4");
  expect_refused(INFINI_DEVICE_CPU, comms, 1, negative, INFINI_STATUS_DEVICE_NOT_FOUND, "id -1");
  expect_refused(INFINI_DEVICE_NVIDIA, comms, 1, devices, INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED, "nvidia");
  expect_refused(static_cast<infiniDevice_t>(99), comms, 1, devices, INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED,
                 "type 99");
}

TEST(CommStatusTest, UniqueIdInitRankDestroyAndGroups) {
  EXPECT_EQ(infinicclGetUniqueId(nullptr), INFINI_STATUS_NULL_POINTER);
  infinicclUniqueId_t first, second;
  ASSERT_OK(infinicclGetUniqueId(&first));
  ASSERT_OK(infinicclGetUniqueId(&second));
  EXPECT_NE(std::memcmp(&first, &second, sizeof first), 0) << "each call answers a fresh id";

  infinicclComm_t comm = nullptr;
  EXPECT_EQ(infinicclCommInitRank(nullptr, 2, first, 0), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinicclCommInitRank(&comm, 0, first, 0), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinicclCommInitRank(&comm, -1, first, 0), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinicclCommInitRank(&comm, 2, first, 2), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinicclCommInitRank(&comm, 2, first, -1), INFINI_STATUS_BAD_PARAM);
  infinicclUniqueId_t made_up;
  std::memset(&made_up, 0, sizeof made_up);
  EXPECT_EQ(infinicclCommInitRank(&comm, 1, made_up, 0), INFINI_STATUS_BAD_PARAM);

  EXPECT_EQ(infinicclCommDestroy(nullptr), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinicclGroupEnd(nullptr), INFINI_STATUS_BAD_PARAM) << "GroupEnd without GroupStart";
  EXPECT_OK(infinicclGroupStart(nullptr));
  EXPECT_OK(infinicclGroupStart(nullptr));
  EXPECT_OK(infinicclGroupEnd(nullptr));
  EXPECT_OK(infinicclGroupEnd(nullptr));
}

}  // namespace
}  // namespace ccl_test
