// Send/Recv: rings in both ways of driving the ranks, order between a pair, and a group
// in which every rank posts its Recv before its Send.
#include <memory>

#include "ccl_test_support.h"

namespace ccl_test {
namespace {

using PointToPointTest = CclTest;

constexpr size_t kCount = 1000;

std::vector<double> Message(int from, int serial) {
  std::vector<double> values(kCount);
  for (size_t i = 0; i < kCount; ++i) values[i] = static_cast<double>(from * 100000 + serial * 10000 + i);
  return values;
}

// Each rank sends Message(rank, 0) to the next rank and receives from the previous one.
void RunRing(const std::vector<infinicclComm_t> &comms, const std::vector<infinirtStream_t> &streams,
             const std::vector<int> &devices, Driving driving, bool receive_first, bool grouped) {
  std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
  for (int rank = 0; rank < kRanks; ++rank) {
    send.push_back(std::make_unique<DeviceBuffer>(rank, kCount * 4));
    recv.push_back(std::make_unique<DeviceBuffer>(rank, kCount * 4));
    send.back()->Upload(Encode(INFINI_DTYPE_I32, Message(rank, 0)));
  }
  ForEachRank(driving, devices, [&](int rank) {
    const size_t r = static_cast<size_t>(rank);
    const int next = (rank + 1) % kRanks, previous = (rank + kRanks - 1) % kRanks;
    if (grouped) {
      EXPECT_OK(infinicclGroupStart(comms[r]));
    }
    for (int step = 0; step < 2; ++step) {
      if ((step == 0) == receive_first) {
        EXPECT_OK(infinicclRecv(recv[r]->get(), kCount, INFINI_DTYPE_I32, previous, comms[r], streams[r]));
      } else {
        EXPECT_OK(infinicclSend(send[r]->get(), kCount, INFINI_DTYPE_I32, next, comms[r], streams[r]));
      }
    }
    if (grouped) {
      EXPECT_OK(infinicclGroupEnd(comms[r]));
    }
  });
  for (infinirtStream_t stream : streams) ASSERT_OK(infinirtStreamSynchronize(stream));
  for (int rank = 0; rank < kRanks; ++rank) {
    ExpectValues(
        Decode(INFINI_DTYPE_I32, recv[static_cast<size_t>(rank)]->Download(kCount * 4)),
        Message((rank + kRanks - 1) % kRanks, 0),
        DrivingName(driving) + (receive_first ? " recv first" : " send first") + " rank " + std::to_string(rank));
  }
}

TEST_F(PointToPointTest, RingSendThenRecvFromOneThreadAndThreadPerRank) {
  RunRing(comms_, streams_, devices_, Driving::kOneThread, false, false);
  RunRing(comms_, streams_, devices_, Driving::kThreadPerRank, false, false);
}

TEST_F(PointToPointTest, RingRecvThenSendInsideAGroup) {
  RunRing(comms_, streams_, devices_, Driving::kThreadPerRank, true, true);
  RunRing(comms_, streams_, devices_, Driving::kOneThread, true, true);
}

TEST_F(PointToPointTest, MessagesBetweenAPairArriveInOrder) {
  // Rank 2 sends three messages to rank 0; rank 0 receives them on its stream in order,
  // the first Recv posted before any Send.
  std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
  for (int serial = 0; serial < 3; ++serial) {
    send.push_back(std::make_unique<DeviceBuffer>(2, kCount * 4));
    recv.push_back(std::make_unique<DeviceBuffer>(0, kCount * 4));
    send.back()->Upload(Encode(INFINI_DTYPE_I32, Message(2, serial)));
  }
  ASSERT_OK(infinicclRecv(recv[0]->get(), kCount, INFINI_DTYPE_I32, 2, comms_[0], streams_[0]));
  for (int serial = 0; serial < 3; ++serial) {
    ASSERT_OK(
        infinicclSend(send[static_cast<size_t>(serial)]->get(), kCount, INFINI_DTYPE_I32, 0, comms_[2], streams_[2]));
  }
  for (int serial = 1; serial < 3; ++serial) {
    ASSERT_OK(
        infinicclRecv(recv[static_cast<size_t>(serial)]->get(), kCount, INFINI_DTYPE_I32, 2, comms_[0], streams_[0]));
  }
  SyncAll();
  for (int serial = 0; serial < 3; ++serial) {
    ExpectValues(Decode(INFINI_DTYPE_I32, recv[static_cast<size_t>(serial)]->Download(kCount * 4)), Message(2, serial),
                 "message " + std::to_string(serial));
  }
}

}  // namespace
}  // namespace ccl_test
