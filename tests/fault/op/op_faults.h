// The operator faults the wrapper can inject, one small installer each: argument_faults.cc
// for those that only change a call's arguments, softmax_faults.cc for the two softmax
// faults, nonfinite_faults.cc for the two that lose NaN and Inf, the file named after it
// for each other one.
#pragma once

#include <vector>

#include "common/fault_registry.h"
#include "op/op_table.h"

namespace infinicts::fault {

using OpFault = Fault<OpTable>;
const std::vector<OpFault> &OpFaults();

void InstallGemmIgnoresBeta(OpTable &calls);
void InstallGemmWorkspaceSizeWrapped(OpTable &calls);
void InstallGemmTransposedAsContiguous(OpTable &calls);
void InstallRopeOtherPairing(OpTable &calls);
void InstallAddIgnoresBroadcast(OpTable &calls);
void InstallAddChecksShapesFirst(OpTable &calls);
// backend_behaviours.cc: what real backends do that the interface allows
void InstallNullArgumentsUncheckedOp(OpTable &calls);
void InstallRunsWorkAtTheCallOp(OpTable &calls);
void InstallRefusesStridedLayouts(OpTable &calls);
void InstallShapeRefusalsAsBadParam(OpTable &calls);
// planted_real_bugs.cc: bugs a real backend has, which must still fail
void InstallZeroDCreateCrashes(OpTable &calls);
void InstallAddRmsNormOutputsSwapped(OpTable &calls);
void InstallLogSoftmaxIgnoresStrides(OpTable &calls);
void InstallSeluF64InF32(OpTable &calls);
void InstallGemmF16AccumulatesInF16(OpTable &calls);
void InstallSoftmaxWithoutMaxSubtraction(OpTable &calls);
void InstallCausalMaskOffByOne(OpTable &calls);
void InstallSoftmaxInnerAxisOneWarp(OpTable &calls);
void InstallReluFlushesSubnormals(OpTable &calls);
void InstallRearrangeExtentFromOuterStride(OpTable &calls);
void InstallRmsNormEpsilonOutsideSqrt(OpTable &calls);
void InstallWritesPastOutput(OpTable &calls);
void InstallIntegerAddThroughF32(OpTable &calls);
void InstallReturnsBeforeWorkDone(OpTable &calls);
void InstallSlowElementwise(OpTable &calls);
void InstallGemmAlphaZeroLeavesC(OpTable &calls);
void InstallGemmBatchStride0AsPacked(OpTable &calls);
void InstallRandomSampleTopkCappedAt1024(OpTable &calls);
void InstallRowReductionDropsTail(OpTable &calls);
void InstallNegativeOutputStrideForward(OpTable &calls);
void InstallReluNanToZero(OpTable &calls);
void InstallTanhThroughExp(OpTable &calls);
void InstallGeluTanhExactErf(OpTable &calls);
void InstallFloorTruncates(OpTable &calls);
void InstallZerosMultipliesInput(OpTable &calls);
void InstallSigmoidNanAtInfinity(OpTable &calls);
void InstallLayerNormReadsAbsentBias(OpTable &calls);
void InstallGemmBetaZeroReadsC(OpTable &calls);
void InstallTopksoftmaxTiesToHigherIndex(OpTable &calls);
void InstallTopksoftmaxSoftmaxOverSelected(OpTable &calls);
void InstallTopkrouterValuesFromBiasedScores(OpTable &calls);
void InstallKvCacheWriteOffByOne(OpTable &calls);
void InstallPagedAttentionIgnoresBlockTable(OpTable &calls);
void InstallSiluAndMulHalvesSwapped(OpTable &calls);
void InstallSelectLastTokenFirstToken(OpTable &calls);
void InstallAttentionMaskWithoutCacheOffset(OpTable &calls);
void InstallAttentionGqaByModulo(OpTable &calls);
void InstallAttentionUnscaledScores(OpTable &calls);
void InstallMRopeHwRowsSwapped(OpTable &calls);
void InstallMRopeIgnoresInterleaved(OpTable &calls);
void InstallRandomSampleBatchRow0Parameters(OpTable &calls);
void InstallRandomSampleBatchReadsArraysLate(OpTable &calls);

}  // namespace infinicts::fault
