// Bad input, one case per bad call, under the subject of its collective (spec section
// CCL-ERR, and CCL-AGV-4 / CCL-RSV-4 for the variable-size forms): NULL communicator, NULL
// buffers with count > 0, dtypes that are not number dtypes, ops, roots and peers out of
// range, NULL counts arrays and nranks other than the group's size. The call is made on rank 0 of a group of 2
// only; it must answer its status at once, enqueue nothing and change nothing, and
// the group must then still give exact results.
#include <functional>

#include "ccl_check.h"
#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;

constexpr int kRanks = 2;
constexpr size_t kCount = 8;
constexpr size_t kBufferBytes = kRanks * kCount * 16;  // room for any dtype, gathered

struct BadCallContext {
  const World &world;
  void *send;
  void *recv;
};

struct BadCall : cts::Param<BadCall> {
  std::string name;
  int expected;
  std::function<int(const BadCallContext &)> call;
  BadCall(std::string n, int e, std::function<int(const BadCallContext &)> c)
      : name(std::move(n)), expected(e), call(std::move(c)) {}
  std::string Name() const { return name; }
  std::string Json() const { return nlohmann::json{{"call", name}, {"expected", StatusName(expected)}}.dump(); }
};

// Values of infiniDtype_t that are not number dtypes (20 and 31: past the last one).
const std::vector<std::pair<const char *, int>> kNotNumberDtypes = {
    {"invalid", INFINI_DTYPE_INVALID}, {"byte", INFINI_DTYPE_BYTE}, {"bool", INFINI_DTYPE_BOOL},
    {"f8", INFINI_DTYPE_F8},           {"c16", INFINI_DTYPE_C16},   {"c32", INFINI_DTYPE_C32},
    {"c64", INFINI_DTYPE_C64},         {"c128", INFINI_DTYPE_C128}, {"20", 20},
    {"31", 31}};

// The rows every collective shares: NULL communicator, each NULL buffer it needs, and
// every dtype that is not a number. `call(context, dtype, comm, send, recv)` makes the
// collective's call with everything else valid.
using CallShape = std::function<int(const BadCallContext &, infiniDtype_t, infinicclComm_t, void *, void *)>;

std::vector<BadCall> CommonRows(const CallShape &call, bool needs_send, bool needs_recv) {
  std::vector<BadCall> rows;
  rows.emplace_back("null_comm", INFINI_STATUS_NULL_POINTER,
                    [call](const BadCallContext &c) { return call(c, INFINI_DTYPE_F32, nullptr, c.send, c.recv); });
  if (needs_send) {
    rows.emplace_back("null_send", INFINI_STATUS_NULL_POINTER, [call](const BadCallContext &c) {
      return call(c, INFINI_DTYPE_F32, c.world.comm(0), nullptr, c.recv);
    });
  }
  if (needs_recv) {
    rows.emplace_back("null_recv", INFINI_STATUS_NULL_POINTER, [call](const BadCallContext &c) {
      return call(c, INFINI_DTYPE_F32, c.world.comm(0), c.send, nullptr);
    });
  }
  for (const auto &[name, value] : kNotNumberDtypes) {
    const auto dtype = static_cast<infiniDtype_t>(value);
    rows.emplace_back(std::string("dtype_") + name, INFINI_STATUS_BAD_TENSOR_DTYPE,
                      [call, dtype](const BadCallContext &c) { return call(c, dtype, c.world.comm(0), c.send, c.recv); });
  }
  return rows;
}

// Ops out of range (5 and 7: past AVG) for the reductions.
template <class Reduce>
void AddOpRows(std::vector<BadCall> &rows, Reduce reduce) {
  for (int op : {5, 7}) {
    rows.emplace_back("op_" + std::to_string(op), INFINI_STATUS_BAD_PARAM, [reduce, op](const BadCallContext &c) {
      return reduce(c, static_cast<infinicclReduceOp_t>(op));
    });
  }
}

