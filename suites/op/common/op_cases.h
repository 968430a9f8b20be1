// Declares every case of one operator from its traits struct (see op_case.h):
//
//   INFINICTS_OP_CASES(GemmOp)            accuracy and the conformance cases every operator has
//   INFINICTS_OP_WORKSPACE_CASES(GemmOp)  for operators with Get<X>WorkspaceSize
//
// Cases (ids op.<subject>.<mode>/<test>/<param>):
//   accuracy/matches_oracle/<problem>         every accuracy problem against the fp64 oracle
//   accuracy/matches_against/<problem>        the same problems against another backend's outputs,
//                                             only in a side-by-side run (cts/against_outputs.h)
//   conformance/stream_order|null_stream|reuse|two_streams/<problem>   every conformance problem
//   conformance/workspace|workspace_refusals/<problem>   every conformance problem
//   conformance/released_early|destroy_after_compute|device_and_destroy|create_null_pointers|
//               compute_null_pointers|device_query_null_pointers|destroy_null/<problem>
//                                             the first conformance problem
//   conformance/in_place/<problem>/<out>_is_<in>   InPlacePairs() × conformance problems
//   conformance/bad_dtype|bad_shape|bad_strides|bad_param|check_order|overlapping_rows|
//               recommended_refusal/<variant>
//                                             BadDescriptors()
//   conformance/dtype_probe/<dtype>           every dtype of the interface
// The conformance and accuracy problems are the lines of the operator's case files,
// suites/op/cases/<subject>.conformance.cases and .accuracy.cases (common/case_files.h), or
// the lists its family computes from its declaration (common/elementwise.h, axis_ops.h).
// The cases of invalid input (NULL pointers, refusals, bad descriptors, dtype probes) are
// declared with INFINICTS_OP_PROBE_P: they run after the others (cts::CaseInput::kInvalid).
// Under problem lines (cts/ad_hoc_problems.h) every case that takes a problem takes the lines'
// instead, perf/timed/<problem> times each, and the others are not declared.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/case_files.h"
#include "common/checks.h"
#include "common/op_case.h"
#include "common/operator_calls.h"
#include "common/prepared_call.h"
#include "common/problem_fuzzing.h"
#include "common/tensor_roles.h"
#include "cts/ad_hoc_problems.h"
#include "cts/against_outputs.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {

// Draws for the conformance cases that run one problem several times.
inline constexpr size_t kReuseCalls = 6;
inline constexpr size_t kTwoStreamCalls = 4;

inline Rng CaseRng() { return Rng(cts::CaseSeed()); }

// Whether the operator's traits compute its case sets (the elementwise and axis families, from
// their declarations) rather than read them from its case files.
template <class Op, class = void>
struct ComputesCaseSets : std::false_type {};
template <class Op>
struct ComputesCaseSets<Op, std::void_t<decltype(Op::ConformanceProblems())>> : std::true_type {};

// What a problem line is parsed onto: a valid problem of the operator, whose fields the line
// then sets (to their defaults where it names them not), so that what is not a field (a
// problem type two operators share tells them apart so) is the operator's.
template <class Op>
typename Op::Problem SeedProblemOf() {
  return Op::ProbeProblem(Op::AdmittedDtypes().front());
}

// Problem lines parsed onto the operator's seed, each checked by building its specs. A line
// that does not parse is recorded (cts::RecordAdHocProblemError), not run; a line of a problem
// an earlier line gave (eps=1e-5, eps=0.00001) makes no second case and goes to
// on_repeat(line, earlier line).
template <class Op, class OnRepeat>
std::vector<typename Op::Problem> ParsedProblems(const std::vector<cts::AdHocProblem> &lines, OnRepeat on_repeat) {
  const typename Op::Problem seed = SeedProblemOf<Op>();
  std::vector<typename Op::Problem> problems;
  std::map<std::string, const cts::AdHocProblem *> first_line_of;  // by problem name
  for (const cts::AdHocProblem &line : lines) {
    try {
      auto problem = ParseProblemLine(line.line, seed);
      Op::Specs(problem);
      const auto [first, inserted] = first_line_of.emplace(problem.Name(), &line);
      if (inserted) problems.push_back(std::move(problem));
      else on_repeat(line, *first->second);
    } catch (const std::exception &error) {
      cts::RecordAdHocProblemError(line, error.what());
    }
  }
  return problems;
}

