// Elementwise operators: broadcast through stride 0, transposed outputs, the unary
// activations and Clip at a few points each.
#include <cmath>

#include "op_test_support.h"

namespace infiniop_test {
namespace {

class ElementwiseTest : public OpTest {};

double Gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

TEST_F(ElementwiseTest, AddBroadcastsAStrideZeroRow) {
  Tensor a({2, 3}, INFINI_DTYPE_F32), b({2, 3}, INFINI_DTYPE_F32, {0, 1}), c({2, 3}, INFINI_DTYPE_F32);
  a.Upload({1, 2, 3, 4, 5, 6});
  b.Upload({10, 20, 30, 10, 20, 30});
  infiniopAddDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateAddDescriptor(handle_, &desc, c.desc(), a.desc(), b.desc()));
  ASSERT_OK(infiniopAdd(desc, nullptr, 0, c.data(), a.data(), b.data(), stream_));
  Sync();
  ExpectNear(c.Download(), {11, 22, 33, 14, 25, 36}, 0);
  EXPECT_OK(infiniopDestroyAddDescriptor(desc));
}

TEST_F(ElementwiseTest, SubAndMulIntoATransposedHalfOutput) {
  Tensor a({2, 3}, INFINI_DTYPE_F16), b({2, 3}, INFINI_DTYPE_F16), c({2, 3}, INFINI_DTYPE_F16, {1, 2});
  a.Upload({1, 2, 3, 4, 5, 6});
  b.Upload({0.5, 0.5, 2, 2, -1, -1});
  infiniopSubDescriptor_t sub = nullptr;
  ASSERT_OK(infiniopCreateSubDescriptor(handle_, &sub, c.desc(), a.desc(), b.desc()));
  ASSERT_OK(infiniopSub(sub, nullptr, 0, c.data(), a.data(), b.data(), stream_));
  Sync();
  ExpectNear(c.Download(), {0.5, 1.5, 1, 2, 6, 7}, 0);
  infiniopMulDescriptor_t mul = nullptr;
  ASSERT_OK(infiniopCreateMulDescriptor(handle_, &mul, c.desc(), a.desc(), b.desc()));
  ASSERT_OK(infiniopMul(mul, nullptr, 0, c.data(), a.data(), b.data(), stream_));
  Sync();
  ExpectNear(c.Download(), {0.5, 1, 6, 8, -5, -6}, 0);
  EXPECT_OK(infiniopDestroySubDescriptor(sub));
  EXPECT_OK(infiniopDestroyMulDescriptor(mul));
}

TEST_F(ElementwiseTest, IntegerAddSubMulAreExactAndWrapLikeTheHardware) {
  Tensor a({3}, INFINI_DTYPE_I32), b({3}, INFINI_DTYPE_I32), c({3}, INFINI_DTYPE_I32);
  a.Upload({2147483647, 16777217, -5}, 0);
  b.Upload({1, 16777216, 7}, 0);
  infiniopAddDescriptor_t add = nullptr;
  ASSERT_OK(infiniopCreateAddDescriptor(handle_, &add, c.desc(), a.desc(), b.desc()));
  ASSERT_OK(infiniopAdd(add, nullptr, 0, c.data(), a.data(), b.data(), stream_));
  Sync();
  ExpectNear(c.Download(), {-2147483648.0, 33554433, 2}, 0);  // odd above 2^24: no F32 on the way
  infiniopSubDescriptor_t sub = nullptr;
  ASSERT_OK(infiniopCreateSubDescriptor(handle_, &sub, c.desc(), a.desc(), b.desc()));
  ASSERT_OK(infiniopSub(sub, nullptr, 0, c.data(), a.data(), b.data(), stream_));
  Sync();
  ExpectNear(c.Download(), {2147483646, 1, -12}, 0);
  Tensor x({2}, INFINI_DTYPE_I64), y({2}, INFINI_DTYPE_I64), z({2}, INFINI_DTYPE_I64);
  x.Upload({1099511627777.0, -3}, 0);  // 2^40 + 1
  y.Upload({3, 1125899906842624.0}, 0);  // 2^50
  infiniopMulDescriptor_t mul = nullptr;
  ASSERT_OK(infiniopCreateMulDescriptor(handle_, &mul, z.desc(), x.desc(), y.desc()));
  ASSERT_OK(infiniopMul(mul, nullptr, 0, z.data(), x.data(), y.data(), stream_));
  Sync();
  ExpectNear(z.Download(), {3298534883331.0, -3377699720527872.0}, 0);
  EXPECT_OK(infiniopDestroyAddDescriptor(add));
  EXPECT_OK(infiniopDestroySubDescriptor(sub));
  EXPECT_OK(infiniopDestroyMulDescriptor(mul));
}

TEST_F(ElementwiseTest, SwiGLUIsAByTheSiluOfB) {
  Tensor a({3}, INFINI_DTYPE_F64), b({3}, INFINI_DTYPE_F64), c({3}, INFINI_DTYPE_F64);
  a.Upload({1, 2, -1});
  b.Upload({0, 1, 2});
  infiniopSwiGLUDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateSwiGLUDescriptor(handle_, &desc, c.desc(), a.desc(), b.desc()));
  ASSERT_OK(infiniopSwiGLU(desc, nullptr, 0, c.data(), a.data(), b.data(), stream_));
  Sync();
  ExpectNear(c.Download(), {0, 2 / (1 + std::exp(-1.0)), -2 / (1 + std::exp(-2.0))}, 1e-15);
  EXPECT_OK(infiniopDestroySwiGLUDescriptor(desc));
}