std::vector<BadCall> AllReduceRows() {
  auto rows = CommonRows(
      [](const BadCallContext &c, infiniDtype_t dtype, infinicclComm_t comm, void *send, void *recv) {
        return ccl().infinicclAllReduce(send, recv, kCount, dtype, INFINICCL_SUM, comm, c.world.stream(0));
      },
      true, true);
  AddOpRows(rows, [](const BadCallContext &c, infinicclReduceOp_t op) {
    return ccl().infinicclAllReduce(c.send, c.recv, kCount, INFINI_DTYPE_F32, op, c.world.comm(0), c.world.stream(0));
  });
  return rows;
}

std::vector<BadCall> ReduceScatterRows() {
  auto rows = CommonRows(
      [](const BadCallContext &c, infiniDtype_t dtype, infinicclComm_t comm, void *send, void *recv) {
        return ccl().infinicclReduceScatter(send, recv, kCount, dtype, INFINICCL_SUM, comm, c.world.stream(0));
      },
      true, true);
  AddOpRows(rows, [](const BadCallContext &c, infinicclReduceOp_t op) {
    return ccl().infinicclReduceScatter(c.send, c.recv, kCount, INFINI_DTYPE_F32, op, c.world.comm(0),
                                        c.world.stream(0));
  });
  return rows;
}

std::vector<BadCall> AllGatherRows() {
  return CommonRows(
      [](const BadCallContext &c, infiniDtype_t dtype, infinicclComm_t comm, void *send, void *recv) {
        return ccl().infinicclAllGather(send, recv, kCount, dtype, comm, c.world.stream(0));
      },
      true, true);
}

// Rank 0 is the root, so its send buffer is needed.
std::vector<BadCall> BroadcastRows() {
  auto rows = CommonRows(
      [](const BadCallContext &c, infiniDtype_t dtype, infinicclComm_t comm, void *send, void *recv) {
        return ccl().infinicclBroadcast(send, recv, kCount, dtype, 0, comm, c.world.stream(0));
      },
      true, true);
  for (int root : {-1, kRanks}) {
    rows.emplace_back(root < 0 ? "root_minus_1" : "root_" + std::to_string(root), INFINI_STATUS_BAD_PARAM, [root](const BadCallContext &c) {
      return ccl().infinicclBroadcast(c.send, c.recv, kCount, INFINI_DTYPE_F32, root, c.world.comm(0), c.world.stream(0));
    });
  }
  return rows;
}

std::vector<BadCall> SendRecvRows() {
  std::vector<BadCall> rows;
  const auto rename = [&rows](const char *prefix, std::vector<BadCall> more) {
    for (BadCall &row : more) {
      row.name = std::string(prefix) + "__" + row.name;
      rows.push_back(std::move(row));
    }
  };
  rename("send", CommonRows(
                     [](const BadCallContext &c, infiniDtype_t dtype, infinicclComm_t comm, void *send, void *) {
                       return ccl().infinicclSend(send, kCount, dtype, 1, comm, c.world.stream(0));
                     },
                     true, false));
  rename("recv", CommonRows(
                     [](const BadCallContext &c, infiniDtype_t dtype, infinicclComm_t comm, void *, void *recv) {
                       return ccl().infinicclRecv(recv, kCount, dtype, 1, comm, c.world.stream(0));
                     },
                     false, true));
  // Peers out of range, and the caller's own rank (0).
  for (int peer : {-1, kRanks, 0}) {
    const std::string peer_name = peer == 0 ? "peer_self" : peer < 0 ? "peer_minus_1" : "peer_" + std::to_string(peer);
    rows.emplace_back("send__" + peer_name, INFINI_STATUS_BAD_PARAM, [peer](const BadCallContext &c) {
      return ccl().infinicclSend(c.send, kCount, INFINI_DTYPE_F32, peer, c.world.comm(0), c.world.stream(0));
    });
    rows.emplace_back("recv__" + peer_name, INFINI_STATUS_BAD_PARAM, [peer](const BadCallContext &c) {
      return ccl().infinicclRecv(c.recv, kCount, INFINI_DTYPE_F32, peer, c.world.comm(0), c.world.stream(0));
    });
  }
  return rows;
}

