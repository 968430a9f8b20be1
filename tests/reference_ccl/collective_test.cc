// Every collective on small integer data whose exact result the test computes: every
// dtype and op of AllReduce, in place and out of place, chunk boundaries, both ways of
// driving the ranks.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <utility>

#include "ccl_test_support.h"
#include "infinicts_ref/runtime_internal.h"

namespace ccl_test {
namespace {

const char *OpName(infinicclReduceOp_t op) {
  static const char *const kNames[] = {"sum", "prod", "max", "min", "avg"};
  return kNames[op];
}

// Element i of rank r for `op`: small integers whose reduction every dtype holds exactly
// (sums within ±120, products of ±1 and 2 within ±16, averages in quarters).
double InputValue(infinicclReduceOp_t op, infiniDtype_t dtype, int rank, size_t i) {
  const bool negatives = HoldsNegatives(dtype);
  switch (op) {
    case INFINICCL_SUM:
      return static_cast<double>((rank * 7 + i) % 30) - (negatives ? 20 : 0);
    case INFINICCL_PROD: {
      const double magnitude = (rank + i) % 3 == 0 ? 2 : 1;
      return negatives && (rank * 2 + i) % 5 == 0 ? -magnitude : magnitude;
    }
    case INFINICCL_MAX:
    case INFINICCL_MIN:
      return static_cast<double>((rank * 13 + i * 5) % 50) - (negatives ? 25 : 0);
    case INFINICCL_AVG:
      return static_cast<double>((rank * 3 + i) % 17) * (negatives ? -1 : 1);
  }
  return 0;
}

double Reduced(infinicclReduceOp_t op, infiniDtype_t dtype, int nranks, size_t i) {
  double result = InputValue(op, dtype, 0, i);
  for (int rank = 1; rank < nranks; ++rank) {
    const double value = InputValue(op, dtype, rank, i);
    switch (op) {
      case INFINICCL_SUM:
      case INFINICCL_AVG:
        result += value;
        break;
      case INFINICCL_PROD:
        result *= value;
        break;
      case INFINICCL_MAX:
        result = std::max(result, value);
        break;
      case INFINICCL_MIN:
        result = std::min(result, value);
        break;
    }
  }
  if (op != INFINICCL_AVG) return result;
  if (IsFloating(dtype)) return result / nranks;
  return static_cast<double>(static_cast<int64_t>(result) / nranks);  // C truncation toward zero
}

std::vector<double> Inputs(infinicclReduceOp_t op, infiniDtype_t dtype, int rank, size_t count) {
  std::vector<double> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = InputValue(op, dtype, rank, i);
  return values;
}

// The ranks of one communicator: rank r's handle, stream and device.
struct Ranks {
  std::vector<infinicclComm_t> comms;
  std::vector<infinirtStream_t> streams;
  std::vector<int> devices;
};

// One AllReduce over `ranks`: buffers filled with Inputs, issued, then checked.
class AllReduceRun {
 public:
  AllReduceRun(Ranks ranks, infiniDtype_t dtype, infinicclReduceOp_t op, size_t count, bool in_place)
      : ranks_(std::move(ranks)), dtype_(dtype), op_(op), count_(count), in_place_(in_place) {
    const size_t bytes = count * ElementSize(dtype);
    for (size_t r = 0; r < ranks_.comms.size(); ++r) {
      send_.push_back(std::make_unique<DeviceBuffer>(ranks_.devices[r], bytes));
      recv_.push_back(in_place ? nullptr : std::make_unique<DeviceBuffer>(ranks_.devices[r], bytes));
      send_.back()->Upload(Encode(dtype, Inputs(op, dtype, static_cast<int>(r), count)));
    }
  }

  void Issue(Driving driving) {
    driving_ = driving;
    ForEachRank(driving, ranks_.devices, [&](int rank) {
      const size_t r = static_cast<size_t>(rank);
      void *source = send_[r]->get();
      void *target = in_place_ ? source : recv_[r]->get();
      EXPECT_OK(infinicclAllReduce(source, target, count_, dtype_, op_, ranks_.comms[r], ranks_.streams[r]));
    });
  }

