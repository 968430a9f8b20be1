// Streams: asynchronous in-order work, waits across streams, device-wide synchronisation,
// destruction with pending work, many streams from many threads.
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "test_support.h"

namespace reference_cpu_test {
namespace {

using StreamTest = RtTest;

TEST_F(StreamTest, WorkRunsAsynchronouslyAndInOrder) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  Gate gate;
  ASSERT_RT_OK(gate.Block(stream));
  std::vector<int> order;  // written by the worker only
  constexpr int kSteps = 200;
  for (int i = 0; i < kSteps; ++i) {
    ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&order, i] { order.push_back(i); }));
  }
  // Device-side copies interleave with host work in the same order.
  void *device = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&device, 4096));
  std::vector<unsigned char> host(4096, 0);
  ASSERT_RT_OK(infinirtMemsetAsync(device, 0x5A, 4096, stream));
  ASSERT_RT_OK(infinirtMemcpyAsync(host.data(), device, 4096, INFINIRT_MEMCPY_D2H, stream));
  EXPECT_EQ(host[0], 0) << "the copy ran before the gate opened";
  gate.Open();
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  ASSERT_EQ(order.size(), static_cast<size_t>(kSteps));
  for (int i = 0; i < kSteps; ++i) EXPECT_EQ(order[i], i);
  EXPECT_EQ(host[0], 0x5A);
  EXPECT_EQ(host[4095], 0x5A);
  ASSERT_RT_OK(infinirtFree(device));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(StreamTest, NullStreamIsTheCurrentDevicesDefaultStream) {
  void *device = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&device, 256));
  unsigned char host[256] = {};
  ASSERT_RT_OK(infinirtMemsetAsync(device, 0x11, sizeof host, nullptr));
  ASSERT_RT_OK(infinirtMemcpyAsync(host, device, sizeof host, INFINIRT_MEMCPY_D2H, nullptr));
  ASSERT_RT_OK(infinirtStreamSynchronize(nullptr));
  EXPECT_EQ(host[255], 0x11);
  ASSERT_RT_OK(infinirtFree(device));
}

TEST_F(StreamTest, StreamWaitEventOrdersOneStreamAfterAnother) {
  infinirtStream_t producer = nullptr, consumer = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&producer));
  ASSERT_RT_OK(infinirtStreamCreate(&consumer));
  infinirtEvent_t produced = nullptr, consumed = nullptr;
  ASSERT_RT_OK(infinirtEventCreate(&produced));
  ASSERT_RT_OK(infinirtEventCreate(&consumed));
  void *device = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&device, 1 << 16));
  std::vector<unsigned char> host(1 << 16, 0);

  Gate gate;
  ASSERT_RT_OK(gate.Block(producer));
  ASSERT_RT_OK(infinirtMemsetAsync(device, 7, host.size(), producer));
  ASSERT_RT_OK(infinirtEventRecord(produced, producer));
  ASSERT_RT_OK(infinirtStreamWaitEvent(consumer, produced));
  ASSERT_RT_OK(infinirtMemcpyAsync(host.data(), device, host.size(), INFINIRT_MEMCPY_D2H, consumer));
  ASSERT_RT_OK(infinirtEventRecord(consumed, consumer));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  infinirtEventStatus_t status = INFINIRT_EVENT_COMPLETE;
  ASSERT_RT_OK(infinirtEventQuery(consumed, &status));
  EXPECT_EQ(status, INFINIRT_EVENT_NOT_READY) << "the consumer did not wait for the producer";
  gate.Open();
  ASSERT_RT_OK(infinirtStreamSynchronize(consumer));
  EXPECT_EQ(host.front(), 7);
  EXPECT_EQ(host.back(), 7);

  // An event never recorded imposes no wait.
  infinirtEvent_t never = nullptr;
  ASSERT_RT_OK(infinirtEventCreate(&never));
  EXPECT_RT_OK(infinirtStreamWaitEvent(consumer, never));
  EXPECT_EQ(infinirtStreamWaitEvent(consumer, nullptr), INFINI_STATUS_NULL_POINTER);

  for (infinirtEvent_t event : {produced, consumed, never}) ASSERT_RT_OK(infinirtEventDestroy(event));
  ASSERT_RT_OK(infinirtFree(device));
  ASSERT_RT_OK(infinirtStreamDestroy(producer));
  ASSERT_RT_OK(infinirtStreamDestroy(consumer));
}

