// Which way the CUDA operators take for a call, decided on the host: Rearrange's copy path
// against the device's pitch limit, and whether cuDNN may be given a convolution's pointers.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/cudnn/cudnn_alignment.h"
#include "cuda/rearrange_path.h"

namespace reference_cuda_test {
namespace {

using infinicts::ref::op::cuda::ChooseRearrangePath;
using infinicts::ref::op::cuda::CudnnAligned;
using infinicts::ref::op::cuda::MergeOperands;
using infinicts::ref::op::cuda::RearrangePath;
using infinicts::ref::op::cuda::StridedOperands;

// An H200's cudaDevAttrMaxPitch is 2^31 - 1 bytes; a smaller limit shows the rule as well.
constexpr size_t kMaxPitch = (size_t{1} << 31) - 1;

StridedOperands<2> Layout(const std::vector<size_t> &shape, const std::vector<ptrdiff_t> &dst,
                          const std::vector<ptrdiff_t> &src) {
  return MergeOperands<2>(shape, {&dst, &src});
}

TEST(RearrangePathChoice, ContiguousBothSidesIsOneCopy) {
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {8, 1}, {8, 1}), 4, false, kMaxPitch), RearrangePath::kContiguousCopy);
}

TEST(RearrangePathChoice, InPlaceWithOneLayoutDoesNothingAndEmptyTensorsToo) {
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {16, 1}, {16, 1}), 4, true, kMaxPitch), RearrangePath::kNothing);
  EXPECT_EQ(ChooseRearrangePath(Layout({0, 8}, {8, 1}, {16, 1}), 4, false, kMaxPitch), RearrangePath::kNothing);
  // The same address with two layouts still has to move elements, from a copy: the kernel's
  // threads would read elements others already wrote.
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {16, 1}, {8, 2}), 4, true, kMaxPitch), RearrangePath::kStagedCopy);
}

TEST(RearrangePathChoice, OverlappingRangesAreCopiedAsideFirst) {
  using infinicts::ref::op::cuda::OperandsOverlap;
  const StridedOperands<2> contiguous = Layout({4, 8}, {8, 1}, {8, 1});
  // 32 F32 elements are 128 bytes: a destination one element on overlaps, one 128 bytes on does not.
  EXPECT_TRUE(OperandsOverlap(contiguous, 4, 0x1004, 0x1000));
  EXPECT_TRUE(OperandsOverlap(contiguous, 4, 0x1000, 0x107c));
  EXPECT_FALSE(OperandsOverlap(contiguous, 4, 0x1080, 0x1000));
  EXPECT_FALSE(OperandsOverlap(contiguous, 4, 0x1000, 0x1080));
  EXPECT_EQ(ChooseRearrangePath(contiguous, 4, false, kMaxPitch, OperandsOverlap(contiguous, 4, 0x1004, 0x1000)),
            RearrangePath::kStagedCopy);
  EXPECT_EQ(ChooseRearrangePath(contiguous, 4, false, kMaxPitch, OperandsOverlap(contiguous, 4, 0x1080, 0x1000)),
            RearrangePath::kContiguousCopy);
  // Padded rows: the span runs from the first element to the last one's end, padding inside.
  const StridedOperands<2> padded = Layout({4, 8}, {16, 1}, {8, 1});
  EXPECT_TRUE(OperandsOverlap(padded, 4, 0x1000, 0x1000 + (3 * 16 + 7) * 4));
  EXPECT_FALSE(OperandsOverlap(padded, 4, 0x1000, 0x1000 + (3 * 16 + 8) * 4));
  // Nothing to copy overlaps nothing.
  EXPECT_FALSE(OperandsOverlap(Layout({0, 8}, {8, 1}, {8, 1}), 4, 0x1000, 0x1000));
}

TEST(RearrangePathChoice, PaddedRowsArePitchedWithinTheDevicesLimit) {
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {16, 1}, {8, 1}), 4, false, kMaxPitch), RearrangePath::kPitchedCopy);
}

