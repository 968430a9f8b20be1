#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

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

}  // namespace
}  // namespace infinicts
