// The softmax family: the causal mask offset, max subtraction (inputs of 1000), any axis.
#include <cmath>

#include "op_test_support.h"

namespace infiniop_test {
namespace {

class SoftmaxTest : public OpTest {};

TEST_F(SoftmaxTest, CausalRowsKeepTheirPrefixWithoutOverflow) {
  for (double level : {0.0, 1000.0}) {
    Tensor x({1, 2, 3}, INFINI_DTYPE_F32), y({1, 2, 3}, INFINI_DTYPE_F32);
    x.Upload(std::vector<double>(6, level));
    infiniopCausalSoftmaxDescriptor_t desc = nullptr;
    ASSERT_OK(infiniopCreateCausalSoftmaxDescriptor(handle_, &desc, y.desc(), x.desc()));
    ASSERT_OK(infiniopCausalSoftmax(desc, nullptr, 0, y.data(), x.data(), stream_));
    Sync();
    // seq 2, total 3: row 0 keeps j <= 1, row 1 keeps j <= 2.
    ExpectNear(y.Download(), {0.5, 0.5, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-6);
    EXPECT_OK(infiniopDestroyCausalSoftmaxDescriptor(desc));
  }
}

TEST_F(SoftmaxTest, SoftmaxAlongTheFirstAxis) {
  Tensor x({2, 2}, INFINI_DTYPE_F64), y({2, 2}, INFINI_DTYPE_F64);
  x.Upload({0, 1000, std::log(3.0), 1000});
  infiniopSoftmaxDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateSoftmaxDescriptor(handle_, &desc, y.desc(), x.desc(), 0));
  ASSERT_OK(infiniopSoftmax(desc, nullptr, 0, y.data(), x.data(), stream_));
  Sync();
  ExpectNear(y.Download(), {0.25, 0.5, 0.75, 0.5}, 1e-12);
  EXPECT_OK(infiniopDestroySoftmaxDescriptor(desc));
}

TEST_F(SoftmaxTest, LogSoftmaxAlongTheLastAxisCountedFromTheEnd) {
  Tensor x({2, 2}, INFINI_DTYPE_BF16), y({2, 2}, INFINI_DTYPE_BF16);
  x.Upload({0, 0, 1000, 1000});
  infiniopLogSoftmaxDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateLogSoftmaxDescriptor(handle_, &desc, y.desc(), x.desc(), -1));
  ASSERT_OK(infiniopLogSoftmax(desc, nullptr, 0, y.data(), x.data(), stream_));
  Sync();
  const double half = -std::log(2.0);
  ExpectNear(y.Download(), {half, half, half, half}, 4e-3);
  EXPECT_OK(infiniopDestroyLogSoftmaxDescriptor(desc));
}

}  // namespace
}  // namespace infiniop_test
