#include "common/perf_check.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "tolerance/output_check.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

struct Totals {
  double max_abs = 0, max_ulp = 0, mismatches = 0, checked = 0;
  void Add(const CompareResult &result) {
    max_abs = std::max(max_abs, result.max_abs_err);
    max_ulp = std::max(max_ulp, result.max_ulp);
    mismatches += static_cast<double>(result.mismatch_count);
    checked += static_cast<double>(result.count);
  }
};

void Judge(const PreparedCall &call, size_t spec, const CompareResult &result, const Tolerance &tolerance,
           const std::string &what_was_checked) {
  const std::string name = DescribeTensor(call.specs[spec]);
  if (!result.pass) {
    OP_ADD_FAILURE("output " + name + " after the timed calls (" + what_was_checked + "): " + result.message +
                   "\n  tolerance: " + tolerance.reason + "\n  problem: " + call.subject + " " + call.problem_json);
  } else if (result.weak_data && !call.constant_output) {
    OP_ADD_FAILURE("output " + name + ": the case's data cannot discriminate (" + result.weak_reason +
                   "); this is a suite bug, not the backend's\n  problem: " + call.subject + " " + call.problem_json);
  }
}

// kPerfSamples distinct positions in [0, count), ascending, from the case's seed.
std::vector<size_t> SamplePositions(size_t count, size_t spec) {
  std::vector<size_t> positions;
  if (count <= kPerfSamples) {
    for (size_t i = 0; i < count; ++i) positions.push_back(i);
    return positions;
  }
  Rng rng(cts::CaseSeed() + spec);
  std::uniform_int_distribution<size_t> pick(0, count - 1);
  std::set<size_t> chosen;
  while (chosen.size() < kPerfSamples) chosen.insert(pick(rng));
  return {chosen.begin(), chosen.end()};
}

std::string IndexText(const std::vector<size_t> &index) {
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

void CheckSampled(const PreparedCall &call, const std::vector<HostTensor> &got, const PerfCheck &check, size_t spec,
                  Totals &totals) {
  const HostTensor &out = got[spec];
  const std::vector<size_t> positions = SamplePositions(out.numel(), spec);
  HostTensor expected(INFINI_DTYPE_F64, Shape{positions.size()});
  HostTensor sampled(out.dtype(), Shape{positions.size()});
  for (size_t i = 0; i < positions.size(); ++i) {
    expected.SetAt(i, check.element(call.tensors, spec, positions[i]));
    sampled.SetAt(i, out.GetAt(positions[i]));
  }
  const Tolerance &tolerance = call.tolerances[spec];
  const CompareResult result = Compare(expected, sampled, tolerance);
  std::string where;
  for (const Mismatch &mismatch : result.first_mismatches) {
    where += (where.empty() ? "; sample positions in the output: " : ", ") +
             IndexText(UnravelIndex(positions.at(mismatch.index.at(0)), out.shape()));
  }
  Judge(call, spec, result, tolerance,
        std::to_string(positions.size()) + " elements drawn from the case's seed" + where);
  totals.Add(result);
}

}  // namespace

HostTensor GatherElements(const HostTensor &src, const Shape &shape, size_t start, size_t step) {
  HostTensor gathered(src.dtype(), shape);
  const size_t count = gathered.numel();
  if (count > 0 && start + (count - 1) * step >= src.storage_elements()) {
    throw std::logic_error("GatherElements past the end of a tensor's storage");
  }
  const size_t size = src.element_size();
  for (size_t i = 0; i < count; ++i) {
    std::copy_n(src.storage() + (start + i * step) * size, size, gathered.storage() + i * size);
  }
  return gathered;
}

void CheckPerfOutputs(const PreparedCall &call, const std::vector<HostTensor> &got, const PerfCheck &check) {
  size_t largest = 0;
  for (size_t i = 0; i < call.specs.size(); ++i) {
    if (call.specs[i].present && IsWritten(call.specs[i])) largest = std::max(largest, got[i].numel());
  }
  const bool full = check.full && (!check.element || largest <= kFullCheckElements);
  if (!full && !check.element) throw std::logic_error(call.subject + ": a perf check without an oracle");

  Totals totals;
  std::vector<HostTensor> expected;
  if (full) expected = check.full(call.tensors);
  size_t next_output = 0;
  for (size_t i = 0; i < call.specs.size(); ++i) {
    if (!call.specs[i].present || !IsWritten(call.specs[i])) continue;
    if (!full) {
      CheckSampled(call, got, check, i, totals);
      continue;
    }
    if (next_output >= expected.size()) throw std::logic_error(call.subject + ": the oracle gave too few outputs");
    const CompareResult result = Compare(expected[next_output++], got[i], call.tolerances[i]);
    Judge(call, i, result, call.tolerances[i], "every element");
    totals.Add(result);
  }
  cts::RecordMetric("max_abs_err", totals.max_abs);
  cts::RecordMetric("max_ulp", totals.max_ulp);
  cts::RecordMetric("mismatch_count", totals.mismatches);
  cts::RecordMetric("checked_elements", totals.checked);
}

}  // namespace infinicts::op_cases
