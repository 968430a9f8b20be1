// A tensor descriptor's content as the operator faults keep it: dtype, shape, strides.
#pragma once

#include <cstddef>
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

}  // namespace infinicts::fault
