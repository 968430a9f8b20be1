// The row kernels' host side, which must hold on any machine: the row geometry (dims
// merged and dropped without changing which element each row starts at), the arguments
// built from tensor layouts, empty launches that queue nothing, refused dtypes, and, where
// CUDA sees no device, launches that answer an error instead of crashing.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "cuda/rows/rows_args.h"
#include "cuda/rows/rows_kernels.h"
#include "cuda_count.h"
#include "rows_test_tensors.h"

namespace reference_cuda_test {
namespace {

namespace rows = infinicts::ref::op::cuda_rows;

// Every row's offsets from the grid against a walk of the unmerged layout.
template <int N>
void ExpectRowOffsets(const std::vector<size_t> &shape, const std::array<std::vector<ptrdiff_t>, N> &strides) {
  std::array<const std::vector<ptrdiff_t> *, N> pointers;
  for (int k = 0; k < N; ++k) pointers[k] = &strides[k];
  const rows::RowGrid<N> grid = rows::MakeRowGrid<N>(shape, pointers);
  int64_t row = 0;
  ForEachIndex(shape, [&](const std::vector<size_t> &index) {
    int64_t offsets[N];
    rows::RowOffsets(grid, row, offsets);
    for (int k = 0; k < N; ++k) {
      ptrdiff_t want = 0;
      for (size_t d = 0; d < shape.size(); ++d) want += static_cast<ptrdiff_t>(index[d]) * strides[k][d];
      EXPECT_EQ(offsets[k], want) << "row " << row << " operand " << k;
    }
    ++row;
  });
  EXPECT_EQ(grid.rows, row);
}

TEST(RowsGeometry, ContiguousDimsMergeIntoOne) {
  const std::vector<size_t> shape = {2, 1, 3, 4};
  const std::vector<ptrdiff_t> strides = Contiguous(shape);
  const rows::RowGrid<2> grid = rows::MakeRowGrid<2>(shape, {&strides, &strides});
  EXPECT_EQ(grid.ndim, 1);
  EXPECT_EQ(grid.rows, 24);
  EXPECT_EQ(grid.shape[0], 24);
  EXPECT_EQ(grid.strides[0][0], 1);
  ExpectRowOffsets<2>(shape, {strides, strides});
}

TEST(RowsGeometry, TransposedPaddedAndBroadcastOperandsKeepTheirOffsets) {
  ExpectRowOffsets<2>({3, 5}, {std::vector<ptrdiff_t>{5, 1}, std::vector<ptrdiff_t>{1, 3}});
  ExpectRowOffsets<3>({2, 1, 4, 3},
                      {std::vector<ptrdiff_t>{100, 7, 20, 6}, std::vector<ptrdiff_t>{12, 0, 3, 1},
                       std::vector<ptrdiff_t>{0, 0, 1, 0}});
  ExpectRowOffsets<1>({}, {std::vector<ptrdiff_t>{}});
}

TEST(RowsGeometry, EmptyShapeHasNoRows) {
  const std::vector<size_t> shape = {4, 0, 2};
  const std::vector<ptrdiff_t> strides = Contiguous(shape);
  EXPECT_EQ((rows::MakeRowGrid<1>(shape, {&strides}).rows), 0);
}

TEST(RowsArgs, SoftmaxAlongTheFirstAxisOfATransposedInput) {
  const HostTensor y(INFINI_DTYPE_F32, {50, 6}), x(INFINI_DTYPE_F32, {50, 6}, {1, 50});
  const rows::SoftmaxArgs args = rows::SoftmaxArgsFor(y.layout(), x.layout(), 0, true);
  EXPECT_EQ(args.rows.rows, 6);
  EXPECT_EQ(args.length, 50);
  EXPECT_EQ(args.y_step, 6);
  EXPECT_EQ(args.x_step, 1);
  EXPECT_TRUE(args.log);
  EXPECT_EQ(args.causal_seq_len, 0);
  int64_t offsets[2];
  rows::RowOffsets(args.rows, 5, offsets);
  EXPECT_EQ(offsets[0], 5);
  EXPECT_EQ(offsets[1], 250);
}

TEST(RowsArgs, CausalSoftmaxKnowsItsSequenceLength) {
  const HostTensor y(INFINI_DTYPE_F16, {2, 5, 9});
  const rows::SoftmaxArgs args = rows::CausalSoftmaxArgsFor(y.layout(), y.layout());
  EXPECT_EQ(args.causal_seq_len, 5);
  EXPECT_EQ(args.length, 9);
  EXPECT_EQ(args.rows.rows, 10);
}

TEST(RowsArgs, LayerNormStdDeviationIsTheFourthOperand) {
  const HostTensor in(INFINI_DTYPE_F32, {3, 8}), deviation(INFINI_DTYPE_F32, {3}, {5}), w(INFINI_DTYPE_F32, {8});
  const rows::LayerNormArgs args =
      rows::LayerNormArgsFor(in.layout(), in.layout(), deviation.layout(), in.layout(), w.layout(), nullptr, 1e-5f);
  int64_t offsets[4];
  rows::RowOffsets(args.rows, 2, offsets);
  EXPECT_EQ(offsets[2], 16);
  EXPECT_EQ(offsets[3], 10);
  EXPECT_EQ(args.bias_step, 0);
}

TEST(RowsArgs, RoPEPositionsFollowBatchAndTokenOnly) {
  const HostTensor y(INFINI_DTYPE_F32, {2, 3, 4, 8}), pos(INFINI_DTYPE_I32, {2, 3}, {10, 2});
  const HostTensor table(INFINI_DTYPE_F32, {16, 4});
  const rows::RoPEArgs args = rows::RoPEArgsFor(y.layout(), y.layout(), pos.layout(), table.layout(), table.layout(), 1);
  EXPECT_EQ(args.rows.rows, 24);
  EXPECT_EQ(args.table_len, 16);
  ForEachIndex({2, 3, 4}, [&](const std::vector<size_t> &index) {
    int64_t offsets[3];
    rows::RowOffsets(args.rows, static_cast<int64_t>((index[0] * 3 + index[1]) * 4 + index[2]), offsets);
    EXPECT_EQ(offsets[2], static_cast<int64_t>(index[0] * 10 + index[1] * 2));
  });
}

TEST(RowsArgs, EmbeddingOfAScalarIndexIsOneRow) {
  const HostTensor output(INFINI_DTYPE_F16, {7}), input(INFINI_DTYPE_I64, {}), weight(INFINI_DTYPE_F16, {10, 7});
  const rows::EmbeddingArgs args = rows::EmbeddingArgsFor(output.layout(), input.layout(), weight.layout());
  EXPECT_EQ(args.rows.rows, 1);
  EXPECT_EQ(args.vocab, 10);
  EXPECT_EQ(args.dim, 7);
  EXPECT_EQ(args.weight_row, 7);
}

TEST(RowsArgs, RandomSampleWorkspaceHoldsThePaddedRanking) {
  EXPECT_GE(rows::RandomSampleWorkspaceBytes(1), 16u);
  EXPECT_GE(rows::RandomSampleWorkspaceBytes(32000), size_t{32768} * 16);
  EXPECT_LT(rows::RandomSampleWorkspaceBytes(32768), size_t{32768} * 16 + 1024);
}

// Empty tensors queue nothing, so they succeed whether or not there is a device.
TEST(RowsLaunch, EmptyTensorsQueueNothing) {
  const HostTensor empty(INFINI_DTYPE_F32, {0, 16}), w(INFINI_DTYPE_F32, {16});
  EXPECT_EQ(rows::LaunchSoftmax(rows::SoftmaxArgsFor(empty.layout(), empty.layout(), 1, false), nullptr, nullptr,
                                nullptr),
            cudaSuccess);
  EXPECT_EQ(rows::LaunchRMSNorm(rows::RMSNormArgsFor(empty.layout(), empty.layout(), w.layout(), 1e-5f), nullptr,
                                nullptr, nullptr, nullptr),
            cudaSuccess);
  const HostTensor no_heads(INFINI_DTYPE_F32, {4, 0, 8}), pos(INFINI_DTYPE_I32, {4}), table(INFINI_DTYPE_F32, {4, 4});
  EXPECT_EQ(rows::LaunchRoPE(rows::RoPEArgsFor(no_heads.layout(), no_heads.layout(), pos.layout(), table.layout(),
                                               table.layout(), 0),
                             nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            cudaSuccess);
}

TEST(RowsLaunch, DtypesTheOperatorsRefuseAreInvalidValues) {
  HostTensor y(INFINI_DTYPE_I32, {2, 4});
  EXPECT_EQ(rows::LaunchSoftmax(rows::SoftmaxArgsFor(y.layout(), y.layout(), 1, false), nullptr, nullptr, nullptr),
            cudaErrorInvalidValue);
  const HostTensor x(INFINI_DTYPE_F32, {2, 4}), w(INFINI_DTYPE_F16, {4});
  EXPECT_EQ(rows::LaunchRMSNorm(rows::RMSNormArgsFor(x.layout(), x.layout(), w.layout(), 1e-5f), nullptr, nullptr,
                                nullptr, nullptr),
            cudaErrorInvalidValue);
}

TEST(RowsLaunch, WithoutADeviceALaunchAnswersAnError) {
  if (CudaDeviceCount() > 0) GTEST_SKIP() << "CUDA sees a device here";
  const HostTensor x(INFINI_DTYPE_F32, {2, 64});
  const cudaError_t error =
      rows::LaunchSoftmax(rows::SoftmaxArgsFor(x.layout(), x.layout(), 1, false), nullptr, nullptr, nullptr);
  EXPECT_NE(error, cudaSuccess);
}

}  // namespace
}  // namespace reference_cuda_test
