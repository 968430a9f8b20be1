#include "common/int8_quant.h"

namespace infinicts::op_cases {

std::vector<PerfProblem> W8A8LayerProblems(const std::string &hidden_part, const std::string &intermediate_part) {
  std::vector<PerfProblem> problems =
      TokenRowProblems(hidden_part, RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes(), {kLlama3_8B});
  for (PerfProblem &p : TokenRowProblems(intermediate_part, RowWidth::kIntermediate, PerfWeight::kCheap,
                                         HalfAndSingleDtypes(), {kLlama3_8B})) {
    problems.push_back(std::move(p));
  }
  return problems;
}

HostTensor SettleNearHalves(const HostTensor &expected, const HostTensor &got, const HostTensor &also_accepted) {
  HostTensor settled = expected;
  for (size_t i = 0; i < also_accepted.numel(); ++i) {
    if (got.GetAt(i) == also_accepted.GetAt(i)) settled.SetAt(i, also_accepted.GetAt(i));
  }
  return settled;
}

}  // namespace infinicts::op_cases
