#include "tolerance/tolerance.h"

#include <cmath>

#include "tensor/dtype.h"

namespace infinicts {
namespace {

// 2^-14 is F16's smallest normal number: a backend may flush smaller half results to zero,
// and results that cancel to near zero carry F32-level absolute error. Every generator keeps
// meaningful outputs far above it, so an all-zero output still fails.
const double kHalfAtol = std::ldexp(1.0, -14);

// Two ulps: a result computed in F32 and rounded once is within half an ulp; a second rounding
// of an intermediate (a product stored in the half type before the next step) adds one more.
const double kF16Rtol = std::ldexp(1.0, -9);   // 2 · 2^-10
const double kBf16Rtol = std::ldexp(1.0, -6);  // 2 · 2^-7

const char *const kExactReason = "no arithmetic: every result is one of the inputs, bit for bit";
const char *const kExactValueReason =
    "every result is an input, a bound or a constant the dtype holds, or an integer that a float dtype holds "
    "exactly wherever it holds the input";
const char *const kAccumulationReason =
    "a sum over K (up to thousands) unit-scale products, in any order: an output that cancels to near zero "
    "keeps the absolute error of its partial sums (about sqrt(K)·2^-24·|partial sum|)";
const char *const kAttentionHalfReason =
    "the scores and probabilities may be held in the storage dtype between the steps (InfiniCore's composition "
    "stores them in q's dtype): each such rounding moves an output by up to about an ulp of the largest score "
    "times max|v|, however small the output";

const char *const kTailReason =
    "the value is its own answer far below the default absolute floor (erfc(x) < 1e-6 beyond x = 3.5): only "
    "relative error measures it, down to the dtype's smallest normal number (1 - erf(x) keeps none of it)";

const char *const kSmallValueReason =
    "for small |x| the value is about x itself, far below the default absolute floor (|x| down to 1e-6): only "
    "relative error measures it, down to the dtype's smallest normal number (ln(1 + x) after rounding 1 + x "
    "keeps few of its digits)";

const std::vector<ToleranceOverride> kOverrides = {
    {"relu", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactReason},
    {"clip", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactReason},
    {"rearrange", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactReason},
    {"embedding", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactReason},
    {"select_last_token_hidden", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactReason},
    {"kv_caching", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactReason},
    {"paged_caching", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactReason},
    {"relu6", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactValueReason},
    {"hardtanh", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactValueReason},
    {"floor", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactValueReason},
    {"zeros", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactValueReason},
    {"ones", INFINI_DTYPE_INVALID, 0.0, 0.0, kExactValueReason},
    {"erfc", INFINI_DTYPE_F32, std::ldexp(1.0, -126), std::ldexp(1.0, -17), kTailReason},
    {"erfc", INFINI_DTYPE_F64, std::ldexp(1.0, -1022), 1e-12, kTailReason},
    {"log1p", INFINI_DTYPE_F32, std::ldexp(1.0, -126), std::ldexp(1.0, -17), kSmallValueReason},
    {"log1p", INFINI_DTYPE_F64, std::ldexp(1.0, -1022), 1e-12, kSmallValueReason},
    {"random_sample", INFINI_DTYPE_INVALID, 0.0, 0.0, "the result is an index: it matches or it does not"},
    {"random_sample_batch", INFINI_DTYPE_INVALID, 0.0, 0.0, "the results are indices: each matches or it does not"},
    {"gemm", INFINI_DTYPE_F16, 1e-3, kF16Rtol, kAccumulationReason},
    {"gemm", INFINI_DTYPE_BF16, 1e-3, kBf16Rtol, kAccumulationReason},
    {"gemm", INFINI_DTYPE_F32, 1e-3, 1e-5, kAccumulationReason},
    {"gemm", INFINI_DTYPE_F64, 1e-10, 1e-12, kAccumulationReason},
    {"conv", INFINI_DTYPE_F16, 1e-3, kF16Rtol, kAccumulationReason},
    {"conv", INFINI_DTYPE_BF16, 1e-3, kBf16Rtol, kAccumulationReason},
    {"conv", INFINI_DTYPE_F32, 1e-3, 1e-5, kAccumulationReason},
    {"conv", INFINI_DTYPE_F64, 1e-10, 1e-12, kAccumulationReason},
    {"layer_norm", INFINI_DTYPE_F32, 1e-5, 1e-4,
     "standardization divides by sqrt(var + eps): for rows whose variance is near eps that amplifies the F32 "
     "rounding of the mean by 1/std (a few hundred)"},
    {"log_softmax", INFINI_DTYPE_F32, 1e-5, std::ldexp(1.0, -17),
     "x - max - log(sum) carries about 2^-24·|x| absolute error for large-magnitude rows, and the dominant "
     "element's output is near 0, where no relative precision is left"},
    {"attention", INFINI_DTYPE_F16, std::ldexp(1.0, -8), kF16Rtol, kAttentionHalfReason},
    {"attention", INFINI_DTYPE_BF16, std::ldexp(1.0, -5), kBf16Rtol, kAttentionHalfReason},
    {"attention", INFINI_DTYPE_F32, 1e-5, std::ldexp(1.0, -17),
     "sums of head_dim products and of up to thousands of weighted values: an output that cancels to near zero "
     "keeps the absolute error of its terms (a few 2^-24 of max|v|)"},
};

}  // namespace

Tolerance DefaultTolerance(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16:
      return {kHalfAtol, kF16Rtol, "f16 default: 2 ulps relative; atol 2^-14, the smallest normal f16"};
    case INFINI_DTYPE_BF16:
      return {kHalfAtol, kBf16Rtol, "bf16 default: 2 ulps relative; atol 2^-14 for results that cancel"};
    case INFINI_DTYPE_F32:
      return {1e-6, std::ldexp(1.0, -17),
              "f32 default: 64 ulps relative, for device math functions and reduction orders; atol 1e-6"};
    case INFINI_DTYPE_F64: return {1e-12, 1e-12, "f64 default"};
    default: return {0.0, 0.0, std::string(DtypeName(dtype)) + ": exact"};
  }
}

Tolerance ToleranceFor(const std::string &op, infiniDtype_t dtype) {
  for (const ToleranceOverride &entry : kOverrides) {
    if (op == entry.op && (entry.dtype == dtype || entry.dtype == INFINI_DTYPE_INVALID)) {
      return {entry.atol, entry.rtol, std::string(op) + " " + DtypeName(dtype) + ": " + entry.reason};
    }
  }
  return DefaultTolerance(dtype);
}

const std::vector<ToleranceOverride> &ToleranceOverrides() { return kOverrides; }

}  // namespace infinicts
