#include <gtest/gtest.h>

#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

const HostTensor kSignal = F32({1, 1, 5}, {1, 2, 3, 4, 5});
const HostTensor kDifference = F32({1, 1, 3}, {1, 0, -1});  // y[o] = x[o'] - x[o' + 2·dilation]

TEST(ConvOracle, OneDimensional) {
  ExpectValues(oracle::Conv(kSignal, kDifference, nullptr, {}, {}, {}), {1, 1, 3}, {-2, -2, -2});
}

TEST(ConvOracle, PadsStridesDilationsAndBias) {
  // Pad 1: the taps outside the signal read zeros.
  ExpectValues(oracle::Conv(kSignal, kDifference, nullptr, {1}, {1}, {1}), {1, 1, 5}, {-2, -2, -2, -2, 4});
  // Stride 2 keeps outputs 0, 2, 4 of the padded result.
  ExpectValues(oracle::Conv(kSignal, kDifference, nullptr, {1}, {2}, {1}), {1, 1, 3}, {-2, -2, 4});
  // Dilation 2 spans 5 inputs: x0 - x4.
  ExpectValues(oracle::Conv(kSignal, kDifference, nullptr, {0}, {1}, {2}), {1, 1, 1}, {-4});
  const HostTensor bias = F32({1}, {10});
  ExpectValues(oracle::Conv(kSignal, kDifference, &bias, {}, {}, {}), {1, 1, 3}, {8, 8, 8});
}

TEST(ConvOracle, TwoDimensional) {
  const HostTensor x = F32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const HostTensor w = F32({1, 1, 2, 2}, {1, 1, 1, 1});
  ExpectValues(oracle::Conv(x, w, nullptr, {0, 0}, {1, 1}, {1, 1}), {1, 1, 2, 2}, {12, 16, 24, 28});
  // Pads differ per dimension: height 1, width 0; stride 2 in height.
  ExpectValues(oracle::Conv(x, w, nullptr, {1, 0}, {2, 1}, {1, 1}), {1, 1, 2, 2}, {3, 5, 24, 28});
}

TEST(ConvOracle, ChannelsAndBatches) {
  // x: two batches of two channels of one pixel; w: three output channels.
  const HostTensor x = F32({2, 2, 1, 1}, {1, 2, 3, 5});
  const HostTensor w = F32({3, 2, 1, 1}, {1, 1, 1, -1, 2, 0});
  const HostTensor bias = F32({3}, {0, 0, 100});
  ExpectValues(oracle::Conv(x, w, &bias, {}, {}, {}), {2, 3, 1, 1}, {3, -1, 102, 8, -2, 106});
}

TEST(ConvOracle, ThreeDimensionalWithStridedInput) {
  const HostTensor x = F32({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}).WithLayout(TransposedLayout({1, 1, 2, 2, 2}));
  const HostTensor w = F32({1, 1, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1});
  ExpectValues(oracle::Conv(x, w, nullptr, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}), {1, 1, 1, 1, 1}, {36});
}

TEST(ConvOracle, RejectsMismatchedArguments) {
  EXPECT_THROW(oracle::Conv(kSignal, F32({1, 2, 3}, {1, 1, 1, 1, 1, 1}), nullptr, {}, {}, {}), std::invalid_argument);
  EXPECT_THROW(oracle::Conv(kSignal, kDifference, nullptr, {0, 0}, {}, {}), std::invalid_argument);
  EXPECT_THROW(oracle::Conv(kSignal, F32({1, 1, 7}, std::vector<double>(7, 1.0)), nullptr, {}, {}, {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