TEST(RearrangePathChoice, ABroadcastSourceTakesTheKernel) {
  // BroadcastTo's x over y's dims: stride 0 along the rows it repeats, or along a row's
  // elements; neither is a pitched copy (cudaMemcpy2DAsync needs a source pitch of a row).
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {8, 1}, {0, 1}), 4, false, kMaxPitch), RearrangePath::kStridedKernel);
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {16, 1}, {0, 1}), 4, false, kMaxPitch), RearrangePath::kStridedKernel);
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {8, 1}, {1, 0}), 4, false, kMaxPitch), RearrangePath::kStridedKernel);
  // One element everywhere: its span is one element, apart from y's.
  const StridedOperands<2> scalar = Layout({4, 8}, {8, 1}, {0, 0});
  EXPECT_FALSE(infinicts::ref::op::cuda::OperandsOverlap(scalar, 4, 0x1000, 0x1080));
  EXPECT_EQ(ChooseRearrangePath(scalar, 4, false, kMaxPitch), RearrangePath::kStridedKernel);
}

TEST(RearrangePathChoice, APitchPastTheDevicesLimitTakesTheKernel) {
  // Rows 2^29 elements apart: 2^31 bytes of F32, one byte past an H200's limit.
  const ptrdiff_t far = ptrdiff_t{1} << 29;
  EXPECT_EQ(ChooseRearrangePath(Layout({3, 8}, {far, 1}, {8, 1}), 4, false, kMaxPitch), RearrangePath::kStridedKernel);
  EXPECT_EQ(ChooseRearrangePath(Layout({3, 8}, {8, 1}, {far, 1}), 4, false, kMaxPitch), RearrangePath::kStridedKernel);
  // One element less is within it for 2-byte elements, and the same rows of 1-byte ones.
  EXPECT_EQ(ChooseRearrangePath(Layout({3, 8}, {far, 1}, {8, 1}), 2, false, kMaxPitch), RearrangePath::kPitchedCopy);
  // A device with a smaller limit.
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {64, 1}, {8, 1}), 4, false, 255), RearrangePath::kStridedKernel);
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {64, 1}, {8, 1}), 4, false, 256), RearrangePath::kPitchedCopy);
}

TEST(RearrangePathChoice, RowsOfNonUnitStrideOrOverlappingRowsTakeTheKernel) {
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {16, 2}, {8, 1}), 4, false, kMaxPitch), RearrangePath::kStridedKernel);
  EXPECT_EQ(ChooseRearrangePath(Layout({4, 8}, {8, 1}, {4, 1}), 4, false, kMaxPitch), RearrangePath::kStridedKernel);
  // Three dims that do not merge into two (dst's outer stride is not 4 rows).
  EXPECT_EQ(ChooseRearrangePath(Layout({2, 4, 8}, {128, 16, 1}, {32, 8, 1}), 4, false, kMaxPitch),
            RearrangePath::kStridedKernel);
  // ...and three that do: padded rows again.
  EXPECT_EQ(ChooseRearrangePath(Layout({2, 4, 8}, {64, 16, 1}, {32, 8, 1}), 4, false, kMaxPitch),
            RearrangePath::kPitchedCopy);
}

TEST(CudnnAlignment, EveryPointerMustBeSixteenByteAligned) {
  alignas(16) static unsigned char memory[64];
  EXPECT_TRUE(CudnnAligned({memory, memory + 16, memory + 32, nullptr}));
  // An offset view of F16 or F32 elements: aligned to its element only.
  EXPECT_FALSE(CudnnAligned({memory + 2, memory + 16, memory + 32}));
  EXPECT_FALSE(CudnnAligned({memory, memory + 16, memory + 36}));
  EXPECT_FALSE(CudnnAligned({memory, memory + 16, memory + 32, memory + 8}));  // a bias at 8 bytes
  EXPECT_TRUE(CudnnAligned({}));
}

}  // namespace
}  // namespace reference_cuda_test
