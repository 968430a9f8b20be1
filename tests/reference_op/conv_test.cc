// Conv in 1, 2 and 3 dims: padding, stride, dilation, bias and no bias.
#include "op_test_support.h"

namespace infiniop_test {
namespace {

class ConvTest : public OpTest {
 protected:
  std::vector<double> Run(Tensor &y, Tensor &x, Tensor &w, Tensor *bias, std::vector<size_t> pads,
                          std::vector<ptrdiff_t> strides, std::vector<size_t> dilations) {
    infiniopConvDescriptor_t desc = nullptr;
    EXPECT_OK(infiniopCreateConvDescriptor(handle_, &desc, y.desc(), x.desc(), w.desc(),
                                           bias != nullptr ? bias->desc() : nullptr, pads.data(), strides.data(),
                                           dilations.data(), pads.size()));
    size_t size = 0;
    EXPECT_OK(infiniopGetConvWorkspaceSize(desc, &size));
    DeviceBuffer workspace(size);
    EXPECT_EQ(infiniopConv(desc, workspace.get(), size - 1, y.data(), x.data(), w.data(),
                           bias != nullptr ? bias->data() : nullptr, stream_),
              INFINI_STATUS_INSUFFICIENT_WORKSPACE);
    EXPECT_OK(infiniopConv(desc, workspace.get(), size, y.data(), x.data(), w.data(),
                           bias != nullptr ? bias->data() : nullptr, stream_));
    Sync();
    EXPECT_OK(infiniopDestroyConvDescriptor(desc));
    return y.Download();
  }
};

TEST_F(ConvTest, OneDimensionWithPaddingStrideAndBias) {
  Tensor x({1, 1, 5}, INFINI_DTYPE_F32), w({1, 1, 3}, INFINI_DTYPE_F32), b({1}, INFINI_DTYPE_F32),
      y({1, 1, 3}, INFINI_DTYPE_F32);
  x.Upload({1, 2, 3, 4, 5});
  w.Upload({1, 0, -1});
  b.Upload({10});
  ExpectNear(Run(y, x, w, &b, {1}, {2}, {1}), {8, 8, 14}, 0);
}

TEST_F(ConvTest, TwoDimensionsTwoChannelsAndDilation) {
  Tensor x({1, 2, 3, 3}, INFINI_DTYPE_F64), w({1, 2, 2, 2}, INFINI_DTYPE_F64), y({1, 1, 2, 2}, INFINI_DTYPE_F64);
  x.Upload({0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  w.Upload(std::vector<double>(8, 1));
  ExpectNear(Run(y, x, w, nullptr, {0, 0}, {1, 1}, {1, 1}), {12, 16, 24, 28}, 0);

  Tensor x1({1, 1, 3, 3}, INFINI_DTYPE_F64), w1({1, 1, 2, 2}, INFINI_DTYPE_F64), y1({1, 1, 1, 1}, INFINI_DTYPE_F64);
  x1.Upload({0, 1, 2, 3, 4, 5, 6, 7, 8});
  w1.Upload({1, 1, 1, 1});
  ExpectNear(Run(y1, x1, w1, nullptr, {0, 0}, {1, 1}, {2, 2}), {0 + 2 + 6 + 8}, 0);
}

TEST_F(ConvTest, ThreeDimensionsInHalfPrecision) {
  Tensor x({1, 1, 2, 2, 2}, INFINI_DTYPE_F16), w({2, 1, 1, 1, 1}, INFINI_DTYPE_F16),
      y({1, 2, 2, 2, 2}, INFINI_DTYPE_F16);
  x.Upload({1, 2, 3, 4, 5, 6, 7, 8});
  w.Upload({2, -1});
  ExpectNear(Run(y, x, w, nullptr, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}),
             {2, 4, 6, 8, 10, 12, 14, 16, -1, -2, -3, -4, -5, -6, -7, -8}, 0);
}

}  // namespace
}  // namespace infiniop_test
