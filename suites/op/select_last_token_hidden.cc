// SelectLastTokenHidden: for each request r of a packed batch, output[0, r, :] = the hidden
// state of token input_offsets[r + 1] − 1 of hidden_states [batch, seq, hidden], tokens
// counted over batch · seq (spec section OP-SELECTLASTTOKENHIDDEN).
//
// Data: requests of unequal lengths, one-token requests next to long ones, requests that
// cross from one batch row of hidden_states into the next, and unused tokens after the
// last request, so that the first token of a request (input_offsets[r]), the token past its
// end (input_offsets[r + 1]), a per-batch-row index and the batch's last token all differ
// from the right one. Hidden states are random, so every token's row is distinct.
#include <algorithm>
#include <numeric>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

struct SelectLastTokenProblem : Param<SelectLastTokenProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // hidden_states and output
  size_t batch = 1, seq = 6, hidden = 8;
  std::vector<size_t> lengths = {2, 1, 3};  // tokens per request, packed from token 0

  std::string Name() const {
    std::string name = std::string(DtypeName(dtype)) + "__hidden_" + std::to_string(batch) + "x" +
                       std::to_string(seq) + "x" + std::to_string(hidden) + "__lengths";
    for (size_t length : lengths) name += "_" + std::to_string(length);
    return name;
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("batch", batch);
    field("seq", seq);
    field("hidden", hidden);
    field("lengths", lengths);
  }
};

struct SelectLastTokenHiddenOp {
  using Problem = SelectLastTokenProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "select_last_token_hidden";
  static constexpr const char *kTensorRoles =
      "output[~one,~requests,hidden]=hidden_states hidden_states[~batch,~tokens,hidden] "
      "input_offsets[~offsets]:int";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const size_t requests = p.lengths.size();
    return {{"output", Role::kOutput, p.dtype, ContiguousLayout({1, requests, p.hidden})},
            {"hidden_states", Role::kInput, p.dtype, ContiguousLayout({p.batch, p.seq, p.hidden})},
            {"input_offsets", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({requests + 1})}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::SelectLastTokenHidden>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillUniform(t[1], rng, -2.0, 2.0);
    size_t offset = 0;
    t[2].SetAt(0, 0.0);
    for (size_t r = 0; r < p.lengths.size(); ++r) {
      offset += p.lengths[r];
      t[2].SetAt(r + 1, static_cast<double>(offset));
    }
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::SelectLastTokenHidden(t[1], t[2])};
  }

  static double Flops(const Problem &) { return FlopsPerElement(kSubject); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, size_t batch, size_t seq, size_t hidden, std::vector<size_t> lengths) {
    Problem p;
    p.dtype = dtype;
    p.batch = batch;
    p.seq = seq;
    p.hidden = hidden;
    p.lengths = std::move(lengths);
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 1, 6, 8, {2, 1, 3}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, 1, 6, 8, {2, 1, 3}));
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("output_f16_hidden_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_F16; });
    bad.Add("output_batch_2", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {2, 3, 8}); });
    bad.Add("output_requests_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {1, 4, 8}); });
    bad.Add("hidden_states_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {6, 8}); });
    bad.Add("input_offsets_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {1, 4}); });
    bad.Add("input_offsets_one_entry", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[2], {1});
      Reshape(s[0], {1, 0, 8});
    });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-SELECTLASTTOKENHIDDEN-3", "OP-SELECTLASTTOKENHIDDEN-4"}, {"OP-SELECTLASTTOKENHIDDEN-1"}, {"OP-SELECTLASTTOKENHIDDEN-2"}, {}, {}};
  }
};

INFINICTS_OP_CASES(SelectLastTokenHiddenOp);

// Perf: before the LM head of a packed prefill batch, the last token's hidden state of each
// of 4 requests of equal length (one request per token below 4 tokens) out of
// [1, tokens, hidden], at each serving model's hidden size. Costed as what must move: the
// offsets, and each request's row read once and written once. The whole output is checked
// (bit for bit).
constexpr size_t kPrefillRequests = 4;

struct SelectLastTokenHiddenWorkload {
  using Op = SelectLastTokenHiddenOp;
  static std::vector<std::string> MathClauses() { return {"OP-SELECTLASTTOKENHIDDEN-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("lm_head_input", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes(),
                            ServingModels());
  }
  static SelectLastTokenProblem At(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens"), requests = std::min(tokens, kPrefillRequests);
    return SelectLastTokenHiddenOp::Make(p.dtype, 1, tokens, p.Dim("width"),
                                         std::vector<size_t>(requests, tokens / requests));
  }
  static PerfCost Cost(const SelectLastTokenProblem &p, const std::vector<TensorSpec> &) {
    const size_t requests = p.lengths.size();
    PerfCost cost;
    cost.flops = SelectLastTokenHiddenOp::Flops(p);
    cost.bytes = static_cast<double>((requests + 1) * DtypeSize(INFINI_DTYPE_I32) +
                                     2 * requests * p.hidden * DtypeSize(p.dtype));
    return cost;
  }
};
using SelectLastTokenHiddenPerf = OpPerf<SelectLastTokenHiddenWorkload>;
INFINICTS_OP_PERF_CASES(SelectLastTokenHiddenPerf);

}  // namespace
}  // namespace infinicts::op_cases
