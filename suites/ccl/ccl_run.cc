#include "ccl_run.h"

#include <cstring>

#include "ccl_check.h"
#include "cts/rank_spread.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;
using cts::rt;

std::string OnRank(const char *call, int rank) { return std::string(call) + "(rank " + std::to_string(rank) + ")"; }

}  // namespace

void CollectiveRun::Prepare() {
  const int ranks = world_.size();
  ASSERT_EQ(static_cast<int>(plan_.ranks.size()), ranks) << "a plan for another rank count (a bug of the suite)";
  ASSERT_TRUE(feeding_ == Feeding::kBlocking || plan_.placement == Placement::kOutOfPlace)
      << "feeding on the stream is for out-of-place plans (a bug of the suite)";
  buffers_.assign(ranks, RankBuffers{});
  for (int r : world_.local_ranks()) {
    const RankPlan &rank = plan_.ranks[r];
    RankBuffers &held = buffers_[r];
    const uint8_t *expected = rank.expected->data() + rank.expected_offset;
    if (plan_.placement == Placement::kOutOfPlace) {
      CCL_ASSERT_OK(world_.Allocate(r, rank.send.size(), &held.send));
      CCL_ASSERT_OK(world_.Allocate(r, rank.recv_bytes, &held.recv));
      // Fed on the stream, the send buffer first holds other bytes: a collective that
      // ran before the feeding copy would reduce those.
      if (feeding_ == Feeding::kBlocking) {
        CCL_ASSERT_OK(held.send->Upload(rank.send.data(), rank.send.size()));
      } else {
        const Bytes other = Complement(rank.send);
        CCL_ASSERT_OK(held.send->Upload(other.data(), other.size()));
      }
      const Bytes unlike_result = Complement(expected, rank.recv_bytes);
      CCL_ASSERT_OK(held.recv->Upload(unlike_result.data(), unlike_result.size()));
      held.send_ptr = held.send->data();
      held.recv_ptr = held.recv->data();
    } else {
      CCL_ASSERT_OK(world_.Allocate(r, rank.in_place.size(), &held.recv));
      CCL_ASSERT_OK(held.recv->Upload(rank.in_place.data(), rank.in_place.size()));
      held.send_ptr = held.recv->data() + rank.send_offset;
      held.recv_ptr = held.recv->data() + rank.recv_offset;
    }
  }
  // Fed on the stream, results come back by MemcpyAsync into these (first unlike them).
  streamed_.assign(ranks, Bytes());
  if (feeding_ == Feeding::kOnStream) {
    for (int r : world_.local_ranks()) {
      const RankPlan &rank = plan_.ranks[r];
      streamed_[r] = Complement(rank.expected->data() + rank.expected_offset, rank.recv_bytes);
    }
  }
}

CallResult CollectiveRun::Feed(int r) {
  const RankPlan &rank = plan_.ranks[r];
  if (feeding_ == Feeding::kBlocking || rank.send.empty()) return {};
  return Check(rt().infinirtMemcpyAsync(buffers_[r].send_ptr, rank.send.data(), rank.send.size(), INFINIRT_MEMCPY_H2D,
                                        world_.stream(r)),
               OnRank("infinirtMemcpyAsync(H2D)", r));
}

CallResult CollectiveRun::Issue(int r) { return plan_.issue(world_, r, buffers_[r].send_ptr, buffers_[r].recv_ptr); }

CallResult CollectiveRun::ReadBack(int r) {
  const RankPlan &rank = plan_.ranks[r];
  if (feeding_ == Feeding::kBlocking || rank.recv_bytes == 0) return {};
  return Check(rt().infinirtMemcpyAsync(streamed_[r].data(), buffers_[r].recv_ptr, rank.recv_bytes,
                                        INFINIRT_MEMCPY_D2H, world_.stream(r)),
               OnRank("infinirtMemcpyAsync(D2H)", r));
}

World::RankSteps CollectiveRun::Steps() {
  return World::RankSteps{[this](int r) { return Feed(r); }, [this](int r) { return Issue(r); },
                          [this](int r) { return ReadBack(r); }};
}

