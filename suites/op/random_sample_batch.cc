// RandomSampleBatch: one index per row of logits `probs` [batch, n] into `result` [batch],
// row i under random_val[i], topp[i], topk[i] and temperature[i], host arrays (spec
// section OP-RANDOMSAMPLEBATCH). The workspace query and destroy are RandomSample's.
//
// Data: every row's scores are RandomSample's (distinct top values a fixed gap apart above a
// lower tail, common/sampling_data.h) and the rows' parameters differ. A batch is redrawn
// (from the case's seed) until each row's threshold lies kMinSamplingMargin from its index's
// boundaries and the index is not 0, and, where the rows' parameters differ, until some
// row's answer changes under row 0's parameters, under the next row's and under the
// previous row's: a kernel that reads one row's parameters for all, or a neighbour's, fails.
// The arrays_rewritten cases turn every array entry into an argmax trigger as soon as compute
// returns (OP-RANDOMSAMPLEBATCH-5), with data where some row's answer is not its argmax.
#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/sampling_data.h"
#include "oracle/oracles.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

constexpr int kMaxDraws = 200;
constexpr double kHeavyTailGap = 1.0 / 16;

struct RandomSampleBatchProblem : Param<RandomSampleBatchProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // probs
  infiniDtype_t result_dtype = INFINI_DTYPE_I64;
  size_t n = 2;
  std::vector<Sampling> rows{{0.5f, 0.9f, 50, 1.0f}};  // one per row
  std::string rows_name = "draw";                      // what the rows' parameters are
  LayoutKind probs_layout = LayoutKind::kContiguous;
  bool strided_result = false;    // result elements 2 apart (the padded 1-D layout)
  bool heavy_tail = false;        // scores decaying slowly enough that ranks past 1024 carry weight
  bool arrays_rewritten = false;  // the arrays become argmax triggers once compute returns

  size_t batch() const { return rows.size(); }
  std::string Name() const {
    return std::string(DtypeName(dtype)) + "_result_" + DtypeName(result_dtype) + "__batch" +
           std::to_string(batch()) + "_n" + std::to_string(n) + "__" + rows_name + "__probs_" +
           LayoutName(probs_layout) + (strided_result ? "__strided_result" : "") + (heavy_tail ? "__heavy_tail" : "") +
           (arrays_rewritten ? "__arrays_rewritten" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("result", result_dtype);
    field("n", n);
    field("rows", rows);  // random_val/topp/topk/temperature per row, e.g. 0.3/0.9/50/1,0.9/0.95/5/1
    field("rows_name", rows_name);
    field("probs", probs_layout);
    field("strided_result", strided_result);
    field("heavy_tail", heavy_tail);
    field("arrays_rewritten", arrays_rewritten);
  }
};

// The rows' parameters moved by `shift` rows (row i gets row i + shift's, wrapping around).
std::vector<Sampling> Shifted(const std::vector<Sampling> &rows, size_t shift) {
  std::vector<Sampling> moved;
  for (size_t i = 0; i < rows.size(); ++i) moved.push_back(rows[(i + shift) % rows.size()]);
  return moved;
}

bool SameSampling(const Sampling &a, const Sampling &b) {
  return a.random_val == b.random_val && a.topp == b.topp && a.topk == b.topk && a.temperature == b.temperature;
}

// Whether the batch tells the rows' parameters apart as the header says, with answers that
// are not all one index.
bool Distinguishes(const RandomSampleBatchProblem &p, const HostTensor &probs, const std::vector<int64_t> &expected) {
  const std::vector<Sampling> &rows = p.rows;
  // One index everywhere would let a constant output pass.
  if (rows.size() > 1 && std::all_of(expected.begin(), expected.end(), [&](int64_t i) { return i == expected[0]; })) {
    return false;
  }
  const bool all_alike = std::all_of(rows.begin(), rows.end(), [&](const Sampling &s) { return SameSampling(s, rows[0]); });
  if (!all_alike) {
    const std::vector<std::vector<Sampling>> wrong = {std::vector<Sampling>(rows.size(), rows[0]), Shifted(rows, 1),
                                                      Shifted(rows, rows.size() - 1)};
    for (const std::vector<Sampling> &parameters : wrong) {
      if (OracleIndices(probs, parameters) == expected) return false;
    }
  }
  if (p.arrays_rewritten) {
    const std::vector<int64_t> argmax = OracleIndices(probs, std::vector<Sampling>(rows.size(), kArgmaxTriggers[0]));
    if (argmax == expected) return false;
  }
  return true;
}

