#include "tolerance/tolerance.h"

#include <cmath>

#include "op_tolerance_table.h"
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

// docs/spec/op.md's overrides table, row by row (cmake/op_tolerance_table.cmake).
const std::vector<ToleranceOverride> kOverrides = {INFINICTS_OP_TOLERANCE_OVERRIDES};

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
