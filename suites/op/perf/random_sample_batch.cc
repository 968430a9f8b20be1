// RandomSampleBatch perf: the sampler of a decode batch, one row of logits per sequence over
// each serving model's vocabulary (Llama-2-7B's 32000, Llama-3-8B's 128256, Qwen2-7B's
// 152064), 16 sequences (full: also 64), each row under its own parameters (three of the
// accuracy cases' draws in turn), into an I64 result. Every row's scores are redrawn until the
// oracle's threshold lies kMinSamplingMargin from its index's boundaries and the index is
// not 0; the indices are checked.
#include "common/perf_case.h"
#include "common/sampling_data.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr int kMaxDraws = 200;

// The accuracy cases' draws whose topk keeps the choice among the 64 distinct top scores and
// whose temperature (at most 1) keeps the weight of a 150000-logit tail negligible, so that
// the threshold can lie clear of its neighbours as a fraction of the whole distribution.
Sampling RowSampling(size_t row) {
  const Sampling draws[] = {kSamplingDraws[0], kSamplingDraws[1], kSamplingDraws[3]};
  return draws[row % std::size(draws)];
}

struct RandomSampleBatchPerf {
  static constexpr const char *kSubject = "random_sample_batch";
  static std::vector<std::string> MathClauses() { return {"OP-RANDOMSAMPLEBATCH-4", "OP-RANDOMSAMPLE-4"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<size_t> sequences = {16};
    if (cts::FullProfile()) sequences.push_back(64);
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (size_t count : sequences) {
        for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
          PerfProblem p;
          p.dtype = dtype;
          p.model = model.name;
          p.part = "sampler";
          p.tokens = count;
          p.dims = {{"sequences", count}, {"vocab", model.vocab}};
          problems.push_back(p);
        }
      }
    }
    return problems;
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    return {{"result", Role::kOutput, INFINI_DTYPE_I64, ContiguousLayout({p.Dim("sequences")})},
            {"probs", Role::kInput, p.dtype, ContiguousLayout({p.Dim("sequences"), p.Dim("vocab")})}};
  }
  static OpCalls Calls(const PerfProblem &p) {
    std::vector<Sampling> rows;
    for (size_t row = 0; row < p.Dim("sequences"); ++row) rows.push_back(RowSampling(row));
    return RandomSampleBatchCalls(rows);
  }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    // A gap of 1/4 ends the 64 top scores 16 below the largest, so the tail starts there: its
    // weight stays below e^-16 per logit (and BF16's 8 significant bits keep the top distinct).
    const double gap = 0.25;
    const size_t vocab = p.Dim("vocab");
    HostTensor row(p.dtype, Shape{vocab});
    for (size_t r = 0; r < p.Dim("sequences"); ++r) {
      const Sampling s = RowSampling(r);
      int draw = 0;
      for (; draw < kMaxDraws; ++draw) {
        try {
          FillSamplingScores(row, rng, 64, gap);
        } catch (const std::invalid_argument &) {
          continue;  // two top values met once rounded to the dtype
        }
        const oracle::RandomSampleResult expected =
            oracle::RandomSample(row, s.random_val, s.topp, s.topk, s.temperature);
        if (expected.index != 0 && expected.margin >= kMinSamplingMargin) break;
      }
      if (draw == kMaxDraws) throw std::logic_error("no draw of a row gave a sample away from index 0 with margin 1e-3");
      for (size_t i = 0; i < vocab; ++i) t[1].SetAt(r * vocab + i, row.GetAt(i));
    }
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), p.Dim("sequences") * p.Dim("vocab"), specs);
  }
  static PerfCheck Check(const PerfProblem &p) {
    PerfCheck check;
    check.full = [sequences = p.Dim("sequences")](const std::vector<HostTensor> &t) {
      std::vector<Sampling> rows;
      for (size_t row = 0; row < sequences; ++row) rows.push_back(RowSampling(row));
      std::vector<double> indices;
      for (int64_t index : OracleIndices(t[1], rows)) indices.push_back(static_cast<double>(index));
      return std::vector<HostTensor>{HostTensor::FromValues(INFINI_DTYPE_F64, {sequences}, indices)};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(RandomSampleBatchPerf);

}  // namespace
}  // namespace infinicts::op_cases
