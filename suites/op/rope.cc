// RoPE on x of (seq, nhead, dhead) or (batch, seq, nhead, dhead) (spec section OP-ROPE).
// For each pair (p0, p1) and i < dhead/2, with s = sin_table[pos][i] and c = cos_table[pos][i]:
// y[p0] = x[p0]·c - x[p1]·s, y[p1] = x[p0]·s + x[p1]·c; GPT_J pairs (2i, 2i+1), GPT_NEOX
// (i, i + dhead/2).
//
// Data: x away from zero, tables of the usual rotary angles pos·10000^(-2i/dhead), and
// positions either 0..seq-1 or drawn at random from the table, so a backend that indexes
// the tables by token instead of by pos_ids fails. Both pairings run on every shape with
// dhead >= 4, where they differ.
#include <cmath>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

// The algorithm is an int here: a bad-input case's value outside the enum (-1) is never held in,
// or loaded from, an infiniopRoPEAlgo_t.
const char *AlgoName(int algo) {
  switch (algo) {
    case INFINIOP_ROPE_ALGO_GPT_J: return "gpt_j";
    case INFINIOP_ROPE_ALGO_GPT_NEOX: return "gpt_neox";
    default: return "algo_out_of_range";
  }
}

struct RopeProblem : Param<RopeProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  infiniDtype_t pos_dtype = INFINI_DTYPE_I32;
  size_t batch = 0;  // 0: x is (seq, nhead, dhead)
  bool batched_positions = false;  // pos_ids (batch, seq) rather than (seq)
  size_t seq = 1, nhead = 1, dhead = 2, table_len = 1;
  int algo = INFINIOP_ROPE_ALGO_GPT_J;
  LayoutKind y_layout = LayoutKind::kContiguous, x_layout = LayoutKind::kContiguous,
             table_layout = LayoutKind::kContiguous;
  bool random_positions = true;

  Shape XShape() const {
    return batch ? Shape{batch, seq, nhead, dhead} : Shape{seq, nhead, dhead};
  }
  Shape PosShape() const { return batched_positions ? Shape{batch, seq} : Shape{seq}; }

  std::string Name() const {
    std::string shape = (batch ? "b" + std::to_string(batch) + "_" : "") + "s" + std::to_string(seq) + "_h" +
                        std::to_string(nhead) + "_d" + std::to_string(dhead) + "_table" + std::to_string(table_len) +
                        (batched_positions ? "_pos_per_batch" : "");
    return std::string(DtypeName(dtype)) + "_pos_" + DtypeName(pos_dtype) + "__" + shape + "__" + AlgoName(algo) +
           "__" + LayoutsName({{"y", y_layout}, {"x", x_layout}, {"tables", table_layout}}) +
           (random_positions ? "__random_pos" : "__arange_pos");
  }
  // No main shape: x's extents are separate members (batch 0 means 3-D x). The algo is an
  // int, so the bad descriptors' out-of-range values (2, -1) read back too.
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("pos", pos_dtype);
    field("batch", batch);
    field("pos_per_batch", batched_positions);
    field("seq", seq);
    field("nhead", nhead);
    field("dhead", dhead);
    field("table_len", table_len);
    field("algo", algo);
    field("y", y_layout);
    field("x", x_layout);
    field("tables", table_layout);
    field("random_pos", random_positions);
  }
};

struct RopeOp {
  using Problem = RopeProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "rope";
  static constexpr const char *kTensorRoles =
      "y[tokens,heads,head_dim]=x x[tokens,heads,head_dim] pos_ids[tokens]:int sin_table[length,half]=x "
      "cos_table[length,half]=x";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const Shape table = {p.table_len, p.dhead / 2};
    return {{"y", Role::kOutput, p.dtype, MakeLayout(p.y_layout, p.XShape())},
            {"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, p.XShape())},
            {"pos_ids", Role::kInput, p.pos_dtype, ContiguousLayout(p.PosShape())},
            {"sin_table", Role::kInput, p.dtype, MakeLayout(p.table_layout, table)},
            {"cos_table", Role::kInput, p.dtype, MakeLayout(p.table_layout, table)}};
  }

