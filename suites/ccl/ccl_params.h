// The parameter of the data-checking collective cases: dtype, reduction op (AllReduce,
// ReduceScatter), root (Broadcast), count, rank count, in or out of place, and how the
// ranks are driven. Its name reads op/dtype/root/count/ranks/placement/drive, e.g.
// `sum__f32__count_7__ranks_4__out_of_place__one_thread`.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ccl_dtype.h"
#include "ccl_world.h"
#include "cts/case.h"

namespace infinicts::ccl_cases {

enum class Placement { kOutOfPlace, kInPlace };
inline const char *PlacementName(Placement placement) {
  return placement == Placement::kOutOfPlace ? "out_of_place" : "in_place";
}

// Counts the brief of every collective draws from (0 has cases of its own).
inline constexpr size_t kLargeOddCount = 1000003;
inline constexpr size_t kHugeCount = size_t{16} << 20;
// Copies on the stream around a collective: large enough that a copy takes a while.
inline constexpr size_t kStreamOrderCount = 262147;

struct CollectiveParam : cts::Param<CollectiveParam> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  std::optional<infinicclReduceOp_t> op;  // AllReduce, ReduceScatter
  std::optional<int> root;                // Broadcast
  size_t count = 1;                       // the count argument of the call
  int ranks = 4;
  std::optional<Placement> placement;     // absent for Send/Recv
  Drive drive = Drive::kOneThread;

  std::string Name() const {
    std::string name;
    if (op) name += std::string(OpName(*op)) + "__";
    name += NumberDtypeName(dtype);
    if (root) name += "__root_" + std::to_string(*root);
    name += "__count_" + std::to_string(count) + "__ranks_" + std::to_string(ranks);
    if (placement) name += std::string("__") + PlacementName(*placement);
    return name + "__" + DriveName(drive);
  }
  std::string Json() const {
    nlohmann::json json{{"dtype", NumberDtypeName(dtype)}, {"count", count}, {"ranks", ranks}, {"drive", DriveName(drive)}};
    if (op) json["op"] = OpName(*op);
    if (root) json["root"] = *root;
    if (placement) json["placement"] = PlacementName(*placement);
    return json.dump();
  }
};

// Builds parameter lists: each call adds the cross product of its arguments.
class ParamMatrix {
 public:
  ParamMatrix &Add(const std::vector<std::optional<infinicclReduceOp_t>> &ops, const std::vector<infiniDtype_t> &dtypes,
                   const std::vector<size_t> &counts, const std::vector<int> &ranks,
                   const std::vector<std::optional<Placement>> &placements, Drive drive,
                   const std::vector<std::optional<int>> &roots = {std::nullopt}) {
    for (const auto &op : ops)
      for (infiniDtype_t dtype : dtypes)
        for (const auto &root : roots)
          for (size_t count : counts)
            for (int rank_count : ranks)
              for (const auto &placement : placements) {
                CollectiveParam param;
                param.dtype = dtype;
                param.op = op;
                param.root = root;
                param.count = count;
                param.ranks = rank_count;
                param.placement = placement;
                param.drive = drive;
                params_.push_back(param);
              }
    return *this;
  }
  const std::vector<CollectiveParam> &params() const { return params_; }

 private:
  std::vector<CollectiveParam> params_;
};

inline std::vector<std::optional<infinicclReduceOp_t>> AllOps() {
  return std::vector<std::optional<infinicclReduceOp_t>>(kReduceOps.begin(), kReduceOps.end());
}
inline const std::vector<std::optional<infinicclReduceOp_t>> kNoOp = {std::nullopt};
// Odd counts (no whole vector, a tail) and even, vector-aligned ones (whole vectors, no tail):
// a kernel's main loop and its remainder fail in different ways.
inline const std::vector<size_t> kSmallCounts = {1, 7, 8, 64, 4096};
inline const std::vector<std::optional<Placement>> kBothPlacements = {Placement::kOutOfPlace, Placement::kInPlace};
inline const std::vector<std::optional<Placement>> kOutOfPlace = {Placement::kOutOfPlace};
inline const std::vector<std::optional<Placement>> kInPlace = {Placement::kInPlace};
inline const std::vector<std::optional<Placement>> kNoPlacement = {std::nullopt};

}  // namespace infinicts::ccl_cases
