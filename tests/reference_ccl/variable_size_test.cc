// AllGatherV and ReduceScatterV of the CPU reference: the block layout they share, blocks
// of unlike lengths (one empty) in and out of place from one thread and one thread per
// rank, and their statuses for bad arguments, in the order the library checks them.
#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>

#include "ccl/block_layout.h"
#include "ccl_test_support.h"

namespace ccl_test {
namespace {

using infinicts::ref::ccl::BlockLayout;

TEST(BlockLayoutTest, OffsetsAreTheSumsOfTheCountsBefore) {
  const size_t counts[] = {5, 0, 12, 3};
  const BlockLayout layout(counts, 4, 2);
  EXPECT_EQ(layout.offset(0), 0u);
  EXPECT_EQ(layout.offset(1), 5u);
  EXPECT_EQ(layout.offset(2), 5u);
  EXPECT_EQ(layout.offset(3), 17u);
  EXPECT_EQ(layout.count(2), 12u);
  EXPECT_EQ(layout.total(), 20u);
  EXPECT_FALSE(layout.overflows());
}

TEST(BlockLayoutTest, OverflowOfTheTotalOrItsBytes) {
  constexpr size_t kMax = std::numeric_limits<size_t>::max();
  const size_t elements[] = {kMax, 1};
  EXPECT_TRUE(BlockLayout(elements, 2, 1).overflows());
  const size_t bytes[] = {kMax / 4, 1};
  EXPECT_FALSE(BlockLayout(bytes, 2, 1).overflows());
  EXPECT_TRUE(BlockLayout(bytes, 2, 8).overflows());
  // An unknown dtype (size 0) leaves the dtype check to answer.
  EXPECT_FALSE(BlockLayout(bytes, 2, 0).overflows());
}

// Rank r's block: counts differ, rank 1's is empty.
constexpr size_t kCounts[kRanks] = {5, 0, 12, 3};
constexpr size_t kTotal = 20;

size_t Offset(int rank) { return std::accumulate(kCounts, kCounts + rank, size_t{0}); }

double GatheredValue(int rank, size_t i) { return static_cast<double>(rank * 100 + i) - 150; }

class VariableSizeTest : public CclTest {};

TEST_F(VariableSizeTest, AllGatherVInAndOutOfPlace) {
  constexpr infiniDtype_t kDtype = INFINI_DTYPE_I16;
  const size_t element = ElementSize(kDtype);
  for (Driving driving : {Driving::kOneThread, Driving::kThreadPerRank}) {
    for (bool in_place : {false, true}) {
      std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
      for (int rank = 0; rank < kRanks; ++rank) {
        std::vector<double> values(kCounts[rank]);
        for (size_t i = 0; i < values.size(); ++i) values[i] = GatheredValue(rank, i);
        send.push_back(std::make_unique<DeviceBuffer>(rank, std::max<size_t>(1, values.size() * element)));
        recv.push_back(std::make_unique<DeviceBuffer>(rank, kTotal * element));
        recv.back()->Upload(Encode(kDtype, std::vector<double>(kTotal, 7)));
        if (values.empty()) continue;
        if (in_place) {
          recv.back()->Upload(Encode(kDtype, values), Offset(rank) * element);
        } else {
          send.back()->Upload(Encode(kDtype, values));
        }
      }
      ForEachRank(driving, devices_, [&](int rank) {
        const size_t r = static_cast<size_t>(rank);
        void *source = in_place ? recv[r]->bytes() + Offset(rank) * element : send[r]->get();
        EXPECT_OK(infinicclAllGatherV(source, recv[r]->get(), kCounts, kRanks, kDtype, comms_[r], streams_[r]));
      });
      SyncAll();
      std::vector<double> want;
      for (int rank = 0; rank < kRanks; ++rank)
        for (size_t i = 0; i < kCounts[rank]; ++i) want.push_back(GatheredValue(rank, i));
      for (int rank = 0; rank < kRanks; ++rank) {
        ExpectValues(Decode(kDtype, recv[static_cast<size_t>(rank)]->Download(kTotal * element)), want,
                     "AllGatherV " + DrivingName(driving) + (in_place ? " in place" : "") + " rank " +
                         std::to_string(rank));
      }
    }
  }
}

double ScatteredInput(int rank, size_t i) { return static_cast<double>((rank * 7 + i * 3) % 23) - 11; }

TEST_F(VariableSizeTest, ReduceScatterVInAndOutOfPlace) {
  constexpr infiniDtype_t kDtype = INFINI_DTYPE_F32;
  const size_t element = ElementSize(kDtype);
  for (infinicclReduceOp_t op : {INFINICCL_SUM, INFINICCL_MAX, INFINICCL_AVG}) {
    for (bool in_place : {false, true}) {
      std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
      for (int rank = 0; rank < kRanks; ++rank) {
        std::vector<double> values(kTotal);
        for (size_t i = 0; i < kTotal; ++i) values[i] = ScatteredInput(rank, i);
        send.push_back(std::make_unique<DeviceBuffer>(rank, kTotal * element));
        send.back()->Upload(Encode(kDtype, values));
        recv.push_back(std::make_unique<DeviceBuffer>(rank, std::max<size_t>(1, kCounts[rank] * element)));
      }
      ForEachRank(Driving::kOneThread, devices_, [&](int rank) {
        const size_t r = static_cast<size_t>(rank);
        void *target = in_place ? send[r]->bytes() + Offset(rank) * element : recv[r]->get();
        EXPECT_OK(infinicclReduceScatterV(send[r]->get(), target, kCounts, kRanks, kDtype, op, comms_[r], streams_[r]));
      });
      SyncAll();
      for (int rank = 0; rank < kRanks; ++rank) {
        std::vector<double> want(kCounts[rank]);
        for (size_t i = 0; i < want.size(); ++i) {
          const size_t j = Offset(rank) + i;
          double reduced = ScatteredInput(0, j);
          for (int q = 1; q < kRanks; ++q) {
            reduced = op == INFINICCL_MAX ? std::max(reduced, ScatteredInput(q, j)) : reduced + ScatteredInput(q, j);
          }
          want[i] = op == INFINICCL_AVG ? reduced / kRanks : reduced;
        }
        const DeviceBuffer &result = in_place ? *send[static_cast<size_t>(rank)] : *recv[static_cast<size_t>(rank)];
        const size_t from = in_place ? Offset(rank) * element : 0;
        ExpectValues(Decode(kDtype, result.Download(want.size() * element, from)), want,
                     "ReduceScatterV op " + std::to_string(op) + (in_place ? " in place" : "") + " rank " +
                         std::to_string(rank));
      }
    }
  }
}

TEST_F(VariableSizeTest, StatusesInTheirOrder) {
  DeviceBuffer buffer(0, 4096);
  void *b = buffer.get();
  infinirtStream_t stream = streams_[0];
  const size_t empty_first[kRanks] = {0, 4, 4, 4};
  constexpr size_t kMax = std::numeric_limits<size_t>::max();
  const size_t overflowing[kRanks] = {kMax, 1, 0, 0};
  const auto gather = [&](void *send, void *recv, const size_t *counts, int nranks, int dtype, infinicclComm_t comm) {
    return infinicclAllGatherV(send, recv, counts, nranks, static_cast<infiniDtype_t>(dtype), comm, stream);
  };
  const auto scatter = [&](void *send, void *recv, const size_t *counts, int nranks, int dtype, int op,
                           infinicclComm_t comm) {
    return infinicclReduceScatterV(send, recv, counts, nranks, static_cast<infiniDtype_t>(dtype),
                                   static_cast<infinicclReduceOp_t>(op), comm, stream);
  };
  const int f32 = INFINI_DTYPE_F32;
  // NULL comm or counts first, then nranks, then overflow, then buffers, then dtype, then op.
  EXPECT_EQ(gather(b, b, kCounts, 3, INFINI_DTYPE_BOOL, nullptr), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(scatter(b, b, nullptr, 3, f32, 9, comms_[0]), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(gather(nullptr, b, kCounts, 3, f32, comms_[0]), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(scatter(b, b, kCounts, 0, f32, INFINICCL_SUM, comms_[0]), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(gather(b, b, overflowing, kRanks, f32, comms_[0]), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(gather(nullptr, b, kCounts, kRanks, INFINI_DTYPE_BOOL, comms_[0]), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(gather(b, nullptr, empty_first, kRanks, f32, comms_[0]), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(scatter(nullptr, b, empty_first, kRanks, f32, INFINICCL_SUM, comms_[0]), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(scatter(b, nullptr, kCounts, kRanks, f32, INFINICCL_SUM, comms_[0]), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(scatter(b, b, kCounts, kRanks, INFINI_DTYPE_C32, 9, comms_[0]), INFINI_STATUS_BAD_TENSOR_DTYPE);
  EXPECT_EQ(scatter(b, b, kCounts, kRanks, f32, 5, comms_[0]), INFINI_STATUS_BAD_PARAM);
  // Every count 0: nothing to do, NULL buffers accepted, nothing enqueued.
  const size_t zeros[kRanks] = {0, 0, 0, 0};
  EXPECT_OK(gather(nullptr, nullptr, zeros, kRanks, f32, comms_[0]));
  EXPECT_OK(scatter(nullptr, nullptr, zeros, kRanks, f32, INFINICCL_AVG, comms_[0]));
  ASSERT_OK(infinirtStreamSynchronize(stream));
}

}  // namespace
}  // namespace ccl_test
