// Gemm on hand-checkable 2x3 * 3x2 products: alpha/beta, beta == 0 with NaN in C,
// transposed and padded layouts, batches with a broadcast operand, every float dtype.
#include <cmath>

#include "op_test_support.h"

namespace infiniop_test {
namespace {

const std::vector<double> kA = {1, 2, 3, 4, 5, 6};  // 2x3
const std::vector<double> kB = {1, 2, 3, 4, 5, 6};  // 3x2
const std::vector<double> kAB = {22, 28, 49, 64};   // 2x2

class GemmTest : public OpTest {
 protected:
  void Run(Tensor &c, Tensor &a, Tensor &b, float alpha, float beta) {
    infiniopGemmDescriptor_t desc = nullptr;
    ASSERT_OK(infiniopCreateGemmDescriptor(handle_, &desc, c.desc(), a.desc(), b.desc()));
    size_t size = 0;
    ASSERT_OK(infiniopGetGemmWorkspaceSize(desc, &size));
    DeviceBuffer workspace(size);
    ASSERT_OK(infiniopGemm(desc, workspace.get(), size, c.data(), a.data(), b.data(), alpha, beta, stream_));
    Sync();
    EXPECT_OK(infiniopDestroyGemmDescriptor(desc));
  }
};

TEST_F(GemmTest, AlphaAndBetaForEveryDtype) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64}) {
    Tensor a({2, 3}, dtype), b({3, 2}, dtype), c({2, 2}, dtype);
    a.Upload(kA);
    b.Upload(kB);
    c.Upload({2, 2, 2, 2});
    Run(c, a, b, 2.0f, 0.5f);
    ExpectNear(c.Download(), {45, 57, 99, 129}, 0);  // exact even in BF16
  }
}

TEST_F(GemmTest, BetaZeroNeverReadsC) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_F32}) {
    Tensor a({2, 3}, dtype), b({3, 2}, dtype), c({2, 2}, dtype);
    a.Upload(kA);
    b.Upload(kB);
    c.Upload({NAN, NAN, NAN, NAN});
    Run(c, a, b, 1.0f, 0.0f);
    ExpectNear(c.Download(), kAB, 0);
  }
}

TEST_F(GemmTest, TransposedAndPaddedLayouts) {
  // a column-major (unit row stride), b with a padded leading dim, c column-major.
  Tensor a({2, 3}, INFINI_DTYPE_F32, {1, 2}), b({3, 2}, INFINI_DTYPE_F32, {5, 1}), c({2, 2}, INFINI_DTYPE_F32, {1, 2});
  a.Upload(kA);
  b.Upload(kB);
  c.Upload({0, 0, 0, 0});
  Run(c, a, b, 1.0f, 0.0f);
  ExpectNear(c.Download(), kAB, 0);

  Tensor ah({2, 3}, INFINI_DTYPE_BF16, {1, 2}), bh({3, 2}, INFINI_DTYPE_BF16, {1, 3}), ch({2, 2}, INFINI_DTYPE_BF16, {1, 2});
  ah.Upload(kA);
  bh.Upload(kB);
  ch.Upload({0, 0, 0, 0});
  Run(ch, ah, bh, 1.0f, 0.0f);
  ExpectNear(ch.Download(), kAB, 0);
}

TEST_F(GemmTest, BatchesWithABroadcastOperand) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_F64}) {
    Tensor a({2, 2, 3}, dtype), b({1, 3, 2}, dtype), c({2, 2, 2}, dtype);
    a.Upload({1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6});
    b.Upload(kB);
    c.Upload(std::vector<double>(8, 0));
    Run(c, a, b, 1.0f, 0.0f);
    ExpectNear(c.Download(), {22, 28, 49, 64, -22, -28, -49, -64}, 0);
  }
}

}  // namespace
}  // namespace infiniop_test
