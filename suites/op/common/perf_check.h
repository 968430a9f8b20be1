// How a perf case checks its outputs once its timing is done (a fast wrong answer must
// fail): against the fp64 oracle with the tolerance of the accuracy cases (OP-ACC-1).
//
//   full     the oracle's whole output (every written tensor); for the cheap operators
//   element  the oracle's value of one output element; for the operators whose oracle
//            costs too much on the whole output (Gemm, Conv), kPerfSamples elements drawn
//            from the case's seed are checked
// An operator may give both: the full check runs while the largest written tensor holds at
// most kFullCheckElements elements, the sampled one beyond.
#pragma once

#include <functional>
#include <vector>

#include "common/prepared_call.h"

namespace infinicts::op_cases {

inline constexpr size_t kPerfSamples = 256;
inline constexpr size_t kFullCheckElements = size_t{1} << 24;

struct PerfCheck {
  // The oracle's F64 outputs, one per written spec in spec order.
  std::function<std::vector<HostTensor>(const std::vector<HostTensor> &tensors)> full;
  // The oracle's value of element `flat` (row-major) of the written spec `output`.
  std::function<double(const std::vector<HostTensor> &tensors, size_t output, size_t flat)> element;
};

// Checks `got` (the call's tensors, written ones as they came back) as `check` says; adds a
// failure naming the tensor and what differs, and records max_abs_err, max_ulp,
// mismatch_count and checked_elements.
void CheckPerfOutputs(const PreparedCall &call, const std::vector<HostTensor> &got, const PerfCheck &check);

// A contiguous tensor of `shape` holding src's storage elements start, start + step, ...
// (row-major order), in src's dtype: a row or column of a contiguous matrix for an oracle.
HostTensor GatherElements(const HostTensor &src, const Shape &shape, size_t start, size_t step);

}  // namespace infinicts::op_cases