// The problems of one of the operator's case files (common/case_files.h), in file order. A line
// that does not parse, or repeats a problem, is an error the suite exits with before any case.
template <class Op>
std::vector<typename Op::Problem> CaseFileProblems(const char *set) {
  std::vector<std::string> errors;
  const std::vector<cts::AdHocProblem> lines = CaseFileLines(CompiledCaseFiles(), Op::kSubject, set, &errors);
  for (const std::string &error : errors) cts::RecordProblemLinesError(error);
  return ParsedProblems<Op>(lines, [](const cts::AdHocProblem &repeat, const cts::AdHocProblem &first) {
    cts::RecordAdHocProblemError(repeat, "the problem of " + first.where + " again");
  });
}

// The problems of the conformance cases (the first is the default problem of the cases that run
// once) and of the accuracy cases, in a plain run.
enum class CaseSet { kConformance, kAccuracy };
template <class Op, CaseSet kSet>
const std::vector<typename Op::Problem> &CaseSetOf() {
  static const std::vector<typename Op::Problem> problems = [] {
    constexpr bool kConformance = kSet == CaseSet::kConformance;
    if constexpr (ComputesCaseSets<Op>::value) return kConformance ? Op::ConformanceProblems() : Op::AccuracyProblems();
    else return CaseFileProblems<Op>(kConformance ? kConformanceSet : kAccuracySet);
  }();
  return problems;
}
template <class Op>
const std::vector<typename Op::Problem> &ConformanceProblemsOf() {
  return CaseSetOf<Op, CaseSet::kConformance>();
}
template <class Op>
const std::vector<typename Op::Problem> &AccuracyProblemsOf() {
  return CaseSetOf<Op, CaseSet::kAccuracy>();
}
// The first conformance problem, or none where its case file is missing (an error already).
template <class Op>
std::vector<typename Op::Problem> DefaultProblemOf() {
  const auto &problems = ConformanceProblemsOf<Op>();
  if (problems.empty()) return {};
  return {problems.front()};
}

// The operator's problems for a kind of case: `compiled` in a plain run; under problem lines,
// the operator's lines (ParsedProblems), a repeated problem once.
template <class Op>
std::vector<typename Op::Problem> ProblemsOf(std::vector<typename Op::Problem> compiled) {
  static_assert(HasFields<typename Op::Problem>::value,
                "an operator's Problem declares its Fields (common/problem_grammar.h)");
  if (!cts::AdHocProblemsActive()) return compiled;
  return ParsedProblems<Op>(cts::AdHocProblemsFor(Op::kSubject),
                            [](const cts::AdHocProblem &, const cts::AdHocProblem &) {});
}

// What `infinicts fuzz` varies of the operator (common/problem_fuzzing.h).
template <class Op>
const FuzzedOperator &FuzzedOperatorOf() {
  static const FuzzedOperator op = [] {
    FuzzedOperator made;
    for (const auto &problem : AccuracyProblemsOf<Op>()) made.corpus.push_back(FieldTextsOf(problem));
    for (const auto &problem : ConformanceProblemsOf<Op>()) made.corpus.push_back(FieldTextsOf(problem));
    const typename Op::Problem seed = SeedProblemOf<Op>();
    // Shrinking heads for the default problem, the plainest the operator's cases name.
    const std::vector<typename Op::Problem> default_problem = DefaultProblemOf<Op>();
    made.plain = FieldTextsOf(default_problem.empty() ? seed : default_problem.front());
    made.check = [seed](const std::string &line) -> std::optional<CheckedProblem> {
      try {
        const typename Op::Problem problem = ParseProblemLine(line, seed);
        CheckedProblem checked;
        checked.fields = FieldTextsOf(problem);
        checked.line = JoinFieldTexts(checked.fields, DefaultFieldTexts<typename Op::Problem>());
        // Logical elements count too: the fill and the oracle visit each, however little
        // storage a broadcast layout takes.
        for (const TensorSpec &spec : Op::Specs(problem)) {
          checked.bytes += std::max(StorageElements(spec.layout), NumElements(spec.layout.shape)) * DtypeSize(spec.dtype);
        }
        return checked;
      } catch (const std::exception &) {
        return std::nullopt;
      }
    };
    return made;
  }();
  return op;
}

