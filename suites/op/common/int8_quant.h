// What the int8 quantisers' and dequantiser's suite files share (spec section OP-INT8): the
// perf shapes of a W8A8 layer and the spec's "near a half" allowance.
#pragma once

#include <string>
#include <vector>

#include "common/perf_problem.h"
#include "tensor/host_tensor.h"

namespace infinicts::op_cases {

// Llama-3-8B's W8A8 layer: `hidden_part` [tokens, hidden] (the attention and gate-up
// inputs) and `intermediate_part` [tokens, intermediate] (the down projection's), at the
// cheap operators' token counts, F16, BF16 and F32.
std::vector<PerfProblem> W8A8LayerProblems(const std::string &hidden_part, const std::string &intermediate_part);

// The oracle's int8 values with each element the backend gave that the spec also accepts
// (the oracle's also_accepted: the other neighbour near a half) taken as expected.
HostTensor SettleNearHalves(const HostTensor &expected, const HostTensor &got, const HostTensor &also_accepted);

}  // namespace infinicts::op_cases
