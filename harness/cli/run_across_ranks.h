// What `infinicts run` does differently under mpirun (docs/usage.md, "Collectives across
// processes"): only the collective cases that run one rank per process, each rank on one
// device, and every rank but 0 running its parts without a report of its own.
#pragma once

#include <string>
#include <vector>

#include "cli/case_selection.h"
#include "cli/commands.h"
#include "runner/rank_link.h"

namespace infinicts::cli {

// Whether the options can run across ranks (no --shard); false with the reason.
bool RanksAllow(const RunOptions &options, std::string *error);

// Keeps the cases that run one rank per process: the ccl suite's, and of those the ones
// marked so; says in `narrowed` what was left out. False (with the reason) when another
// suite was asked for by name.
bool KeepCasesAcrossRanks(const RunOptions &options, std::vector<SuiteCases> *suites,
                          std::vector<std::string> *narrowed, std::string *error);

// The device a rank's suite process drives: --device-ids' entry at the node-local rank
// (modulo their number), else the node-local rank modulo the device count.
int RankDevice(const std::vector<int> &requested_ids, int device_count, int local_rank);

// A rank other than 0: selects the same cases as rank 0, runs its part of each and sends it
// to rank 0; answers rank 0's exit code.
int RunRankPart(const RunOptions &options, runner::RankLink &link);

}  // namespace infinicts::cli
