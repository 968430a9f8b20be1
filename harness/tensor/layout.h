// Where the elements of a tensor live: shape, strides in elements (any sign, 0 for a
// broadcast dimension) and the offset of element (0, ..., 0) from the start of storage.
// The factories build the layouts the op suite exercises.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace infinicts {

using Shape = std::vector<size_t>;
using Strides = std::vector<ptrdiff_t>;

struct Layout {
  Shape shape;
  Strides strides;
  ptrdiff_t offset = 0;  // elements from the start of storage to element (0, ..., 0)
};

size_t NumElements(const Shape &shape);
Strides ContiguousStrides(const Shape &shape);  // row-major
std::vector<size_t> UnravelIndex(size_t row_major_index, const Shape &shape);
std::string ShapeText(const Shape &shape);     // "[2, 3, 4]"
std::string StridesText(const Strides &strides);

// The lowest and highest element offsets a shape/strides pair reaches, relative to
// element (0, ..., 0). For an empty shape (a zero dimension) both are 0 and `empty` is set.
struct Span {
  ptrdiff_t min_offset = 0;
  ptrdiff_t max_offset = 0;
  bool empty = false;
};
Span LayoutSpan(const Shape &shape, const Strides &strides);

// Elements of storage a layout needs, counting from the storage start: offset + max + 1.
// Throws std::invalid_argument when the layout reaches below the storage start.
size_t StorageElements(const Layout &layout);

bool IsContiguous(const Layout &layout);  // row-major strides (offset allowed)

// What kind of view a layout is, by the first that holds: "broadcast" (a stride 0 in a dim of
// size > 1), "flipped" (a negative stride), "transposed" (the last two dims column-major),
// "strided" (any other gap, a unit-less last dim say), "padded" (row-major with room after
// rows), "offset" (contiguous, not at the storage start), "contiguous". Dims of size 1 never count.
const char *LayoutClass(const Layout &layout);
// The views every operator must accept (docs/spec/op.md "Layouts"): contiguous, offset, padded.
bool IsServingLayout(const Layout &layout);
// Whether two different indices may reach the same element (a stride-0 dimension of size > 1,
// say); such a layout may be read but not written. Conservative: strides that interleave
// without colliding also answer true.
bool HasOverlap(const Shape &shape, const Strides &strides);

// Row-major.
Layout ContiguousLayout(const Shape &shape);
// The last two dimensions stored column-major ("transposed"), earlier dimensions row-major
// over the matrices: strides [..., rows * cols, 1, rows].
Layout TransposedLayout(const Shape &shape);
// Row-major with `pad` unused elements after every row: the leading dimension (stride of
// dimension ndim-2) is cols + pad, and batches follow at rows * (cols + pad).
Layout PaddedLayout(const Shape &shape, size_t pad);
// Row-major over the other dimensions, stride 0 in `dim` (every index of `dim` reads the
// same elements).
Layout BroadcastLayout(const Shape &shape, size_t dim);
// The same layout, `offset` elements further into storage.
Layout OffsetLayout(Layout layout, ptrdiff_t offset);

}  // namespace infinicts
