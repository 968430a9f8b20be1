#include "cuda/paths.h"

#include <array>

namespace infinicts::ref::op::cuda {
namespace {

constexpr size_t kOperatorCount = 0
#define OPERATOR(...) +1
#include "infiniop/operators.def"
#undef OPERATOR
    ;

// Filled by the static CudaPath objects while the library loads, read only after.
std::array<bool, kOperatorCount> &Served() {
  static std::array<bool, kOperatorCount> served{};
  return served;
}

}  // namespace

CudaPath::CudaPath(OpKind kind) { Served().at(static_cast<size_t>(kind)) = true; }

bool HasCudaPath(OpKind kind) {
  const size_t index = static_cast<size_t>(kind);
  return index < kOperatorCount && Served()[index];
}

}  // namespace infinicts::ref::op::cuda
