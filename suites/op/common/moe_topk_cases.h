// What the cases of MoeTopkSoftmax and MoeTopkSigmoid share (spec section OP-MOETOPK): the
// tensors, the comparison of ties, the bad descriptors, the clauses and the perf workload.
// Each operator's suite file keeps its problem's own fields, its data and its oracle call
// (Op::Route), and its models.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/topk_routing_data.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {

// The fields both problems have, and the part of the name they make.
struct MoeTopkShape {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // gating_output's
  size_t tokens = 5, experts = 64, topk = 4;
  bool renormalize = true, bias = true;
  LayoutKind gating_layout = LayoutKind::kContiguous;

  std::string ShapeNamePart() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName({tokens, experts}) + "__top" + std::to_string(topk) +
           (renormalize ? "__renormalize" : "") + (bias ? "__bias" : "");
  }
  template <class Field>
  void ShapeFields(Field &field) {
    field.Bare("dtype", dtype);
    field("tokens", tokens);
    field("experts", experts);
    field("topk", topk).Min(1).Max(32);  // OP-MOETOPK: beyond 32 may be refused
    field("renormalize", renormalize);
    field("bias", bias);
    field("gating", gating_layout);
  }
};

// The traits, CRTP over the operator: Op has kSubject, kClausePrefix ("OP-MOETOPKSOFTMAX") and
// Route(problem, tensors), its oracle's answer; Problem derives from MoeTopkShape.
template <class Op, class Problem>
struct MoeTopkTraits {
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kTensorRoles =
      "topk_weights[tokens,topk] topk_indices[tokens,topk]:int gating_output[tokens,experts]:float "
      "correction_bias[experts]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    std::vector<TensorSpec> specs = {
        {"topk_weights", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout({p.tokens, p.topk})},
        {"topk_indices", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({p.tokens, p.topk})},
        {"gating_output", Role::kInput, p.dtype, MakeLayout(p.gating_layout, {p.tokens, p.experts})},
        {"correction_bias", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({p.experts})}};
    specs[3].present = p.bias;
    specs[3].optional = true;
    return specs;
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::TopkrouterResult expected = Op::Route(p, t);
    return {std::move(expected.values), std::move(expected.indices)};
  }

  // Equal logits with equal biases may come in any order (the operators' clause 5 only
  // recommends the lower index first).
  static std::vector<HostTensor> SettleTies(const Problem &p, const std::vector<HostTensor> &t,
                                            const std::vector<HostTensor> &expected, const std::vector<HostTensor> &got) {
    const HostTensor &x = t[2], &bias = t[3];
    const bool has_bias = p.bias;
    return SettleTopkTies(expected, got, p.experts, [&x, &bias, has_bias](size_t r, size_t a, size_t b) {
      return x.Get({r, a}) == x.Get({r, b}) && (!has_bias || bias.GetAt(a) == bias.GetAt(b));
    });
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(Op::kSubject) * static_cast<double>(p.tokens * p.experts);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }

  static Problem Make(infiniDtype_t dtype, size_t tokens, size_t experts, size_t topk, bool renormalize, bool bias) {
    Problem p;
    p.dtype = dtype;
    p.tokens = tokens;
    p.experts = experts;
    p.topk = topk;
    p.renormalize = renormalize;
    p.bias = bias;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 5, 64, 4, true, true); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, 5, 64, 4, true, true));
    // specs: topk_weights, topk_indices, gating_output, correction_bias.
    bad.Add("weights_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_F16; });
    bad.Add("indices_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_I64; });
    bad.Add("gating_f64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F64; });
    bad.Add("bias_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[3].dtype = INFINI_DTYPE_F16; });
    bad.Add("gating_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {64}); });
    bad.Add("bias_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {1, 64}); });
    bad.Add("topk_0", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {5, 0});
      Reshape(s[1], {5, 0});
    });
    bad.Add("topk_beyond_experts", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[2], {5, 3});
      Reshape(s[3], {3});
    });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[3].dtype = INFINI_DTYPE_F16;
              Reshape(s[3], {63});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    const std::string c = Op::kClausePrefix;
    return {{c + "-3", c + "-4", c + "-5"}, {c + "-1"}, {c + "-2"}, {}, {}};
  }
};

// A serving model's router: its expert count and topk, renormalised and biased or not.
struct MoeRouterModel {
  const char *model;
  size_t experts, topk;
  bool renormalize, bias;
};

// Perf: each model's router at the perf token counts, gating_output F16, BF16 and F32; both
// outputs checked whole. Router::Models() lists the models.
template <class Router>
struct MoeTopkWorkload {
  using Op = Router;
  static std::vector<std::string> MathClauses() {
    const std::string c = Op::kClausePrefix;
    return {c + "-3", c + "-4"};
  }
  static std::vector<PerfProblem> Problems() {
    std::vector<NamedModelDims> models;
    for (const MoeRouterModel &router : Op::Models()) {
      models.push_back({router.model,
                        {{"experts", router.experts},
                         {"topk", router.topk},
                         {"renormalize", router.renormalize ? size_t{1} : size_t{0}},
                         {"bias", router.bias ? size_t{1} : size_t{0}}}});
    }
    return NamedModelProblems("router", PerfWeight::kCheap, HalfAndSingleDtypes(), models);
  }
  static typename Op::Problem At(const PerfProblem &p) {
    return Op::Make(p.dtype, p.Dim("tokens"), p.Dim("experts"), p.Dim("topk"), p.Dim("renormalize") != 0,
                    p.Dim("bias") != 0);
  }
};

}  // namespace infinicts::op_cases
