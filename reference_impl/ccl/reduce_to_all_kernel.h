// The one-pass F32 kernel of reduce_to_all.h, written once over an instruction set `Isa`
// (a struct of F32 vector operations) and compiled in one file per instruction set.
// Everything here has internal linkage: each file keeps its own copies, so the linker can
// never hand the SSE path a function compiled for AVX-512.
#ifndef INFINICTS_REF_CCL_REDUCE_TO_ALL_KERNEL_H
#define INFINICTS_REF_CCL_REDUCE_TO_ALL_KERNEL_H

#include <cstddef>
#include <cstdint>

#include "ccl/reduce_to_all.h"

namespace infinicts::ref::ccl {

// The AVX-512 kernels (reduce_to_all_avx512.cc) for SUM, PROD, MAX, MIN; NULL otherwise.
// Only to be called on a CPU with AVX-512F.
ReduceToAllFunction FindReduceToAllAvx512(int op);

namespace {  // NOLINT(build/namespaces): per-file copies on purpose (above)

// F32 SUM, PROD, MAX and MIN, lane by lane as reduce.cc's scalar Combine: MAX keeps the
// accumulator unless it is less than the new value (so a NaN accumulator stays), MIN
// unless the new value is less. The max/min instructions answer their second operand
// when either is NaN or both are zeros, which is exactly that with the operands in this
// order.
struct Sum {
  static float Scalar(float acc, float x) { return acc + x; }
  template <class Isa>
  static typename Isa::Vector Vector(typename Isa::Vector acc, typename Isa::Vector x) {
    return Isa::Add(acc, x);
  }
};
struct Prod {
  static float Scalar(float acc, float x) { return acc * x; }
  template <class Isa>
  static typename Isa::Vector Vector(typename Isa::Vector acc, typename Isa::Vector x) {
    return Isa::Mul(acc, x);
  }
};
struct Max {
  static float Scalar(float acc, float x) { return acc < x ? x : acc; }
  template <class Isa>
  static typename Isa::Vector Vector(typename Isa::Vector acc, typename Isa::Vector x) {
    return Isa::Max(x, acc);
  }
};
struct Min {
  static float Scalar(float acc, float x) { return x < acc ? x : acc; }
  template <class Isa>
  static typename Isa::Vector Vector(typename Isa::Vector acc, typename Isa::Vector x) {
    return Isa::Min(x, acc);
  }
};

// A ReduceToAllFunction: each vector of lanes is combined across the sources in order,
// then stored to every destination; the tail goes element by element.
template <class Isa, class Op>
void ReduceF32ToAll(const void *const *sources, int nsources, void *const *dsts, int ndsts, size_t count,
                    bool streaming) {
  const auto in = reinterpret_cast<const float *const *>(sources);
  const auto out = reinterpret_cast<float *const *>(dsts);
  bool stream = streaming;
  for (int d = 0; d < ndsts; ++d) {
    stream = stream && reinterpret_cast<uintptr_t>(out[d]) % (Isa::kLanes * sizeof(float)) == 0;
  }
  size_t i = 0;
  for (; i + Isa::kLanes <= count; i += Isa::kLanes) {
    typename Isa::Vector acc = Isa::Load(in[0] + i);
    for (int s = 1; s < nsources; ++s) acc = Op::template Vector<Isa>(acc, Isa::Load(in[s] + i));
    if (stream) {
      for (int d = 0; d < ndsts; ++d) Isa::Stream(out[d] + i, acc);
    } else {
      for (int d = 0; d < ndsts; ++d) Isa::Store(out[d] + i, acc);
    }
  }
  for (; i < count; ++i) {
    float acc = in[0][i];
    for (int s = 1; s < nsources; ++s) acc = Op::Scalar(acc, in[s][i]);
    for (int d = 0; d < ndsts; ++d) out[d][i] = acc;
  }
}

// The kernel of `op` (an infinicclReduceOp_t value) over `Isa`, or NULL.
template <class Isa>
ReduceToAllFunction KernelFor(int op) {
  switch (op) {
    case INFINICCL_SUM:
      return &ReduceF32ToAll<Isa, Sum>;
    case INFINICCL_PROD:
      return &ReduceF32ToAll<Isa, Prod>;
    case INFINICCL_MAX:
      return &ReduceF32ToAll<Isa, Max>;
    case INFINICCL_MIN:
      return &ReduceF32ToAll<Isa, Min>;
    default:
      return nullptr;
  }
}

}  // namespace
}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_REDUCE_TO_ALL_KERNEL_H
