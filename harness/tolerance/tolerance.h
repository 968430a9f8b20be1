// The tolerance model. An element passes when |got - expected| <= atol + rtol·|expected|
// (expected is the fp64 oracle's value; NaN and Inf are handled by Compare). Defaults
// depend on the output dtype; an operator may override them for a dtype, always with a
// written reason. The defaults live in tolerance.cc, the overrides in docs/spec/op.md's
// tolerance table (OP-ACC-1), from which the build writes them.
#pragma once

#include <string>
#include <vector>

#include "infinicore.h"

namespace infinicts {

struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
  std::string reason;  // where the numbers come from: the dtype default or the override's reason
};

// The default for results stored in `dtype` (integers and BOOL: exact).
Tolerance DefaultTolerance(infiniDtype_t dtype);

// The tolerance for operator `op` (the report's snake_case subject: "gemm", "rms_norm", ...)
// writing `dtype`: its override when the table has one, else the default.
Tolerance ToleranceFor(const std::string &op, infiniDtype_t dtype);

struct ToleranceOverride {
  const char *op;
  infiniDtype_t dtype;  // INFINI_DTYPE_INVALID: every dtype of the operator
  double atol;
  double rtol;
  const char *reason;
};
const std::vector<ToleranceOverride> &ToleranceOverrides();

}  // namespace infinicts