// The variable-size forms (optional capabilities): rank 0's block holds kCount elements and
// rank 1's fewer, so both buffers are needed; the counts array and nranks are checked too.
// The array holds one entry past the group's size, so an nranks of 3 reads no further.
const size_t kVariableCounts[kRanks + 1] = {kCount, kCount - 3, kCount};

template <class VariableCall>
std::vector<BadCall> VariableRows(VariableCall variable) {
  auto rows = CommonRows(
      [variable](const BadCallContext &c, infiniDtype_t dtype, infinicclComm_t comm, void *send, void *recv) {
        return variable(c, send, recv, kVariableCounts, kRanks, dtype, comm);
      },
      true, true);
  rows.emplace_back("null_counts", INFINI_STATUS_NULL_POINTER, [variable](const BadCallContext &c) {
    return variable(c, c.send, c.recv, nullptr, kRanks, INFINI_DTYPE_F32, c.world.comm(0));
  });
  for (int nranks : {kRanks - 1, kRanks + 1, 0}) {
    const auto wrong_size = [variable, nranks](const BadCallContext &c) {
      return variable(c, c.send, c.recv, kVariableCounts, nranks, INFINI_DTYPE_F32, c.world.comm(0));
    };
    rows.emplace_back("nranks_" + std::to_string(nranks), INFINI_STATUS_BAD_PARAM, wrong_size);
  }
  return rows;
}

std::vector<BadCall> AllGatherVRows() {
  return VariableRows([](const BadCallContext &c, void *send, void *recv, const size_t *counts, int nranks,
                         infiniDtype_t dtype, infinicclComm_t comm) {
    return ccl().infinicclAllGatherV(send, recv, counts, nranks, dtype, comm, c.world.stream(0));
  });
}

std::vector<BadCall> ReduceScatterVRows() {
  auto rows = VariableRows([](const BadCallContext &c, void *send, void *recv, const size_t *counts, int nranks,
                              infiniDtype_t dtype, infinicclComm_t comm) {
    return ccl().infinicclReduceScatterV(send, recv, counts, nranks, dtype, INFINICCL_SUM, comm, c.world.stream(0));
  });
  AddOpRows(rows, [](const BadCallContext &c, infinicclReduceOp_t op) {
    return ccl().infinicclReduceScatterV(c.send, c.recv, kVariableCounts, kRanks, INFINI_DTYPE_F32, op,
                                         c.world.comm(0), c.world.stream(0));
  });
  return rows;
}

void RunBadCall(const BadCall &row) {
  CCL_REQUIRE_DEVICES(kRanks);
  World world;
  CCL_ASSERT_OK(world.Open(FirstDevices(kRanks)));
  std::mt19937_64 rng = CaseRng();
  DeviceMemory *send = nullptr, *recv = nullptr;
  CCL_ASSERT_OK(world.Allocate(0, kBufferBytes, &send));
  CCL_ASSERT_OK(world.Allocate(0, kBufferBytes, &recv));
  const Bytes send_bytes = RandomBytes(kBufferBytes, rng), recv_bytes = RandomBytes(kBufferBytes, rng);
  CCL_ASSERT_OK(send->Upload(send_bytes.data(), kBufferBytes));
  CCL_ASSERT_OK(recv->Upload(recv_bytes.data(), kBufferBytes));
  CCL_ASSERT_OK(MakeCurrent(world.device(0)));

  const int status =
      cts::ProbeInvalidInput(row.name.c_str(), [&] { return row.call(BadCallContext{world, send->data(), recv->data()}); });
  // Accepted, the call may wait for rank 1 for ever: leave the group as it is.
  if (status == INFINI_STATUS_SUCCESS) world.Abandon();
  CTS_ASSERT_STATUS_AS(status, row.name, row.expected);

  // CCL-ERR-7: nothing was enqueued (the streams drain) and nothing changed ...
  CCL_ASSERT_OK(world.Synchronize());
  MismatchLog log;
  Bytes got(kBufferBytes);
  CCL_ASSERT_OK(send->Download(got.data(), kBufferBytes));
  log.Compare(INFINI_DTYPE_U8, false, 0, "send buffer after the bad call", send_bytes.data(), got.data(), kBufferBytes);
  CCL_ASSERT_OK(recv->Download(got.data(), kBufferBytes));
  log.Compare(INFINI_DTYPE_U8, false, 0, "receive buffer after the bad call", recv_bytes.data(), got.data(),
              kBufferBytes);
  ExpectNoMismatch(log);
  // ... and the group still gives exact results.
  RunCollective(world, Drive::kOneThread,
                AllReducePlan(MakeReductionData(INFINI_DTYPE_I32, INFINICCL_SUM, kRanks, 7, rng), INFINI_DTYPE_I32,
                              INFINICCL_SUM, 7, Placement::kOutOfPlace));
  CCL_RETURN_IF_ENDED();
  CCL_ASSERT_OK(world.Close());
}

