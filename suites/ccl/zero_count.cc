// Count 0, one case per collective (spec section CCL-ZERO; for the variable-size forms,
// every count 0: CCL-AGV-2, CCL-RSV-2): every rank issues the
// collective with count 0, first with real buffers, which must keep every byte, then
// with NULL buffers; both must answer SUCCESS and be done once the streams are
// synchronized.
#include "ccl_check.h"
#include "ccl_run.h"
#include "ccl_variable.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;

constexpr int kRanks = 2;
constexpr size_t kBufferBytes = 64;

// Every count-0 call of `kind` for rank r: the reductions with SUM and AVG, Broadcast
// from the last rank, Send and Recv with the other rank (rank 0 sends first).
CallResult IssueZero(CollectiveKind kind, const World &world, int r, void *send, void *recv) {
  const auto comm = world.comm(r);
  const auto stream = world.stream(r);
  const auto check = [r](int status, const char *call) { return Check(status, std::string(call) + "(count 0, rank " + std::to_string(r) + ")"); };
  const infiniDtype_t dtype = INFINI_DTYPE_F32;
  switch (kind) {
    case CollectiveKind::kAllReduce: {
      CallResult result = check(ccl().infinicclAllReduce(send, recv, 0, dtype, INFINICCL_SUM, comm, stream), "infinicclAllReduce");
      if (!result.ok()) return result;
      return check(ccl().infinicclAllReduce(send, recv, 0, dtype, INFINICCL_AVG, comm, stream), "infinicclAllReduce");
    }
    case CollectiveKind::kReduceScatter: {
      CallResult result =
          check(ccl().infinicclReduceScatter(send, recv, 0, dtype, INFINICCL_SUM, comm, stream), "infinicclReduceScatter");
      if (!result.ok()) return result;
      return check(ccl().infinicclReduceScatter(send, recv, 0, dtype, INFINICCL_AVG, comm, stream),
                   "infinicclReduceScatter");
    }
    case CollectiveKind::kBroadcast:
      return check(ccl().infinicclBroadcast(send, recv, 0, dtype, world.size() - 1, comm, stream), "infinicclBroadcast");
    case CollectiveKind::kAllGather:
      return check(ccl().infinicclAllGather(send, recv, 0, dtype, comm, stream), "infinicclAllGather");
    case CollectiveKind::kSendRecv: {
      const int peer = 1 - r;
      const auto send_call = [&] { return check(ccl().infinicclSend(send, 0, dtype, peer, comm, stream), "infinicclSend"); };
      const auto recv_call = [&] { return check(ccl().infinicclRecv(recv, 0, dtype, peer, comm, stream), "infinicclRecv"); };
      CallResult result = r == 0 ? send_call() : recv_call();
      if (!result.ok()) return result;
      return r == 0 ? recv_call() : send_call();
    }
  }
  return {};
}

// The variable-size forms with every count 0 (optional capabilities).
const size_t kZeroCounts[kRanks] = {0, 0};

CallResult IssueZeroVariable(VariableKind kind, const World &world, int r, void *send, void *recv) {
  const std::string where = "(every count 0, rank " + std::to_string(r) + ")";
  if (kind == VariableKind::kAllGatherV) {
    return Check(ccl().infinicclAllGatherV(send, recv, kZeroCounts, kRanks, INFINI_DTYPE_F32, world.comm(r),
                                           world.stream(r)),
                 "infinicclAllGatherV" + where);
  }
  return Check(ccl().infinicclReduceScatterV(send, recv, kZeroCounts, kRanks, INFINI_DTYPE_F32, INFINICCL_AVG,
                                             world.comm(r), world.stream(r)),
               "infinicclReduceScatterV" + where);
}

using ZeroIssue = std::function<CallResult(const World &world, int r, void *send, void *recv)>;

