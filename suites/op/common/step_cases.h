// A model step's cases: several operators' calls chained on one stream and checked end to end
// (common/checks.h, RunStepAndVerify). A step has accuracy cases alone, from its case file, and
// its problem lines run under --cases and `infinicts fuzz` as an operator's do.
#pragma once

#include <string>
#include <vector>

#include "common/op_cases.h"

namespace infinicts::op_cases {

// A step's case sets: no conformance file; the accuracy problems from its case file.
// CRTP over the step; its problem type named apart, since the step is incomplete here.
template <class Step, class Problem>
struct StepCaseSets {
  static std::vector<Problem> ConformanceProblems() { return {}; }
  static std::vector<Problem> AccuracyProblems() { return CaseFileProblems<Step>(kAccuracySet); }
};

}  // namespace infinicts::op_cases

// `Step` derives from StepCaseSets<Step, Problem> and has Problem, kSubject, Specs (of its first call),
// AdmittedDtypes, ProbeProblem and Run(problem), which runs and verifies one problem. `clauses`
// is what every one of its cases checks.
#define INFINICTS_OP_STEP_CASES(Step, clauses)                                                             \
  class Step##Accuracy : public ::infinicts::cts::ParamCase<Step::Problem> {};                            \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Step##Accuracy);                                          \
  INFINICTS_OP_TEST_P(Step##Accuracy, matches_oracle, Step, clauses) { INFINICTS_OP_GUARDED(Step::Run(GetParam())); } \
  INSTANTIATE_TEST_SUITE_P(                                                                               \
      accuracy, Step##Accuracy,                                                                           \
      ::testing::ValuesIn(::infinicts::op_cases::ProblemsOf<Step>(::infinicts::op_cases::AccuracyProblemsOf<Step>())), \
      INFINICTS_OP_NAMES);                                                                                \
  static const bool op_problem_subject_##Step [[maybe_unused]] =                                          \
      ::infinicts::cts::RegisterProblemSubject(Step::kSubject, ::infinicts::op_cases::FuzzingOf<Step>())
