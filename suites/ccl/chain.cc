// Subject `all_reduce`, back to back: a chain of five collectives on each rank's stream,
// each reading what the one before it wrote, with no synchronization in between
// (spec clause CCL-ORDER-5):
//   AllGather(x -> g), ReduceScatter SUM(g -> y) = n·x_r, AllReduce MAX(y -> y) = m,
//   Broadcast from the last rank(y -> z) = m, AllReduce SUM(z -> w) = n·m.
// A collective that starts before the one it depends on is done reads the junk the
// buffers first hold.
#include <algorithm>

#include "ccl_check.h"
#include "ccl_run.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;

struct ChainParam : cts::Param<ChainParam> {
  infiniDtype_t dtype;
  Drive drive;
  ChainParam(infiniDtype_t d, Drive r) : dtype(d), drive(r) {}
  std::string Name() const { return std::string(NumberDtypeName(dtype)) + "__ranks_4__" + DriveName(drive); }
  std::string Json() const {
    return nlohmann::json{{"dtype", NumberDtypeName(dtype)}, {"ranks", 4}, {"count", 1031}, {"drive", DriveName(drive)}}
        .dump();
  }
};

std::vector<ChainParam> ChainMatrix() {
  std::vector<ChainParam> params;
  // Values stay below 2^8, exact in BF16 too.
  for (infiniDtype_t dtype : {INFINI_DTYPE_I32, INFINI_DTYPE_BF16, INFINI_DTYPE_F64}) {
    for (Drive drive : {Drive::kOneThread, Drive::kThreadPerRank}) params.emplace_back(dtype, drive);
  }
  return params;
}

class CollectiveChain : public cts::ParamCase<ChainParam> {};
CTS_ACROSS_PROCESSES(CollectiveChain);

CTS_TEST_P(CollectiveChain, back_to_back, "all_reduce", "CCL-ORDER-5", "CCL-AR-1", "CCL-AG-1", "CCL-RS-1",
           "CCL-BC-1", "CCL-INPLACE-1") {
  constexpr int kRanks = 4;
  constexpr size_t kCount = 1031;
  const infiniDtype_t dtype = GetParam().dtype;
  const size_t bytes = kCount * ElementSize(dtype);
  CCL_REQUIRE_DEVICES(kRanks);
  World world;
  CCL_ASSERT_OK(world.Open(FirstDevices(kRanks)));

  std::mt19937_64 rng = CaseRng();
  std::vector<std::vector<int>> x(kRanks, std::vector<int>(kCount));
  for (auto &values : x) {
    for (int &value : values) value = static_cast<int>(rng() % 17) - 8;  // n·max(n·x) <= 128
  }
  std::vector<int> gathered, largest(kCount), total(kCount);
  for (const auto &values : x) gathered.insert(gathered.end(), values.begin(), values.end());
  for (size_t i = 0; i < kCount; ++i) {
    int m = kRanks * x[0][i];
    for (int r = 1; r < kRanks; ++r) m = std::max(m, kRanks * x[r][i]);
    largest[i] = m;
    total[i] = kRanks * m;
  }

  struct Buffers {
    DeviceMemory *x, *g, *y, *z, *w;
  };
  std::vector<Buffers> held(kRanks);
  const Bytes junk(kRanks * bytes, 0xFF);
  for (int r : world.local_ranks()) {
    Buffers &b = held[r];
    CCL_ASSERT_OK(world.Allocate(r, bytes, &b.x));
    CCL_ASSERT_OK(world.Allocate(r, kRanks * bytes, &b.g));
    CCL_ASSERT_OK(world.Allocate(r, bytes, &b.y));
    CCL_ASSERT_OK(world.Allocate(r, bytes, &b.z));
    CCL_ASSERT_OK(world.Allocate(r, bytes, &b.w));
    const Bytes input = EncodeIntegers(dtype, x[r]);
    CCL_ASSERT_OK(b.x->Upload(input.data(), bytes));
    for (DeviceMemory *memory : {b.g, b.y, b.z, b.w}) CCL_ASSERT_OK(memory->Upload(junk.data(), memory->size()));
  }

  CCL_ASSERT_OK(world.Run(GetParam().drive, [&](int r) -> CallResult {
    const Buffers &b = held[r];
    const auto comm = world.comm(r);
    const auto stream = world.stream(r);
    const std::string rank = "(rank " + std::to_string(r) + ")";
    CallResult result = Check(ccl().infinicclAllGather(b.x->data(), b.g->data(), kCount, dtype, comm, stream),
                              "infinicclAllGather" + rank);
    if (result.ok()) {
      result = Check(ccl().infinicclReduceScatter(b.g->data(), b.y->data(), kCount, dtype, INFINICCL_SUM, comm, stream),
                     "infinicclReduceScatter" + rank);
    }
    if (result.ok()) {
      result = Check(ccl().infinicclAllReduce(b.y->data(), b.y->data(), kCount, dtype, INFINICCL_MAX, comm, stream),
                     "infinicclAllReduce(MAX, in place)" + rank);
    }
    if (result.ok()) {
      result = Check(ccl().infinicclBroadcast(b.y->data(), b.z->data(), kCount, dtype, kRanks - 1, comm, stream),
                     "infinicclBroadcast" + rank);
    }
    if (result.ok()) {
      result = Check(ccl().infinicclAllReduce(b.z->data(), b.w->data(), kCount, dtype, INFINICCL_SUM, comm, stream),
                     "infinicclAllReduce(SUM)" + rank);
    }
    return result;
  }));

  const Bytes want_g = EncodeIntegers(dtype, gathered), want_m = EncodeIntegers(dtype, largest),
              want_w = EncodeIntegers(dtype, total);
  MismatchLog log;
  Bytes got;
  const auto check = [&](int r, const char *what, const DeviceMemory *memory, const Bytes &want) {
    got.resize(want.size());
    const CallResult read = memory->Download(got.data(), got.size());
    if (!read.ok()) {
      log.Note(read.call + " answered " + StatusName(read.status));
      return;
    }
    log.Compare(dtype, false, r, what, want.data(), got.data(), want.size() / ElementSize(dtype));
  };
  for (int r : world.local_ranks()) {
    check(r, "AllGather result", held[r].g, want_g);
    check(r, "AllReduce MAX of the ReduceScatter result", held[r].y, want_m);
    check(r, "Broadcast result", held[r].z, want_m);
    check(r, "final AllReduce SUM result", held[r].w, want_w);
  }
  ExpectNoMismatch(log);
  CCL_ASSERT_OK(world.Close());
}

INSTANTIATE_TEST_SUITE_P(conformance, CollectiveChain, testing::ValuesIn(ChainMatrix()), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::ccl_cases
