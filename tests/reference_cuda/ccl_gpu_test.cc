// InfiniCCL on NCCL over every GPU CUDA sees: CommInitAll and GetUniqueId/CommInitRank,
// AllReduce (every op), ReduceScatter, AllGather, Broadcast and Send/Recv, checked on the
// host; the NULL stream; the NVIDIA-only refusals. Every case skips where CUDA sees none.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cuda_count.h"
#include "infiniccl.h"
#include "infinirt.h"

namespace reference_cuda_test {
namespace {

#define ASSERT_STATUS_OK(call) ASSERT_EQ((call), INFINI_STATUS_SUCCESS) << #call

// One rank's device memory: allocated on its device, filled and read from the host.
class RankBuffer {
 public:
  RankBuffer(int device, size_t bytes) : device_(device), bytes_(bytes) {
    EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_NVIDIA, device), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infinirtMalloc(&data_, bytes), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infinirtMemset(data_, 0xA5, bytes), INFINI_STATUS_SUCCESS);
  }
  ~RankBuffer() {
    infinirtSetDevice(INFINI_DEVICE_NVIDIA, device_);
    infinirtFree(data_);
  }
  RankBuffer(const RankBuffer &) = delete;
  RankBuffer &operator=(const RankBuffer &) = delete;

  void *get() const { return data_; }
  template <class T>
  void Upload(const std::vector<T> &values) {
    ASSERT_LE(values.size() * sizeof(T), bytes_);
    ASSERT_STATUS_OK(infinirtMemcpy(data_, values.data(), values.size() * sizeof(T), INFINIRT_MEMCPY_H2D));
  }
  template <class T>
  std::vector<T> Download(size_t count) const {
    std::vector<T> values(count);
    EXPECT_EQ(infinirtMemcpy(values.data(), data_, count * sizeof(T), INFINIRT_MEMCPY_D2H), INFINI_STATUS_SUCCESS);
    return values;
  }

 private:
  int device_;
  size_t bytes_;
  void *data_ = nullptr;
};

// A group over every visible GPU (rank r on device r) from CommInitAll, a stream each.
class CclGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    ranks_ = CudaDeviceCount();
    if (ranks_ == 0) GTEST_SKIP() << "no CUDA device";
    std::vector<int> ids(ranks_);
    for (int r = 0; r < ranks_; ++r) ids[r] = r;
    comms_.assign(ranks_, nullptr);
    ASSERT_STATUS_OK(infinicclCommInitAll(INFINI_DEVICE_NVIDIA, comms_.data(), ranks_, ids.data()));
    streams_.assign(ranks_, nullptr);
    for (int r = 0; r < ranks_; ++r) {
      ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
      ASSERT_STATUS_OK(infinirtStreamCreate(&streams_[r]));
    }
  }
  void TearDown() override {
    for (int r = 0; r < static_cast<int>(comms_.size()); ++r) {
      if (streams_.size() > static_cast<size_t>(r) && streams_[r] != nullptr) {
        infinirtSetDevice(INFINI_DEVICE_NVIDIA, r);
        EXPECT_EQ(infinirtStreamSynchronize(streams_[r]), INFINI_STATUS_SUCCESS);
        EXPECT_EQ(infinirtStreamDestroy(streams_[r]), INFINI_STATUS_SUCCESS);
      }
      if (comms_[r] != nullptr) {
        EXPECT_EQ(infinicclCommDestroy(comms_[r]), INFINI_STATUS_SUCCESS);
      }
    }
    infinirtSetDevice(INFINI_DEVICE_CPU, 0);
  }

  // issue(r) for every rank inside one group from this thread (one GroupStart per rank's
  // communicator, as the suite nests them), then every stream synchronized.
  void RunGrouped(const std::function<infiniStatus_t(int)> &issue) { RunGroupedFor(comms_, issue); }

 public:
  void RunGroupedFor(const std::vector<infinicclComm_t> &comms, const std::function<infiniStatus_t(int)> &issue) {
    for (int r = 0; r < ranks_; ++r) ASSERT_STATUS_OK(infinicclGroupStart(comms[r]));
    for (int r = 0; r < ranks_; ++r) {
      ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
      EXPECT_EQ(issue(r), INFINI_STATUS_SUCCESS) << "rank " << r;
    }
    for (int r = 0; r < ranks_; ++r) ASSERT_STATUS_OK(infinicclGroupEnd(comms[r]));
    for (int r = 0; r < ranks_; ++r) {
      ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
      ASSERT_STATUS_OK(infinirtStreamSynchronize(streams_[r]));
    }
  }

 protected:
  int ranks_ = 0;
  std::vector<infinicclComm_t> comms_;
  std::vector<infinirtStream_t> streams_;
};

