// Compares an operator's output with its fp64 oracle under a Tolerance.
//
// An element matches when
//   - expected is NaN: got is NaN;
//   - expected is +Inf or -Inf: got is the same infinity;
//   - expected is finite: got is finite and |got - expected| <= atol + rtol·|expected|
//     (NaN or Inf where a number is expected never matches, whatever the tolerance).
// Metrics cover the finite pairs: max_abs_err, max_rel_err (over nonzero expected values),
// max_ulp (in got's dtype, at the expected value).
//
// The result also says when the data cannot discriminate: most expected values within
// tolerance of zero (an all-zero output would pass), a constant expected output, an
// empty or mostly non-finite one. That does not fail the comparison; it is stated in the
// message and in weak_data so that a suite can refuse such a case.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tolerance/tolerance.h"
#include "tensor/host_tensor.h"

namespace infinicts {

struct Mismatch {
  std::vector<size_t> index;  // multi-index in the output's shape
  double expected;
  double got;
};

struct CompareResult {
  bool pass = false;
  size_t count = 0;                     // elements compared
  size_t mismatch_count = 0;
  size_t nonfinite_mismatch_count = 0;  // NaN/Inf where a number was expected, or the reverse
  double max_abs_err = 0.0;
  double max_rel_err = 0.0;
  double max_ulp = 0.0;
  std::vector<Mismatch> first_mismatches;  // up to kMaxListedMismatches, in row-major order
  bool weak_data = false;
  std::string weak_reason;
  std::string message;  // one paragraph: verdict, metrics, first mismatches, weak-data note

  // The metrics for a report, names with units: max_abs_err, max_rel_err, max_ulp, mismatch_count.
  std::vector<std::pair<std::string, double>> Metrics() const;
};

inline constexpr size_t kMaxListedMismatches = 5;

CompareResult Compare(const HostTensor &expected_fp64, const HostTensor &got, const Tolerance &tolerance);

// Why `expected_fp64` cannot tell a right output from a wrong one under `tolerance` (the
// weak_reason Compare gives), or "" when it can. A suite checks its data with it before any
// backend runs.
std::string WeakDataReason(const HostTensor &expected_fp64, const Tolerance &tolerance);

}  // namespace infinicts
