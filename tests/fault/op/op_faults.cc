#include "op/op_faults.h"

namespace infinicts::fault {

const std::vector<OpFault> &OpFaults() { return RegisteredFaults<OpTable>(); }

}  // namespace infinicts::fault
