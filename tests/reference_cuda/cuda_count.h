// What CUDA itself says about this machine, to compare the runtime's answers with.
#ifndef INFINICTS_TESTS_REFERENCE_CUDA_CUDA_COUNT_H
#define INFINICTS_TESTS_REFERENCE_CUDA_CUDA_COUNT_H

#include <cuda_runtime_api.h>

namespace reference_cuda_test {

// The number of CUDA devices; 0 on any error (no driver, no device).
inline int CudaDeviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count;
}

}  // namespace reference_cuda_test

#endif  // INFINICTS_TESTS_REFERENCE_CUDA_CUDA_COUNT_H
