// The fault `gemm_f16_accumulates_in_f16`: F16 Gemm on the host with an F16 accumulator,
// every partial sum of a dot product rounded to F16 (a long sum of positive products
// stalls once the sum's spacing exceeds them). Other dtypes go to the target untouched.
#include "op/element_values.h"
#include "op/host_gemm.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

bool IsF16(const GemmLayouts &layouts) { return layouts.c.dtype == INFINI_DTYPE_F16; }

std::vector<ElementWrite> HalfAccumulatedGemm(const GemmLayouts &layouts, void *c, const void *a, const void *b,
                                              float alpha, float beta) {
  const GemmMatrix cm(layouts.c), am(layouts.a), bm(layouts.b);
  const size_t k = layouts.a.shape.back();
  std::vector<ElementWrite> writes;
  writes.reserve(layouts.c.ElementCount());
  ForEachOutputElement(layouts.c, 0, [&](size_t batch, size_t i, size_t j) {
    float sum = 0.0f;
    for (size_t p = 0; p < k; ++p) {
      const float product = static_cast<float>(LoadElement(INFINI_DTYPE_F16, a, am.At(batch, i, p)) *
                                               LoadElement(INFINI_DTYPE_F16, b, bm.At(batch, p, j)));
      sum = RoundToHalf(sum + product);
    }
    const ptrdiff_t at = cm.At(batch, i, j);
    // beta = 0 reads nothing of C (its prior content may be NaN).
    const float prior = beta == 0.0f ? 0.0f : beta * static_cast<float>(LoadElement(INFINI_DTYPE_F16, c, at));
    writes.push_back({c, INFINI_DTYPE_F16, at, RoundToHalf(alpha * sum + prior)});
  });
  return writes;
}

}  // namespace

void InstallGemmF16AccumulatesInF16(OpTable &calls) { InstallHostGemm(calls, &IsF16, &HalfAccumulatedGemm); }
INFINICTS_FAULT(OpTable, "gemm_f16_accumulates_in_f16",
                "F16 Gemm rounds every partial sum of its dot products to F16",
                InstallGemmF16AccumulatesInF16);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// The F16 long sums, and the F16 LLM shapes with K = 4096.
// fault-detection: gemm_f16_accumulates_in_f16 SUITE op TIMEOUT 30 FILTER op.gemm.* EXPECT
// fault-detection:   op.gemm.accuracy/matches_oracle/f16/*_k4096/*
