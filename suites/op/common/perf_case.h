// The perf cases of one operator (ids op.<subject>.perf/timed/<model>/<part>/tokens_<n>/<dtype>),
// declared from a small traits struct, as nccl-tests' per-collective files give only what
// differs between collectives:
//
//   struct GemmPerf {
//     static constexpr const char *kSubject = "gemm";
//     static std::vector<std::string> MathClauses();                 // what the output check checks
//     static std::vector<PerfProblem> Problems();                    // common/perf_problem.h
//     static std::vector<TensorSpec> Specs(const PerfProblem &);     // contiguous, in the create call's order
//     static OpCalls Calls(const PerfProblem &);
//     static void Fill(const PerfProblem &, std::vector<HostTensor> &, Rng &);
//     static PerfCost Cost(const PerfProblem &, const std::vector<TensorSpec> &);   // common/perf_cost.h
//     static PerfCheck Check(const PerfProblem &);                   // common/perf_check.h
//   };
//   INFINICTS_OP_PERF_CASES(GemmPerf);
//
// A case creates the descriptor, uploads its inputs (several copies of them when they are
// small, so that iterations rotate through more memory than a cache holds), times compute
// on a created stream with timing::Measure, then reads back the outputs the last call wrote
// and checks them against the oracle. Metrics: the timing's, gflops, gbytes_per_s, flops,
// bytes, arithmetic_intensity_flops_per_byte, working_set_bytes, and the check's.
#pragma once

#include "common/op_cases.h"
#include "common/perf_check.h"
#include "common/perf_cost.h"
#include "common/perf_problem.h"

namespace infinicts::op_cases {

// Inputs rotate when one call's tensors take less than kRotateBelowBytes: as many copies
// as reach kRotationBytes, at most kMaxRotatingCopies.
inline constexpr size_t kRotateBelowBytes = size_t{8} << 20;
inline constexpr size_t kRotationBytes = size_t{64} << 20;
inline constexpr size_t kMaxRotatingCopies = 64;

struct PerfCall {
  PreparedCall call;  // specs, tensors (inputs filled, outputs at their sentinel), calls, tolerances
  PerfCost cost;
  PerfCheck check;
};

template <class Perf>
PerfCall PreparePerf(const PerfProblem &problem) {
  PerfCall perf;
  PreparedCall &call = perf.call;
  call.subject = Perf::kSubject;
  call.problem_json = problem.Json();
  call.specs = Perf::Specs(problem);
  call.tensors = AllocateHostTensors(call.specs);
  Rng rng = CaseRng();
  Perf::Fill(problem, call.tensors, rng);
  call.tolerances.resize(call.specs.size());
  for (size_t i = 0; i < call.specs.size(); ++i) call.tolerances[i] = ToleranceFor(call.subject, call.specs[i].dtype);
  call.calls = Perf::Calls(problem);
  perf.cost = Perf::Cost(problem, call.specs);
  call.flops = perf.cost.flops;
  call.bytes = perf.cost.bytes;
  call.constant_output = ConstantOutput<Perf>::value;
  perf.check = Perf::Check(problem);
  return perf;
}

// Times the call and checks its outputs (see above).
void RunPerf(const PerfCall &perf);

}  // namespace infinicts::op_cases

#define INFINICTS_OP_PERF_CASES(Perf)                                                                       \
  class Perf##Timed : public ::infinicts::cts::ParamCase<::infinicts::op_cases::PerfProblem> {};           \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Perf##Timed);                                               \
  INFINICTS_OP_TEST_P(Perf##Timed, timed, Perf,                                                            \
                      ::infinicts::op_cases::Joined({"OP-PERF-1", "OP-ACC-1", "OP-STREAM-1"},        \
                                                    Perf::MathClauses())) {                                \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::RunPerf(::infinicts::op_cases::PreparePerf<Perf>(GetParam()))); \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(perf, Perf##Timed, ::testing::ValuesIn(::infinicts::op_cases::UnlessAdHoc(Perf::Problems())), \
                           INFINICTS_OP_NAMES)