void RunZeroCount(const ZeroIssue &issue) {
  CCL_REQUIRE_DEVICES(kRanks);
  World world;
  CCL_ASSERT_OK(world.Open(FirstDevices(kRanks)));
  std::mt19937_64 rng = CaseRng();
  std::vector<DeviceMemory *> sends(kRanks), recvs(kRanks);
  std::vector<Bytes> send_bytes, recv_bytes;
  for (int r = 0; r < kRanks; ++r) {
    send_bytes.push_back(RandomBytes(kBufferBytes, rng));
    recv_bytes.push_back(RandomBytes(kBufferBytes, rng));
    if (!world.is_local(r)) continue;
    CCL_ASSERT_OK(world.Allocate(r, kBufferBytes, &sends[r]));
    CCL_ASSERT_OK(world.Allocate(r, kBufferBytes, &recvs[r]));
    CCL_ASSERT_OK(sends[r]->Upload(send_bytes[r].data(), kBufferBytes));
    CCL_ASSERT_OK(recvs[r]->Upload(recv_bytes[r].data(), kBufferBytes));
  }
  CCL_ASSERT_OK(
      world.Run(Drive::kOneThread, [&](int r) { return issue(world, r, sends[r]->data(), recvs[r]->data()); }));
  MismatchLog log;
  Bytes got(kBufferBytes);
  for (int r : world.local_ranks()) {
    CCL_ASSERT_OK(sends[r]->Download(got.data(), kBufferBytes));
    log.Compare(INFINI_DTYPE_U8, false, r, "send buffer (count 0)", send_bytes[r].data(), got.data(), kBufferBytes);
    CCL_ASSERT_OK(recvs[r]->Download(got.data(), kBufferBytes));
    log.Compare(INFINI_DTYPE_U8, false, r, "receive buffer (count 0)", recv_bytes[r].data(), got.data(), kBufferBytes);
  }
  ExpectNoMismatch(log);

  CCL_ASSERT_OK(world.Run(Drive::kOneThread, [&](int r) { return issue(world, r, nullptr, nullptr); }));
  CCL_ASSERT_OK(world.Close());
}

class AllReduceZero : public cts::CaseBase {};
CTS_ACROSS_PROCESSES(AllReduceZero);
class BroadcastZero : public cts::CaseBase {};
CTS_ACROSS_PROCESSES(BroadcastZero);
class AllGatherZero : public cts::CaseBase {};
CTS_ACROSS_PROCESSES(AllGatherZero);
class ReduceScatterZero : public cts::CaseBase {};
CTS_ACROSS_PROCESSES(ReduceScatterZero);
class SendRecvZero : public cts::CaseBase {};
CTS_ACROSS_PROCESSES(SendRecvZero);
class AllGatherVZero : public cts::CaseBase {};
CTS_ACROSS_PROCESSES(AllGatherVZero);
class ReduceScatterVZero : public cts::CaseBase {};
CTS_ACROSS_PROCESSES(ReduceScatterVZero);

void RunZeroCount(CollectiveKind kind) {
  RunZeroCount(
      [kind](const World &world, int r, void *send, void *recv) { return IssueZero(kind, world, r, send, recv); });
}

void RunZeroCount(VariableKind kind) {
  cts::NoteOptionalCapability(CapabilityName(kind));
  RunZeroCount(
      [kind](const World &world, int r, void *send, void *recv) {
        return IssueZeroVariable(kind, world, r, send, recv);
      });
}

CTS_TEST_F(AllReduceZero, zero_count, "conformance", "all_reduce", "CCL-ZERO-1", "CCL-ZERO-2") {
  RunZeroCount(CollectiveKind::kAllReduce);
}
CTS_TEST_F(BroadcastZero, zero_count, "conformance", "broadcast", "CCL-ZERO-1", "CCL-ZERO-2") {
  RunZeroCount(CollectiveKind::kBroadcast);
}
CTS_TEST_F(AllGatherZero, zero_count, "conformance", "all_gather", "CCL-ZERO-1", "CCL-ZERO-2") {
  RunZeroCount(CollectiveKind::kAllGather);
}
CTS_TEST_F(ReduceScatterZero, zero_count, "conformance", "reduce_scatter", "CCL-ZERO-1", "CCL-ZERO-2") {
  RunZeroCount(CollectiveKind::kReduceScatter);
}
CTS_TEST_F(SendRecvZero, zero_count, "conformance", "send_recv", "CCL-ZERO-1", "CCL-ZERO-2") {
  RunZeroCount(CollectiveKind::kSendRecv);
}

CTS_TEST_F(AllGatherVZero, zero_count, "conformance", "all_gather_v", "CCL-AGV-2") {
  RunZeroCount(VariableKind::kAllGatherV);
}
CTS_TEST_F(ReduceScatterVZero, zero_count, "conformance", "reduce_scatter_v", "CCL-RSV-2") {
  RunZeroCount(VariableKind::kReduceScatterV);
}

}  // namespace
}  // namespace infinicts::ccl_cases
