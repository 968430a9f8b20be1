#include "op/op_faults.h"

namespace infinicts::fault {

const std::vector<OpFault> &OpFaults() {
  static const std::vector<OpFault> faults = {
      {"gemm_ignores_beta", "Gemm computes as if beta were 0", &InstallGemmIgnoresBeta},
      {"gemm_transposed_as_contiguous", "Gemm reads a column-major A or B as if it were row-major",
       &InstallGemmTransposedAsContiguous},
      {"gemm_f16_accumulates_in_f16", "F16 Gemm rounds every partial sum of its dot products to F16",
       &InstallGemmF16AccumulatesInF16},
      {"softmax_without_max_subtraction", "Softmax and CausalSoftmax compute e^x / sum e^x without subtracting the max",
       &InstallSoftmaxWithoutMaxSubtraction},
      {"causal_mask_off_by_one", "CausalSoftmax keeps the columns j <= total - seq + i + 1",
       &InstallCausalMaskOffByOne},
      {"rms_norm_epsilon_outside_sqrt", "RMSNorm computes x*w / (sqrt(mean(x^2)) + eps)",
       &InstallRmsNormEpsilonOutsideSqrt},
      {"rope_other_pairing", "RoPE pairs as GPT_NEOX when asked for GPT_J and the other way round",
       &InstallRopeOtherPairing},
      {"add_ignores_broadcast", "Add reads an input with a stride-0 dim as if it were contiguous",
       &InstallAddIgnoresBroadcast},
      {"writes_past_output", "Add and Relu change the element after the end of their output's span",
       &InstallWritesPastOutput},
      // The operator side of InfiniCore's CPU backend (the runtime wrapper gives its NULL
      // streams): what the interface allows, so nothing should fail for it.
      {"infinicore_cpu_like", "Add checks its shapes before its dtypes", &InstallAddChecksShapesFirst},
      {"integer_add_through_f32", "Add on I32 and I64 rounds its sums to F32's 24 significant bits",
       &InstallIntegerAddThroughF32},
      {"returns_before_work_done", "every operator's work runs at the next Stream/Device/EventSynchronize",
       &InstallReturnsBeforeWorkDone},
      {"slow_elementwise", "Add, Sub and Mul compute their output 10 times over", &InstallSlowElementwise},
  };
  return faults;
}

}  // namespace infinicts::fault
