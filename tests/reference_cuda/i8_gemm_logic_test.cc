// I8Gemm's CUDA path logic on the CPU: the workspace's layout (the int32 sums, then
// cuBLASLt's part, each aligned), which operands go to cuBLASLt, and the scaling both paths
// share (core/int8_steps.h) on sums beyond F32's exact integers.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/int8_steps.h"
#include "cuda/i8_gemm.h"

namespace reference_cuda_test {
namespace {

namespace op = infinicts::ref::op;

TEST(I8GemmLogic, WorkspaceHoldsTheSumsThenCublasLtsPart) {
  // 3 × 5 sums take 60 bytes: cuBLASLt's part starts at the next 256-byte boundary.
  EXPECT_EQ(op::cuda::I8GemmLtOffset(3, 5), 256u);
  EXPECT_EQ(op::cuda::I8GemmLtOffset(64, 4), 1024u);
  EXPECT_EQ(op::cuda::I8GemmLtOffset(16, 14336), 16u * 14336u * 4u);
  // Room to align the start, the sums, cuBLASLt's part.
  EXPECT_EQ(op::cuda::I8GemmWorkspaceBytes(3, 5), 256u + 256u + op::cuda::kI8GemmLtWorkspaceBytes);
}

TEST(I8GemmLogic, CublasLtTakesOnlyAlignedLeadingDims) {
  op::cuda::I8GemmGeometry g{};
  g.m = 16;
  g.n = 4096;
  g.k = 4096;
  g.x_row = 4096;
  g.weights_column = 4096;
  g.out_row = 4096;
  EXPECT_TRUE(op::cuda::I8GemmSuitsCublasLt(g, 0x1000, 0x2000));
  EXPECT_FALSE(op::cuda::I8GemmSuitsCublasLt(g, 0x1001, 0x2000));  // x misaligned (an offset view)
  EXPECT_FALSE(op::cuda::I8GemmSuitsCublasLt(g, 0x1000, 0x2002));
  op::cuda::I8GemmGeometry padded = g;
  padded.x_row = 4099;  // a padded row of odd length
  EXPECT_FALSE(op::cuda::I8GemmSuitsCublasLt(padded, 0x1000, 0x2000));
  op::cuda::I8GemmGeometry narrow = g;
  narrow.n = 6;  // the sums' leading dim
  EXPECT_FALSE(op::cuda::I8GemmSuitsCublasLt(narrow, 0x1000, 0x2000));
  op::cuda::I8GemmGeometry empty = g;
  empty.k = 0;
  EXPECT_FALSE(op::cuda::I8GemmSuitsCublasLt(empty, 0x1000, 0x2000));
}

TEST(I8GemmLogic, ScalingIsInfiniCoresOrderOfF32Steps) {
  // 2^24 + 1 is no F32: the sum rounds to 2^24 before it is scaled.
  EXPECT_EQ(op::I8GemmScaled((1 << 24) + 1, 1.0f, 1.0f, 0.0f), 16777216.0f);
  // (x_scale·weights_scale)·sum + bias: 0.1f·0.3f rounds first.
  const float product = 0.1f * 0.3f;
  EXPECT_EQ(op::I8GemmScaled(-128 * 127, 0.1f, 0.3f, 0.5f), product * static_cast<float>(-128 * 127) + 0.5f);
  EXPECT_EQ(op::I8GemmScaled(0, 0.25f, 4.0f, -1.5f), -1.5f);
}

}  // namespace
}  // namespace reference_cuda_test
