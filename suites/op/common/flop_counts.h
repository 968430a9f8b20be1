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
}  // namespace perf_flops

}  // namespace infinicts::op_cases
