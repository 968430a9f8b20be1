// INFINICTS_HOST_DEVICE marks the kernels' index and selection logic that the host tests run
// too (reference_cuda.host_logic): __host__ __device__ under nvcc, plain inline C++ elsewhere.
#ifndef INFINICTS_REF_OP_CUDA_HOST_DEVICE_H
#define INFINICTS_REF_OP_CUDA_HOST_DEVICE_H

#if defined(__CUDACC__)
#define INFINICTS_HOST_DEVICE __host__ __device__
#else
#define INFINICTS_HOST_DEVICE
#endif

#endif  // INFINICTS_REF_OP_CUDA_HOST_DEVICE_H
