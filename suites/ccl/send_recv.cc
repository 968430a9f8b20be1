// Subject `send_recv`: a ring exchange (every rank sends to the next and receives from
// the previous) of every number dtype, counts from 1 to 1,000,003, 2 to 4 ranks driven
// from one thread or one thread each; several messages between one pair matched in
// order; stream order with copies (spec sections CCL-P2P, CCL-ORDER).
#include "ccl_check.h"
#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;

std::vector<CollectiveParam> RingMatrix() {
  ParamMatrix matrix;
  for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) {
    matrix.Add(kNoOp, kNumberDtypes, kSmallCounts, {4}, kNoPlacement, drive);
  }
  matrix.Add(kNoOp, {INFINI_DTYPE_I8, INFINI_DTYPE_BF16, INFINI_DTYPE_U32, INFINI_DTYPE_F64}, {kLargeOddCount}, {4},
             kNoPlacement, Drive::kOneThread);
  matrix.Add(kNoOp, kNumberDtypes, {7}, {2, 3}, kNoPlacement, Drive::kThreadPerRank);
  matrix.Add(kNoOp, {INFINI_DTYPE_F32}, {7}, {8}, kNoPlacement, Drive::kThreadPerRank);
  return matrix.params();
}

class SendRecvRing : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(SendRecvRing);

CTS_TEST_P(SendRecvRing, ring, "send_recv", "CCL-P2P-1", "CCL-P2P-3", "CCL-INPLACE-5", "CCL-ORDER-1", "CCL-ORDER-2",
           "CCL-ORDER-3") {
  RunParamCase(CollectiveKind::kSendRecv, GetParam());
}

std::vector<CollectiveParam> StreamOrderMatrix() {
  ParamMatrix matrix;
  for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) {
    matrix.Add(kNoOp, {INFINI_DTYPE_F64}, {kStreamOrderCount}, {4}, kNoPlacement, drive);
  }
  return matrix.params();
}

class SendRecvStreamOrder : public cts::ParamCase<CollectiveParam> {};
CTS_ACROSS_PROCESSES(SendRecvStreamOrder);

CTS_TEST_P(SendRecvStreamOrder, after_memcpy_async, "send_recv", "CCL-ORDER-4", "CCL-P2P-1") {
  RunParamCase(CollectiveKind::kSendRecv, GetParam(), Feeding::kOnStream);
}

// Rank 0 sends several messages of one size to rank 1, which receives them in order;
// the other ranks take no part.
struct MessagesParam : cts::Param<MessagesParam> {
  int messages;
  Drive drive;
  MessagesParam(int m, Drive d) : messages(m), drive(d) {}
  std::string Name() const { return "messages_" + std::to_string(messages) + "__" + DriveName(drive); }
  std::string Json() const {
    return nlohmann::json{{"messages", messages}, {"ranks", 2}, {"drive", DriveName(drive)}}.dump();
  }
};

class SendRecvMessages : public cts::ParamCase<MessagesParam> {};
CTS_ACROSS_PROCESSES(SendRecvMessages);

CTS_TEST_P(SendRecvMessages, matched_in_order, "send_recv", "CCL-P2P-2", "CCL-P2P-1") {
  constexpr int kRanks = 2;
  constexpr size_t kCount = 1031;
  constexpr infiniDtype_t kDtype = INFINI_DTYPE_I32;
  const int messages = GetParam().messages;
  CCL_REQUIRE_DEVICES(kRanks);
  World world;
  CCL_ASSERT_OK(world.Open(FirstDevices(kRanks)));
  std::mt19937_64 rng = CaseRng();
  const size_t bytes = kCount * ElementSize(kDtype);
  std::vector<Bytes> payloads;
  std::vector<DeviceMemory *> sent(messages), received(messages);
  for (int m = 0; m < messages; ++m) {
    payloads.push_back(RandomBytes(bytes, rng));
    if (world.is_local(0)) {
      CCL_ASSERT_OK(world.Allocate(0, bytes, &sent[m]));
      CCL_ASSERT_OK(sent[m]->Upload(payloads[m].data(), bytes));
    }
    if (world.is_local(1)) {
      CCL_ASSERT_OK(world.Allocate(1, bytes, &received[m]));
      const Bytes unlike = Complement(payloads[m]);
      CCL_ASSERT_OK(received[m]->Upload(unlike.data(), bytes));
    }
  }
  CCL_ASSERT_OK(world.Run(GetParam().drive, [&](int rank) {
    for (int m = 0; m < messages; ++m) {
      const CallResult result =
          rank == 0 ? Check(ccl().infinicclSend(sent[m]->data(), kCount, kDtype, 1, world.comm(0), world.stream(0)),
                            "infinicclSend(message " + std::to_string(m) + ")")
                    : Check(ccl().infinicclRecv(received[m]->data(), kCount, kDtype, 0, world.comm(1), world.stream(1)),
                            "infinicclRecv(message " + std::to_string(m) + ")");
      if (!result.ok()) return result;
    }
    return CallResult{};
  }));
  MismatchLog log;
  Bytes got(bytes);
  for (int m = 0; m < messages && world.is_local(1); ++m) {
    CCL_ASSERT_OK(received[m]->Download(got.data(), bytes));
    const std::string what = "message " + std::to_string(m);
    log.Compare(kDtype, false, 1, what.c_str(), payloads[m].data(), got.data(), kCount);
  }
  ExpectNoMismatch(log);
  CCL_ASSERT_OK(world.Close());
}

INSTANTIATE_TEST_SUITE_P(conformance, SendRecvRing, testing::ValuesIn(RingMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, SendRecvStreamOrder, testing::ValuesIn(StreamOrderMatrix()),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, SendRecvMessages,
                         testing::Values(MessagesParam(4, Drive::kOneThread), MessagesParam(4, Drive::kThreadPerRank)),
                         cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