template <class Op>
cts::ProblemFuzzing FuzzingOf() {
  return {[](uint64_t seed, size_t count) { return DrawProblemLines(FuzzedOperatorOf<Op>(), seed, count); },
          [](const std::string &line) { return SimplerProblemLines(FuzzedOperatorOf<Op>(), line); }};
}

// The cases that take no problem are not declared under problem lines.
template <class T>
std::vector<T> UnlessAdHoc(std::vector<T> compiled) {
  return cts::AdHocProblemsActive() ? std::vector<T>{} : compiled;
}

// Times a prepared call as a perf case does (perf_case.h) and checks its outputs against the
// expected ones the preparation computed.
void RunTimedPreparedCall(const PreparedCall &call);

// The perf case of a problem line (perf_case.h's cases time their own problems in a plain run).
template <class Op>
void RunTimedProblem(const typename Op::Problem &problem) {
  Rng rng = CaseRng();
  RunTimedPreparedCall(Prepare<Op>(problem, rng));
}

template <class Op>
std::vector<PreparedCall> PrepareMany(const typename Op::Problem &problem, size_t count) {
  Rng rng = CaseRng();
  std::vector<PreparedCall> calls;
  for (size_t i = 0; i < count; ++i) calls.push_back(Prepare<Op>(problem, rng));
  return calls;
}

template <class Op>
PreparedCall PrepareOne(const typename Op::Problem &problem, Oracle oracle = Oracle::kComputed) {
  Rng rng = CaseRng();
  return Prepare<Op>(problem, rng, oracle);
}

// The side-by-side cases exist only in a side-by-side run.
template <class T>
std::vector<T> OnlySideBySide(std::vector<T> problems) {
  return cts::AgainstActive() ? problems : std::vector<T>{};
}

// A side-by-side case: the call run as the accuracy case runs it, its outputs saved for, or
// compared with, the other backend's (common/against.h).
template <class Op>
void RunSideBySide(const typename Op::Problem &problem) {
  RunOptions options;
  options.against = true;
  RunAndVerify(PrepareOne<Op>(problem, Oracle::kNotComputed), options);
}

template <class Problem>
struct InPlaceParam : Param<InPlaceParam<Problem>> {
  Problem problem;
  AliasPair pair;
  std::string output, input;
  std::string Name() const { return problem.Name() + "__" + output + "_is_" + input; }
  std::string Json() const {
    nlohmann::json json = nlohmann::json::parse(problem.Json());
    json["in_place"] = output + " = " + input;
    return json.dump();
  }
};

template <class Op>
std::vector<InPlaceParam<typename Op::Problem>> InPlaceParams() {
  std::vector<InPlaceParam<typename Op::Problem>> params;
  for (const AliasPair &pair : Op::InPlacePairs()) {
    for (const auto &problem : ProblemsOf<Op>(ConformanceProblemsOf<Op>())) {
      const std::vector<TensorSpec> specs = Op::Specs(problem);
      // Only tensors of one layout and dtype can share memory (a problem line may differ).
      const TensorSpec &out = specs.at(pair.output), &in = specs.at(pair.input);
      if (out.dtype != in.dtype || out.layout.shape != in.layout.shape || out.layout.strides != in.layout.strides ||
          out.layout.offset != in.layout.offset)
        continue;
      InPlaceParam<typename Op::Problem> param;
      param.problem = problem;
      param.pair = pair;
      param.output = specs.at(pair.output).name;
      param.input = specs.at(pair.input).name;
      params.push_back(param);
    }
  }
  return params;
}

