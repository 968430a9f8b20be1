// Helpers for the benchmarks' operands: tensor descriptors that destroy themselves,
// and deterministic fills (values in [-2, 2), no NaN, no subnormals).
#ifndef INFINICTS_BENCH_REFERENCE_SPEED_TENSORS_H
#define INFINICTS_BENCH_REFERENCE_SPEED_TENSORS_H

#include <cstddef>
#include <vector>

#include "infiniop/tensor_descriptor.h"

namespace infinicts::bench {

class TensorDesc {
 public:
  // Contiguous row-major.
  TensorDesc(const std::vector<size_t> &shape, infiniDtype_t dtype);
  TensorDesc(const std::vector<size_t> &shape, const std::vector<ptrdiff_t> &strides, infiniDtype_t dtype);
  ~TensorDesc();
  TensorDesc(const TensorDesc &) = delete;
  TensorDesc &operator=(const TensorDesc &) = delete;

  infiniopTensorDescriptor_t get() const { return desc_; }

 private:
  infiniopTensorDescriptor_t desc_ = nullptr;
};

size_t DtypeBytes(infiniDtype_t dtype);
const char *DtypeName(infiniDtype_t dtype);

// Fills `count` elements of F32 or F16 with a fixed pattern shifted by `seed`.
void FillPattern(void *data, size_t count, infiniDtype_t dtype, unsigned seed);

}  // namespace infinicts::bench

#endif  // INFINICTS_BENCH_REFERENCE_SPEED_TENSORS_H