int32_t RankValue(int rank, size_t i) { return static_cast<int32_t>(i % 1000) - 500 + 7 * rank; }

int32_t ExpectedI32(infinicclReduceOp_t op, int ranks, size_t i) {
  int64_t sum = 0, prod = 1, most = RankValue(0, i), least = RankValue(0, i);
  for (int r = 0; r < ranks; ++r) {
    const int64_t v = RankValue(r, i);
    sum += v;
    prod = static_cast<int64_t>(static_cast<uint32_t>(prod * v));  // modulo 2^32, as I32 wraps
    most = std::max(most, v);
    least = std::min(least, v);
  }
  switch (op) {
    case INFINICCL_SUM:
      return static_cast<int32_t>(sum);
    case INFINICCL_PROD:
      return static_cast<int32_t>(static_cast<uint32_t>(prod));
    case INFINICCL_MAX:
      return static_cast<int32_t>(most);
    case INFINICCL_MIN:
      return static_cast<int32_t>(least);
    default:
      return static_cast<int32_t>(sum / ranks);  // truncation toward zero
  }
}

TEST_F(CclGpu, AllReduceEveryOpI32) {
  constexpr size_t kCount = 100003;
  for (const infinicclReduceOp_t op : {INFINICCL_SUM, INFINICCL_PROD, INFINICCL_MAX, INFINICCL_MIN, INFINICCL_AVG}) {
    SCOPED_TRACE("op " + std::to_string(op));
    std::vector<std::unique_ptr<RankBuffer>> send, recv;
    for (int r = 0; r < ranks_; ++r) {
      send.push_back(std::make_unique<RankBuffer>(r, kCount * sizeof(int32_t)));
      recv.push_back(std::make_unique<RankBuffer>(r, kCount * sizeof(int32_t)));
      std::vector<int32_t> values(kCount);
      for (size_t i = 0; i < kCount; ++i) values[i] = RankValue(r, i);
      send[r]->Upload(values);
    }
    RunGrouped([&](int r) {
      return infinicclAllReduce(send[r]->get(), recv[r]->get(), kCount, INFINI_DTYPE_I32, op, comms_[r], streams_[r]);
    });
    for (int r = 0; r < ranks_; ++r) {
      ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
      const std::vector<int32_t> got = recv[r]->Download<int32_t>(kCount);
      for (size_t i = 0; i < kCount; ++i) {
        ASSERT_EQ(got[i], ExpectedI32(op, ranks_, i)) << "rank " << r << " i " << i;
      }
    }
  }
}

TEST_F(CclGpu, AllReduceSumF32InPlace) {
  constexpr size_t kCount = (size_t{1} << 20) + 5;
  std::vector<std::unique_ptr<RankBuffer>> buffers;
  for (int r = 0; r < ranks_; ++r) {
    buffers.push_back(std::make_unique<RankBuffer>(r, kCount * sizeof(float)));
    std::vector<float> values(kCount);
    for (size_t i = 0; i < kCount; ++i) values[i] = static_cast<float>(i % 4096) * 0.25f + static_cast<float>(r);
    buffers[r]->Upload(values);
  }
  RunGrouped([&](int r) {
    return infinicclAllReduce(buffers[r]->get(), buffers[r]->get(), kCount, INFINI_DTYPE_F32, INFINICCL_SUM, comms_[r],
                              streams_[r]);
  });
  const float rank_sum = static_cast<float>(ranks_ * (ranks_ - 1) / 2);
  for (int r = 0; r < ranks_; ++r) {
    ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
    const std::vector<float> got = buffers[r]->Download<float>(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(got[i], static_cast<float>(i % 4096) * 0.25f * ranks_ + rank_sum) << "rank " << r << " i " << i;
    }
  }
}

