// RandomSample perf: one draw from the LM head's logits over Llama-2's vocabulary of 32000,
// topp 0.9, topk 50, temperature 0.8, random_val 0.5, into an I64 result. The scores are
// those of the accuracy cases (distinct top values above a tail), redrawn until the
// oracle's threshold lies at least 1e-3 of the distribution from its index's boundaries
// and the index is not 0 (an untouched result would pass); the index is checked.
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr float kRandomVal = 0.5f, kTopp = 0.9f, kTemperature = 0.8f;
constexpr int kTopk = 50;
constexpr double kMinMargin = 1e-3;

oracle::RandomSampleResult Sample(const HostTensor &scores) {
  return oracle::RandomSample(scores, kRandomVal, kTopp, kTopk, kTemperature);
}

struct RandomSamplePerf {
  static constexpr const char *kSubject = "random_sample";
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
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    return {{"result", Role::kOutput, INFINI_DTYPE_I64, ContiguousLayout({})},
            {"probs", Role::kInput, p.dtype, ContiguousLayout({p.Dim("vocab")})}};
  }
  static OpCalls Calls(const PerfProblem &) {
    const auto scalars = std::make_tuple(kRandomVal, kTopp, kTopk, kTemperature);
    return OperatorCalls<api::RandomSample>(std::tuple<>(), scalars);
  }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    // BF16 keeps 8 significant bits: its top values need a wider gap to stay distinct.
    const double gap = p.dtype == INFINI_DTYPE_BF16 ? 0.25 : 0.125;
    for (int draw = 0; draw < 200; ++draw) {
      try {
        FillSamplingScores(t[1], rng, 64, gap);
      } catch (const std::invalid_argument &) {
        continue;  // two top values met once rounded to the dtype
      }
      const oracle::RandomSampleResult expected = Sample(t[1]);
      if (expected.index != 0 && expected.margin >= kMinMargin) return;
    }
    throw std::logic_error("no draw of scores gave a sample away from index 0 with margin 1e-3");
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), p.Dim("vocab"), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) {
      return std::vector<HostTensor>{
          HostTensor::FromValues(INFINI_DTYPE_F64, {}, {static_cast<double>(Sample(t[1]).index)})};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(RandomSamplePerf);

}  // namespace
}  // namespace infinicts::op_cases