void CollectiveRun::Verify() {
  const std::vector<int> &ranks = world_.local_ranks();
  const size_t element = ElementSize(plan_.dtype);
  MismatchLog log;
  Bytes got, first_rank;
  int disagreeing = 0;
  for (int r : ranks) {
    const RankPlan &rank = plan_.ranks[r];
    const RankBuffers &held = buffers_[r];
    if (feeding_ == Feeding::kOnStream) {
      got.swap(streamed_[r]);
    } else {
      got.resize(rank.recv_bytes);
      CCL_ASSERT_OK(held.recv->Download(got.data(), rank.recv_bytes, rank.recv_offset));
    }
    log.Compare(plan_.dtype, plan_.within_ulps, r, "received", rank.expected->data() + rank.expected_offset,
                got.data(), rank.recv_bytes / element);
    if (plan_.ranks_agree && plan_.within_ulps) {  // elsewhere exactness implies agreement
      if (r == ranks.front()) first_rank = got;
      else if (got != first_rank) ++disagreeing;
    }
    if (plan_.placement == Placement::kOutOfPlace) {
      got.resize(rank.send.size());
      CCL_ASSERT_OK(held.send->Download(got.data(), got.size()));
      log.Compare(plan_.dtype, false, r, "send buffer (must stay unchanged)", rank.send.data(), got.data(),
                  rank.send.size() / element);
    }
    for (const DeviceMemory *memory : {held.send, held.recv}) {
      if (memory == nullptr) continue;
      const testing::AssertionResult guards = memory->GuardsIntact();
      if (!guards) log.Note("rank " + std::to_string(r) + ": " + guards.message());
    }
  }
  if (plan_.within_ulps) cts::RecordMetric("max_ulp", log.max_ulp());
  // CCL-NUM-4 binds on the CPU; elsewhere the suite only records what it saw.
  const bool must_agree = cts::device_type() == INFINI_DEVICE_CPU;
  if (plan_.within_ulps && ranks.size() > 1) {
    if (must_agree && disagreeing > 0) {
      log.Note(std::to_string(disagreeing) + " rank(s) received other bits than rank 0 (CCL-NUM-4)");
    }
    cts::RecordMetric("ranks_disagreeing", disagreeing);
  } else if (plan_.ranks_agree && plan_.within_ulps && cts::Spread()) {
    // One rank per process: the runner of rank 0 compares the ranks' digests.
    cts::RecordMetric(cts::kBitsDigestMetric, cts::BitsDigest(first_rank.data(), first_rank.size()));
    cts::RecordMetric(cts::kBitsMustAgreeMetric, must_agree ? 1 : 0);
  }
  ExpectNoMismatch(log);
}

void RunCollective(World &world, Drive drive, const CollectivePlan &plan, Feeding feeding) {
  CollectiveRun run(world, plan, feeding);
  run.Prepare();
  CCL_RETURN_IF_ENDED();
  CCL_ASSERT_OK(world.Run(drive, run.Steps()));
  run.Verify();
}

void RunOnNewGroup(int ranks, Drive drive, const std::function<CollectivePlan()> &make_plan, Feeding feeding) {
  CCL_REQUIRE_DEVICES(ranks);
  World world;
  CCL_ASSERT_OK(world.Open(FirstDevices(ranks)));
  RunCollective(world, drive, make_plan(), feeding);
  CCL_RETURN_IF_ENDED();
  CCL_ASSERT_OK(world.Close());
}

void RunParamCase(CollectiveKind kind, const CollectiveParam &param, Feeding feeding,
                  const std::function<void(CollectivePlan &)> &adjust) {
  RunOnNewGroup(param.ranks, param.drive, [&] {
    CollectivePlan plan = PlanFor(kind, param);
    if (adjust) adjust(plan);
    return plan;
  }, feeding);
}