class AllReduceBadInput : public cts::ParamCase<BadCall> {};
class ReduceScatterBadInput : public cts::ParamCase<BadCall> {};
class AllGatherBadInput : public cts::ParamCase<BadCall> {};
class BroadcastBadInput : public cts::ParamCase<BadCall> {};
class AllGatherVBadInput : public cts::ParamCase<BadCall> {};
class ReduceScatterVBadInput : public cts::ParamCase<BadCall> {};
class SendRecvBadInput : public cts::ParamCase<BadCall> {};

CTS_PROBE_P(AllReduceBadInput, rejects, "all_reduce", "CCL-ERR-1", "CCL-ERR-2", "CCL-ERR-3", "CCL-ERR-4", "CCL-ERR-7") {
  RunBadCall(GetParam());
}
CTS_PROBE_P(ReduceScatterBadInput, rejects, "reduce_scatter", "CCL-ERR-1", "CCL-ERR-2", "CCL-ERR-3", "CCL-ERR-4",
           "CCL-ERR-7") {
  RunBadCall(GetParam());
}
CTS_PROBE_P(AllGatherBadInput, rejects, "all_gather", "CCL-ERR-1", "CCL-ERR-2", "CCL-ERR-3", "CCL-ERR-7") {
  RunBadCall(GetParam());
}
CTS_PROBE_P(AllGatherVBadInput, rejects, "all_gather_v", "CCL-AGV-4", "CCL-ERR-7") {
  cts::NoteOptionalCapability("all_gather_v");
  RunBadCall(GetParam());
}
CTS_PROBE_P(ReduceScatterVBadInput, rejects, "reduce_scatter_v", "CCL-RSV-4", "CCL-ERR-7") {
  cts::NoteOptionalCapability("reduce_scatter_v");
  RunBadCall(GetParam());
}
CTS_PROBE_P(BroadcastBadInput, rejects, "broadcast", "CCL-ERR-1", "CCL-ERR-2", "CCL-ERR-3", "CCL-ERR-5", "CCL-ERR-7") {
  RunBadCall(GetParam());
}
CTS_PROBE_P(SendRecvBadInput, rejects, "send_recv", "CCL-ERR-1", "CCL-ERR-2", "CCL-ERR-3", "CCL-ERR-6", "CCL-ERR-7") {
  RunBadCall(GetParam());
}

INSTANTIATE_TEST_SUITE_P(conformance, AllReduceBadInput, testing::ValuesIn(AllReduceRows()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, ReduceScatterBadInput, testing::ValuesIn(ReduceScatterRows()),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AllGatherBadInput, testing::ValuesIn(AllGatherRows()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AllGatherVBadInput, testing::ValuesIn(AllGatherVRows()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, ReduceScatterVBadInput, testing::ValuesIn(ReduceScatterVRows()),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, BroadcastBadInput, testing::ValuesIn(BroadcastRows()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, SendRecvBadInput, testing::ValuesIn(SendRecvRows()), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
