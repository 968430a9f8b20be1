// RandomSample's argmax and sampling rule, Rearrange between layouts, Embedding rows.
#include <cmath>

#include "op_test_support.h"

namespace infiniop_test {
namespace {

class GatherSampleTest : public OpTest {
 protected:
  double Sample(Tensor &result, Tensor &probs, float random_val, float topp, int topk, float temperature) {
    infiniopRandomSampleDescriptor_t desc = nullptr;
    EXPECT_OK(infiniopCreateRandomSampleDescriptor(handle_, &desc, result.desc(), probs.desc()));
    size_t size = 0;
    EXPECT_OK(infiniopGetRandomSampleWorkspaceSize(desc, &size));
    DeviceBuffer workspace(size);
    EXPECT_OK(infiniopRandomSample(desc, workspace.get(), size, result.data(), probs.data(), random_val, topp, topk,
                                   temperature, stream_));
    Sync();
    EXPECT_OK(infiniopDestroyRandomSampleDescriptor(desc));
    return result.Download()[0];
  }
};

TEST_F(GatherSampleTest, RandomSampleArgmaxCases) {
  Tensor result({}, INFINI_DTYPE_I32), probs({3}, INFINI_DTYPE_F32);
  probs.Upload({0.1, 0.7, 0.2});
  EXPECT_EQ(Sample(result, probs, 0.9f, 1.0f, 1, 1.0f), 1);   // topk == 1
  EXPECT_EQ(Sample(result, probs, 0.9f, 1.0f, 3, 0.0f), 1);   // temperature == 0
  EXPECT_EQ(Sample(result, probs, 0.0f, 1.0f, 3, 1.0f), 1);   // random_val == 0
  EXPECT_EQ(Sample(result, probs, 0.9f, 0.0f, 3, 1.0f), 1);   // topp == 0
}

TEST_F(GatherSampleTest, RandomSampleWalksTheRankedCumulativeWeights) {
  // Logits ln1, ln2, ln1: ranked 1, 0, 2 (ties by index); cumulative weights 1, 1.5, 2.
  Tensor result({}, INFINI_DTYPE_I64), probs({3}, INFINI_DTYPE_F64, {2});
  probs.Upload({0, std::log(2.0), 0});
  EXPECT_EQ(Sample(result, probs, 0.4f, 1.0f, 0, 1.0f), 1);  // limit 0.8
  EXPECT_EQ(Sample(result, probs, 0.6f, 1.0f, 0, 1.0f), 0);  // limit 1.2
  EXPECT_EQ(Sample(result, probs, 0.9f, 1.0f, 0, 1.0f), 2);  // limit 1.8
  EXPECT_EQ(Sample(result, probs, 0.9f, 1.0f, 2, 1.0f), 0);  // top 2: limit 0.9 * 1.5
  EXPECT_EQ(Sample(result, probs, 0.99f, 0.5f, 3, 1.0f), 1);  // top p: limit 0.99 * 1.0
}

TEST_F(GatherSampleTest, RearrangeCopiesBetweenLayouts) {
  Tensor src({2, 3}, INFINI_DTYPE_I32), dst({2, 3}, INFINI_DTYPE_I32, {1, 2});
  src.Upload({1, 2, 3, 4, 5, 6});
  infiniopRearrangeDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateRearrangeDescriptor(handle_, &desc, dst.desc(), src.desc()));
  ASSERT_OK(infiniopRearrange(desc, dst.data(), src.data(), stream_));
  Sync();
  ExpectNear(dst.Download(), {1, 2, 3, 4, 5, 6}, 0);
  EXPECT_OK(infiniopDestroyRearrangeDescriptor(desc));
}

TEST_F(GatherSampleTest, RearrangeTransposesAcrossSeveralTiles) {
  const size_t rows = 130, cols = 70;
  Tensor src({rows, cols}, INFINI_DTYPE_F16), dst({rows, cols}, INFINI_DTYPE_F16, {1, static_cast<ptrdiff_t>(rows)});
  std::vector<double> values(rows * cols);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 2000);
  src.Upload(values);
  infiniopRearrangeDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateRearrangeDescriptor(handle_, &desc, dst.desc(), src.desc()));
  ASSERT_OK(infiniopRearrange(desc, dst.data(), src.data(), stream_));
  Sync();
  ExpectNear(dst.Download(), values, 0);
  EXPECT_OK(infiniopDestroyRearrangeDescriptor(desc));
}

// The transposed path with a third dim between the two unit-stride ones, 8-byte elements
// (a smaller tile edge) and partial tiles on both edges.
TEST_F(GatherSampleTest, RearrangeTransposesWithAnOuterDimBetween) {
  const size_t rows = 45, batch = 3, cols = 70;
  Tensor src({rows, batch, cols}, INFINI_DTYPE_I64);
  Tensor dst({rows, batch, cols}, INFINI_DTYPE_I64,
             {1, static_cast<ptrdiff_t>(rows * cols), static_cast<ptrdiff_t>(rows)});
  std::vector<double> values(rows * batch * cols);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
  src.Upload(values);
  infiniopRearrangeDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateRearrangeDescriptor(handle_, &desc, dst.desc(), src.desc()));
  ASSERT_OK(infiniopRearrange(desc, dst.data(), src.data(), stream_));
  Sync();
  ExpectNear(dst.Download(), values, 0);
  EXPECT_OK(infiniopDestroyRearrangeDescriptor(desc));
}

TEST_F(GatherSampleTest, EmbeddingGathersRows) {
  Tensor weight({4, 2}, INFINI_DTYPE_BF16), input({2, 2}, INFINI_DTYPE_I64), output({2, 2, 2}, INFINI_DTYPE_BF16);
  weight.Upload({0, 1, 10, 11, 20, 21, 30, 31});
  input.Upload({3, 0, 1, 3});
  infiniopEmbeddingDescriptor_t desc = nullptr;
  ASSERT_OK(infiniopCreateEmbeddingDescriptor(handle_, &desc, output.desc(), input.desc(), weight.desc()));
  ASSERT_OK(infiniopEmbedding(desc, output.data(), input.data(), weight.data(), stream_));
  Sync();
  ExpectNear(output.Download(), {30, 31, 0, 1, 10, 11, 30, 31}, 0);
  EXPECT_OK(infiniopDestroyEmbeddingDescriptor(desc));
}

}  // namespace
}  // namespace infiniop_test
