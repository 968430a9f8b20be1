// The collective faults the wrapper can inject, one small installer each.
#pragma once

#include <vector>

#include "ccl/ccl_table.h"
#include "common/fault_registry.h"

namespace infinicts::fault {

using CclFault = Fault<CclTable>;
const std::vector<CclFault> &CclFaults();

// Installers that keep state of their own, or are long, live in their own files.
void InstallProdCountsRankZeroTwice(CclTable &calls);
void InstallAllGatherVUniformOffsets(CclTable &calls);
void InstallReduceScatterVOwnCountEverywhere(CclTable &calls);
// The faults of one rank only (one_rank_faults.cc), appended to `faults`.
void InstallOneRankFaults(std::vector<CclFault> &faults);

}  // namespace infinicts::fault
