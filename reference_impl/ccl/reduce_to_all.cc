// The SSE form of the one-pass kernels (SSE is in every x86-64; F32 only) and the choice
// between it and the AVX-512 form.
#include "ccl/reduce_to_all.h"

#include <immintrin.h>

#include "ccl/c_enum.h"
#include "ccl/reduce_to_all_kernel.h"

namespace infinicts::ref::ccl {
namespace {

struct Sse {
  using Vector = __m128;
  static constexpr size_t kLanes = 4;
  static Vector Add(Vector a, Vector b) { return _mm_add_ps(a, b); }
  static Vector Mul(Vector a, Vector b) { return _mm_mul_ps(a, b); }
  static Vector Max(Vector a, Vector b) { return _mm_max_ps(a, b); }
  static Vector Min(Vector a, Vector b) { return _mm_min_ps(a, b); }
};

struct SseF32 {
  using Stored = float;
  static __m128 Load(const float *from) { return _mm_loadu_ps(from); }
  static void Store(float *to, __m128 value) { _mm_storeu_ps(to, value); }
  static void Stream(float *to, __m128 value) { _mm_stream_ps(to, value); }
};

#ifdef INFINICCL_HAS_AVX512_KERNELS
bool UseAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}
#endif

}  // namespace

// The widest kernels the CPU runs: AllReduce moves most with the AVX-512 ones, then the SSE
// ones, least a block at a time (measured: bench/README.md, "Kernel choices").
ReduceToAllFunction FindReduceToAllFunction(infiniDtype_t dtype, infinicclReduceOp_t op, bool allow_avx512) {
#ifdef INFINICCL_HAS_AVX512_KERNELS
  if (allow_avx512 && UseAvx512()) return FindReduceToAllAvx512(EnumValue(dtype), EnumValue(op));
#else
  (void)allow_avx512;  // built without the AVX-512 form
#endif
  if (EnumValue(dtype) != INFINI_DTYPE_F32) return nullptr;
  return KernelFor<Sse, SseF32>(EnumValue(op));
}

}  // namespace infinicts::ref::ccl
