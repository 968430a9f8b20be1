// The AVX-512 form of the one-pass kernels: this file alone is compiled with -mavx512f,
// and reduce_to_all.cc calls it only on a CPU that has it.
#include <immintrin.h>

#include "ccl/reduce_to_all_kernel.h"

namespace infinicts::ref::ccl {
namespace {

struct Avx512 {
  using Vector = __m512;
  static constexpr size_t kLanes = 16;
  static Vector Load(const float *from) { return _mm512_loadu_ps(from); }
  static void Store(float *to, Vector value) { _mm512_storeu_ps(to, value); }
  static void Stream(float *to, Vector value) { _mm512_stream_ps(to, value); }
  static Vector Add(Vector a, Vector b) { return _mm512_add_ps(a, b); }
  static Vector Mul(Vector a, Vector b) { return _mm512_mul_ps(a, b); }
  static Vector Max(Vector a, Vector b) { return _mm512_max_ps(a, b); }
  static Vector Min(Vector a, Vector b) { return _mm512_min_ps(a, b); }
};

}  // namespace

ReduceToAllFunction FindReduceToAllAvx512(int op) { return KernelFor<Avx512>(op); }

}  // namespace infinicts::ref::ccl