struct DtypeProbeParam : Param<DtypeProbeParam> {
  infiniDtype_t dtype = INFINI_DTYPE_INVALID;
  bool allowed = false;
  bool optional = false;  // allowed, and a backend may refuse it (OptionalDtypesOf)
  std::string Name() const { return DtypeName(dtype); }
  std::string Json() const {
    nlohmann::json json{{"dtype", DtypeName(dtype)}, {"allowed_by_spec", allowed}};
    if (optional) json["optional"] = true;
    return json.dump();
  }
};

// Every dtype of the interface (INVALID aside), each marked with whether Op admits it.
template <class Op>
std::vector<DtypeProbeParam> DtypeProbeParams() {
  const std::vector<infiniDtype_t> admitted = Op::AdmittedDtypes();
  const std::vector<infiniDtype_t> optional = OptionalDtypesOf<Op>();
  std::vector<DtypeProbeParam> params;
  for (int value = INFINI_DTYPE_BYTE; value <= INFINI_DTYPE_BF16; ++value) {
    DtypeProbeParam param;
    param.dtype = static_cast<infiniDtype_t>(value);
    param.allowed = std::find(admitted.begin(), admitted.end(), param.dtype) != admitted.end();
    param.optional = param.allowed && std::find(optional.begin(), optional.end(), param.dtype) != optional.end();
    params.push_back(param);
  }
  return params;
}

// kRecommended: refusals the spec recommends of overlapping outputs (BAD_TENSOR_STRIDES,
// OP-DESC-26); kRecommendedOwn: those of the operator's own SHOULD clauses (other statuses).
enum class BadKind { kDtype, kShape, kStrides, kParam, kOrder, kRecommended, kRecommendedOwn };

// The dtype of an "all_<dtype>" variant (every tensor of one dtype beyond the spec), if it is one.
template <class BadDescriptor>
std::optional<infiniDtype_t> BeyondSpecDtype(const BadDescriptor &bad) {
  if (bad.name.rfind("all_", 0) != 0) return std::nullopt;
  return ParseDtype(bad.name.substr(4));
}

template <class Op, class = void>
struct HasTensorRoles : std::false_type {};
template <class Op>
struct HasTensorRoles<Op, std::void_t<decltype(Op::kTensorRoles)>> : std::true_type {};

// The operator's listed bad descriptors, then those its tensor roles give (common/tensor_roles.h)
// over its probe problem in F32 (or its first admitted dtype). A roles line that does not fit
// the specs, or a name given twice, is an error the suite exits with before any case.
template <class Op>
std::vector<typename Op::BadDescriptor> AllBadDescriptors() {
  std::vector<typename Op::BadDescriptor> all = Op::BadDescriptors();
  if constexpr (HasTensorRoles<Op>::value) {
    const std::vector<infiniDtype_t> admitted = Op::AdmittedDtypes();
    const bool f32 = std::find(admitted.begin(), admitted.end(), INFINI_DTYPE_F32) != admitted.end();
    const typename Op::Problem base = Op::ProbeProblem(f32 ? INFINI_DTYPE_F32 : admitted.front());
    try {
      for (RoleProbe &probe : TensorRoleProbes(Op::Specs(base), Op::kTensorRoles)) {
        typename Op::BadDescriptor bad;
        bad.name = std::move(probe.name);
        bad.problem = base;
        bad.expected = probe.expected;
        bad.mutate = std::move(probe.mutate);
        all.push_back(std::move(bad));
      }
    } catch (const std::invalid_argument &error) {
      cts::RecordProblemLinesError(std::string(Op::kSubject) + ": " + error.what());
    }
  }
  // A second of one name is left out (GoogleTest would abort on it before the error shows).
  std::vector<typename Op::BadDescriptor> named_once;
  std::set<std::string> names;
  for (auto &bad : all) {
    if (names.insert(bad.name).second) {
      named_once.push_back(std::move(bad));
    } else {
      cts::RecordProblemLinesError(std::string(Op::kSubject) + ": the bad descriptor " + bad.name +
                                   " is named twice (a listed one the tensor roles give too?)");
    }
  }
  return named_once;
}

