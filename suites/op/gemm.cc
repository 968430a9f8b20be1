// Gemm: C = alpha·A·B + beta·C, 2-D or batched 3-D (spec section OP-GEMM).
//
// Data: dyadic values (k/4) whose products and sums are exact in fp64 and in an F32
// accumulator, so any error beyond one final rounding is the backend's. The long-K
// problems use positive values so partial sums grow past where F16 and BF16 can still add
// a product: an accumulator in the half type stalls far from the exact sum. beta is never
// 1 where C is read, so a backend ignoring beta (or taking it as 0 or 1) fails; with beta
// = 0, C starts as NaN, which must not leak; alpha = 0 with beta != 0 must still scale C.
// Transposed, padded and offset operands fail a backend that reads them as contiguous; a
// batch stride of 0 on A or B (batch > 1) one that assumes packed batches.
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct GemmProblem : Param<GemmProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  size_t batch = 0;  // 0: 2-D matrices
  size_t a_batch = 0, b_batch = 0;
  size_t m = 1, n = 1, k = 1;
  LayoutKind a_layout = LayoutKind::kContiguous, b_layout = LayoutKind::kContiguous,
             c_layout = LayoutKind::kContiguous;
  double alpha = 1.0, beta = 0.0;
  bool long_sum = false;  // positive data: partial sums grow with k

  std::string Name() const {
    std::string shape = batch ? "batch" + std::to_string(batch) + "_" : "";
    if (batch && a_batch == 1) shape += "a1_";
    if (batch && b_batch == 1) shape += "b1_";
    shape += "m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" + std::to_string(k);
    return std::string(DtypeName(dtype)) + "__" + shape + "__" +
           LayoutsName({{"a", a_layout}, {"b", b_layout}, {"c", c_layout}}) + "__alpha_" + NumberName(alpha) +
           "_beta_" + NumberName(beta) + (long_sum ? "_long_sum" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("batch", batch);
    field("a_batch", a_batch);
    field("b_batch", b_batch);
    field("m", m);
    field("n", n);
    field("k", k);
    field("a", a_layout);
    field("b", b_layout);
    field("c", c_layout);
    field("alpha", alpha);
    field("beta", beta);
    field("long_sum", long_sum);
  }
};

Shape MatrixShape(size_t batch, size_t rows, size_t cols) {
  return batch ? Shape{batch, rows, cols} : Shape{rows, cols};
}

struct GemmOp {
  using Problem = GemmProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "gemm";
  static constexpr const char *kTensorRoles = "c[m,n] a[m,k]=c b[k,n]=c";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const size_t a_batch = p.batch ? p.a_batch : 0, b_batch = p.batch ? p.b_batch : 0;
    return {{"c", Role::kInOut, p.dtype, MakeLayout(p.c_layout, MatrixShape(p.batch, p.m, p.n))},
            {"a", Role::kInput, p.dtype, MakeLayout(p.a_layout, MatrixShape(a_batch, p.m, p.k))},
            {"b", Role::kInput, p.dtype, MakeLayout(p.b_layout, MatrixShape(b_batch, p.k, p.n))}};
  }

  static OpCalls Calls(const Problem &p) {
    const auto scalars = std::make_tuple(static_cast<float>(p.alpha), static_cast<float>(p.beta));
    return OperatorCalls<api::Gemm>(std::tuple<>(), scalars);
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    if (p.long_sum) {
      FillDyadic(t[1], rng, 1, 4);
      FillDyadic(t[2], rng, 1, 4);
    } else {
      FillDyadic(t[1], rng, -8, 8, 2);
      FillDyadic(t[2], rng, -8, 8, 2);
    }
    // With beta = 0, c keeps its NaN start: a backend that reads it leaks NaN.
    if (p.beta != 0.0) FillDyadic(t[0], rng, -16, 16, 2);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    // alpha and beta travel as floats: the oracle takes the values the backend receives.
    return {oracle::Gemm(t[0], t[1], t[2], static_cast<double>(static_cast<float>(p.alpha)),
                         static_cast<double>(static_cast<float>(p.beta)))};
  }

  static double Flops(const Problem &p) { return 2.0 * std::max<size_t>(p.batch, 1) * p.m * p.n * p.k; }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Small(infiniDtype_t dtype) {
    Problem p;
    p.dtype = dtype;
    p.m = 5;
    p.n = 6;
    p.k = 7;
    p.alpha = 1.5;
    p.beta = 0.5;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Small(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    return BadDescriptorList<Problem>(Small(INFINI_DTYPE_F32))
        .Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE,
             [](auto &s) {
               for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
             })
        .Add("a_f16_with_c_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](auto &s) { s[1].dtype = INFINI_DTYPE_F16; })
        .Add("b_f64_with_c_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](auto &s) { s[2].dtype = INFINI_DTYPE_F64; })
        .Add("k_mismatch", INFINI_STATUS_BAD_TENSOR_SHAPE, [](auto &s) { Reshape(s[2], {8, 6}); })
        .Add("m_mismatch", INFINI_STATUS_BAD_TENSOR_SHAPE, [](auto &s) { Reshape(s[0], {4, 6}); })
        .Add("n_mismatch", INFINI_STATUS_BAD_TENSOR_SHAPE, [](auto &s) { Reshape(s[2], {7, 5}); })
        .Add("a_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](auto &s) { Reshape(s[1], {35}); })
        .Add("all_4d", INFINI_STATUS_BAD_TENSOR_SHAPE,
             [](auto &s) {
               Reshape(s[0], {1, 1, 5, 6});
               Reshape(s[1], {1, 1, 5, 7});
               Reshape(s[2], {1, 1, 7, 6});
             })
        .Add("batch_mismatch", INFINI_STATUS_BAD_TENSOR_SHAPE,
             [](auto &s) {
               Reshape(s[0], {4, 5, 6});
               Reshape(s[1], {3, 5, 7});
               Reshape(s[2], {4, 7, 6});
             })
        .Add("a_without_unit_stride", INFINI_STATUS_BAD_TENSOR_STRIDES,
             [](auto &s) { s[1].layout.strides = {14, 2}; })
        .Add("c_without_unit_stride", INFINI_STATUS_BAD_TENSOR_STRIDES,
             [](auto &s) { s[0].layout.strides = {12, 2}; })
        .AddRecommended("c_rows_overlap", INFINI_STATUS_BAD_TENSOR_STRIDES, [](auto &s) { s[0].layout.strides = {3, 1}; })
        .Add("a_leading_dim_too_small", INFINI_STATUS_BAD_TENSOR_STRIDES,
             [](auto &s) { s[1].layout.strides = {1, 3}; })
        .Add("c_batch_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES,
             [](auto &s) {
               s[0].layout = Layout{{2, 5, 6}, {0, 6, 1}, 0};
               Reshape(s[1], {2, 5, 7});
               Reshape(s[2], {2, 7, 6});
             })
        .Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
             [](auto &s) {
               s[1].dtype = INFINI_DTYPE_I32;
               Reshape(s[2], {8, 6});
             },
             INFINI_STATUS_BAD_TENSOR_SHAPE)
        .Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
             [](auto &s) {
               Reshape(s[2], {8, 6});
               s[0].layout.strides = {12, 2};
             },
             INFINI_STATUS_BAD_TENSOR_STRIDES);
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-GEMM-4", "OP-GEMM-5", "OP-GEMM-6", "OP-GEMM-7"}, {"OP-GEMM-2"}, {"OP-GEMM-1"}, {"OP-GEMM-3"}, {}};
  }
};