TEST_F(ElementwiseTest, Activations) {
  Tensor x({4}, INFINI_DTYPE_F32), y({4}, INFINI_DTYPE_F32);
  x.Upload({-1, 0, 1, 2.5});
  const auto run = [&](auto create, auto compute, auto destroy) {
    infiniopReluDescriptor_t desc = nullptr;
    EXPECT_OK(create(handle_, &desc, y.desc(), x.desc()));
    EXPECT_OK(compute(desc, nullptr, 0, y.data(), x.data(), stream_));
    Sync();
    EXPECT_OK(destroy(desc));
    return y.Download();
  };
  ExpectNear(run(infiniopCreateReluDescriptor, infiniopRelu, infiniopDestroyReluDescriptor), {0, 0, 1, 2.5}, 0);
  ExpectNear(run(infiniopCreateSiluDescriptor, infiniopSilu, infiniopDestroySiluDescriptor),
             {-1 / (1 + std::exp(1.0)), 0, 1 / (1 + std::exp(-1.0)), 2.5 / (1 + std::exp(-2.5))}, 1e-6);
  ExpectNear(run(infiniopCreateGeluDescriptor, infiniopGelu, infiniopDestroyGeluDescriptor),
             {Gelu(-1), 0, Gelu(1), Gelu(2.5)}, 1e-6);
  ExpectNear(run(infiniopCreateSigmoidDescriptor, infiniopSigmoid, infiniopDestroySigmoidDescriptor),
             {1 / (1 + std::exp(1.0)), 0.5, 1 / (1 + std::exp(-1.0)), 1 / (1 + std::exp(-2.5))}, 1e-6);
}

TEST_F(ElementwiseTest, ClipTakesBroadcastBoundsAndMinWinsWhenTheyCross) {
  Tensor x({4}, INFINI_DTYPE_BF16), low({4}, INFINI_DTYPE_BF16, {0}), high({4}, INFINI_DTYPE_BF16, {0}),
      y({4}, INFINI_DTYPE_BF16);
  x.Upload({-2, 0.5, 3, NAN});
  low.Upload({-1, -1, -1, -1});
  high.Upload({1, 1, 1, 1});
  infiniopClipDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateClipDescriptor(handle_, &desc, y.desc(), x.desc(), low.desc(), high.desc()));
  ASSERT_OK(infiniopClip(desc, nullptr, 0, y.data(), x.data(), low.data(), high.data(), stream_));
  Sync();
  const std::vector<double> clipped = y.Download();
  ExpectNear({clipped[0], clipped[1], clipped[2]}, {-1, 0.5, 1}, 0);
  EXPECT_TRUE(std::isnan(clipped[3]));
  low.Upload({2, 2, 2, 2});
  ASSERT_OK(infiniopClip(desc, nullptr, 0, y.data(), x.data(), low.data(), high.data(), stream_));
  Sync();
  const std::vector<double> crossed = y.Download();
  ExpectNear({crossed[0], crossed[1], crossed[2]}, {2, 2, 2}, 0);
  EXPECT_OK(infiniopDestroyClipDescriptor(desc));
}

}  // namespace
}  // namespace infiniop_test