  // After the ranks' streams finished.
  void Verify() const {
    const int nranks = static_cast<int>(ranks_.comms.size());
    std::vector<double> want(count_);
    for (size_t i = 0; i < count_; ++i) want[i] = Reduced(op_, dtype_, nranks, i);
    for (int rank = 0; rank < nranks; ++rank) {
      const size_t r = static_cast<size_t>(rank);
      const DeviceBuffer &result = in_place_ ? *send_[r] : *recv_[r];
      ExpectValues(Decode(dtype_, result.Download(count_ * ElementSize(dtype_))), want,
                   "AllReduce " + DtypeName(dtype_) + " " + OpName(op_) + (in_place_ ? " in place" : "") + " " +
                       DrivingName(driving_) + " over " + std::to_string(nranks) + " ranks, rank " +
                       std::to_string(rank));
    }
  }

 private:
  const Ranks ranks_;
  const infiniDtype_t dtype_;
  const infinicclReduceOp_t op_;
  const size_t count_;
  const bool in_place_;
  Driving driving_ = Driving::kOneThread;
  std::vector<std::unique_ptr<DeviceBuffer>> send_, recv_;
};

void CheckAllReduce(const Ranks &ranks, infiniDtype_t dtype, infinicclReduceOp_t op, size_t count, bool in_place,
                    Driving driving) {
  AllReduceRun run(ranks, dtype, op, count, in_place);
  run.Issue(driving);
  for (infinirtStream_t stream : ranks.streams) ASSERT_OK(infinirtStreamSynchronize(stream));
  run.Verify();
}

class AllReduceTest : public CclTest {
 protected:
  Ranks All() const { return {comms_, streams_, devices_}; }
};

TEST_F(AllReduceTest, EveryDtypeAndOpInAndOutOfPlace) {
  // 131 elements: four chunks of which the first is empty and the last is short.
  for (infiniDtype_t dtype : NumberDtypes()) {
    for (int op = INFINICCL_SUM; op <= INFINICCL_AVG; ++op) {
      for (bool in_place : {false, true}) {
        CheckAllReduce(All(), dtype, static_cast<infinicclReduceOp_t>(op), 131, in_place, Driving::kOneThread);
      }
    }
  }
}

TEST_F(AllReduceTest, LargeCountsFromOneThreadAndThreadPerRank) {
  CheckAllReduce(All(), INFINI_DTYPE_F32, INFINICCL_SUM, 100003, false, Driving::kThreadPerRank);
  CheckAllReduce(All(), INFINI_DTYPE_BF16, INFINICCL_MAX, 100003, true, Driving::kThreadPerRank);
  CheckAllReduce(All(), INFINI_DTYPE_I64, INFINICCL_AVG, 100003, false, Driving::kOneThread);
  CheckAllReduce(All(), INFINI_DTYPE_F16, INFINICCL_PROD, 1, false, Driving::kThreadPerRank);
}

// Past 8 MiB per buffer the results are written with streaming stores; in place, and a
// count whose chunks end off a 64-byte boundary.
TEST_F(AllReduceTest, BuffersLargerThanTheCachesInPlace) {
  CheckAllReduce(All(), INFINI_DTYPE_F32, INFINICCL_SUM, (size_t{3} << 20) + 5, true, Driving::kThreadPerRank);
}

TEST_F(AllReduceTest, HalfPrecisionIsReducedInF32AndRoundedOnce) {
  // 2048 + 1 + 1 + 1: folded in F16 each addition would round back to 2048. In F32 the
  // sum is 2051, which rounds (tie, to even) to 2052; the average 512.75 rounds to 513.
  const std::vector<double> per_rank = {2048, 1, 1, 1};
  for (infinicclReduceOp_t op : {INFINICCL_SUM, INFINICCL_AVG}) {
    std::vector<std::unique_ptr<DeviceBuffer>> buffers;
    for (int rank = 0; rank < kRanks; ++rank) {
      buffers.push_back(std::make_unique<DeviceBuffer>(rank, 2));
      buffers.back()->Upload(Encode(INFINI_DTYPE_F16, {per_rank[static_cast<size_t>(rank)]}));
      ASSERT_OK(infinicclAllReduce(buffers.back()->get(), buffers.back()->get(), 1, INFINI_DTYPE_F16, op,
                                   comms_[static_cast<size_t>(rank)], streams_[static_cast<size_t>(rank)]));
    }
    SyncAll();
    for (int rank = 0; rank < kRanks; ++rank) {
      EXPECT_EQ(Decode(INFINI_DTYPE_F16, buffers[static_cast<size_t>(rank)]->Download(2))[0],
                op == INFINICCL_SUM ? 2052.0 : 513.0)
          << OpName(op) << " rank " << rank;
    }
  }
}

TEST_F(AllReduceTest, NullStreamIsTheRankDevicesDefaultStream) {
  // One thread whose current device is 0 issues every rank on NULL: each rank must run on
  // its own device's default stream, or the ranks would wait for each other on one worker.
  CheckAllReduce({comms_, {nullptr, nullptr, nullptr, nullptr}, devices_}, INFINI_DTYPE_I32, INFINICCL_SUM, 1000, false,
                 Driving::kOneThread);
  infiniDevice_t type;
  int device = -1;
  ASSERT_OK(infinirtGetDevice(&type, &device));
  EXPECT_EQ(device, 0) << "the caller's current device is left as it was";
}

TEST_F(AllReduceTest, OrderedWithOtherWorkOnTheStream) {
  // Rank 0's stream sleeps before its upload: an AllReduce that ran ahead of the upload
  // would reduce stale data. The download after it must see the result.
  constexpr size_t kCount = 256;
  std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
  std::vector<std::vector<uint8_t>> inputs(kRanks), outputs(kRanks, std::vector<uint8_t>(kCount * 4));
  for (int rank = 0; rank < kRanks; ++rank) {
    send.push_back(std::make_unique<DeviceBuffer>(rank, kCount * 4));
    recv.push_back(std::make_unique<DeviceBuffer>(rank, kCount * 4));
    send.back()->Upload(Encode(INFINI_DTYPE_I32, std::vector<double>(kCount, -1)));
    inputs[static_cast<size_t>(rank)] = Encode(INFINI_DTYPE_I32, Inputs(INFINICCL_SUM, INFINI_DTYPE_I32, rank, kCount));
  }
  ASSERT_OK(
      infinicts_ref::EnqueueOnStream(streams_[0], [] { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }));
  for (int rank = 0; rank < kRanks; ++rank) {
    const size_t r = static_cast<size_t>(rank);
    ASSERT_OK(infinirtMemcpyAsync(send[r]->get(), inputs[r].data(), kCount * 4, INFINIRT_MEMCPY_H2D, streams_[r]));
    ASSERT_OK(infinicclAllReduce(send[r]->get(), recv[r]->get(), kCount, INFINI_DTYPE_I32, INFINICCL_SUM, comms_[r],
                                 streams_[r]));
    ASSERT_OK(infinirtMemcpyAsync(outputs[r].data(), recv[r]->get(), kCount * 4, INFINIRT_MEMCPY_D2H, streams_[r]));
  }
  SyncAll();
  std::vector<double> want(kCount);
  for (size_t i = 0; i < kCount; ++i) want[i] = Reduced(INFINICCL_SUM, INFINI_DTYPE_I32, kRanks, i);
  for (int rank = 0; rank < kRanks; ++rank) {
    ExpectValues(Decode(INFINI_DTYPE_I32, outputs[static_cast<size_t>(rank)]), want, "rank " + std::to_string(rank));
  }
}

TEST_F(AllReduceTest, SeveralCommunicatorsAtOnceAndSmallerOnes) {
  // A second communicator over the same devices in reverse order, one over devices 1 and
  // 3, and one of a single rank, all alive with comms_.
  std::vector<infinicclComm_t> reversed(kRanks), pair(2), single(1);
  const int reversed_devices[] = {3, 2, 1, 0}, pair_devices[] = {1, 3}, single_device[] = {2};
  ASSERT_OK(infinicclCommInitAll(INFINI_DEVICE_CPU, reversed.data(), kRanks, reversed_devices));
  ASSERT_OK(infinicclCommInitAll(INFINI_DEVICE_CPU, pair.data(), 2, pair_devices));
  ASSERT_OK(infinicclCommInitAll(INFINI_DEVICE_CPU, single.data(), 1, single_device));

  // Issued interleaved on the same streams (comms_, reversed, comms_ again), then checked.
  AllReduceRun first(All(), INFINI_DTYPE_I16, INFINICCL_MAX, 300, false);
  AllReduceRun second({reversed, {streams_[3], streams_[2], streams_[1], streams_[0]}, {3, 2, 1, 0}}, INFINI_DTYPE_F64,
                      INFINICCL_SUM, 300, false);
  AllReduceRun third(All(), INFINI_DTYPE_U64, INFINICCL_MIN, 300, true);
  first.Issue(Driving::kOneThread);
  second.Issue(Driving::kThreadPerRank);
  third.Issue(Driving::kOneThread);
  SyncAll();
  first.Verify();
  second.Verify();
  third.Verify();
  CheckAllReduce({pair, {streams_[1], streams_[3]}, {1, 3}}, INFINI_DTYPE_U32, INFINICCL_PROD, 77, true,
                 Driving::kOneThread);
  CheckAllReduce({single, {streams_[2]}, {2}}, INFINI_DTYPE_I8, INFINICCL_AVG, 77, false, Driving::kOneThread);

  for (infinicclComm_t comm : reversed) EXPECT_OK(infinicclCommDestroy(comm));
  for (infinicclComm_t comm : pair) EXPECT_OK(infinicclCommDestroy(comm));
  EXPECT_OK(infinicclCommDestroy(single[0]));
}

TEST_F(AllReduceTest, DestroyingTheCommunicatorsWhileTheirWorkIsQueued) {
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  for (int rank = 0; rank < kRanks; ++rank) {
    buffers.push_back(std::make_unique<DeviceBuffer>(rank, 4));
    buffers.back()->Upload(Encode(INFINI_DTYPE_I32, {static_cast<double>(rank + 1)}));
    ASSERT_OK(infinicclAllReduce(buffers.back()->get(), buffers.back()->get(), 1, INFINI_DTYPE_I32, INFINICCL_SUM,
                                 comms_[static_cast<size_t>(rank)], streams_[static_cast<size_t>(rank)]));
    EXPECT_OK(infinicclCommDestroy(comms_[static_cast<size_t>(rank)]));
    comms_[static_cast<size_t>(rank)] = nullptr;
  }
  SyncAll();
  for (int rank = 0; rank < kRanks; ++rank) {
    EXPECT_EQ(Decode(INFINI_DTYPE_I32, buffers[static_cast<size_t>(rank)]->Download(4))[0], 10.0);
  }
}

using CollectiveTest = AllReduceTest;

TEST_F(CollectiveTest, BroadcastFromEveryRootInAndOutOfPlace) {
  constexpr size_t kCount = 100;
  for (int root = 0; root < kRanks; ++root) {
    for (bool in_place : {false, true}) {
      std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
      for (int rank = 0; rank < kRanks; ++rank) {
        send.push_back(std::make_unique<DeviceBuffer>(rank, kCount * 4));
        recv.push_back(std::make_unique<DeviceBuffer>(rank, kCount * 4));
        std::vector<double> values(kCount);
        for (size_t i = 0; i < kCount; ++i) values[i] = static_cast<double>(rank * 1000 + i) - 500;
        send.back()->Upload(Encode(INFINI_DTYPE_I32, values));
      }
      ForEachRank(Driving::kOneThread, devices_, [&](int rank) {
        const size_t r = static_cast<size_t>(rank);
        void *target = in_place ? send[r]->get() : recv[r]->get();
        // Out of place, the other ranks pass no send buffer: only the root's is read.
        const void *source = in_place || rank == root ? send[r]->get() : nullptr;
        EXPECT_OK(infinicclBroadcast(source, target, kCount, INFINI_DTYPE_I32, root, comms_[r], streams_[r]));
      });
      SyncAll();
      std::vector<double> want(kCount);
      for (size_t i = 0; i < kCount; ++i) want[i] = static_cast<double>(root * 1000 + i) - 500;
      for (int rank = 0; rank < kRanks; ++rank) {
        const DeviceBuffer &result = in_place ? *send[static_cast<size_t>(rank)] : *recv[static_cast<size_t>(rank)];
        ExpectValues(Decode(INFINI_DTYPE_I32, result.Download(kCount * 4)), want,
                     "root " + std::to_string(root) + (in_place ? " in place" : "") + " rank " + std::to_string(rank));
      }
    }
  }
}

TEST_F(CollectiveTest, AllGatherInAndOutOfPlace) {
  constexpr size_t kSendCount = 37;
  const size_t segment = kSendCount * 2;
  for (Driving driving : {Driving::kOneThread, Driving::kThreadPerRank}) {
    for (bool in_place : {false, true}) {
      std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
      for (int rank = 0; rank < kRanks; ++rank) {
        std::vector<double> values(kSendCount);
        for (size_t i = 0; i < kSendCount; ++i) values[i] = static_cast<double>(rank * 100 + i) - 150;
        send.push_back(std::make_unique<DeviceBuffer>(rank, segment));
        recv.push_back(std::make_unique<DeviceBuffer>(rank, segment * kRanks));
        recv.back()->Upload(Encode(INFINI_DTYPE_I16, std::vector<double>(kSendCount * kRanks, 7)));
        if (in_place) {
          recv.back()->Upload(Encode(INFINI_DTYPE_I16, values), static_cast<size_t>(rank) * segment);
        } else {
          send.back()->Upload(Encode(INFINI_DTYPE_I16, values));
        }
      }
      ForEachRank(driving, devices_, [&](int rank) {
        const size_t r = static_cast<size_t>(rank);
        void *source = in_place ? recv[r]->bytes() + r * segment : send[r]->get();
        EXPECT_OK(infinicclAllGather(source, recv[r]->get(), kSendCount, INFINI_DTYPE_I16, comms_[r], streams_[r]));
      });
      SyncAll();
      std::vector<double> want(kSendCount * kRanks);
      for (size_t i = 0; i < want.size(); ++i)
        want[i] = static_cast<double>(i / kSendCount * 100 + i % kSendCount) - 150;
      for (int rank = 0; rank < kRanks; ++rank) {
        ExpectValues(Decode(INFINI_DTYPE_I16, recv[static_cast<size_t>(rank)]->Download(segment * kRanks)), want,
                     DrivingName(driving) + (in_place ? " in place" : "") + " rank " + std::to_string(rank));
      }
    }
  }
}

TEST_F(CollectiveTest, ReduceScatterInAndOutOfPlace) {
  constexpr size_t kRecvCount = 29;
  const size_t segment = kRecvCount * 8;
  for (infinicclReduceOp_t op : {INFINICCL_SUM, INFINICCL_MIN, INFINICCL_AVG}) {
    for (bool in_place : {false, true}) {
      std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
      for (int rank = 0; rank < kRanks; ++rank) {
        send.push_back(std::make_unique<DeviceBuffer>(rank, segment * kRanks));
        recv.push_back(std::make_unique<DeviceBuffer>(rank, segment));
        send.back()->Upload(Encode(INFINI_DTYPE_F64, Inputs(op, INFINI_DTYPE_F64, rank, kRecvCount * kRanks)));
      }
      ForEachRank(Driving::kOneThread, devices_, [&](int rank) {
        const size_t r = static_cast<size_t>(rank);
        void *target = in_place ? send[r]->bytes() + r * segment : recv[r]->get();
        EXPECT_OK(
            infinicclReduceScatter(send[r]->get(), target, kRecvCount, INFINI_DTYPE_F64, op, comms_[r], streams_[r]));
      });
      SyncAll();
      for (int rank = 0; rank < kRanks; ++rank) {
        const size_t r = static_cast<size_t>(rank);
        std::vector<double> want(kRecvCount);
        for (size_t i = 0; i < kRecvCount; ++i) want[i] = Reduced(op, INFINI_DTYPE_F64, kRanks, r * kRecvCount + i);
        const std::vector<uint8_t> got =
            in_place ? send[r]->Download(segment, r * segment) : recv[r]->Download(segment);
        ExpectValues(Decode(INFINI_DTYPE_F64, got), want,
                     std::string(OpName(op)) + (in_place ? " in place" : "") + " rank " + std::to_string(rank));
      }
    }
  }
}

TEST_F(CollectiveTest, CountZeroCompletesAndTouchesNothing) {
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  const std::vector<uint8_t> sentinel = Encode(INFINI_DTYPE_I32, std::vector<double>(16, 12345));
  for (int rank = 0; rank < kRanks; ++rank) {
    buffers.push_back(std::make_unique<DeviceBuffer>(rank, 64));
    buffers.back()->Upload(sentinel);
  }
  // Only rank 0 calls: a count-0 call waits for nobody.
  void *buffer = buffers[0]->get();
  EXPECT_OK(infinicclAllReduce(buffer, buffer, 0, INFINI_DTYPE_I32, INFINICCL_SUM, comms_[0], streams_[0]));
  EXPECT_OK(infinicclReduceScatter(buffer, buffer, 0, INFINI_DTYPE_I32, INFINICCL_AVG, comms_[0], streams_[0]));
  EXPECT_OK(infinicclAllGather(buffer, buffer, 0, INFINI_DTYPE_I32, comms_[0], streams_[0]));
  EXPECT_OK(infinicclBroadcast(buffer, buffer, 0, INFINI_DTYPE_I32, 1, comms_[0], streams_[0]));
  EXPECT_OK(infinicclSend(buffer, 0, INFINI_DTYPE_I32, 1, comms_[0], streams_[0]));
  EXPECT_OK(infinicclRecv(buffer, 0, INFINI_DTYPE_I32, 1, comms_[0], streams_[0]));
  EXPECT_OK(infinicclAllReduce(nullptr, nullptr, 0, INFINI_DTYPE_F32, INFINICCL_MAX, comms_[0], nullptr));
  SyncAll();
  EXPECT_EQ(buffers[0]->Download(64), sentinel);
  // Count-0 calls take no place in the matching: the next real collective still pairs up.
  CheckAllReduce(All(), INFINI_DTYPE_U8, INFINICCL_SUM, 9, false, Driving::kOneThread);
}

// Every rank's F32 SUM AllReduce in place, issued from one thread inside one group.
class OneThreadGroupTest : public CclTest {
 protected:
  void UploadInputs(size_t count) {
    count_ = count;
    for (int rank = 0; rank < kRanks; ++rank) {
      buffers_.push_back(std::make_unique<DeviceBuffer>(rank, count * 4));
      buffers_.back()->Upload(Encode(INFINI_DTYPE_F32, Inputs(INFINICCL_SUM, INFINI_DTYPE_F32, rank, count)));
    }
  }
  void IssueInOneGroup() {
    ASSERT_OK(infinicclGroupStart(comms_[0]));
    for (size_t r = 0; r < buffers_.size(); ++r) {
      ASSERT_OK(infinicclAllReduce(buffers_[r]->get(), buffers_[r]->get(), count_, INFINI_DTYPE_F32, INFINICCL_SUM,
                                   comms_[r], streams_[r]));
    }
    ASSERT_OK(infinicclGroupEnd(comms_[0]));
  }
  void ExpectSums(const std::string &how) {
    std::vector<double> want(count_);
    for (size_t i = 0; i < count_; ++i) want[i] = Reduced(INFINICCL_SUM, INFINI_DTYPE_F32, kRanks, i);
    for (size_t r = 0; r < buffers_.size(); ++r) {
      ExpectValues(Decode(INFINI_DTYPE_F32, buffers_[r]->Download(count_ * 4)), want,
                   "rank " + std::to_string(r) + how);
    }
  }

