// The parameter of the collective perf cases: which collective, dtype, rank count and
// size, with sizes as nccl-tests counts them (see perf_shape.h). Its name reads
// [op/]dtype/ranks/bytes, e.g. `sum__bf16__ranks_all__bytes_67108864`.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "ccl_dtype.h"
#include "cts/case.h"

namespace infinicts::ccl_cases {

enum class PerfCollective { kAllReduce, kAllGather, kReduceScatter, kBroadcast, kAllGatherV, kReduceScatterV };

// Rank count meaning every device under test.
inline constexpr int kAllRanks = 0;

struct CollectivePerfParam : cts::Param<CollectivePerfParam> {
  PerfCollective collective = PerfCollective::kAllReduce;
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  int ranks = 2;     // kAllRanks: every device under test
  size_t bytes = 0;  // nccl-tests' S

  bool Reduces() const {
    return collective == PerfCollective::kAllReduce || collective == PerfCollective::kReduceScatter ||
           collective == PerfCollective::kReduceScatterV;
  }
  std::string RanksName() const { return ranks == kAllRanks ? "all" : std::to_string(ranks); }
  std::string Name() const {
    return std::string(Reduces() ? "sum__" : "") + NumberDtypeName(dtype) + "__ranks_" + RanksName() + "__bytes_" +
           std::to_string(bytes);
  }
  std::string Json() const {
    nlohmann::json json{{"dtype", NumberDtypeName(dtype)}, {"bytes", bytes}};
    if (ranks == kAllRanks) {
      json["ranks"] = "all";
    } else {
      json["ranks"] = ranks;
    }
    if (Reduces()) json["op"] = "sum";
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

// Every dtype × {2 ranks, every device} × size of one collective.
inline std::vector<CollectivePerfParam> PerfMatrix(PerfCollective collective, const std::vector<infiniDtype_t> &dtypes) {
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
