// The operation counts per element of docs/spec/op.md's flop table ("Performance"): the one
// cost model of the operator suite. Conformance and accuracy results record flop_count with
// them, perf results flops; tests/spec checks them against the table. No dependencies, so
// that check can include it alone.
//
// Flops count additions, multiplications, comparisons and divisions as 1 each, and a
// transcendental function (exp, erf, sqrt) as 1 too.
#pragma once

namespace infinicts::op_cases {

// Operations per output element (per input element for the row reductions).
namespace perf_flops {
inline constexpr double kAdd = 1, kSub = 1, kMul = 1;
inline constexpr double kRelu = 1;            // a compare
inline constexpr double kClip = 2;            // two compares
inline constexpr double kSigmoid = 4;         // negate, exp, add, divide
inline constexpr double kSilu = 5;            // sigmoid, multiply
inline constexpr double kSwiGLU = 6;          // silu(b), multiply by a
inline constexpr double kGelu = 5;            // x/√2, erf, add 1, multiply by x, halve
inline constexpr double kRmsNorm = 4;         // square, accumulate, scale by 1/rms, multiply by w
inline constexpr double kLayerNorm = 8;       // mean (1), variance (3), standardize (2), weight and bias (2)
inline constexpr double kSoftmax = 5;         // max, subtract, exp, accumulate, divide (log-softmax: subtract log)
inline constexpr double kRope = 3;            // two multiplies and an add per output
inline constexpr double kRandomSample = 4;    // scale by temperature, exp, accumulate, compare
inline constexpr double kDataMovement = 0;    // rearrange, embedding
inline constexpr double kTanh = 1, kErf = 1, kReciprocal = 1, kLog1p = 1, kSinh = 1, kFloor = 1;  // one function
inline constexpr double kSoftplus = 5;        // scale by beta, compare, exp, log1p, divide
inline constexpr double kSoftsign = 3;        // abs, add 1, divide
inline constexpr double kHardSwish = 5;       // add 3, max, min, multiply by x, divide by 6
inline constexpr double kHardTanh = 2;        // two compares
inline constexpr double kQuickGelu = 6;       // scale by 1.702, negate, exp, add 1, divide, multiply by x
inline constexpr double kGeluTanh = 9;        // x³ (2), scale, add x, scale by √(2/π), tanh, add 1, multiply by x, halve
inline constexpr double kRelu6 = 2;           // two compares
inline constexpr double kSelu = 5;            // compare, exp, subtract 1, scale by alpha, scale
inline constexpr double kFill = 0;            // zeros, ones: writes only
// Per logit (x element); the topk values' few divisions are not counted.
inline constexpr double kTopksoftmax = 5;     // max, subtract, exp, accumulate, top-k compare
inline constexpr double kTopkrouter = 7;      // sigmoid (4), add the bias, group top-2 compare, top-k compare
inline constexpr double kCacheWrite = 0;      // kv_caching, paged_caching: copies into the caches
inline constexpr double kSiluAndMul = 6;      // sigmoid of the gate (4), times the gate, times the up half
inline constexpr double kAddRmsNorm = 5;      // add, square, accumulate, scale by 1/rms, multiply by w
// Per term of q·k and of p·V: (keys attended per query and head) × (head_size + value_size).
inline constexpr double kPagedAttention = 2;  // multiply, add (the softmax per score not counted)
// Per term of q·k and of p·V: (keys attended per query and head) × 2·head_dim.
inline constexpr double kAttention = 2;       // multiply, add (the softmax per score not counted)
inline constexpr double kMRope = 3;           // per rotated element: two multiplies and an add (pass-through not counted)
}  // namespace perf_flops

// Every operator with a per-element count, by subject: what tests/spec/flop_table_test.cc
// holds against the spec's table.
struct SubjectFlops {
  const char *subject;
  double flops_per_element;
};
inline constexpr SubjectFlops kFlopsBySubject[] = {
    {"add", perf_flops::kAdd},         {"sub", perf_flops::kSub},
    {"mul", perf_flops::kMul},         {"relu", perf_flops::kRelu},
    {"clip", perf_flops::kClip},       {"sigmoid", perf_flops::kSigmoid},
    {"silu", perf_flops::kSilu},       {"swiglu", perf_flops::kSwiGLU},
    {"gelu", perf_flops::kGelu},       {"rms_norm", perf_flops::kRmsNorm},
    {"layer_norm", perf_flops::kLayerNorm}, {"softmax", perf_flops::kSoftmax},
    {"log_softmax", perf_flops::kSoftmax}, {"causal_softmax", perf_flops::kSoftmax},
    {"rope", perf_flops::kRope},       {"random_sample", perf_flops::kRandomSample},
    {"random_sample_batch", perf_flops::kRandomSample},
    {"rearrange", perf_flops::kDataMovement}, {"embedding", perf_flops::kDataMovement},
    {"tanh", perf_flops::kTanh},       {"erf", perf_flops::kErf},
    {"softplus", perf_flops::kSoftplus}, {"softsign", perf_flops::kSoftsign},
    {"hardswish", perf_flops::kHardSwish}, {"hardtanh", perf_flops::kHardTanh},
    {"quickgelu", perf_flops::kQuickGelu}, {"gelutanh", perf_flops::kGeluTanh},
    {"relu6", perf_flops::kRelu6},     {"selu", perf_flops::kSelu},
    {"reciprocal", perf_flops::kReciprocal}, {"log1p", perf_flops::kLog1p},
    {"sinh", perf_flops::kSinh},       {"floor", perf_flops::kFloor},
    {"zeros", perf_flops::kFill},      {"ones", perf_flops::kFill},
    {"topksoftmax", perf_flops::kTopksoftmax}, {"topkrouter", perf_flops::kTopkrouter},
    {"kv_caching", perf_flops::kCacheWrite}, {"paged_caching", perf_flops::kCacheWrite},
    {"silu_and_mul", perf_flops::kSiluAndMul}, {"add_rms_norm", perf_flops::kAddRmsNorm},
    {"select_last_token_hidden", perf_flops::kDataMovement},
    {"paged_attention", perf_flops::kPagedAttention}, {"paged_attention_prefill", perf_flops::kPagedAttention},
    {"attention", perf_flops::kAttention}, {"mrope", perf_flops::kMRope},
};

}  // namespace infinicts::op_cases
