#include "tensor/layout.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace infinicts {

size_t NumElements(const Shape &shape) {
  return std::accumulate(shape.begin(), shape.end(), size_t{1}, [](size_t a, size_t b) { return a * b; });
}

Strides ContiguousStrides(const Shape &shape) {
  Strides strides(shape.size());
  ptrdiff_t step = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = step;
    step *= static_cast<ptrdiff_t>(shape[d]);
  }
  return strides;
}

std::vector<size_t> UnravelIndex(size_t row_major_index, const Shape &shape) {
  std::vector<size_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = row_major_index % shape[d];
    row_major_index /= shape[d];
  }
  return index;
}

namespace {
template <class T>
std::string ListText(const std::vector<T> &values) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
  out << ']';
  return out.str();
}
}  // namespace

std::string ShapeText(const Shape &shape) { return ListText(shape); }
std::string StridesText(const Strides &strides) { return ListText(strides); }

Span LayoutSpan(const Shape &shape, const Strides &strides) {
  if (shape.size() != strides.size()) throw std::invalid_argument("LayoutSpan: shape and strides differ in rank");
  Span span;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return Span{0, 0, true};
    const ptrdiff_t reach = strides[d] * static_cast<ptrdiff_t>(shape[d] - 1);
    if (reach < 0) span.min_offset += reach;
    else span.max_offset += reach;
  }
  return span;
}

size_t StorageElements(const Layout &layout) {
  const Span span = LayoutSpan(layout.shape, layout.strides);
  if (span.empty) return static_cast<size_t>(std::max<ptrdiff_t>(layout.offset, 0));
  if (layout.offset + span.min_offset < 0) {
    throw std::invalid_argument("layout reaches before its storage: offset " + std::to_string(layout.offset) +
                                ", strides " + StridesText(layout.strides));
  }
  return static_cast<size_t>(layout.offset + span.max_offset + 1);
}

bool IsContiguous(const Layout &layout) {
  const Strides expected = ContiguousStrides(layout.shape);
  for (size_t d = 0; d < layout.shape.size(); ++d) {
    if (layout.shape[d] != 1 && layout.strides[d] != expected[d]) return false;
  }
  return true;
}

const char *LayoutClass(const Layout &layout) {
  std::vector<size_t> dims;  // the dims that matter: size > 1
  for (size_t d = 0; d < layout.shape.size(); ++d) {
    if (layout.shape[d] > 1) dims.push_back(d);
  }
  for (size_t d : dims) {
    if (layout.strides[d] == 0) return "broadcast";
  }
  for (size_t d : dims) {
    if (layout.strides[d] < 0) return "flipped";
  }
  if (dims.size() >= 2 && dims[dims.size() - 1] == layout.shape.size() - 1 &&
      layout.strides[dims[dims.size() - 2]] < layout.strides[dims.back()]) {
    return "transposed";
  }
  // Row-major with room: the last dim that matters has stride 1, and each stride steps past
  // everything the dims inside it reach.
  ptrdiff_t reach = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    const size_t d = dims[i];
    const bool fits = i + 1 == dims.size() ? layout.strides[d] == 1 : layout.strides[d] >= reach;
    if (!fits) return "strided";
    reach = layout.strides[d] * static_cast<ptrdiff_t>(layout.shape[d]);
  }
  if (!IsContiguous(layout)) return "padded";
  return layout.offset != 0 ? "offset" : "contiguous";
}

bool IsServingLayout(const Layout &layout) {
  const std::string kind = LayoutClass(layout);
  return kind == "contiguous" || kind == "offset" || kind == "padded";
}

bool HasOverlap(const Shape &shape, const Strides &strides) {
  // Sort the dimensions that matter by |stride|; the layout is free of overlap when each
  // stride steps past everything the smaller dimensions reach.
  std::vector<std::pair<size_t, size_t>> dims;  // (|stride|, size)
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return false;
    if (shape[d] > 1) dims.emplace_back(static_cast<size_t>(std::llabs(strides[d])), shape[d]);
  }
  std::sort(dims.begin(), dims.end());
  size_t reach = 0;  // highest offset reachable by the smaller dimensions
  for (const auto &[stride, size] : dims) {
    if (stride <= reach) return true;
    reach += stride * (size - 1);
  }
  return false;
}

Layout ContiguousLayout(const Shape &shape) { return Layout{shape, ContiguousStrides(shape), 0}; }

Layout TransposedLayout(const Shape &shape) {
  if (shape.size() < 2) throw std::invalid_argument("TransposedLayout needs at least 2 dimensions");
  const size_t n = shape.size();
  const ptrdiff_t rows = static_cast<ptrdiff_t>(shape[n - 2]);
  const ptrdiff_t cols = static_cast<ptrdiff_t>(shape[n - 1]);
  Strides strides(n);
  strides[n - 2] = 1;
  strides[n - 1] = rows;
  ptrdiff_t step = rows * cols;
  for (size_t d = n - 2; d-- > 0;) {
    strides[d] = step;
    step *= static_cast<ptrdiff_t>(shape[d]);
  }
  return Layout{shape, strides, 0};
}

Layout PaddedLayout(const Shape &shape, size_t pad) {
  if (shape.size() < 2) throw std::invalid_argument("PaddedLayout needs at least 2 dimensions");
  const size_t n = shape.size();
  Strides strides(n);
  strides[n - 1] = 1;
  strides[n - 2] = static_cast<ptrdiff_t>(shape[n - 1] + pad);
  ptrdiff_t step = strides[n - 2] * static_cast<ptrdiff_t>(shape[n - 2]);
  for (size_t d = n - 2; d-- > 0;) {
    strides[d] = step;
    step *= static_cast<ptrdiff_t>(shape[d]);
  }
  return Layout{shape, strides, 0};
}

Layout BroadcastLayout(const Shape &shape, size_t dim) {
  if (dim >= shape.size()) throw std::invalid_argument("BroadcastLayout: dim out of range");
  Shape packed = shape;
  packed[dim] = 1;
  Strides strides = ContiguousStrides(packed);
  strides[dim] = 0;
  return Layout{shape, strides, 0};
}

Layout OffsetLayout(Layout layout, ptrdiff_t offset) {
  layout.offset += offset;
  return layout;
}

}  // namespace infinicts
