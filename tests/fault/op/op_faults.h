// The operator faults the wrapper can inject, one small installer each, registered beside it:
// argument_faults.cc for those that only change a call's arguments, a file per family
// (softmax_faults.cc, nonfinite_faults.cc, ...), the file named after it for each other one.
// Each file also declares the cases that must catch its faults (tests/fault/CMakeLists.txt).
#pragma once

#include <vector>

#include "common/fault_registry.h"
#include "op/op_table.h"

namespace infinicts::fault {

using OpFault = Fault<OpTable>;
// Every operator fault: each registers itself (INFINICTS_FAULT) beside its installer.
const std::vector<OpFault> &OpFaults();

}  // namespace infinicts::fault
