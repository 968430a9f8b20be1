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
      {"gemm_alpha_zero_leaves_c", "Gemm with alpha = 0 leaves C as it was instead of setting beta*C",
       &InstallGemmAlphaZeroLeavesC},
      {"gemm_batch_stride_0_as_packed",
       "Gemm steps a batch stride of 0 on A or B (batch > 1) as packed batches, reading past the operand",
       &InstallGemmBatchStride0AsPacked},
      {"random_sample_topk_capped_at_1024", "RandomSample never takes more than 1024 candidates, whatever topk asks",
       &InstallRandomSampleTopkCappedAt1024},
      {"row_reduction_drops_tail",
       "rows longer than 1024 that are no whole number of 32-wide warps lose their last n mod 32 elements from the "
       "reductions of Softmax, LogSoftmax, CausalSoftmax, RMSNorm, LayerNorm and RandomSample",
       &InstallRowReductionDropsTail},
      {"negative_output_stride_forward",
       "an output with a negative stride is written forwards from its lowest address (that dim comes out reversed)",
       &InstallNegativeOutputStrideForward},
      {"relu_nan_to_zero", "Relu turns NaN into 0, as max(x, 0) on a float max instruction does", &InstallReluNanToZero},
      {"sigmoid_nan_at_infinity", "Sigmoid computes e^x / (1 + e^x) in F32: NaN wherever e^x overflows, x = +Inf included",
       &InstallSigmoidNanAtInfinity},
      {"layer_norm_reads_absent_bias",
       "LayerNorm adds the bias its compute call points to even when its descriptor was made without bias",
       &InstallLayerNormReadsAbsentBias},
      {"tanh_through_exp", "Tanh computes (e^2x - 1) / (e^2x + 1) in F32: NaN wherever e^2x overflows",
       &InstallTanhThroughExp},
      {"gelutanh_exact_erf", "GeluTanh computes the exact (erf) Gelu instead of the tanh approximation",
       &InstallGeluTanhExactErf},
      {"floor_truncates", "Floor rounds toward zero, so negative non-integers come out one too high",
       &InstallFloorTruncates},
      {"zeros_multiplies_input", "Zeros writes 0*x, which is NaN where x is NaN or an infinity",
       &InstallZerosMultipliesInput},
      {"gemm_beta_zero_reads_c", "Gemm with beta = 0 still reads C, so NaN or Inf in C's prior content becomes NaN",
       &InstallGemmBetaZeroReadsC},
  };
  return faults;
}

}  // namespace infinicts::fault