TEST_F(CclGpu, ReduceScatterSumI64) {
  constexpr size_t kCount = 4099;
  std::vector<std::unique_ptr<RankBuffer>> send, recv;
  for (int r = 0; r < ranks_; ++r) {
    send.push_back(std::make_unique<RankBuffer>(r, kCount * ranks_ * sizeof(int64_t)));
    recv.push_back(std::make_unique<RankBuffer>(r, kCount * sizeof(int64_t)));
    std::vector<int64_t> values(kCount * ranks_);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i) * 1000 + r;
    send[r]->Upload(values);
  }
  RunGrouped([&](int r) {
    return infinicclReduceScatter(send[r]->get(), recv[r]->get(), kCount, INFINI_DTYPE_I64, INFINICCL_SUM, comms_[r],
                                  streams_[r]);
  });
  const int64_t rank_sum = ranks_ * (ranks_ - 1) / 2;
  for (int r = 0; r < ranks_; ++r) {
    ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
    const std::vector<int64_t> got = recv[r]->Download<int64_t>(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      const int64_t index = static_cast<int64_t>(r * kCount + i);
      ASSERT_EQ(got[i], index * 1000 * ranks_ + rank_sum) << "rank " << r << " i " << i;
    }
  }
}

// 16-bit integers, which NCCL cannot reduce, go widened: every op, both signs, wrapping
// SUM and PROD, AVG truncated toward zero; ReduceScatter in place.
template <class T>
T SixteenBitValue(int rank, size_t i) {
  return static_cast<T>(static_cast<int>(i % 509) * 131 - 30000 + rank * 977);
}

template <class T>
std::vector<T> SixteenBitValues(int rank, size_t count) {
  std::vector<T> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = SixteenBitValue<T>(rank, i);
  return values;
}

template <class T>
T Expected16(infinicclReduceOp_t op, int ranks, size_t i) {
  int64_t sum = 0, most = 0, least = 0;
  uint32_t prod = 1;
  for (int r = 0; r < ranks; ++r) {
    const int64_t v = SixteenBitValue<T>(r, i);
    sum += v;
    prod *= static_cast<uint32_t>(v);
    most = r == 0 ? v : std::max(most, v);
    least = r == 0 ? v : std::min(least, v);
  }
  switch (op) {
    case INFINICCL_SUM:
      return static_cast<T>(static_cast<uint16_t>(sum));
    case INFINICCL_PROD:
      return static_cast<T>(static_cast<uint16_t>(prod));
    case INFINICCL_MAX:
      return static_cast<T>(most);
    case INFINICCL_MIN:
      return static_cast<T>(least);
    default:
      return static_cast<T>(sum / ranks);
  }
}

template <class T>
void CheckSixteenBit(CclGpu &test, int ranks, const std::vector<infinicclComm_t> &comms,
                     const std::vector<infinirtStream_t> &streams, infiniDtype_t dtype) {
  constexpr size_t kCount = 2053;
  for (const infinicclReduceOp_t op : {INFINICCL_SUM, INFINICCL_PROD, INFINICCL_MAX, INFINICCL_MIN, INFINICCL_AVG}) {
    SCOPED_TRACE("dtype " + std::to_string(dtype) + " op " + std::to_string(op));
    std::vector<std::unique_ptr<RankBuffer>> all, scattered;
    for (int r = 0; r < ranks; ++r) {
      all.push_back(std::make_unique<RankBuffer>(r, kCount * sizeof(T)));
      all[r]->Upload(SixteenBitValues<T>(r, kCount));
      scattered.push_back(std::make_unique<RankBuffer>(r, kCount * ranks * sizeof(T)));
      std::vector<T> rows;
      for (int q = 0; q < ranks; ++q) {
        const std::vector<T> row = SixteenBitValues<T>(r, kCount);
        rows.insert(rows.end(), row.begin(), row.end());
      }
      scattered[r]->Upload(rows);
    }
    test.RunGroupedFor(comms, [&](int r) {
      const infiniStatus_t reduced =
          infinicclAllReduce(all[r]->get(), all[r]->get(), kCount, dtype, op, comms[r], streams[r]);
      if (reduced != INFINI_STATUS_SUCCESS) return reduced;
      T *base = static_cast<T *>(scattered[r]->get());
      return infinicclReduceScatter(base, base + r * kCount, kCount, dtype, op, comms[r], streams[r]);
    });
    for (int r = 0; r < ranks; ++r) {
      ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
      const std::vector<T> reduced = all[r]->Download<T>(kCount);
      const std::vector<T> rows = scattered[r]->Download<T>(kCount * ranks);
      for (size_t i = 0; i < kCount; ++i) {
        ASSERT_EQ(reduced[i], Expected16<T>(op, ranks, i)) << "AllReduce rank " << r << " i " << i;
        ASSERT_EQ(rows[r * kCount + i], Expected16<T>(op, ranks, i)) << "ReduceScatter rank " << r << " i " << i;
      }
    }
  }
}

