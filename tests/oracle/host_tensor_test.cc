// Layouts and strided element access of HostTensor.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tensor/half.h"
#include "tensor/host_tensor.h"

namespace infinicts {
namespace {

HostTensor Arange(infiniDtype_t dtype, const Shape &shape) {
  HostTensor tensor(dtype, shape);
  for (size_t i = 0; i < tensor.numel(); ++i) tensor.SetAt(i, static_cast<double>(i));
  return tensor;
}

TEST(Layout, Factories) {
  EXPECT_EQ(ContiguousLayout({2, 3, 4}).strides, (Strides{12, 4, 1}));
  EXPECT_EQ(TransposedLayout({2, 3, 4}).strides, (Strides{12, 1, 3}));
  EXPECT_EQ(PaddedLayout({2, 3, 4}, 2).strides, (Strides{18, 6, 1}));
  EXPECT_EQ(BroadcastLayout({2, 3, 4}, 1).strides, (Strides{4, 0, 1}));
  EXPECT_EQ(OffsetLayout(ContiguousLayout({5}), 7).offset, 7);
}

TEST(Layout, SpanAndStorage) {
  const Span span = LayoutSpan({2, 3}, {3, 1});
  EXPECT_EQ(span.min_offset, 0);
  EXPECT_EQ(span.max_offset, 5);
  EXPECT_EQ(StorageElements(PaddedLayout({3, 4}, 2)), 2u * 6 + 3 + 1);  // the last row's padding is not needed
  EXPECT_EQ(StorageElements(OffsetLayout(ContiguousLayout({4}), 3)), 7u);
  EXPECT_EQ(StorageElements(BroadcastLayout({5, 3}, 0)), 3u);
  const Span negative = LayoutSpan({3, 2}, {-2, 1});
  EXPECT_EQ(negative.min_offset, -4);
  EXPECT_EQ(negative.max_offset, 1);
  EXPECT_THROW(StorageElements(Layout{{3}, {-1}, 1}), std::invalid_argument);
  EXPECT_EQ(StorageElements(Layout{{3}, {-1}, 2}), 3u);
  EXPECT_TRUE(LayoutSpan({2, 0}, {1, 1}).empty);
}

TEST(Layout, Overlap) {
  EXPECT_FALSE(HasOverlap({2, 3}, {3, 1}));
  EXPECT_FALSE(HasOverlap({2, 3}, {1, 2}));
  EXPECT_TRUE(HasOverlap({2, 3}, {0, 1}));
  EXPECT_TRUE(HasOverlap({2, 3}, {1, 1}));
  EXPECT_FALSE(HasOverlap({1, 3}, {0, 1}));  // a size-1 dimension's stride never matters
  EXPECT_TRUE(IsContiguous(ContiguousLayout({2, 3})));
  EXPECT_FALSE(IsContiguous(TransposedLayout({2, 3})));
  EXPECT_TRUE(IsContiguous(Layout{{1, 3}, {99, 1}, 0}));
}

TEST(HostTensor, TransposedElementsLandColumnMajor) {
  HostTensor tensor(INFINI_DTYPE_F32, TransposedLayout({2, 3}));
  tensor.Set({0, 1}, 5.0);
  tensor.Set({1, 2}, 7.0);
  EXPECT_EQ(tensor.GetStorageElement(2), 5.0);  // (0, 1) at 0·1 + 1·2
  EXPECT_EQ(tensor.GetStorageElement(5), 7.0);  // (1, 2) at 1·1 + 2·2
  EXPECT_EQ(tensor.Get({0, 1}), 5.0);
  EXPECT_EQ(tensor.GetAt(5), 7.0);  // row-major position of (1, 2)
}

TEST(HostTensor, PaddedOffsetViewKnowsItsGaps) {
  HostTensor tensor(INFINI_DTYPE_F16, OffsetLayout(PaddedLayout({2, 2}, 1), 2));
  EXPECT_EQ(tensor.storage_elements(), 2u + 3 + 1 + 1);
  EXPECT_EQ(tensor.storage_bytes(), tensor.storage_elements() * 2);
  EXPECT_EQ(tensor.data_offset_bytes(), 4u);
  EXPECT_EQ(tensor.UncoveredStorageElements(), (std::vector<size_t>{0, 1, 4}));
  tensor.FillStorage(-1.0);
  tensor.Set({1, 1}, 3.0);
  EXPECT_EQ(tensor.GetStorageElement(6), 3.0);
  EXPECT_EQ(tensor.GetStorageElement(4), -1.0);
  EXPECT_EQ(static_cast<const uint8_t *>(tensor.data()) - tensor.storage(), 4);
}

TEST(HostTensor, BroadcastReadsRepeat) {
  HostTensor row = HostTensor::FromValues(INFINI_DTYPE_F32, {3}, {1, 2, 3});
  HostTensor broadcast(INFINI_DTYPE_F32, BroadcastLayout({2, 3}, 0));
  for (size_t j = 0; j < 3; ++j) broadcast.Set({0, j}, row.Get({j}));
  EXPECT_EQ(broadcast.ToDoubles(), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(broadcast.storage_elements(), 3u);
}

TEST(HostTensor, NegativeStrideReadsBackwards) {
  HostTensor tensor(INFINI_DTYPE_I32, Layout{{3}, {-1}, 2});
  for (size_t i = 0; i < 3; ++i) tensor.SetStorageElement(i, static_cast<double>(i));
  EXPECT_EQ(tensor.ToDoubles(), (std::vector<double>{2, 1, 0}));
}

TEST(HostTensor, BatchedStridedViewsKeepValues) {
  const HostTensor source = Arange(INFINI_DTYPE_F32, {2, 3, 4});
  for (const Layout &layout : {TransposedLayout({2, 3, 4}), PaddedLayout({2, 3, 4}, 3),
                               OffsetLayout(TransposedLayout({2, 3, 4}), 5)}) {
    const HostTensor view = source.WithLayout(layout);
    EXPECT_EQ(view.strides(), layout.strides);
    EXPECT_EQ(view.ToDoubles(), source.ToDoubles());
    EXPECT_EQ(view.Get({1, 2, 3}), 23.0);
    const HostTensor back = view.Contiguous();
    EXPECT_TRUE(IsContiguous(back.layout()));
    EXPECT_EQ(back.ToDoubles(), source.ToDoubles());
  }
}

TEST(HostTensor, SetRoundsToTheDtype) {
  HostTensor half(INFINI_DTYPE_F16, Shape{1});
  half.Set({0}, 0.1);
  EXPECT_EQ(half.Get({0}), RoundToF16(0.1));
  EXPECT_NE(half.Get({0}), 0.1);
  HostTensor bf(INFINI_DTYPE_BF16, Shape{1});
  bf.Set({0}, 1.0 + std::ldexp(1.0, -8));
  EXPECT_EQ(bf.Get({0}), 1.0);
  HostTensor single(INFINI_DTYPE_F32, Shape{1});
  single.Set({0}, 0.1);
  EXPECT_EQ(single.Get({0}), static_cast<double>(0.1f));
  EXPECT_EQ(Arange(INFINI_DTYPE_F32, {4}).ToDtype(INFINI_DTYPE_F16).dtype(), INFINI_DTYPE_F16);
}

TEST(HostTensor, Integers) {
  HostTensor wide(INFINI_DTYPE_I64, Shape{1});
  const int64_t big = (int64_t{1} << 60) + 1;  // not representable in double
  wide.SetInt({0}, big);
  EXPECT_EQ(wide.GetInt({0}), big);
  EXPECT_EQ(wide.ToDtype(INFINI_DTYPE_I64).GetInt({0}), big);
  HostTensor narrow(INFINI_DTYPE_I8, Shape{3});
  narrow.Set({0}, 300);
  narrow.Set({1}, -2.5);
  narrow.Set({2}, -1000);
  EXPECT_EQ(narrow.ToDoubles(), (std::vector<double>{127, -2, -128}));
  HostTensor unsigned_bytes(INFINI_DTYPE_U8, Shape{1});
  unsigned_bytes.Set({0}, -5);
  EXPECT_EQ(unsigned_bytes.GetInt({0}), 0);
  HostTensor flags(INFINI_DTYPE_BOOL, Shape{2});
  flags.Set({0}, 0.5);
  EXPECT_EQ(flags.ToDoubles(), (std::vector<double>{1, 0}));
  EXPECT_THROW(narrow.Set({0}, std::nan("")), std::invalid_argument);
  EXPECT_THROW(HostTensor(INFINI_DTYPE_F32, Shape{1}).GetInt({0}), std::invalid_argument);
}

TEST(HostTensor, Misuse) {
  EXPECT_THROW(HostTensor(INFINI_DTYPE_C64, Shape{2}), std::invalid_argument);
  EXPECT_THROW(HostTensor(INFINI_DTYPE_F32, Layout{{2}, {1, 1}, 0}), std::invalid_argument);
  HostTensor tensor(INFINI_DTYPE_F32, Shape{2, 2});
  EXPECT_THROW(tensor.Get({2, 0}), std::out_of_range);
  EXPECT_THROW(tensor.Get({0}), std::out_of_range);
  EXPECT_THROW(tensor.WithLayout(ContiguousLayout({4})), std::invalid_argument);
  EXPECT_THROW(HostTensor::FromValues(INFINI_DTYPE_F32, {2}, {1, 2, 3}), std::invalid_argument);
}

TEST(HostTensor, ScalarTensor) {
  HostTensor scalar(INFINI_DTYPE_I64, Shape{});
  EXPECT_EQ(scalar.numel(), 1u);
  scalar.SetInt({}, 42);
  EXPECT_EQ(scalar.GetAt(0), 42.0);
}

}  // namespace
}  // namespace infinicts
