// `infinicts merge` (docs/usage.md "Sharded runs"): the reports of the shards of one run,
// joined into the report that one unsharded run would have written. The summary, the root
// causes, the parts and the roofline are recomputed over the union; the levels are judged
// only when the union is the whole selection, and otherwise the report says what is missing.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "report/report.h"

namespace infinicts::report {

struct ShardReport {
  std::string file;
  nlohmann::json json;  // a report that passed the schema
};

// Joins `shards` into *merged, whose run.argv becomes `argv`. Returns false with a one-line
// reason when they are not the shards of one run: a report not made with --shard, two that
// hold the same shard or the same case, or reports of different builds, backends, device
// types, devices, selections or --expect files.
// The shards ("2/3") of the run that `shards` lack; empty when they are all there.
std::vector<std::string> MissingShards(const std::vector<ShardReport> &shards);

bool MergeShardReports(const std::vector<ShardReport> &shards, const std::vector<std::string> &argv, Report *merged,
                       std::string *error);

}  // namespace infinicts::report
