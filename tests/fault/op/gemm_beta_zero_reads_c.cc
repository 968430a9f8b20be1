// The fault `gemm_beta_zero_reads_c`: Gemm computes alpha·A·B + beta·C as written even when
// beta is 0, reading C: 0·NaN and 0·Inf are NaN, so a C whose prior content is not finite
// (uninitialised memory) leaks into the result where OP-GEMM-5 says it must not. Emulated
// by writing NaN over the real result wherever C held NaN or Inf before the call.
#include <cmath>

#include "op/element_values.h"
#include "op/host_gemm.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

bool IsFloatGemm(const GemmLayouts &layouts) { return IsFloatDtype(layouts.c.dtype); }

std::vector<ElementWrite> NanWhereCWasNotFinite(const GemmLayouts &layouts, void *c, const void *, const void *,
                                                float, float beta) {
  std::vector<ElementWrite> writes;
  if (beta != 0.0f) return writes;
  const GemmMatrix cm(layouts.c);
  ForEachOutputElement(layouts.c, 0, [&](size_t batch, size_t i, size_t j) {
    const ptrdiff_t at = cm.At(batch, i, j);
    if (!std::isfinite(LoadElement(layouts.c.dtype, c, at))) writes.push_back({c, layouts.c.dtype, at, std::nan("")});
  });
  return writes;
}

}  // namespace

void InstallGemmBetaZeroReadsC(OpTable &calls) { InstallHostGemm(calls, &IsFloatGemm, &NanWhereCWasNotFinite); }
INFINICTS_FAULT(OpTable, "gemm_beta_zero_reads_c",
                "Gemm with beta = 0 still reads C, so NaN or Inf in C's prior content becomes NaN",
                InstallGemmBetaZeroReadsC);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every beta = 0 case: C starts as NaN there (OP-GEMM-5), and 0·NaN is NaN.
// fault-detection: gemm_beta_zero_reads_c SUITE op TIMEOUT 30 FILTER op.gemm.* ONLY EXPECT
// fault-detection:   op.gemm.accuracy/matches_oracle/*_beta_0 op.gemm.accuracy/matches_oracle/*_beta_0_long_sum
