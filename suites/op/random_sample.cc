// RandomSample: one index drawn from the logits `probs` into a 0-D integer `result`, under
// random_val, topp, topk and temperature (spec section OP-RANDOMSAMPLE).
//
// Data: scores whose top values are distinct steps of a fixed gap at random indices above
// a lower tail, so the sorted order is unambiguous; the draw is repeated (from the case's
// seed) until the oracle's threshold lies at least kMinSamplingMargin of the distribution away from
// the chosen index's boundaries, and the answer is not index 0 (an untouched zero would pass).
// Every argmax trigger (random_val, topp or temperature 0, topk 1) runs next to real draws.
// Vocabularies straddling the kernels' block sizes (common/row_lengths.h) put the largest
// logit at the last index, where a loop or a block's tail that stops short misses it; a
// heavy tail (many logits of some weight past rank 1024) makes a topk above 1024 matter.
#include <cmath>

#include "common/layouts.h"
#include "common/flop_counts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/row_lengths.h"
#include "common/sampling_data.h"
#include "oracle/oracles.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

constexpr int kMaxDraws = 200;
constexpr double kHeavyTailGap = 1.0 / 16;

// Swaps the largest score with the last one.
void MoveLargestToEnd(HostTensor &scores) {
  const size_t n = scores.numel();
  size_t largest = 0;
  for (size_t i = 1; i < n; ++i) {
    if (scores.GetAt(i) > scores.GetAt(largest)) largest = i;
  }
  const double top = scores.GetAt(largest);
  scores.SetAt(largest, scores.GetAt(n - 1));
  scores.SetAt(n - 1, top);
}

struct RandomSampleProblem : Param<RandomSampleProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // probs
  infiniDtype_t result_dtype = INFINI_DTYPE_I64;
  size_t n = 2;
  Sampling sampling{0.5f, 0.9f, 50, 1.0f};
  LayoutKind probs_layout = LayoutKind::kContiguous;
  bool top_last = false;    // the largest logit moved to index n - 1
  bool heavy_tail = false;  // scores decaying slowly enough that ranks past 1024 carry weight

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "_result_" + DtypeName(result_dtype) + "__n" + std::to_string(n) +
           "__random_val_" + NumberName(sampling.random_val) + "_topp_" + NumberName(sampling.topp) + "_topk_" +
           NumberName(sampling.topk) + "_temperature_" + NumberName(sampling.temperature) + "__probs_" +
           LayoutName(probs_layout) + (top_last ? "__top_last" : "") + (heavy_tail ? "__heavy_tail" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("result", result_dtype);
    field("n", n);
    field("random_val", sampling.random_val).Min(0).Max(1);  // OP-RANDOMSAMPLE: what this version specifies
    field("topp", sampling.topp).Min(0).Max(1);
    field("topk", sampling.topk).Min(1);
    field("temperature", sampling.temperature);
    field("probs", probs_layout);
    field("top_last", top_last);
    field("heavy_tail", heavy_tail);
  }
};