struct RandomSampleBatchOp {
  using Problem = RandomSampleBatchProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "random_sample_batch";
  static constexpr const char *kTensorRoles = "result[rows]:int probs[rows,~vocab]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const Layout result = MakeLayout(p.strided_result ? LayoutKind::kPadded : LayoutKind::kContiguous, {p.batch()});
    return {{"result", Role::kOutput, p.result_dtype, result},
            {"probs", Role::kInput, p.dtype, MakeLayout(p.probs_layout, {p.batch(), p.n})}};
  }

  static OpCalls Calls(const Problem &p) { return RandomSampleBatchCalls(p.rows, p.arrays_rewritten); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    // BF16 keeps 8 significant bits: its top values need a wider gap to stay distinct.
    const double unit_gap = p.dtype == INFINI_DTYPE_BF16 ? 0.25 : 0.125;
    std::uniform_int_distribution<int> gap_steps(1, 6);
    HostTensor row(p.dtype, Shape{p.n});
    for (int draw = 0; draw < kMaxDraws; ++draw) {
      try {
        for (size_t r = 0; r < p.batch(); ++r) {
          FillSamplingScores(row, rng, 64, p.heavy_tail ? kHeavyTailGap : unit_gap * gap_steps(rng));
          for (size_t i = 0; i < p.n; ++i) t[1].SetAt(r * p.n + i, row.GetAt(i));
        }
      } catch (const std::invalid_argument &) {
        continue;  // two top values met once rounded to the dtype: draw again
      }
      const std::vector<oracle::RandomSampleResult> expected = oracle::RandomSampleBatch(t[1], OracleRows(p.rows));
      const bool each_row_clear = std::all_of(expected.begin(), expected.end(), [](const auto &r) {
        return r.index != 0 && r.margin >= kMinSamplingMargin;
      });
      if (each_row_clear && Distinguishes(p, t[1], OracleIndices(t[1], p.rows))) return;
    }
    throw std::logic_error("no draw of a batch gave samples away from index 0 with margin " +
                           std::to_string(kMinSamplingMargin) + " that tell the rows' parameters apart");
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    std::vector<double> indices;
    for (int64_t index : OracleIndices(t[1], p.rows)) indices.push_back(static_cast<double>(index));
    return {HostTensor::FromValues(INFINI_DTYPE_F64, {p.batch()}, indices)};
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(p.batch()) * static_cast<double>(p.n);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t result_dtype, size_t n, std::vector<Sampling> rows,
                      std::string rows_name, LayoutKind layout = LayoutKind::kContiguous) {
    Problem p;
    p.dtype = dtype;
    p.result_dtype = result_dtype;
    p.n = n;
    p.rows = std::move(rows);
    p.rows_name = std::move(rows_name);
    p.probs_layout = layout;
    return p;
  }

  // Two draws whose answers part on most scores (kSamplingDraws[0] and [1] land on the same
  // rank too often to tell apart).
  static std::vector<Sampling> TwoDraws() { return {kSamplingDraws[0], kSamplingDraws[3]}; }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, INFINI_DTYPE_I64, 100, TwoDraws(), "two_draws"); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, INFINI_DTYPE_I64, 1000, TwoDraws(), "two_draws"));
    bad.Add("result_i8_for_1000_logits", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_I8; });
    bad.Add("result_0d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {}); });
    bad.Add("result_3_for_2_rows", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {3}); });
    bad.Add("result_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {2, 1}); });
    bad.Add("probs_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {1000}); });
    bad.Add("probs_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {2, 10, 100}); });
    bad.Add("no_rows", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {0});
      Reshape(s[1], {0, 1000});
    });
    bad.Add("no_logits", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {2, 0}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[1].dtype = INFINI_DTYPE_I32;
              Reshape(s[0], {3});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_result_range", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              s[0].dtype = INFINI_DTYPE_I8;
              Reshape(s[1], {2, 10, 100});
            },
            INFINI_STATUS_BAD_TENSOR_DTYPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  // Every accuracy case also asks RandomSample's query for the workspace and destroys the
  // descriptor with RandomSample's destroy (OP-RANDOMSAMPLEBATCH-3).
  static OpClauses Clauses() {
    return {{"OP-RANDOMSAMPLEBATCH-3", "OP-RANDOMSAMPLEBATCH-4", "OP-RANDOMSAMPLEBATCH-5", "OP-RANDOMSAMPLE-3",
             "OP-RANDOMSAMPLE-4"},
            {"OP-RANDOMSAMPLEBATCH-1", "OP-RANDOMSAMPLEBATCH-6"},
            {"OP-RANDOMSAMPLEBATCH-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(RandomSampleBatchOp);
INFINICTS_OP_WORKSPACE_CASES(RandomSampleBatchOp);

// Perf: the sampler of a decode batch, one row of logits per sequence over each serving
// model's vocabulary (Llama-2-7B's 32000, Llama-3-8B's 128256, Qwen2-7B's 152064), 16
// sequences (full: also 64), each row under its own parameters (three of the accuracy cases'
// draws in turn), into an I64 result. The scores are the accuracy cases', the batch redrawn
// until every row's threshold lies kMinSamplingMargin from its index's boundaries, no index
// is 0 and row 0's or a neighbour's parameters would change some answer; the indices are
// checked.
struct RandomSampleBatchWorkload {
  using Op = RandomSampleBatchOp;
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
  // The accuracy cases' draws whose topk keeps the choice among the 64 distinct top scores and
  // whose temperature (at most 1) keeps the weight of a 150000-logit tail small, so that
  // the threshold can lie clear of its neighbours as a fraction of the whole distribution.
  static RandomSampleBatchProblem At(const PerfProblem &p) {
    const Sampling draws[] = {kSamplingDraws[0], kSamplingDraws[1], kSamplingDraws[3]};
    std::vector<Sampling> rows;
    for (size_t row = 0; row < p.Dim("sequences"); ++row) rows.push_back(draws[row % std::size(draws)]);
    return RandomSampleBatchOp::Make(p.dtype, INFINI_DTYPE_I64, p.Dim("vocab"), rows, "draws_0_1_3");
  }
};
using RandomSampleBatchPerf = OpPerf<RandomSampleBatchWorkload>;
INFINICTS_OP_PERF_CASES(RandomSampleBatchPerf);

}  // namespace
}  // namespace infinicts::op_cases