INFINICTS_OP_CASES(GemmOp);
INFINICTS_OP_WORKSPACE_CASES(GemmOp);

// Perf: the projections of a Llama-2 layer, C (tokens × n) = A (tokens × k) · B (k × n),
// alpha 1, beta 0 (C is not read): qkv_proj (n = (heads + 2·kv_heads)·head_dim, k = hidden),
// o_proj (n = hidden, k = heads·head_dim), gate_up_proj (n = intermediate, k = hidden: the
// gate and the up projection each have this shape) and down_proj (n = hidden,
// k = intermediate). The accuracy cases' dyadic data (exact products and sums); 256 sampled
// elements checked against fp64 dot products.
struct GemmWorkload {
  using Op = GemmOp;
  static std::vector<std::string> MathClauses() { return {"OP-GEMM-4", "OP-GEMM-5", "OP-GEMM-6"}; }

  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kHeavy, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      auto mnk = [tokens](size_t n, size_t k) {
        return std::vector<std::pair<std::string, size_t>>{{"m", tokens}, {"n", n}, {"k", k}};
      };
      return PartDims{{"qkv_proj", mnk((l.heads + 2 * l.kv_heads) * l.head_dim, l.hidden)},
                      {"o_proj", mnk(l.hidden, l.heads * l.head_dim)},
                      {"gate_up_proj", mnk(l.intermediate, l.hidden)},
                      {"down_proj", mnk(l.hidden, l.intermediate)}};
    });
  }

  static GemmProblem At(const PerfProblem &p) {
    GemmProblem problem;
    problem.dtype = p.dtype;
    problem.m = p.Dim("m");
    problem.n = p.Dim("n");
    problem.k = p.Dim("k");
    return problem;
  }

  static PerfElement Element(const GemmProblem &p) {
    return [n = p.n, k = p.k](const std::vector<HostTensor> &t, size_t, size_t flat) {
      const size_t row = flat / n, column = flat % n;
      const HostTensor a_row = GatherElements(t[1], {1, k}, row * k, 1);
      const HostTensor b_column = GatherElements(t[2], {k, 1}, column, n);
      const HostTensor unread_c(t[0].dtype(), Shape{1, 1});
      return oracle::Gemm(unread_c, a_row, b_column, 1.0, 0.0).GetAt(0);
    };
  }
};
using GemmPerf = OpPerf<GemmWorkload>;
INFINICTS_OP_PERF_CASES(GemmPerf);

}  // namespace
}  // namespace infinicts::op_cases
