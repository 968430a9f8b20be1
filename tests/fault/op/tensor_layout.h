// A tensor descriptor's content as the operator faults keep it: dtype, shape, strides.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <vector>

#include "infinicore.h"

namespace infinicts::fault {

struct TensorLayout {
  infiniDtype_t dtype = INFINI_DTYPE_INVALID;
  std::vector<size_t> shape;
  std::vector<ptrdiff_t> strides;  // in elements

  size_t ElementCount() const;
  // The largest element offset an index reaches (0 for a tensor without elements).
  ptrdiff_t HighestOffset() const;
};

std::vector<ptrdiff_t> ContiguousStrides(const std::vector<size_t> &shape);

size_t DtypeBytes(infiniDtype_t dtype);  // 0 for INFINI_DTYPE_INVALID and unknown values

// Calls visit(offset in `first`, offset in each of `others`) for every index of first's
// shape, in odometer order; the others have first's shape and their own strides.
template <class Visit, class... Others>
void ForEachElement(Visit visit, const TensorLayout &first, const Others &...others) {
  const std::array<const TensorLayout *, 1 + sizeof...(Others)> layouts{&first, &others...};
  std::array<ptrdiff_t, 1 + sizeof...(Others)> offsets{};
  std::vector<size_t> index(first.shape.size(), 0);
  for (size_t e = 0, count = first.ElementCount(); e < count; ++e) {
    std::apply(visit, offsets);
    for (size_t d = index.size(); d-- > 0;) {
      const bool wraps = ++index[d] == first.shape[d];
      for (size_t t = 0; t < layouts.size(); ++t) {
        const ptrdiff_t stride = layouts[t]->strides[d];
        offsets[t] += wraps ? -stride * static_cast<ptrdiff_t>(first.shape[d] - 1) : stride;
      }
      if (!wraps) break;
      index[d] = 0;
    }
  }
}

}  // namespace infinicts::fault