template <class Op>
std::vector<typename Op::BadDescriptor> BadDescriptorsOf(BadKind kind) {
  const std::vector<infiniDtype_t> admitted = Op::AdmittedDtypes();
  std::vector<typename Op::BadDescriptor> picked;
  for (const auto &bad : AllBadDescriptors<Op>()) {
    // A dtype "beyond the spec" that this operator admits after all is no bad input.
    const std::optional<infiniDtype_t> beyond = BeyondSpecDtype(bad);
    if (beyond && std::find(admitted.begin(), admitted.end(), *beyond) != admitted.end()) continue;
    BadKind of = BadKind::kOrder;
    if (bad.recommended) {
      of = bad.expected == INFINI_STATUS_BAD_TENSOR_STRIDES ? BadKind::kRecommended : BadKind::kRecommendedOwn;
    } else if (bad.second_fault == INFINI_STATUS_SUCCESS) {
      switch (bad.expected) {
        case INFINI_STATUS_BAD_TENSOR_DTYPE: of = BadKind::kDtype; break;
        case INFINI_STATUS_BAD_TENSOR_SHAPE: of = BadKind::kShape; break;
        case INFINI_STATUS_BAD_TENSOR_STRIDES: of = BadKind::kStrides; break;
        default: of = BadKind::kParam; break;
      }
    }
    if (of == kind) picked.push_back(bad);
  }
  return picked;
}

template <class Op>
void CheckBadDescriptor(const typename Op::BadDescriptor &bad) {
  std::vector<TensorSpec> specs = Op::Specs(bad.problem);
  bad.mutate(specs);
  RefusalRule rule;
  rule.expected = bad.expected;
  rule.second_fault = bad.second_fault;
  rule.beyond_spec = BeyondSpecDtype(bad).has_value();
  rule.recommended = bad.recommended;
  CheckRefused(specs, Op::Calls(bad.problem), rule, std::string(Op::kSubject) + " " + bad.name);
}

template <class Op>
void CheckDtypeProbeOf(const DtypeProbeParam &param) {
  const auto problem = Op::ProbeProblem(param.dtype);
  if (param.optional) cts::NoteOptionalCapability(DtypeName(param.dtype));
  CheckDtypeProbe(Op::Specs(problem), Op::Calls(problem), param.dtype, param.allowed);
}

// Clause lists: what every case of a kind checks, plus the operator's own clauses.
std::vector<std::string> Joined(std::vector<std::string> common, const std::vector<std::string> &own);

}  // namespace infinicts::op_cases

