#include "common/layouts.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace infinicts::op_cases {
namespace {

constexpr size_t kRowPad = 3;
constexpr ptrdiff_t kOffsetElements = 5;
constexpr ptrdiff_t kViewOffsetElements = 7;

// Column-major last two dims whose leading dimension (the column stride) is rows + pad;
// earlier dims row-major over whole matrices.
Layout ColumnMajor(const Shape &shape, size_t pad) {
  const size_t n = shape.size();
  Strides strides(n);
  strides[n - 2] = 1;
  strides[n - 1] = static_cast<ptrdiff_t>(shape[n - 2] + pad);
  ptrdiff_t step = strides[n - 1] * static_cast<ptrdiff_t>(shape[n - 1]);
  for (size_t d = n - 2; d-- > 0;) {
    strides[d] = step;
    step *= static_cast<ptrdiff_t>(shape[d]);
  }
  return Layout{shape, strides, 0};
}

// The strides of size-1 dims never move an element, so a backend must not read anything
// into them: not as the step of a merged dim, not as the tensor's extent.
Layout UnitOddStrides(const Shape &shape) {
  Layout layout = ContiguousLayout(shape);
  const ptrdiff_t past_everything = 2 * static_cast<ptrdiff_t>(NumElements(shape)) + 1;
  const ptrdiff_t odd[] = {0, 1, past_everything};
  size_t unit_dims = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) layout.strides[d] = odd[unit_dims++ % 3];
  }
  return layout;
}

// Row-major over the shape with dims 0 and 1 exchanged, then viewed in the shape's order.
Layout OuterSwapped(const Shape &shape) {
  Shape stored = shape;
  std::swap(stored[0], stored[1]);
  Layout layout = ContiguousLayout(stored);
  layout.shape = shape;
  std::swap(layout.strides[0], layout.strides[1]);
  return layout;
}

Layout Padded(const Shape &shape) {
  if (shape.size() >= 2) return PaddedLayout(shape, kRowPad);
  Layout layout = ContiguousLayout(shape);
  if (shape.size() == 1) layout.strides[0] = 2;
  return layout;
}

}  // namespace

const char *LayoutName(LayoutKind kind) {
  switch (kind) {
    case LayoutKind::kContiguous: return "contig";
    case LayoutKind::kTransposed: return "trans";
    case LayoutKind::kPadded: return "pad";
    case LayoutKind::kTransposedPadded: return "trans_pad";
    case LayoutKind::kBroadcastFirst: return "bcast0";
    case LayoutKind::kBroadcastLast: return "bcast_last";
    case LayoutKind::kOffset: return "offset";
    case LayoutKind::kView: return "view";
    case LayoutKind::kFlipped: return "flip";
    case LayoutKind::kBroadcastAll: return "bcast_all";
    case LayoutKind::kUnitOddStrides: return "unit_odd";
    case LayoutKind::kOuterSwapped: return "swap01";
  }
  return "layout";
}

std::vector<std::pair<LayoutKind, std::string>> EnumNames<LayoutKind>::All() {
  std::vector<std::pair<LayoutKind, std::string>> names;
  for (int kind = 0; kind <= static_cast<int>(LayoutKind::kOuterSwapped); ++kind)
    names.emplace_back(static_cast<LayoutKind>(kind), LayoutName(static_cast<LayoutKind>(kind)));
  names.emplace_back(LayoutKind::kContiguous, "contiguous");
  names.emplace_back(LayoutKind::kPadded, "padded");
  names.emplace_back(LayoutKind::kTransposed, "transposed");
  names.emplace_back(LayoutKind::kTransposedPadded, "transposed_padded");
  names.emplace_back(LayoutKind::kFlipped, "flipped");
  return names;
}

bool LayoutApplies(LayoutKind kind, const Shape &shape) {
  switch (kind) {
    case LayoutKind::kContiguous:
    case LayoutKind::kOffset: return true;
    case LayoutKind::kPadded:
    case LayoutKind::kView: return !shape.empty();
    case LayoutKind::kTransposed:
    case LayoutKind::kTransposedPadded: return shape.size() >= 2;
    case LayoutKind::kBroadcastFirst:
    case LayoutKind::kFlipped: return !shape.empty() && shape.front() > 1;
    case LayoutKind::kBroadcastLast: return !shape.empty() && shape.back() > 1;
    case LayoutKind::kBroadcastAll: return NumElements(shape) > 1;
    case LayoutKind::kUnitOddStrides: return std::find(shape.begin(), shape.end(), size_t{1}) != shape.end();
    case LayoutKind::kOuterSwapped: return shape.size() >= 3 && shape[0] > 1 && shape[1] > 1;
  }
  return false;
}

Layout MakeLayout(LayoutKind kind, const Shape &shape) {
  if (!LayoutApplies(kind, shape)) {
    throw std::invalid_argument(std::string("layout ") + LayoutName(kind) + " does not apply to shape " +
                                ShapeText(shape));
  }
  switch (kind) {
    case LayoutKind::kContiguous: return ContiguousLayout(shape);
    case LayoutKind::kTransposed: return TransposedLayout(shape);
    case LayoutKind::kPadded: return Padded(shape);
    case LayoutKind::kTransposedPadded: return ColumnMajor(shape, kRowPad);
    case LayoutKind::kBroadcastFirst: return BroadcastLayout(shape, 0);
    case LayoutKind::kBroadcastLast: return BroadcastLayout(shape, shape.size() - 1);
    case LayoutKind::kOffset: return OffsetLayout(ContiguousLayout(shape), kOffsetElements);
    case LayoutKind::kView: return OffsetLayout(Padded(shape), kViewOffsetElements);
    case LayoutKind::kBroadcastAll: return Layout{shape, Strides(shape.size(), 0), 0};
    case LayoutKind::kUnitOddStrides: return UnitOddStrides(shape);
    case LayoutKind::kOuterSwapped: return OuterSwapped(shape);
    case LayoutKind::kFlipped: {
      Layout layout = ContiguousLayout(shape);
      layout.strides[0] = -layout.strides[0];
      layout.offset = -layout.strides[0] * static_cast<ptrdiff_t>(shape[0] - 1);
      return layout;
    }
  }
  throw std::invalid_argument("unknown layout kind");
}

std::string ShapeName(const Shape &shape) {
  if (shape.empty()) return "scalar";
  std::string name;
  for (size_t d = 0; d < shape.size(); ++d) name += (d ? "x" : "") + std::to_string(shape[d]);
  return name;
}

std::string NumberName(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  std::string name;
  for (const char *c = text; *c; ++c) {
    if (*c == '-') name += 'm';
    else if (*c == '.') name += '_';
    else if (*c == '+') continue;
    else name += *c;
  }
  return name;
}

std::string LayoutsName(const std::vector<std::pair<std::string, LayoutKind>> &named) {
  std::string name;
  for (const auto &[tensor, kind] : named) name += (name.empty() ? "" : "_") + tensor + "_" + LayoutName(kind);
  return name;
}

}  // namespace infinicts::op_cases