TEST_F(StreamTest, DeviceSynchronizeWaitsForEveryStreamOfTheDevice) {
  infinirtStream_t first = nullptr, second = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&first));
  ASSERT_RT_OK(infinirtStreamCreate(&second));
  std::atomic<int> finished{0};
  for (infinirtStream_t stream : {first, second, infinirtStream_t{nullptr}}) {
    ASSERT_RT_OK(EnqueueSleep(stream, std::chrono::milliseconds(30)));
    ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&finished] { ++finished; }));
  }
  ASSERT_RT_OK(infinirtDeviceSynchronize());
  EXPECT_EQ(finished.load(), 3);
  ASSERT_RT_OK(infinirtStreamDestroy(first));
  ASSERT_RT_OK(infinirtStreamDestroy(second));
}

TEST_F(StreamTest, DestroyLetsPendingWorkFinish) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  Gate gate;
  ASSERT_RT_OK(gate.Block(stream));
  std::atomic<bool> ran{false};
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&ran] { ran = true; }));
  std::thread opener([&gate] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.Open();
  });
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
  ASSERT_RT_OK(infinirtDeviceSynchronize());
  EXPECT_TRUE(ran.load());
  opener.join();
  EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_BAD_PARAM) << "a destroyed stream is unknown";
}

TEST_F(StreamTest, BadArguments) {
  EXPECT_EQ(infinirtStreamCreate(nullptr), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtStreamDestroy(nullptr), INFINI_STATUS_BAD_PARAM);
  int not_a_stream = 0;
  EXPECT_EQ(infinirtStreamSynchronize(&not_a_stream), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtStreamDestroy(&not_a_stream), INFINI_STATUS_BAD_PARAM);
}

TEST_F(StreamTest, ManyStreamsFromManyThreads) {
  constexpr int kThreads = 8, kStreamsPerThread = 16, kWorkPerStream = 50;
  std::atomic<int> total{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      infinirtSetDevice(INFINI_DEVICE_CPU, t % 2);
      std::vector<infinirtStream_t> streams(kStreamsPerThread);
      for (auto &stream : streams) {
        if (infinirtStreamCreate(&stream) != INFINI_STATUS_SUCCESS) ++failures;
      }
      for (int i = 0; i < kWorkPerStream; ++i) {
        for (auto stream : streams) infinicts_ref::EnqueueOnStream(stream, [&total] { ++total; });
      }
      for (auto stream : streams) {
        if (infinirtStreamSynchronize(stream) != INFINI_STATUS_SUCCESS) ++failures;
        if (infinirtStreamDestroy(stream) != INFINI_STATUS_SUCCESS) ++failures;
      }
    });
  }
  for (auto &thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(total.load(), kThreads * kStreamsPerThread * kWorkPerStream);
}

TEST_F(StreamTest, StreamsWorkFromThreadsOtherThanTheirCreator) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  void *device = nullptr;
  ASSERT_RT_OK(infinirtMalloc(&device, 64));
  unsigned char host[64] = {};
  std::thread user([&] {
    infinirtSetDevice(INFINI_DEVICE_CPU, 1);  // the stream stays on device 0
    infinirtMemsetAsync(device, 3, sizeof host, stream);
    infinirtMemcpyAsync(host, device, sizeof host, INFINIRT_MEMCPY_D2H, stream);
    infinirtStreamSynchronize(stream);
  });
  user.join();
  EXPECT_EQ(host[63], 3);
  ASSERT_RT_OK(infinirtFree(device));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

}  // namespace
}  // namespace reference_cpu_test