TEST_F(CclGpu, SixteenBitIntegersEveryOp) {
  CheckSixteenBit<int16_t>(*this, ranks_, comms_, streams_, INFINI_DTYPE_I16);
  CheckSixteenBit<uint16_t>(*this, ranks_, comms_, streams_, INFINI_DTYPE_U16);
}

// Floating AVG is the exact sum divided once: the correctly rounded average.
TEST_F(CclGpu, AverageF32IsRoundedOnce) {
  constexpr size_t kCount = 40961;
  std::vector<std::unique_ptr<RankBuffer>> buffers;
  const auto value = [](int r, size_t i) { return static_cast<float>(static_cast<int>(i % 2001) - 1000 + 3 * r); };
  for (int r = 0; r < ranks_; ++r) {
    buffers.push_back(std::make_unique<RankBuffer>(r, kCount * sizeof(float)));
    std::vector<float> values(kCount);
    for (size_t i = 0; i < kCount; ++i) values[i] = value(r, i);
    buffers[r]->Upload(values);
  }
  RunGrouped([&](int r) {
    return infinicclAllReduce(buffers[r]->get(), buffers[r]->get(), kCount, INFINI_DTYPE_F32, INFINICCL_AVG, comms_[r],
                              streams_[r]);
  });
  for (int r = 0; r < ranks_; ++r) {
    ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
    const std::vector<float> got = buffers[r]->Download<float>(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      double sum = 0;
      for (int q = 0; q < ranks_; ++q) sum += value(q, i);
      ASSERT_EQ(got[i], static_cast<float>(sum / ranks_)) << "rank " << r << " i " << i;
    }
  }
}

// I16 copies travel as bytes: NCCL has no 16-bit integer type, but copies need none.
TEST_F(CclGpu, AllGatherI16) {
  constexpr size_t kCount = 3001;
  std::vector<std::unique_ptr<RankBuffer>> send, recv;
  for (int r = 0; r < ranks_; ++r) {
    send.push_back(std::make_unique<RankBuffer>(r, kCount * sizeof(int16_t)));
    recv.push_back(std::make_unique<RankBuffer>(r, kCount * ranks_ * sizeof(int16_t)));
    std::vector<int16_t> values(kCount);
    for (size_t i = 0; i < kCount; ++i) values[i] = static_cast<int16_t>(i * 7 - 9000 + r * 311);
    send[r]->Upload(values);
  }
  RunGrouped([&](int r) {
    return infinicclAllGather(send[r]->get(), recv[r]->get(), kCount, INFINI_DTYPE_I16, comms_[r], streams_[r]);
  });
  for (int r = 0; r < ranks_; ++r) {
    ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
    const std::vector<int16_t> got = recv[r]->Download<int16_t>(kCount * ranks_);
    for (int q = 0; q < ranks_; ++q) {
      for (size_t i = 0; i < kCount; ++i) {
        ASSERT_EQ(got[q * kCount + i], static_cast<int16_t>(i * 7 - 9000 + q * 311)) << "rank " << r << " from " << q;
      }
    }
  }
}

