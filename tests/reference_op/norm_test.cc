// RMSNorm and LayerNorm on rows whose statistics are easy to do by hand.
#include <cmath>

#include "op_test_support.h"

namespace infiniop_test {
namespace {

class NormTest : public OpTest {};

TEST_F(NormTest, RMSNormScalesEachRowByItsRootMeanSquare) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_F32}) {
    Tensor x({2, 2}, dtype), y({2, 2}, dtype), w({2}, INFINI_DTYPE_F32);
    x.Upload({3, 4, 1, 1});
    w.Upload({1, 2});
    infiniopRMSNormDescriptor_t desc = nullptr;
    ASSERT_OK(infiniopCreateRMSNormDescriptor(handle_, &desc, y.desc(), x.desc(), w.desc(), 0.0f));
    ASSERT_OK(infiniopRMSNorm(desc, nullptr, 0, y.data(), x.data(), w.data(), stream_));
    Sync();
    const double rms = std::sqrt(12.5);
    ExpectNear(y.Download(), {3 / rms, 8 / rms, 1, 2}, dtype == INFINI_DTYPE_F16 ? 2e-3 : 1e-6);
    EXPECT_OK(infiniopDestroyRMSNormDescriptor(desc));
  }
}

TEST_F(NormTest, RMSNormEpsilonIsInsideTheRoot) {
  Tensor x({1, 2}, INFINI_DTYPE_F64), y({1, 2}, INFINI_DTYPE_F64), w({2}, INFINI_DTYPE_F64);
  x.Upload({0.001, -0.001});
  w.Upload({1, 1});
  infiniopRMSNormDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateRMSNormDescriptor(handle_, &desc, y.desc(), x.desc(), w.desc(), 3e-6f));
  ASSERT_OK(infiniopRMSNorm(desc, nullptr, 0, y.data(), x.data(), w.data(), stream_));
  Sync();
  const double scale = 1 / std::sqrt(1e-6 + static_cast<double>(3e-6f));
  ExpectNear(y.Download(), {0.001 * scale, -0.001 * scale}, 1e-12);
  EXPECT_OK(infiniopDestroyRMSNormDescriptor(desc));
}

TEST_F(NormTest, LayerNormWritesItsThreeOutputs) {
  Tensor input({1, 4}, INFINI_DTYPE_F32), output({1, 4}, INFINI_DTYPE_F32), standardized({1, 4}, INFINI_DTYPE_F32),
      deviation({1}, INFINI_DTYPE_F32), weight({4}, INFINI_DTYPE_F32), bias({4}, INFINI_DTYPE_F32);
  input.Upload({1, 2, 3, 4});
  weight.Upload({1, 1, 2, 2});
  bias.Upload({0, 0, 1, 1});
  const double deviation_value = std::sqrt(1.25);
  const std::vector<double> z = {-1.5 / deviation_value, -0.5 / deviation_value, 0.5 / deviation_value,
                                 1.5 / deviation_value};
  for (bool with_bias : {true, false}) {
    infiniopLayerNormDescriptor_t desc = nullptr;
    ASSERT_OK(infiniopCreateLayerNormDescriptor(handle_, &desc, output.desc(), standardized.desc(), deviation.desc(),
                                                input.desc(), weight.desc(), with_bias ? bias.desc() : nullptr,
                                                0.0f));
    ASSERT_OK(infiniopLayerNorm(desc, nullptr, 0, output.data(), standardized.data(), deviation.data(), input.data(),
                                weight.data(), with_bias ? bias.data() : nullptr, stream_));
    Sync();
    ExpectNear(deviation.Download(), {deviation_value}, 1e-6);
    ExpectNear(standardized.Download(), z, 1e-6);
    const double shift = with_bias ? 1 : 0;
    ExpectNear(output.Download(), {z[0], z[1], 2 * z[2] + shift, 2 * z[3] + shift}, 1e-6);
    EXPECT_OK(infiniopDestroyLayerNormDescriptor(desc));
  }
}

}  // namespace
}  // namespace infiniop_test
