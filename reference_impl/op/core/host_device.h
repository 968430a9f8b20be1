// INFINICTS_HOST_DEVICE marks code that both the CPU and the CUDA paths run, and the CUDA
// kernels' index and selection logic that the host tests run too (reference_cuda.host_logic):
// __host__ __device__ under nvcc, plain C++ elsewhere.
#ifndef INFINICTS_REF_OP_CORE_HOST_DEVICE_H
#define INFINICTS_REF_OP_CORE_HOST_DEVICE_H

#if defined(__CUDACC__)
#define INFINICTS_HOST_DEVICE __host__ __device__
#else
#define INFINICTS_HOST_DEVICE
#endif

#endif  // INFINICTS_REF_OP_CORE_HOST_DEVICE_H