TEST_F(CclGpu, BroadcastF64FromTheLastRank) {
  constexpr size_t kCount = 12345;
  const int root = ranks_ - 1;
  std::vector<std::unique_ptr<RankBuffer>> buffers;
  std::vector<double> sent(kCount);
  for (size_t i = 0; i < kCount; ++i) sent[i] = std::ldexp(static_cast<double>(i) + 0.5, -3);
  for (int r = 0; r < ranks_; ++r) {
    buffers.push_back(std::make_unique<RankBuffer>(r, kCount * sizeof(double)));
    if (r == root) buffers[r]->Upload(sent);
  }
  // In place on every rank; non-roots pass no send buffer.
  RunGrouped([&](int r) {
    return infinicclBroadcast(r == root ? buffers[r]->get() : nullptr, buffers[r]->get(), kCount, INFINI_DTYPE_F64,
                              root, comms_[r], streams_[r]);
  });
  for (int r = 0; r < ranks_; ++r) {
    ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
    const std::vector<double> got = buffers[r]->Download<double>(kCount);
    ASSERT_EQ(std::memcmp(got.data(), sent.data(), kCount * sizeof(double)), 0) << "rank " << r;
  }
}

TEST_F(CclGpu, SendRecvRing) {
  if (ranks_ < 2) GTEST_SKIP() << "needs 2 GPUs";
  constexpr size_t kCount = 777;
  std::vector<std::unique_ptr<RankBuffer>> send, recv;
  for (int r = 0; r < ranks_; ++r) {
    send.push_back(std::make_unique<RankBuffer>(r, kCount));
    recv.push_back(std::make_unique<RankBuffer>(r, kCount));
    std::vector<uint8_t> values(kCount);
    for (size_t i = 0; i < kCount; ++i) values[i] = static_cast<uint8_t>(i * 13 + r);
    send[r]->Upload(values);
  }
  RunGrouped([&](int r) {
    const int next = (r + 1) % ranks_, previous = (r + ranks_ - 1) % ranks_;
    const infiniStatus_t received =
        infinicclRecv(recv[r]->get(), kCount, INFINI_DTYPE_U8, previous, comms_[r], streams_[r]);
    if (received != INFINI_STATUS_SUCCESS) return received;
    return infinicclSend(send[r]->get(), kCount, INFINI_DTYPE_U8, next, comms_[r], streams_[r]);
  });
  for (int r = 0; r < ranks_; ++r) {
    ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, r));
    const std::vector<uint8_t> got = recv[r]->Download<uint8_t>(kCount);
    const int previous = (r + ranks_ - 1) % ranks_;
    for (size_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], static_cast<uint8_t>(i * 13 + previous)) << "rank " << r;
  }
}

TEST_F(CclGpu, RefusalsInTheSharedOrder) {
  RankBuffer buffer(0, 64);
  void *p = buffer.get();
  // The dtype before the op, as on the CPU.
  EXPECT_EQ(
      infinicclAllReduce(p, p, 4, INFINI_DTYPE_BOOL, static_cast<infinicclReduceOp_t>(99), comms_[0], streams_[0]),
      INFINI_STATUS_BAD_TENSOR_DTYPE);
  EXPECT_EQ(
      infinicclReduceScatter(p, p, 4, INFINI_DTYPE_U16, static_cast<infinicclReduceOp_t>(99), comms_[0], streams_[0]),
      INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinicclAllReduce(p, p, 4, INFINI_DTYPE_F32, static_cast<infinicclReduceOp_t>(5), comms_[0], streams_[0]),
            INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinicclAllReduce(nullptr, p, 4, INFINI_DTYPE_F32, INFINICCL_SUM, comms_[0], streams_[0]),
            INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinicclBroadcast(p, p, 4, INFINI_DTYPE_F32, ranks_, comms_[0], streams_[0]), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinicclSend(p, 4, INFINI_DTYPE_F32, 0, comms_[0], streams_[0]), INFINI_STATUS_BAD_PARAM);
  // A CPU stream is not the rank's.
  ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  infinirtStream_t cpu_stream = nullptr;
  ASSERT_STATUS_OK(infinirtStreamCreate(&cpu_stream));
  EXPECT_EQ(infinicclAllGather(p, p, 4, INFINI_DTYPE_F32, comms_[0], cpu_stream), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtStreamDestroy(cpu_stream), INFINI_STATUS_SUCCESS);
  // Count 0 needs no buffer and touches nothing.
  EXPECT_EQ(infinicclAllReduce(nullptr, nullptr, 0, INFINI_DTYPE_F32, INFINICCL_SUM, comms_[0], streams_[0]),
            INFINI_STATUS_SUCCESS);
  // An id made with a CPU device current is no NCCL id.
  infinicclUniqueId_t cpu_id;
  ASSERT_STATUS_OK(infinicclGetUniqueId(&cpu_id));
  ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0));
  infinicclComm_t comm = nullptr;
  EXPECT_EQ(infinicclCommInitRank(&comm, 1, cpu_id, 0), INFINI_STATUS_BAD_PARAM);
}

