// The one-pass kernel of reduce_to_all.h, written once over an instruction set `Isa` (a
// struct of F32 vector operations) and a `Format` (how a vector of F32 lanes is loaded
// from and stored to one dtype), and compiled in one file per instruction set.
// Everything here has internal linkage: each file keeps its own copies, so the linker can
// never hand the SSE path a function compiled for AVX-512.
#ifndef INFINICTS_REF_CCL_REDUCE_TO_ALL_KERNEL_H
#define INFINICTS_REF_CCL_REDUCE_TO_ALL_KERNEL_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ccl/reduce_to_all.h"

namespace infinicts::ref::ccl {

// The AVX-512 kernels (reduce_to_all_avx512.cc) for F32, F16 and BF16 with SUM, PROD, MAX
// or MIN (infiniDtype_t and infinicclReduceOp_t values); NULL otherwise. Only to be called
// on a CPU with AVX-512F.
ReduceToAllFunction FindReduceToAllAvx512(int dtype, int op);

namespace {  // NOLINT(build/namespaces): per-file copies on purpose (above)

// SUM, PROD, MAX or MIN (`Op`, an infinicclReduceOp_t value) on F32 lanes, as reduce.cc's
// Combine(accumulator, value): MAX keeps the accumulator unless it is less than the new
// value (so a NaN accumulator stays), MIN unless the new value is less. The max/min
// instructions answer their second operand when either is NaN or both are zeros, which is
// exactly that with the operands in this order.
template <class Isa, int Op>
typename Isa::Vector Combine(typename Isa::Vector acc, typename Isa::Vector x) {
  static_assert(Op == INFINICCL_SUM || Op == INFINICCL_PROD || Op == INFINICCL_MAX || Op == INFINICCL_MIN);
  if constexpr (Op == INFINICCL_SUM) return Isa::Add(acc, x);
  if constexpr (Op == INFINICCL_PROD) return Isa::Mul(acc, x);
  if constexpr (Op == INFINICCL_MAX) return Isa::Max(x, acc);
  if constexpr (Op == INFINICCL_MIN) return Isa::Min(x, acc);
}

// A ReduceToAllFunction: each vector of lanes combined across the sources in order and
// stored to every destination; the last partial vector goes through a lane buffer, so that
// every element takes the same conversions and arithmetic.
template <class Isa, class Format, int Op>
void ReduceToAll(const void *const *sources, int nsources, void *const *dsts, int ndsts, size_t count,
                 bool streaming) {
  using Stored = typename Format::Stored;
  constexpr size_t kLanes = Isa::kLanes;
  const auto in = reinterpret_cast<const Stored *const *>(sources);
  const auto out = reinterpret_cast<Stored *const *>(dsts);
  bool stream = streaming;
  for (int d = 0; d < ndsts; ++d) {
    stream = stream && reinterpret_cast<uintptr_t>(out[d]) % (kLanes * sizeof(Stored)) == 0;
  }
  const size_t whole = count / kLanes * kLanes;
  for (size_t i = 0; i < whole; i += kLanes) {
    typename Isa::Vector acc = Format::Load(in[0] + i);
    for (int s = 1; s < nsources; ++s) acc = Combine<Isa, Op>(acc, Format::Load(in[s] + i));
    if (stream) {
      for (int d = 0; d < ndsts; ++d) Format::Stream(out[d] + i, acc);
    } else {
      for (int d = 0; d < ndsts; ++d) Format::Store(out[d] + i, acc);
    }
  }
  const size_t rest = count - whole;
  if (rest == 0) return;
  Stored lanes[kLanes] = {};  // lanes past `rest` hold leftovers, never stored
  std::memcpy(lanes, in[0] + whole, rest * sizeof(Stored));
  typename Isa::Vector acc = Format::Load(lanes);
  for (int s = 1; s < nsources; ++s) {
    std::memcpy(lanes, in[s] + whole, rest * sizeof(Stored));
    acc = Combine<Isa, Op>(acc, Format::Load(lanes));
  }
  Format::Store(lanes, acc);
  for (int d = 0; d < ndsts; ++d) std::memcpy(out[d] + whole, lanes, rest * sizeof(Stored));
}

// The kernel of `op` (an infinicclReduceOp_t value) over `Isa` and `Format`, or NULL.
template <class Isa, class Format>
ReduceToAllFunction KernelFor(int op) {
  switch (op) {
    case INFINICCL_SUM:
      return &ReduceToAll<Isa, Format, INFINICCL_SUM>;
    case INFINICCL_PROD:
      return &ReduceToAll<Isa, Format, INFINICCL_PROD>;
    case INFINICCL_MAX:
      return &ReduceToAll<Isa, Format, INFINICCL_MAX>;
    case INFINICCL_MIN:
      return &ReduceToAll<Isa, Format, INFINICCL_MIN>;
    default:
      return nullptr;
  }
}

}  // namespace
}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_REDUCE_TO_ALL_KERNEL_H
