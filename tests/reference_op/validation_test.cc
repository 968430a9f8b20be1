// The statuses of RULES.md at a sample of bad inputs, descriptor queries, and stream
// behaviour (order with the runtime's copies, streams of another device).
#include <vector>

#include "op_test_support.h"

namespace infiniop_test {
namespace {

class ValidationTest : public OpTest {};

TEST_F(ValidationTest, TensorDescriptorArguments) {
  infiniopTensorDescriptor_t desc = nullptr;
  const size_t shape[] = {2, 3};
  EXPECT_EQ(infiniopCreateTensorDescriptor(nullptr, 2, shape, nullptr, INFINI_DTYPE_F32), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infiniopCreateTensorDescriptor(&desc, 2, nullptr, nullptr, INFINI_DTYPE_F32), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infiniopCreateTensorDescriptor(&desc, 2, shape, nullptr, INFINI_DTYPE_INVALID),
            INFINI_STATUS_BAD_TENSOR_DTYPE);
  EXPECT_EQ(infiniopCreateTensorDescriptor(&desc, 2, shape, nullptr, static_cast<infiniDtype_t>(99)),
            INFINI_STATUS_BAD_TENSOR_DTYPE);
  EXPECT_EQ(infiniopDestroyTensorDescriptor(nullptr), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infiniopCreateHandle(nullptr), INFINI_STATUS_NULL_POINTER);
}

TEST_F(ValidationTest, ElementwiseDescriptorRules) {
  Tensor a({2, 3}, INFINI_DTYPE_F32), b({3, 2}, INFINI_DTYPE_F32), h({2, 3}, INFINI_DTYPE_F16),
      broadcast({2, 3}, INFINI_DTYPE_F32, {0, 1}), i({2, 3}, INFINI_DTYPE_I32);
  infiniopAddDescriptor_t desc = nullptr;
  EXPECT_EQ(infiniopCreateAddDescriptor(handle_, &desc, a.desc(), a.desc(), b.desc()), INFINI_STATUS_BAD_TENSOR_SHAPE);
  EXPECT_EQ(infiniopCreateAddDescriptor(handle_, &desc, a.desc(), a.desc(), h.desc()), INFINI_STATUS_BAD_TENSOR_DTYPE);
  // Add takes I32 (on the CPU); Relu does not, nor a mix of I32 and F32.
  ASSERT_EQ(infiniopCreateAddDescriptor(handle_, &desc, i.desc(), i.desc(), i.desc()), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infiniopDestroyAddDescriptor(desc), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infiniopCreateAddDescriptor(handle_, &desc, i.desc(), i.desc(), a.desc()), INFINI_STATUS_BAD_TENSOR_DTYPE);
  infiniopReluDescriptor_t relu = nullptr;
  EXPECT_EQ(infiniopCreateReluDescriptor(handle_, &relu, i.desc(), i.desc()), INFINI_STATUS_BAD_TENSOR_DTYPE);
  EXPECT_EQ(infiniopCreateAddDescriptor(handle_, &desc, broadcast.desc(), a.desc(), a.desc()),
            INFINI_STATUS_BAD_TENSOR_STRIDES);
  EXPECT_EQ(infiniopCreateAddDescriptor(handle_, &desc, nullptr, a.desc(), a.desc()), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infiniopCreateAddDescriptor(nullptr, &desc, a.desc(), a.desc(), a.desc()), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infiniopCreateAddDescriptor(handle_, nullptr, a.desc(), a.desc(), a.desc()), INFINI_STATUS_NULL_POINTER);
}

TEST_F(ValidationTest, GemmDescriptorRules) {
  Tensor c({2, 2}, INFINI_DTYPE_F32), a({2, 3}, INFINI_DTYPE_F32), b({3, 2}, INFINI_DTYPE_F32),
      bad_k({4, 2}, INFINI_DTYPE_F32), no_unit({2, 3}, INFINI_DTYPE_F32, {6, 2}), four_d({1, 1, 2, 3}, INFINI_DTYPE_F32),
      batch3({3, 2, 2}, INFINI_DTYPE_F32), batch2({2, 2, 3}, INFINI_DTYPE_F32);
  infiniopGemmDescriptor_t desc = nullptr;
  EXPECT_EQ(infiniopCreateGemmDescriptor(handle_, &desc, c.desc(), a.desc(), bad_k.desc()),
            INFINI_STATUS_BAD_TENSOR_SHAPE);
  EXPECT_EQ(infiniopCreateGemmDescriptor(handle_, &desc, c.desc(), four_d.desc(), b.desc()),
            INFINI_STATUS_BAD_TENSOR_SHAPE);
  EXPECT_EQ(infiniopCreateGemmDescriptor(handle_, &desc, batch3.desc(), batch2.desc(), b.desc()),
            INFINI_STATUS_BAD_TENSOR_SHAPE);
  EXPECT_EQ(infiniopCreateGemmDescriptor(handle_, &desc, c.desc(), no_unit.desc(), b.desc()),
            INFINI_STATUS_BAD_TENSOR_STRIDES);
}

TEST_F(ValidationTest, AttributeValuesAreBadParams) {
  Tensor x({2, 4}, INFINI_DTYPE_F32), pos({2}, INFINI_DTYPE_I32), table({4, 2}, INFINI_DTYPE_F32);
  infiniopSoftmaxDescriptor_t desc = nullptr;
  EXPECT_EQ(infiniopCreateSoftmaxDescriptor(handle_, &desc, x.desc(), x.desc(), 2), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infiniopCreateSoftmaxDescriptor(handle_, &desc, x.desc(), x.desc(), -3), INFINI_STATUS_BAD_PARAM);
  Tensor r({2, 1, 4}, INFINI_DTYPE_F32);
  EXPECT_EQ(infiniopCreateRoPEDescriptor(handle_, &desc, r.desc(), r.desc(), pos.desc(), table.desc(), table.desc(),
                                         static_cast<infiniopRoPEAlgo_t>(2)),
            INFINI_STATUS_BAD_PARAM);
  Tensor cx({1, 1, 5}, INFINI_DTYPE_F32), cw({1, 1, 3}, INFINI_DTYPE_F32), cy({1, 1, 3}, INFINI_DTYPE_F32);
  size_t pads[] = {0};
  ptrdiff_t zero_stride[] = {0};
  EXPECT_EQ(infiniopCreateConvDescriptor(handle_, &desc, cy.desc(), cx.desc(), cw.desc(), nullptr, pads, zero_stride,
                                         nullptr, 1),
            INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infiniopCreateConvDescriptor(handle_, &desc, cy.desc(), cx.desc(), cw.desc(), nullptr, pads, nullptr,
                                         nullptr, 0),
            INFINI_STATUS_BAD_PARAM);
}

TEST_F(ValidationTest, WorkspaceKindAndDeviceQueries) {
  Tensor c({2, 2}, INFINI_DTYPE_F16), a({2, 3}, INFINI_DTYPE_F16), b({3, 2}, INFINI_DTYPE_F16);
  infiniopGemmDescriptor_t gemm = nullptr;
  ASSERT_OK(infiniopCreateGemmDescriptor(handle_, &gemm, c.desc(), a.desc(), b.desc()));
  size_t size = 0;
  ASSERT_OK(infiniopGetGemmWorkspaceSize(gemm, &size));
  ASSERT_GT(size, 0u);
  DeviceBuffer workspace(size);
  EXPECT_EQ(infiniopGemm(gemm, workspace.get(), size - 1, c.data(), a.data(), b.data(), 1, 0, stream_),
            INFINI_STATUS_INSUFFICIENT_WORKSPACE);
  EXPECT_EQ(infiniopGemm(gemm, nullptr, size, c.data(), a.data(), b.data(), 1, 0, stream_),
            INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infiniopGemm(gemm, workspace.get(), size, nullptr, a.data(), b.data(), 1, 0, stream_),
            INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infiniopGetAddWorkspaceSize(gemm, &size), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infiniopAdd(gemm, nullptr, 0, c.data(), c.data(), c.data(), stream_), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infiniopDestroyAddDescriptor(gemm), INFINI_STATUS_BAD_PARAM);
  infiniDevice_t type = INFINI_DEVICE_NVIDIA;
  int id = -1;
  EXPECT_OK(infiniopGetDescriptorDeviceType(gemm, &type));
  EXPECT_OK(infiniopGetDescriptorDeviceId(gemm, &id));
  EXPECT_EQ(type, INFINI_DEVICE_CPU);
  EXPECT_EQ(id, 0);
  EXPECT_EQ(infiniopGetDescriptorDeviceId(nullptr, &id), INFINI_STATUS_NULL_POINTER);
  EXPECT_OK(infiniopDestroyGemmDescriptor(gemm));
  EXPECT_EQ(infiniopDestroyGemmDescriptor(nullptr), INFINI_STATUS_NULL_POINTER);
}

TEST_F(ValidationTest, RunsInOrderWithTheStreamAndOutlivesItsDescriptor) {
  const size_t n = 1 << 20;
  Tensor a({n}, INFINI_DTYPE_F32), c({n}, INFINI_DTYPE_F32);
  std::vector<float> host(n, 3.0f), back(n, 0.0f);
  infiniopAddDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateAddDescriptor(handle_, &desc, c.desc(), a.desc(), a.desc()));
  ASSERT_OK(infinirtMemcpyAsync(a.data(), host.data(), n * sizeof(float), INFINIRT_MEMCPY_H2D, stream_));
  ASSERT_OK(infiniopAdd(desc, nullptr, 0, c.data(), a.data(), a.data(), stream_));
  ASSERT_OK(infiniopDestroyAddDescriptor(desc));  // the queued work keeps what it needs
  ASSERT_OK(infinirtMemcpyAsync(back.data(), c.data(), n * sizeof(float), INFINIRT_MEMCPY_D2H, stream_));
  Sync();
  EXPECT_EQ(back.front(), 6.0f);
  EXPECT_EQ(back.back(), 6.0f);
}

TEST_F(ValidationTest, AStreamOfAnotherDeviceIsRefused) {
  int count = 0;
  ASSERT_OK(infinirtGetDeviceCount(INFINI_DEVICE_CPU, &count));
  if (count < 2) GTEST_SKIP() << "one CPU device only";
  Tensor a({4}, INFINI_DTYPE_F32);
  infiniopReluDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateReluDescriptor(handle_, &desc, a.desc(), a.desc()));
  ASSERT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  infinirtStream_t other = nullptr;
  ASSERT_OK(infinirtStreamCreate(&other));
  EXPECT_EQ(infiniopRelu(desc, nullptr, 0, a.data(), a.data(), other), INFINI_STATUS_BAD_PARAM);
  infiniopHandle_t second = nullptr;
  ASSERT_OK(infiniopCreateHandle(&second));
  infiniopReluDescriptor_t on_second = nullptr;
  ASSERT_OK(infiniopCreateReluDescriptor(second, &on_second, a.desc(), a.desc()));
  int id = -1;
  EXPECT_OK(infiniopGetDescriptorDeviceId(on_second, &id));
  EXPECT_EQ(id, 1);
  EXPECT_OK(infiniopDestroyReluDescriptor(on_second));
  EXPECT_OK(infiniopDestroyHandle(second));
  EXPECT_OK(infinirtStreamDestroy(other));
  ASSERT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  EXPECT_OK(infiniopDestroyReluDescriptor(desc));
}

}  // namespace
}  // namespace infiniop_test