// One thread per GPU: GetUniqueId with a GPU current, CommInitRank on each thread's
// current device, an AllReduce on the NULL stream (the rank's device's default stream).
TEST(CclGpuThreads, CommInitRankAndNullStream) {
  const int ranks = CudaDeviceCount();
  if (ranks == 0) GTEST_SKIP() << "no CUDA device";
  ASSERT_STATUS_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0));
  infinicclUniqueId_t id;
  ASSERT_STATUS_OK(infinicclGetUniqueId(&id));
  constexpr size_t kCount = 65537;
  std::vector<infiniStatus_t> results(ranks, INFINI_STATUS_INTERNAL_ERROR);
  std::vector<std::vector<float>> got(ranks);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      const int device = ranks - 1 - r;  // rank r on the device current on its thread
      infiniStatus_t status = infinirtSetDevice(INFINI_DEVICE_NVIDIA, device);
      infinicclComm_t comm = nullptr;
      if (status == INFINI_STATUS_SUCCESS) status = infinicclCommInitRank(&comm, ranks, id, r);
      void *data = nullptr;
      if (status == INFINI_STATUS_SUCCESS) status = infinirtMalloc(&data, kCount * sizeof(float));
      std::vector<float> values(kCount, static_cast<float>(r + 1));
      if (status == INFINI_STATUS_SUCCESS) {
        status = infinirtMemcpy(data, values.data(), kCount * sizeof(float), INFINIRT_MEMCPY_H2D);
      }
      if (status == INFINI_STATUS_SUCCESS) {
        status = infinicclAllReduce(data, data, kCount, INFINI_DTYPE_F32, INFINICCL_SUM, comm, nullptr);
      }
      if (status == INFINI_STATUS_SUCCESS) status = infinirtStreamSynchronize(nullptr);
      if (status == INFINI_STATUS_SUCCESS) {
        got[r].resize(kCount);
        status = infinirtMemcpy(got[r].data(), data, kCount * sizeof(float), INFINIRT_MEMCPY_D2H);
      }
      if (data != nullptr) infinirtFree(data);
      if (comm != nullptr && infinicclCommDestroy(comm) != INFINI_STATUS_SUCCESS) status = INFINI_STATUS_INTERNAL_ERROR;
      results[r] = status;
    });
  }
  for (std::thread &thread : threads) thread.join();
  const float want = static_cast<float>(ranks * (ranks + 1) / 2);
  for (int r = 0; r < ranks; ++r) {
    ASSERT_EQ(results[r], INFINI_STATUS_SUCCESS) << "rank " << r;
    for (size_t i = 0; i < kCount; ++i) ASSERT_EQ(got[r][i], want) << "rank " << r << " i " << i;
  }
  // The id formed its one communicator.
  infinicclComm_t again = nullptr;
  EXPECT_EQ(infinicclCommInitRank(&again, ranks, id, 0), INFINI_STATUS_BAD_PARAM);
  infinirtSetDevice(INFINI_DEVICE_CPU, 0);
}

}  // namespace
}  // namespace reference_cuda_test
