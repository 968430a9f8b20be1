// The int8 quantisers' CUDA kernel logic on the CPU: where PerTensorOffsets puts each element
// of x and x_packed (against strides walked by hand), and the F32 steps both paths share
// (core/int8_steps.h) on the values that tell rounding modes apart.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "core/int8_steps.h"
#include "cuda/int8_quant.h"

namespace reference_cuda_test {
namespace {

namespace op = infinicts::ref::op;

TEST(Int8QuantLogic, OffsetsFollowEachOperandsStrides) {
  // x [2, 3, 4] padded (strides 20, 5, 1), x_packed [2, 3, 4] with dim 0 walked backwards.
  op::cuda::PerTensorGeometry g{};
  g.ndim = 3;
  g.count = 24;
  const int64_t shape[3] = {2, 3, 4}, x_strides[3] = {20, 5, 1}, packed_strides[3] = {-12, 4, 1};
  for (int d = 0; d < 3; ++d) {
    g.shape[d] = shape[d];
    g.x_strides[d] = x_strides[d];
    g.packed_strides[d] = packed_strides[d];
  }
  int64_t linear = 0;
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      for (int64_t k = 0; k < 4; ++k, ++linear) {
        int64_t x_at = -1, packed_at = -1;
        op::cuda::PerTensorOffsets(g, linear, &x_at, &packed_at);
        EXPECT_EQ(x_at, 20 * i + 5 * j + k) << "element " << linear;
        EXPECT_EQ(packed_at, -12 * i + 4 * j + k) << "element " << linear;
      }
    }
  }
}

TEST(Int8QuantLogic, HalvesRoundAwayFromZero) {
  EXPECT_EQ(op::RoundHalfAwayFromZero(2.5f), 3.0f);
  EXPECT_EQ(op::RoundHalfAwayFromZero(-2.5f), -3.0f);
  EXPECT_EQ(op::RoundHalfAwayFromZero(0.5f), 1.0f);
  EXPECT_EQ(op::RoundHalfAwayFromZero(-0.5f), -1.0f);
  // The float just below a half: ⌊|v| + 0.5⌋ gives 1 here, the nearest integer is 0.
  EXPECT_EQ(op::RoundHalfAwayFromZero(std::nextafter(0.5f, 0.0f)), 0.0f);
  EXPECT_EQ(op::RoundHalfAwayFromZero(126.49999f), 126.0f);
}

TEST(Int8QuantLogic, SaturationStopsAtTheBounds) {
  EXPECT_EQ(op::SaturateToI8(200.0f, -127.0f, 127.0f), 127);
  EXPECT_EQ(op::SaturateToI8(-200.0f, -127.0f, 127.0f), -127);
  EXPECT_EQ(op::SaturateToI8(-127.5f, -127.0f, 127.0f), -127);
  EXPECT_EQ(op::SaturateToI8(-127.5f, -128.0f, 127.0f), -128);
  EXPECT_EQ(op::SaturateToI8(NAN, -127.0f, 127.0f), -127);
}

TEST(Int8QuantLogic, ScalesKeepTheirFloors) {
  EXPECT_EQ(op::SymmetricScale(0.0f, op::kInt8ScaleFloor), 1e-8f);
  EXPECT_EQ(op::SymmetricScale(127.0f, op::kInt8ScaleFloor), 1.0f);
  EXPECT_EQ(op::SymmetricScale(0.0f, 0.0f), 0.0f);
  EXPECT_EQ(op::AsymmetricScale(3.0f, 3.0f), 1e-8f);
  EXPECT_EQ(op::AsymmetricScale(127.0f, -128.0f), 1.0f);
  EXPECT_EQ(op::AsymmetricZero(-128.0f, 1.0f), 0.0f);
}

}  // namespace
}  // namespace reference_cuda_test