  static OpCalls Calls(const Problem &p) {
    OpCalls calls = OperatorCalls<api::RoPE>(std::make_tuple(INFINIOP_ROPE_ALGO_GPT_J));
    // The algo travels as the C ABI passes an enum, an int, whatever its value (the bad
    // descriptors pass values outside the enum, which a C++ enum cannot hold).
    calls.create = [algo = p.algo](infiniopHandle_t handle, OpDescriptor *desc, const TensorDescriptors &t) {
      using CreateWithIntAlgo = infiniStatus_t (*)(infiniopHandle_t, OpDescriptor *, infiniopTensorDescriptor_t,
                                                   infiniopTensorDescriptor_t, infiniopTensorDescriptor_t,
                                                   infiniopTensorDescriptor_t, infiniopTensorDescriptor_t, int);
      const auto create = reinterpret_cast<CreateWithIntAlgo>(cts::op().infiniopCreateRoPEDescriptor);
      return create(handle, desc, t.at(0), t.at(1), t.at(2), t.at(3), t.at(4), algo);
    };
    return calls;
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillAwayFromZero(t[1], rng, 0.25, 2.0);
    if (p.random_positions) {
      FillIntegers(t[2], rng, 0, static_cast<int64_t>(p.table_len));
    } else {
      for (size_t i = 0; i < t[2].numel(); ++i) {
        t[2].SetInt(UnravelIndex(i, t[2].shape()), static_cast<int64_t>(i % p.seq));
      }
    }
    const size_t half = p.dhead / 2;
    for (size_t pos = 0; pos < p.table_len; ++pos) {
      for (size_t i = 0; i < half; ++i) {
        const double angle =
            static_cast<double>(pos) * std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(p.dhead));
        t[3].Set({pos, i}, std::sin(angle));
        t[4].Set({pos, i}, std::cos(angle));
      }
    }
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    const auto pairing =
        p.algo == INFINIOP_ROPE_ALGO_GPT_J ? oracle::RopePairing::kGptJ : oracle::RopePairing::kGptNeox;
    return {oracle::RoPE(t[1], t[2], t[3], t[4], pairing)};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.XShape())); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t pos_dtype, size_t batch, size_t seq, size_t nhead,
                      size_t dhead, size_t table_len, int algo) {
    Problem p;
    p.dtype = dtype;
    p.pos_dtype = pos_dtype;
    p.batch = batch;
    p.seq = seq;
    p.nhead = nhead;
    p.dhead = dhead;
    p.table_len = table_len;
    p.algo = algo;
    return p;
  }

  static Problem Small(infiniDtype_t dtype, int algo = INFINIOP_ROPE_ALGO_GPT_J) {
    return Make(dtype, INFINI_DTYPE_I32, 0, 5, 3, 8, 11, algo);
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Small(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Small(INFINI_DTYPE_F32));
    auto unchanged = [](Specs &) {};
    Problem algo_2 = Small(INFINI_DTYPE_F32);
    algo_2.algo = 2;
    Problem algo_negative = Small(INFINI_DTYPE_F32);
    algo_negative.algo = -1;
    bad.AddFor(algo_2, "algo_2", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(algo_negative, "algo_minus_1", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.Add("x_and_y_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      s[0].dtype = INFINI_DTYPE_I32;
      s[1].dtype = INFINI_DTYPE_I32;
    });
    bad.Add("y_f64_x_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_F64; });
    bad.Add("dhead_odd", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {5, 3, 7});
      Reshape(s[1], {5, 3, 7});
      Reshape(s[3], {11, 3});
      Reshape(s[4], {11, 3});
    });
    bad.Add("table_width_not_half_dhead", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[3], {11, 3});
      Reshape(s[4], {11, 3});
    });
    bad.Add("sin_cos_tables_differ", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {12, 4}); });
    bad.Add("pos_ids_length_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {4}); });
    bad.Add("x_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {15, 8});
      Reshape(s[1], {15, 8});
    });
    bad.Add("y_5x3x10", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {5, 3, 10}); });
    bad.AddFor(algo_2, "param_before_dtype", INFINI_STATUS_BAD_PARAM, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F32; },
               INFINI_STATUS_BAD_TENSOR_DTYPE);
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[2].dtype = INFINI_DTYPE_F32;
              Reshape(s[2], {4});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {{0, 1}}; }

  static OpClauses Clauses() {
    return {{"OP-ROPE-4", "OP-ROPE-5"}, {"OP-ROPE-2"}, {"OP-ROPE-3"}, {}, {"OP-ROPE-1"}};
  }
};

INFINICTS_OP_CASES(RopeOp);
INFINICTS_OP_WORKSPACE_CASES(RopeOp);

// Perf: the rotary embedding of a layer's queries, x and y [tokens, heads, head_dim], GPT-NeoX
// pairing (Llama's rotate-half), I32 positions, sin/cos tables of Llama-2's 4096 positions with
// the usual angles pos·10000^(-2i/head_dim). The accuracy cases' data: positions drawn from
// the whole table, so a backend that indexes the tables by token fails. Checked whole; costed
// as one table row per token.
constexpr size_t kPerfTablePositions = 4096;

struct RopeWorkload {
  using Op = RopeOp;
  static std::vector<std::string> MathClauses() { return {"OP-ROPE-4", "OP-ROPE-5"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kCheap, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      return PartDims{{"q_rope", {{"tokens", tokens}, {"heads", l.heads}, {"head_dim", l.head_dim}}}};
    });
  }
  static RopeOp::Problem At(const PerfProblem &p) {
    return RopeOp::Make(p.dtype, INFINI_DTYPE_I32, 0, p.Dim("tokens"), p.Dim("heads"), p.Dim("head_dim"),
                        kPerfTablePositions, INFINIOP_ROPE_ALGO_GPT_NEOX);
  }
  static PerfCost Cost(const RopeOp::Problem &p, const std::vector<TensorSpec> &specs) {
    return RopeCost(NumElements(p.XShape()), p.seq, p.dhead / 2, specs);
  }
};
using RopePerf = OpPerf<RopeWorkload>;
INFINICTS_OP_PERF_CASES(RopePerf);

}  // namespace
}  // namespace infinicts::op_cases
