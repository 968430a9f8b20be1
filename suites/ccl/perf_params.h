// The parameter of the collective perf cases: which collective, dtype, reduction, rank count
// and size, with sizes as nccl-tests counts them (see perf_shape.h). Its name reads
// [op/]dtype/ranks/bytes, e.g. `sum__bf16__ranks_all__bytes_67108864`. A sweep named on the
// command line (`infinicts run --coll ...`, $INFINICTS_CCL_SWEEP) replaces the compiled-in
// sizes, dtypes and reduction.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ccl_dtype.h"
#include "cts/case.h"

namespace infinicts::ccl_cases {

enum class PerfCollective { kAllReduce, kAllGather, kReduceScatter, kBroadcast, kAllGatherV, kReduceScatterV };

// "all_reduce", "all_gather", ...: the collective's subject in case ids.
const char *CollectiveSubject(PerfCollective collective);

// Rank count meaning every device under test.
inline constexpr int kAllRanks = 0;

struct CollectivePerfParam : cts::Param<CollectivePerfParam> {
  PerfCollective collective = PerfCollective::kAllReduce;
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  infinicclReduceOp_t op = INFINICCL_SUM;  // of the reductions
  int ranks = 2;       // kAllRanks: every device under test
  size_t bytes = 0;    // nccl-tests' S
  bool swept = false;  // from a sweep, which has no ranks_2 case to leave two devices to

  bool Reduces() const {
    return collective == PerfCollective::kAllReduce || collective == PerfCollective::kReduceScatter ||
           collective == PerfCollective::kReduceScatterV;
  }
  std::string RanksName() const { return ranks == kAllRanks ? "all" : std::to_string(ranks); }
  std::string Name() const {
    return std::string(Reduces() ? std::string(OpName(op)) + "__" : "") + NumberDtypeName(dtype) + "__ranks_" + RanksName() + "__bytes_" +
           std::to_string(bytes);
  }
  std::string Json() const {
    nlohmann::json json{{"dtype", NumberDtypeName(dtype)}, {"bytes", bytes}};
    if (ranks == kAllRanks) {
      json["ranks"] = "all";
    } else {
      json["ranks"] = ranks;
    }
    if (Reduces()) json["op"] = OpName(op);
    return json.dump();
  }
};

// 1 KiB × 8^k below the largest size, then the largest: 64 MiB, or 1 GiB in the full profile.
inline std::vector<size_t> PerfSizes() {
  const size_t largest = cts::FullProfile() ? size_t{1} << 30 : size_t{64} << 20;
  std::vector<size_t> sizes;
  for (size_t bytes = 1024; bytes < largest; bytes *= 8) sizes.push_back(bytes);
  sizes.push_back(largest);
  return sizes;
}

// nccl-tests' sweep (-b -e -f -d -o) over every device under test.
struct CollectiveSweep {
  std::string collective;  // a subject, or "all"
  size_t min_bytes = 0, max_bytes = 0, step_factor = 2;
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  infinicclReduceOp_t op = INFINICCL_SUM;
};

// "coll=all_reduce min=8 max=1024 factor=2 dtype=f32 op=sum" ($INFINICTS_CCL_SWEEP, which
// the runner writes); throws std::invalid_argument on anything else.
CollectiveSweep ParseCollectiveSweep(const std::string &text);
// The sweep of $INFINICTS_CCL_SWEEP, if set (a malformed one ends the process, exit 2).
const std::optional<CollectiveSweep> &SweepFromEnvironment();

// The sweep's cases of one collective (none when the sweep names another).
std::vector<CollectivePerfParam> SweptParams(const CollectiveSweep &sweep, PerfCollective collective);

// Every dtype × {2 ranks, every device} × size of one collective; under a sweep, the sweep's.
inline std::vector<CollectivePerfParam> PerfMatrix(PerfCollective collective, const std::vector<infiniDtype_t> &dtypes) {
  if (const auto &sweep = SweepFromEnvironment()) return SweptParams(*sweep, collective);
  std::vector<CollectivePerfParam> params;
  for (infiniDtype_t dtype : dtypes) {
    for (int ranks : {2, kAllRanks}) {
      for (size_t bytes : PerfSizes()) {
        CollectivePerfParam param;
        param.collective = collective;
        param.dtype = dtype;
        param.ranks = ranks;
        param.bytes = bytes;
        params.push_back(param);
      }
    }
  }
  return params;
}

}  // namespace infinicts::ccl_cases
