// One problem's outputs on two backends, for `infinicts run --against` (cts/against_outputs.h):
// the other backend's run saves them, the run of the backend under test compares its own
// with them through the tolerance model (spec OP-ACC-2). No oracle takes part, so a problem
// too large for one, or one whose oracle admits several answers, is still compared.
#pragma once

#include <vector>

#include "common/prepared_call.h"
#include "tensor/host_tensor.h"

namespace infinicts::op_cases {

// `got`: what the call wrote, one per spec (empty for tensors it does not write).
void CheckAgainst(const PreparedCall &call, const std::vector<HostTensor> &got);

// The tolerance two backends' outputs are held to: each may lie the tolerance away from the
// exact value, so they may lie twice that apart.
Tolerance SideBySideTolerance(const Tolerance &tolerance);

}  // namespace infinicts::op_cases
