#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;
using testing_helpers::F64;

const HostTensor kA = F32({2, 3}, {1, 2, 3, 4, 5, 6});

HostTensor BroadcastRow() {  // [[10, 20, 30], [10, 20, 30]] through a stride-0 first dimension
  return F32({2, 3}, {10, 20, 30, 10, 20, 30}).WithLayout(BroadcastLayout({2, 3}, 0));
}

TEST(ElementwiseOracle, BinaryOpsFollowStrideZeroBroadcast) {
  const HostTensor b = BroadcastRow();
  ASSERT_EQ(b.strides()[0], 0);
  ExpectValues(oracle::Add(kA, b), {2, 3}, {11, 22, 33, 14, 25, 36});
  ExpectValues(oracle::Sub(kA, b), {2, 3}, {-9, -18, -27, -6, -15, -24});
  ExpectValues(oracle::Mul(kA, b), {2, 3}, {10, 40, 90, 40, 100, 180});
  EXPECT_THROW(oracle::Add(kA, F32({3}, {1, 2, 3})), std::invalid_argument);
}

TEST(ElementwiseOracle, SwiGLUIsAGatedSilu) {
  const HostTensor a = F32({3}, {2, 3, -1});
  const HostTensor b = F32({3}, {0, 1, -2});
  ExpectValues(oracle::SwiGLU(a, b), {3}, {0.0, 3.0 / (1.0 + std::exp(-1.0)), -1.0 * -2.0 / (1.0 + std::exp(2.0))});
  ExpectValues(oracle::SwiGLU(a, b), {3}, {0.0, 2.193175735890015, 0.23840584404423515}, 1e-15);
}

TEST(ElementwiseOracle, Activations) {
  const HostTensor x = F32({4}, {-1, 0, 1, 2});
  ExpectValues(oracle::Silu(x), {4}, {-0.2689414213699951, 0, 0.7310585786300049, 1.7615941559557646}, 1e-15);
  ExpectValues(oracle::Sigmoid(x), {4}, {0.2689414213699951, 0.5, 0.7310585786300049, 0.8807970779778823}, 1e-15);
  ExpectValues(oracle::Gelu(x), {4}, {-0.15865525393145707, 0, 0.8413447460685429, 1.9544997361036416}, 1e-15);
}

// Values from the closed forms (computed independently of both oracle and kernel).
TEST(ElementwiseOracle, UnaryFunctionsAtKnownPoints) {
  const double inf = HUGE_VAL, nan = std::nan("");
  ExpectValues(oracle::Tanh(F32({3}, {0.5, -100, inf})), {3}, {0.46211715726000974, -1, 1}, 1e-15);
  ExpectValues(oracle::Erf(F32({2}, {1, -inf})), {2}, {0.8427007929497149, -1}, 1e-15);
  ExpectValues(oracle::Softsign(F32({3}, {3, -1, -inf})), {3}, {0.75, -0.5, -1}, 1e-15);
  ExpectValues(oracle::HardSwish(F32({4}, {1, -4, 4, -inf})), {4}, {4.0 / 6.0, 0, 4, 0}, 1e-15);
  ExpectValues(oracle::QuickGelu(F32({2}, {1, -inf})), {2}, {0.8457957659328212, 0}, 1e-15);
  ExpectValues(oracle::GeluTanh(F32({2}, {1, -inf})), {2}, {0.8411919906082768, 0}, 1e-15);
  ExpectValues(oracle::Relu6(F32({3}, {-2, 3, 7})), {3}, {0, 3, 6});
  EXPECT_TRUE(std::isnan(oracle::Relu6(F32({1}, {nan})).GetAt(0)));
  ExpectValues(oracle::Selu(F32({2}, {2, -1})), {2}, {2 * 1.0507009873554804934, -1.1113307378125625}, 1e-15);
  ExpectValues(oracle::Reciprocal(F32({2}, {4, -inf})), {2}, {0.25, -0.0});
  EXPECT_EQ(oracle::Reciprocal(F32({1}, {-0.0})).GetAt(0), -inf);
  ExpectValues(oracle::Log1p(F32({1}, {1e-10})), {1}, {static_cast<double>(1e-10f) - 0.5 * std::pow(1e-10f, 2)}, 1e-24);
  EXPECT_NEAR(oracle::Sinh(F32({1}, {89})).GetAt(0) / 2.2448064095871728e+38, 1.0, 1e-14);
  ExpectValues(oracle::Floor(F32({4}, {-0.5, 2.5, -3, 3e9})), {4}, {-1, 2, -3, 3e9});
  ExpectValues(oracle::Zeros(F32({2}, {nan, inf})), {2}, {0, 0});
  ExpectValues(oracle::Ones(F32({2}, {nan, -inf})), {2}, {1, 1});
}

TEST(ElementwiseOracle, SoftplusAndHardTanhUseTheirAttributes) {
  // beta 2: ln(1 + e^2) / 2; beyond the threshold x itself, and no overflow below it either.
  ExpectValues(oracle::Softplus(F32({3}, {1, 30, -1000}), 2.0, 20.0), {3}, {1.0634640055214863, 30, 0}, 1e-15);
  EXPECT_NEAR(oracle::Softplus(F32({1}, {400}), 2.0, 1e6).GetAt(0), 400.0, 1e-12);
  ExpectValues(oracle::HardTanh(F32({3}, {-3, 1, 3}), -0.5, 2.0), {3}, {-0.5, 1, 2});
}

TEST(ElementwiseOracle, GeluKeepsRelativeAccuracyInTheFarTail) {
  // Φ(-10) = 7.619853024160527e-24; gelu(-10) = -10·Φ(-10).
  const double got = oracle::Gelu(F32({1}, {-10})).GetAt(0);
  EXPECT_NEAR(got / -7.619853024160527e-23, 1.0, 1e-12);
}

TEST(ElementwiseOracle, ReluKeepsNan) {
  ExpectValues(oracle::Relu(F32({4}, {-1, 0, 2, NAN})), {4}, {0, 0, 2, NAN});
}

TEST(ElementwiseOracle, ClipWithBroadcastBounds) {
  const HostTensor x = F32({4}, {-2, 0.5, 3, NAN});
  const HostTensor low = F32({4}, {-1, -1, -1, -1}).WithLayout(BroadcastLayout({4}, 0));
  const HostTensor high = F32({4}, {1, 1, 1, 1}).WithLayout(BroadcastLayout({4}, 0));
  ExpectValues(oracle::Clip(x, low, high), {4}, {-1, 0.5, 1, NAN});
  // torch.clamp: when min > max every result is max.
  const HostTensor inverted_low = F32({4}, {2, 2, 2, 2});
  const HostTensor inverted_high = F32({4}, {0, 0, 0, 0});
  ExpectValues(oracle::Clip(F32({4}, {-5, 1, 5, 0}), inverted_low, inverted_high), {4}, {0, 0, 0, 0});
}

TEST(SiluAndMulOracle, GateFirstUpSecondWithItsLimits) {
  // Rows [gate | up]: silu(0)·5 = 0, silu(2)·3, silu(-1000)·1 = -0, silu(1000)·2 = 2000.
  const HostTensor input = F64({2, 4}, {0, 2, 5, 3, -1000, 1000, 1, 2});
  const double silu2 = 2.0 / (1.0 + std::exp(-2.0));
  ExpectValues(oracle::SiluAndMul(input), {2, 2}, {0, silu2 * 3, 0, 2000});
}

}  // namespace
}  // namespace infinicts