// A value-parameterised case whose clause list is computed (from the operator's traits).
#define INFINICTS_OP_TEST_P(Fixture, Test, Op, clauses)                                                    \
  static const bool op_case_##Fixture##_##Test [[maybe_unused]] =                                        \
      ::infinicts::cts::RegisterCase(#Fixture, #Test, "", Op::kSubject, clauses);                        \
  TEST_P(Fixture, Test)

// The same for a case of invalid input (cts::CaseInput::kInvalid): it runs after the others.
#define INFINICTS_OP_PROBE_P(Fixture, Test, Op, clauses)                                                   \
  static const bool op_case_##Fixture##_##Test [[maybe_unused]] = ::infinicts::cts::RegisterCase(         \
      #Fixture, #Test, "", Op::kSubject, clauses, ::infinicts::cts::CaseInput::kInvalid);                  \
  TEST_P(Fixture, Test)

#define INFINICTS_OP_NAMES ::infinicts::cts::NameFromParam()
#define INFINICTS_OP_GUARDED(...) ::infinicts::op_cases::Guarded([&] { __VA_ARGS__; })

#define INFINICTS_OP_CASES(Op)                                                                              \
  class Op##Accuracy : public ::infinicts::cts::ParamCase<Op::Problem> {};                                 \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##Accuracy);                                            \
  INFINICTS_OP_TEST_P(Op##Accuracy, matches_oracle, Op,                                                    \
                      ::infinicts::op_cases::Joined({"OP-ACC-1", "OP-MEM-1", "OP-MEM-2", "OP-STREAM-1",     \
                                                     "OP-LAYOUT-1", "OP-LAYOUT-2", "OP-LAYOUT-3",          \
                                                     "OP-LAYOUT-4"},                                        \
                                                    Op::Clauses().math)) {                                  \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::RunAndVerify(::infinicts::op_cases::PrepareOne<Op>(GetParam()))); \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(accuracy, Op##Accuracy, ::testing::ValuesIn(::infinicts::op_cases::ProblemsOf<Op>(::infinicts::op_cases::AccuracyProblemsOf<Op>())), INFINICTS_OP_NAMES); \
                                                                                                            \
  class Op##SideBySide : public ::infinicts::cts::ParamCase<Op::Problem> {};                               \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##SideBySide);                                          \
  INFINICTS_OP_TEST_P(Op##SideBySide, matches_against, Op, (std::vector<std::string>{"OP-ACC-2"})) {        \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::RunSideBySide<Op>(GetParam()));                             \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(accuracy, Op##SideBySide,                                                        \
                           ::testing::ValuesIn(::infinicts::op_cases::OnlySideBySide(                       \
                               ::infinicts::op_cases::ProblemsOf<Op>(::infinicts::op_cases::AccuracyProblemsOf<Op>()))),            \
                           INFINICTS_OP_NAMES);                                                             \
                                                                                                            \
  class Op##EveryDtype : public ::infinicts::cts::ParamCase<Op::Problem> {};                               \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##EveryDtype);                                          \
  INFINICTS_OP_TEST_P(Op##EveryDtype, stream_order, Op, (std::vector<std::string>{"OP-STREAM-1", "OP-MEM-1"})) { \
    INFINICTS_OP_GUARDED({                                                                                  \
      const auto calls = ::infinicts::op_cases::PrepareMany<Op>(GetParam(), 2);                             \
      ::infinicts::op_cases::RunOptions options;                                                            \
      options.stale = &calls[1];                                                                            \
      ::infinicts::op_cases::RunAndVerify(calls[0], options);                                               \
    });                                                                                                     \
  }                                                                                                         \
  INFINICTS_OP_TEST_P(Op##EveryDtype, null_stream, Op, (std::vector<std::string>{"OP-STREAM-2"})) {         \
    INFINICTS_OP_GUARDED({                                                                                  \
      ::infinicts::op_cases::RunOptions options;                                                            \
      options.null_stream = true;                                                                           \
      ::infinicts::op_cases::RunAndVerify(::infinicts::op_cases::PrepareOne<Op>(GetParam()), options);      \
    });                                                                                                     \
  }                                                                                                         \
  INFINICTS_OP_TEST_P(Op##EveryDtype, reuse, Op, (std::vector<std::string>{"OP-DESC-20"})) {                \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckReuse(                                                 \
        ::infinicts::op_cases::PrepareMany<Op>(GetParam(), ::infinicts::op_cases::kReuseCalls)));           \
  }                                                                                                         \
  INFINICTS_OP_TEST_P(Op##EveryDtype, two_streams, Op, (std::vector<std::string>{"OP-STREAM-3"})) {         \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckTwoStreams(                                            \
        ::infinicts::op_cases::PrepareMany<Op>(GetParam(), ::infinicts::op_cases::kTwoStreamCalls)));       \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(conformance, Op##EveryDtype,                                                     \
                           ::testing::ValuesIn(::infinicts::op_cases::ProblemsOf<Op>(::infinicts::op_cases::ConformanceProblemsOf<Op>())), \
                           INFINICTS_OP_NAMES);                                                             \
                                                                                                            \
  class Op##Default : public ::infinicts::cts::ParamCase<Op::Problem> {};                                  \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##Default);                                             \
  INFINICTS_OP_PROBE_P(Op##Default, create_null_pointers, Op, (std::vector<std::string>{"OP-DESC-9"})) {     \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckCreateNullPointers(::infinicts::op_cases::PrepareOne<Op>(GetParam()))); \
  }                                                                                                         \
  INFINICTS_OP_PROBE_P(Op##Default, compute_null_pointers, Op, (std::vector<std::string>{"OP-DESC-18"})) {   \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckComputeNullPointers(::infinicts::op_cases::PrepareOne<Op>(GetParam()))); \
  }                                                                                                         \
  INFINICTS_OP_TEST_P(Op##Default, released_early, Op, (std::vector<std::string>{"OP-DESC-3", "OP-DESC-8"})) { \
    INFINICTS_OP_GUARDED({                                                                                  \
      ::infinicts::op_cases::RunOptions options;                                                            \
      options.release_early = true;                                                                         \
      ::infinicts::op_cases::RunAndVerify(::infinicts::op_cases::PrepareOne<Op>(GetParam()), options);      \
    });                                                                                                     \
  }                                                                                                         \
  INFINICTS_OP_TEST_P(Op##Default, destroy_after_compute, Op, (std::vector<std::string>{"OP-DESC-21"})) {   \
    INFINICTS_OP_GUARDED({                                                                                  \
      ::infinicts::op_cases::RunOptions options;                                                            \
      options.destroy_after_compute = true;                                                                 \
      ::infinicts::op_cases::RunAndVerify(::infinicts::op_cases::PrepareOne<Op>(GetParam()), options);      \
    });                                                                                                     \
  }                                                                                                         \
  INFINICTS_OP_TEST_P(Op##Default, device_and_destroy, Op, (std::vector<std::string>{"OP-DESC-2", "OP-DESC-17"})) { \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckDeviceQueriesAndDestroy(                               \
        ::infinicts::op_cases::PrepareOne<Op>(GetParam())));                                                \
  }                                                                                                         \
  INFINICTS_OP_PROBE_P(Op##Default, device_query_null_pointers, Op, (std::vector<std::string>{"OP-DESC-16"})) { \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckDeviceQueryNullPointers(                               \
        ::infinicts::op_cases::PrepareOne<Op>(GetParam())));                                                \
  }                                                                                                         \
  INFINICTS_OP_PROBE_P(Op##Default, destroy_null, Op, (std::vector<std::string>{"OP-DESC-25"})) {           \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckDestroyNull(::infinicts::op_cases::PrepareOne<Op>(GetParam()))); \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(conformance, Op##Default,                                                        \
                           ::testing::ValuesIn(::infinicts::op_cases::ProblemsOf<Op>(::infinicts::op_cases::DefaultProblemOf<Op>())), \
                           INFINICTS_OP_NAMES);                                                             \
                                                                                                            \
  class Op##InPlace : public ::infinicts::cts::ParamCase<::infinicts::op_cases::InPlaceParam<Op::Problem>> {}; \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##InPlace);                                               \
  INFINICTS_OP_TEST_P(Op##InPlace, in_place, Op, (std::vector<std::string>{"OP-ALIAS-1", "OP-MEM-1"})) {    \
    INFINICTS_OP_GUARDED({                                                                                  \
      ::infinicts::op_cases::RunOptions options;                                                            \
      options.aliases = {GetParam().pair};                                                                  \
      ::infinicts::op_cases::RunAndVerify(::infinicts::op_cases::PrepareOne<Op>(GetParam().problem), options); \
    });                                                                                                     \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(conformance, Op##InPlace, ::testing::ValuesIn(::infinicts::op_cases::InPlaceParams<Op>()), \
                           INFINICTS_OP_NAMES);                                                             \
                                                                                                            \
  INFINICTS_OP_BAD_CASES_(Op, BadDtype, bad_dtype, kDtype, ::infinicts::op_cases::Joined({"OP-DESC-11"}, Op::Clauses().dtypes)) \
  INFINICTS_OP_BAD_CASES_(Op, BadShape, bad_shape, kShape, ::infinicts::op_cases::Joined({"OP-DESC-12"}, Op::Clauses().shapes)) \
  INFINICTS_OP_BAD_CASES_(Op, BadStrides, bad_strides, kStrides,                                            \
                          ::infinicts::op_cases::Joined({"OP-DESC-13"}, Op::Clauses().strides))             \
  INFINICTS_OP_BAD_CASES_(Op, BadParam, bad_param, kParam, ::infinicts::op_cases::Joined({"OP-DESC-22"}, Op::Clauses().params)) \
  INFINICTS_OP_BAD_CASES_(Op, CheckOrder, check_order, kOrder, (std::vector<std::string>{"OP-DESC-10"}))    \
  INFINICTS_OP_BAD_CASES_(Op, OverlappingRows, overlapping_rows, kRecommended,                              \
                          (std::vector<std::string>{"OP-DESC-26"}))                                         \
  INFINICTS_OP_BAD_CASES_(Op, RecommendedRefusal, recommended_refusal, kRecommendedOwn, Op::Clauses().recommended) \
                                                                                                            \
  class Op##DtypeProbe : public ::infinicts::cts::ParamCase<::infinicts::op_cases::DtypeProbeParam> {};    \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##DtypeProbe);                                          \
  INFINICTS_OP_PROBE_P(Op##DtypeProbe, dtype_probe, Op,                                                     \
                      ::infinicts::op_cases::Joined({"OP-DESC-11", "OP-DESC-14", "OP-DESC-15"}, Op::Clauses().dtypes)) { \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckDtypeProbeOf<Op>(GetParam()));                         \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(conformance, Op##DtypeProbe,                                                     \
                           ::testing::ValuesIn(::infinicts::op_cases::UnlessAdHoc(::infinicts::op_cases::DtypeProbeParams<Op>())), \
                           INFINICTS_OP_NAMES);                                                             \
                                                                                                            \
  class Op##TimedProblem : public ::infinicts::cts::ParamCase<Op::Problem> {};                             \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##TimedProblem);                                          \
  INFINICTS_OP_TEST_P(Op##TimedProblem, timed, Op,                                                         \
                      ::infinicts::op_cases::Joined({"OP-PERF-1", "OP-ACC-1", "OP-STREAM-1"}, Op::Clauses().math)) { \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::RunTimedProblem<Op>(GetParam()));                          \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(perf, Op##TimedProblem, ::testing::ValuesIn(::infinicts::op_cases::ProblemsOf<Op>({})), \
                           INFINICTS_OP_NAMES);                                                             \
  static const bool op_problem_subject_##Op [[maybe_unused]] = ::infinicts::cts::RegisterProblemSubject(Op::kSubject, ::infinicts::op_cases::FuzzingOf<Op>())

#define INFINICTS_OP_BAD_CASES_(Op, Kind, test, kind, clauses)                                              \
  class Op##Kind : public ::infinicts::cts::ParamCase<Op::BadDescriptor> {};                               \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##Kind);                                                  \
  INFINICTS_OP_PROBE_P(Op##Kind, test, Op, clauses) {                                                      \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckBadDescriptor<Op>(GetParam()));                        \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(                                                                                 \
      conformance, Op##Kind,                                                                                \
      ::testing::ValuesIn(::infinicts::op_cases::UnlessAdHoc(                                               \
          ::infinicts::op_cases::BadDescriptorsOf<Op>(::infinicts::op_cases::BadKind::kind))),              \
      INFINICTS_OP_NAMES);

#define INFINICTS_OP_WORKSPACE_CASES(Op)                                                                    \
  class Op##Workspace : public ::infinicts::cts::ParamCase<Op::Problem> {};                                \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Op##Workspace);                                           \
  INFINICTS_OP_TEST_P(Op##Workspace, workspace, Op, (std::vector<std::string>{"OP-WS-1", "OP-WS-4"})) {  \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckWorkspace(::infinicts::op_cases::PrepareOne<Op>(GetParam()))); \
  }                                                                                                         \
  INFINICTS_OP_PROBE_P(Op##Workspace, workspace_refusals, Op,                                              \
                       (std::vector<std::string>{"OP-WS-2", "OP-WS-3", "OP-DESC-19"})) {                     \
    INFINICTS_OP_GUARDED(::infinicts::op_cases::CheckWorkspaceRefusals(::infinicts::op_cases::PrepareOne<Op>(GetParam()))); \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(conformance, Op##Workspace,                                                      \
                           ::testing::ValuesIn(::infinicts::op_cases::ProblemsOf<Op>(::infinicts::op_cases::ConformanceProblemsOf<Op>())), \
                           INFINICTS_OP_NAMES)
