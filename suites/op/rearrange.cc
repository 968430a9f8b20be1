// Rearrange: dst = src element by element, two layouts of one shape and dtype; any dtype,
// copied as bytes; no workspace functions (spec section OP-REARRANGE).
//
// Data: values that are neither 0 nor all-ones bytes (the unwritten sentinel), so a missed
// or misplaced element shows; half of the float ones subnormal. F8 and the complex dtypes
// travel as unsigned integers of their size (common/prepared_call.h). The wide layout sets
// (transposes, padded rows, a broadcast source, views, a reversed dim, size-1 dims with odd
// strides) run on the float dtypes and I32/I64; every other dtype runs the plain, transposed
// and padded copies, and one with odd size-1 strides.
#include "common/elementwise.h"
#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

struct RearrangeProblem : Param<RearrangeProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape;
  LayoutKind dst_layout = LayoutKind::kContiguous, src_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"dst", dst_layout}, {"src", src_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("dst", dst_layout);
    field("src", src_layout);
  }
};

std::vector<infiniDtype_t> EveryDtype() {
  std::vector<infiniDtype_t> dtypes;
  for (int value = INFINI_DTYPE_BYTE; value <= INFINI_DTYPE_BF16; ++value) dtypes.push_back(static_cast<infiniDtype_t>(value));
  return dtypes;
}

struct RearrangeOp {
  using Problem = RearrangeProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "rearrange";
  static constexpr const char *kTensorRoles = "dst[rows,cols]=src src[rows,cols]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"dst", Role::kOutput, p.dtype, MakeLayout(p.dst_layout, p.shape)},
            {"src", Role::kInput, p.dtype, MakeLayout(p.src_layout, p.shape)}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::Rearrange>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    HostTensor &src = t[1];
    if (p.dtype == INFINI_DTYPE_BOOL) {
      FillIntegers(src, rng, 0, 2);
    } else if (IsFloat(p.dtype) && IsHostReadable(p.dtype)) {
      FillAwayFromZero(src, rng, 0.25, 4.0);
      PlantSubnormals(src, rng);  // a copy through float registers with FTZ or DAZ set loses them
    } else {
      // Integers, and the byte proxies of F8 and the complex dtypes: 1..120 fits every width.
      FillIntegers(src, rng, 1, 121);
    }
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::Rearrange(t[1])};
  }

  static double Flops(const Problem &) { return FlopsPerElement(kSubject); }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return EveryDtype(); }

  static Problem Make(infiniDtype_t dtype, Shape shape, LayoutKind dst = LayoutKind::kContiguous,
                      LayoutKind src = LayoutKind::kContiguous) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.dst_layout = dst;
    p.src_layout = src;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 5}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 5}));
    bad.Add("dst_i32_src_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_I32; });
    bad.Add("dst_5x4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {5, 4}); });
    bad.Add("dst_flattened", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {20}); });
    bad.AddRecommended("dst_rows_overlap", INFINI_STATUS_BAD_TENSOR_STRIDES, [](Specs &s) { s[0].layout.strides = {3, 1}; });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[0].dtype = INFINI_DTYPE_F16;
              Reshape(s[0], {5, 4});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              Reshape(s[1], {5, 4});
              s[0].layout.strides = {0, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {{0, 1}}; }

  static OpClauses Clauses() { return {{"OP-REARRANGE-3"}, {"OP-REARRANGE-1"}, {"OP-REARRANGE-2"}, {}, {}}; }
};

INFINICTS_OP_CASES(RearrangeOp);

// Perf: writing a layer's new keys into a head-major KV cache, [tokens, kv_heads, head_dim]
// from a contiguous src into a dst whose memory is ordered [kv_heads, tokens, head_dim]
// (swap01). The accuracy cases' data (values away from zero, subnormals planted); the whole
// of dst is checked (bit for bit).
struct RearrangeWorkload {
  using Op = RearrangeOp;
  static std::vector<std::string> MathClauses() { return {"OP-REARRANGE-3"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kCheap, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      return PartDims{{"kv_cache_write", {{"tokens", tokens}, {"kv_heads", l.kv_heads}, {"head_dim", l.head_dim}}}};
    });
  }
  static RearrangeProblem At(const PerfProblem &p) {
    const Shape shape = {p.Dim("tokens"), p.Dim("kv_heads"), p.Dim("head_dim")};
    // One token has nothing to swap: its head-major and token-major orders are the same.
    return RearrangeOp::Make(p.dtype, shape, shape[0] > 1 ? LayoutKind::kOuterSwapped : LayoutKind::kContiguous);
  }
};
using RearrangePerf = OpPerf<RearrangeWorkload>;
INFINICTS_OP_PERF_CASES(RearrangePerf);

}  // namespace
}  // namespace infinicts::op_cases
