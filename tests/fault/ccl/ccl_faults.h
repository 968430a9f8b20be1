// The collective faults the wrapper can inject, each registered by its own file
// (INFINICTS_FAULT beside its installer).
#pragma once

#include <vector>

#include "ccl/ccl_table.h"
#include "common/fault_registry.h"

namespace infinicts::fault {

using CclFault = Fault<CclTable>;
const std::vector<CclFault> &CclFaults();

}  // namespace infinicts::fault
