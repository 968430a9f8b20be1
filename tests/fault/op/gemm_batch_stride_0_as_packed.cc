// The fault `gemm_batch_stride_0_as_packed`: a Gemm that recognizes a broadcast operand by a
// batch of 1 alone and otherwise steps its batches as packed (batch stride = one matrix's
// extent), as if a stride of 0 meant "the default". A or B of batch > 1 with batch stride 0
// then reads, for every batch but the first, storage past the one matrix it has. What lies
// there is not the operand's: the emulation takes it as zeros (it must not read past the
// allocation itself), so those batches of C come out as beta·C.
#include "op/element_values.h"
#include "op/host_gemm.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

bool BatchBroadcastByStride(const TensorLayout &operand) {
  return operand.shape.size() == 3 && operand.shape[0] > 1 && operand.strides[0] == 0;
}

bool HasStride0Batch(const GemmLayouts &layouts) {
  return IsFloatDtype(layouts.c.dtype) && layouts.c.shape.size() == 3 &&
         (BatchBroadcastByStride(layouts.a) || BatchBroadcastByStride(layouts.b));
}

// C's batches after the first as beta·C (0 where beta is 0: C is not read then).
std::vector<ElementWrite> LaterBatchesScaled(const GemmLayouts &layouts, void *c, const void *, const void *, float,
                                             float beta) {
  const TensorLayout &c_layout = layouts.c;
  const GemmMatrix cm(c_layout);
  std::vector<ElementWrite> writes;
  writes.reserve(c_layout.ElementCount());
  ForEachOutputElement(c_layout, 1, [&](size_t batch, size_t i, size_t j) {
    const ptrdiff_t at = cm.At(batch, i, j);
    const double prior = beta == 0.0f ? 0.0 : beta * LoadElement(c_layout.dtype, c, at);
    writes.push_back({c, c_layout.dtype, at, prior});
  });
  return writes;
}

}  // namespace

void InstallGemmBatchStride0AsPacked(OpTable &calls) { InstallHostGemm(calls, &HasStride0Batch, &LaterBatchesScaled); }
INFINICTS_FAULT(OpTable, "gemm_batch_stride_0_as_packed",
                "Gemm steps a batch stride of 0 on A or B (batch > 1) as packed batches, reading past the operand",
                InstallGemmBatchStride0AsPacked);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// The batch stride of 0 on A and, apart, on B; a batch of 1 (the a1/b1 cases) is no stride-0 batch.
// fault-detection: gemm_batch_stride_0_as_packed SUITE op TIMEOUT 30 FILTER op.gemm.* ONLY EXPECT
// fault-detection:   op.gemm.accuracy/matches_oracle/*/batch4_m6_n10_k12/a_bcast0_*
// fault-detection:   op.gemm.accuracy/matches_oracle/*/batch4_m6_n10_k12/a_contig_b_bcast0_*