  size_t count_ = 0;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
};

TEST_F(OneThreadGroupTest, GroupAroundASingleThreadLoop) {
  UploadInputs(50);
  IssueInOneGroup();
  SyncAll();
  ExpectSums("");
}

// The one-thread pattern NCCL prescribes (every rank's collective inside one group), then a
// blocking read with no stream synchronized: it waits for the work on every stream of the
// buffer's device (reference_impl/README.md), so it sees the reduced values. Each stream is
// kept busy with large copies ahead of the group, so a read that did not wait would see the
// inputs. One thread issuing ungrouped collectives and blocking between them is outside
// NCCL's rules and hangs, on the CPU as with cudaMemcpy.
TEST_F(OneThreadGroupTest, ABlockingReadAfterAGroupSeesTheCollectiveDone) {
  constexpr size_t kBusyBytes = size_t{64} << 20;
  UploadInputs(size_t{1} << 16);
  std::vector<std::unique_ptr<DeviceBuffer>> busy_from, busy_to;
  for (int rank = 0; rank < kRanks; ++rank) {
    busy_from.push_back(std::make_unique<DeviceBuffer>(rank, kBusyBytes));
    busy_to.push_back(std::make_unique<DeviceBuffer>(rank, kBusyBytes));
    for (int copy = 0; copy < 4; ++copy) {
      ASSERT_OK(infinirtMemcpyAsync(busy_to.back()->get(), busy_from.back()->get(), kBusyBytes, INFINIRT_MEMCPY_D2D,
                                    streams_[static_cast<size_t>(rank)]));
    }
  }
  IssueInOneGroup();
  ExpectSums(", read without a stream synchronize");
}

}  // namespace
}  // namespace ccl_test