struct RandomSampleOp {
  using Problem = RandomSampleProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "random_sample";
  static constexpr const char *kTensorRoles = "result[]:int probs[~vocab]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"result", Role::kOutput, p.result_dtype, ContiguousLayout({})},
            {"probs", Role::kInput, p.dtype, MakeLayout(p.probs_layout, {p.n})}};
  }

  static OpCalls Calls(const Problem &p) {
    const Sampling &s = p.sampling;
    const auto scalars = std::make_tuple(s.random_val, s.topp, s.topk, s.temperature);
    return OperatorCalls<api::RandomSample>(std::tuple<>(), scalars);
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    // BF16 keeps 8 significant bits: its top values need a wider gap to stay distinct. The
    // gap varies between draws: with n below 64 the scores' shape depends on it alone.
    const double unit_gap = p.dtype == INFINI_DTYPE_BF16 ? 0.25 : 0.125;
    std::uniform_int_distribution<int> gap_steps(1, 6);
    for (int draw = 0; draw < kMaxDraws; ++draw) {
      try {
        // Heavy tail: 64 top values 1/16 apart end 4 below the top, so with 4097 logits the
        // tail holds about a third of the weight, three quarters of that past rank 1024.
        FillSamplingScores(t[1], rng, 64, p.heavy_tail ? kHeavyTailGap : unit_gap * gap_steps(rng));
      } catch (const std::invalid_argument &) {
        continue;  // two top values met once rounded to the dtype: draw again
      }
      if (p.top_last) MoveLargestToEnd(t[1]);
      const oracle::RandomSampleResult expected = Oracle(p, t[1]);
      if (expected.index != 0 && expected.margin >= kMinSamplingMargin) return;
    }
    throw std::logic_error("no draw of scores gave a sample away from index 0 with margin " +
                           std::to_string(kMinSamplingMargin));
  }

  static oracle::RandomSampleResult Oracle(const Problem &p, const HostTensor &probs) {
    const Sampling &s = p.sampling;
    return oracle::RandomSample(probs, s.random_val, s.topp, s.topk, s.temperature);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {HostTensor::FromValues(INFINI_DTYPE_F64, {}, {static_cast<double>(Oracle(p, t[1]).index)})};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(p.n); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t result_dtype, size_t n, Sampling sampling,
                      LayoutKind layout = LayoutKind::kContiguous) {
    Problem p;
    p.dtype = dtype;
    p.result_dtype = result_dtype;
    p.n = n;
    p.sampling = sampling;
    p.probs_layout = layout;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) {
    return Make(dtype, INFINI_DTYPE_I64, 100, {0.5f, 0.9f, 20, 1.0f});
  }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, INFINI_DTYPE_I64, 1000, {0.5f, 0.9f, 20, 1.0f}));
    bad.Add("result_i8_for_1000_logits", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_I8; });
    bad.Add("result_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {1}); });
    bad.Add("probs_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {10, 100}); });
    bad.Add("probs_empty", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {0}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[1].dtype = INFINI_DTYPE_I32;
              Reshape(s[0], {1});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_result_range", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              s[0].dtype = INFINI_DTYPE_I8;
              Reshape(s[1], {10, 100});
            },
            INFINI_STATUS_BAD_TENSOR_DTYPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-RANDOMSAMPLE-3", "OP-RANDOMSAMPLE-4"},
            {"OP-RANDOMSAMPLE-1", "OP-RANDOMSAMPLE-5"},
            {"OP-RANDOMSAMPLE-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(RandomSampleOp);
INFINICTS_OP_WORKSPACE_CASES(RandomSampleOp);

// Perf: one draw from the LM head's logits over Llama-2's vocabulary of 32000, topp 0.9,
// topk 50, temperature 0.8, random_val 0.5, into an I64 result. The scores are those of the
// accuracy cases (distinct top values above a tail), redrawn until the oracle's threshold
// lies at least kMinSamplingMargin of the distribution from its index's boundaries and the
// index is not 0 (an untouched result would pass); the index is checked.
struct RandomSampleWorkload {
  using Op = RandomSampleOp;
  static std::vector<std::string> MathClauses() { return {"OP-RANDOMSAMPLE-3", "OP-RANDOMSAMPLE-4"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : PerfModels()) {
      for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
        PerfProblem p;
        p.dtype = dtype;
        p.model = model.name;
        p.part = "sampler";
        p.dims = {{"vocab", model.vocab}};
        problems.push_back(p);
      }
    }
    return problems;
  }
  static RandomSampleProblem At(const PerfProblem &p) {
    return RandomSampleOp::Make(p.dtype, INFINI_DTYPE_I64, p.Dim("vocab"), {0.5f, 0.9f, 50, 0.8f});
  }
};
using RandomSamplePerf = OpPerf<RandomSampleWorkload>;
INFINICTS_OP_PERF_CASES(RandomSamplePerf);

}  // namespace
}  // namespace infinicts::op_cases