std::vector<RankPlan> GatherRankPlans(std::vector<Bytes> blocks, Placement placement) {
  auto gathered = std::make_shared<Bytes>();
  for (const Bytes &block : blocks) gathered->insert(gathered->end(), block.begin(), block.end());
  std::vector<RankPlan> ranks;
  size_t slot = 0;  // where the rank's block lies in the gathered bytes
  for (Bytes &block : blocks) {
    RankPlan rank;
    rank.recv_bytes = gathered->size();
    rank.expected = gathered;
    const size_t block_bytes = block.size();
    if (placement == Placement::kOutOfPlace) {
      rank.send = std::move(block);
    } else {
      // The rank's block already in its slot; every other slot unlike its result.
      rank.in_place = Complement(*gathered);
      std::copy(block.begin(), block.end(), rank.in_place.begin() + slot);
      rank.send_offset = slot;
    }
    slot += block_bytes;
    ranks.push_back(std::move(rank));
  }
  return ranks;
}

std::vector<RankPlan> ScatterRankPlans(ReductionData data, const std::vector<size_t> &block_bytes,
                                       Placement placement) {
  const auto expected = std::make_shared<const Bytes>(std::move(data.expected));
  std::vector<RankPlan> ranks;
  size_t block_start = 0;
  for (size_t r = 0; r < data.inputs.size(); ++r) {
    RankPlan rank;
    rank.recv_bytes = block_bytes[r];
    rank.expected = expected;
    rank.expected_offset = block_start;
    if (placement == Placement::kOutOfPlace) {
      rank.send = std::move(data.inputs[r]);
    } else {
      rank.in_place = std::move(data.inputs[r]);
      rank.recv_offset = block_start;
    }
    block_start += block_bytes[r];
    ranks.push_back(std::move(rank));
  }
  return ranks;
}

CollectivePlan AllReducePlan(ReductionData data, infiniDtype_t dtype, infinicclReduceOp_t op, size_t count,
                             Placement placement) {
  CollectivePlan plan;
  plan.dtype = dtype;
  plan.placement = placement;
  plan.within_ulps = ComparedWithinUlps(dtype, op);
  plan.ranks_agree = true;
  const auto expected = std::make_shared<const Bytes>(std::move(data.expected));
  for (Bytes &input : data.inputs) {
    RankPlan rank;
    rank.recv_bytes = count * ElementSize(dtype);
    rank.expected = expected;
    (placement == Placement::kOutOfPlace ? rank.send : rank.in_place) = std::move(input);
    plan.ranks.push_back(std::move(rank));
  }
  plan.issue = [count, dtype, op](const World &world, int r, void *send, void *recv) {
    return Check(ccl().infinicclAllReduce(send, recv, count, dtype, op, world.comm(r), world.stream(r)),
                 OnRank("infinicclAllReduce", r));
  };
  return plan;
}

CollectivePlan ReduceScatterPlan(ReductionData data, infiniDtype_t dtype, infinicclReduceOp_t op, size_t recv_count,
                                 Placement placement) {
  CollectivePlan plan;
  plan.dtype = dtype;
  plan.placement = placement;
  plan.within_ulps = ComparedWithinUlps(dtype, op);
  const std::vector<size_t> block_bytes(data.inputs.size(), recv_count * ElementSize(dtype));
  plan.ranks = ScatterRankPlans(std::move(data), block_bytes, placement);
  plan.issue = [recv_count, dtype, op](const World &world, int r, void *send, void *recv) {
    return Check(ccl().infinicclReduceScatter(send, recv, recv_count, dtype, op, world.comm(r), world.stream(r)),
                 OnRank("infinicclReduceScatter", r));
  };
  return plan;
}

CollectivePlan BroadcastPlan(std::vector<Bytes> payloads, infiniDtype_t dtype, int root, size_t count,
                             Placement placement) {
  CollectivePlan plan;
  plan.dtype = dtype;
  plan.placement = placement;
  const auto expected = std::make_shared<const Bytes>(payloads[root]);
  for (size_t r = 0; r < payloads.size(); ++r) {
    RankPlan rank;
    rank.recv_bytes = count * ElementSize(dtype);
    rank.expected = expected;
    if (placement == Placement::kOutOfPlace) {
      rank.send = std::move(payloads[r]);
    } else {
      rank.in_place = static_cast<int>(r) == root ? std::move(payloads[r]) : Complement(*expected);
    }
    plan.ranks.push_back(std::move(rank));
  }
  plan.issue = [count, dtype, root](const World &world, int r, void *send, void *recv) {
    return Check(ccl().infinicclBroadcast(send, recv, count, dtype, root, world.comm(r), world.stream(r)),
                 OnRank("infinicclBroadcast", r));
  };
  return plan;
}

CollectivePlan AllGatherPlan(std::vector<Bytes> payloads, infiniDtype_t dtype, size_t send_count, Placement placement) {
  CollectivePlan plan;
  plan.dtype = dtype;
  plan.placement = placement;
  plan.ranks = GatherRankPlans(std::move(payloads), placement);
  plan.issue = [send_count, dtype](const World &world, int r, void *send, void *recv) {
    return Check(ccl().infinicclAllGather(send, recv, send_count, dtype, world.comm(r), world.stream(r)),
                 OnRank("infinicclAllGather", r));
  };
  return plan;
}

CollectivePlan RingPlan(std::vector<Bytes> payloads, infiniDtype_t dtype, size_t count) {
  CollectivePlan plan;
  plan.dtype = dtype;
  const int ranks = static_cast<int>(payloads.size());
  std::vector<std::shared_ptr<const Bytes>> received(ranks);
  for (int r = 0; r < ranks; ++r) received[r] = std::make_shared<const Bytes>(payloads[(r + ranks - 1) % ranks]);
  for (int r = 0; r < ranks; ++r) {
    RankPlan rank;
    rank.recv_bytes = count * ElementSize(dtype);
    rank.expected = received[r];
    rank.send = std::move(payloads[r]);
    plan.ranks.push_back(std::move(rank));
  }
  plan.issue = [count, dtype](const World &world, int r, void *send, void *recv) {
    const int next = (r + 1) % world.size(), previous = (r + world.size() - 1) % world.size();
    const auto send_next = [&] {
      return Check(ccl().infinicclSend(send, count, dtype, next, world.comm(r), world.stream(r)), OnRank("infinicclSend", r));
    };
    const auto receive_previous = [&] {
      return Check(ccl().infinicclRecv(recv, count, dtype, previous, world.comm(r), world.stream(r)),
                   OnRank("infinicclRecv", r));
    };
    // Even ranks send first, odd ranks receive first: no step waits on a later one.
    CallResult first = r % 2 == 0 ? send_next() : receive_previous();
    if (!first.ok()) return first;
    return r % 2 == 0 ? receive_previous() : send_next();
  };
  return plan;
}

CollectivePlan PlanFor(CollectiveKind kind, const CollectiveParam &param) {
  std::mt19937_64 rng = CaseRng();
  const size_t bytes = param.count * ElementSize(param.dtype);
  const Placement placement = param.placement.value_or(Placement::kOutOfPlace);
  const auto payloads = [&] {
    std::vector<Bytes> each;
    for (int r = 0; r < param.ranks; ++r) each.push_back(RandomBytes(bytes, rng));
    return each;
  };
  switch (kind) {
    case CollectiveKind::kAllReduce:
      return AllReducePlan(MakeReductionData(param.dtype, *param.op, param.ranks, param.count, rng), param.dtype,
                           *param.op, param.count, placement);
    case CollectiveKind::kReduceScatter:
      return ReduceScatterPlan(MakeReductionData(param.dtype, *param.op, param.ranks, param.ranks * param.count, rng),
                               param.dtype, *param.op, param.count, placement);
    case CollectiveKind::kBroadcast:
      return BroadcastPlan(payloads(), param.dtype, param.root.value_or(0), param.count, placement);
    case CollectiveKind::kAllGather:
      return AllGatherPlan(payloads(), param.dtype, param.count, placement);
    case CollectiveKind::kSendRecv:
      return RingPlan(payloads(), param.dtype, param.count);
  }
  return {};
}

}  // namespace infinicts::ccl_cases
