// The plan and kernels of a sum over a list of dims, shared by Sum (spec section OP-SUM) and
// MoeSum (OP-MOESUM, a sum over dim 1). The reduced dims' elements are walked as a few strided
// runs, worked out once per descriptor: along the input's rows each output sums its runs in
// double; across them (a MoE combine) a run of outputs adds whole rows into an F32 accumulator.
// Each result is rounded once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "core/strided_loop.h"
#include "infiniop.h"

namespace infinicts::ref::op {

// A run of the reduced elements: `count` elements from `offset`, `step` apart (input elements).
struct ReducedRun {
  ptrdiff_t offset = 0, step = 0;
  size_t count = 0;
};

struct SumPlan {
  infiniDtype_t dtype;
  StridedLoop<2> kept;  // over the kept dims; operand 0: output, operand 1: input
  std::vector<ReducedRun> runs;
  size_t input_count = 0, reduced_count = 0;
  // Whether the kept elements run along the input's rows (unit stride) while the reduced ones do
  // not: SumAcrossRows then reads rows in order.
  bool across_rows = false;
};

inline infiniStatus_t MakeSumPlan(const TensorLayout &output, const TensorLayout &input, const size_t *dim, size_t dim_size,
                        bool keepdim, SumPlan *plan) {
  const infiniDtype_t dtype = input.dtype;
  if (!IsFloatDtype(dtype) || output.dtype != dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  const size_t ndim = input.ndim();
  if (dim_size == 0 || dim_size > ndim) return INFINI_STATUS_BAD_PARAM;
  if (dim == nullptr) return INFINI_STATUS_NULL_POINTER;
  std::vector<bool> reduced(ndim, false);
  for (size_t i = 0; i < dim_size; ++i) {
    if (dim[i] >= ndim || reduced[dim[i]]) return INFINI_STATUS_BAD_PARAM;
    reduced[dim[i]] = true;
  }
  std::vector<size_t> kept_shape, reduced_shape;
  std::vector<ptrdiff_t> kept_in, kept_out, reduced_in;
  if (output.ndim() != (keepdim ? ndim : ndim - dim_size)) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  for (size_t d = 0, o = 0; d < ndim; ++d) {
    if (reduced[d]) {
      if (keepdim && output.shape[o++] != 1) return INFINI_STATUS_BAD_TENSOR_SHAPE;
      reduced_shape.push_back(input.shape[d]);
      reduced_in.push_back(input.strides[d]);
      continue;
    }
    if (output.shape[o] != input.shape[d]) return INFINI_STATUS_BAD_TENSOR_SHAPE;
    kept_shape.push_back(input.shape[d]);
    kept_in.push_back(input.strides[d]);
    kept_out.push_back(output.strides[o++]);
  }
  if (OverlapsItself(output)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = dtype;
  plan->kept = StridedLoop<2>(kept_shape, {&kept_out, &kept_in});
  const StridedLoop<1> reduced_loop(reduced_shape, {&reduced_in});
  reduced_loop.ForRange(0, reduced_loop.numel(), [&](size_t, const Offsets<1> &offsets, const Offsets<1> &steps,
                                                    size_t count) {
    plan->runs.push_back({offsets[0], steps[0], count});
  });
  plan->input_count = Numel(input);
  plan->reduced_count = reduced_loop.numel();
  bool kept_unit = false, reduced_unit = false;
  for (size_t k = 0; k < kept_shape.size(); ++k) kept_unit = kept_unit || (kept_in[k] == 1 && kept_shape[k] > 1);
  for (const ReducedRun &run : plan->runs) reduced_unit = reduced_unit || (run.step == 1 && run.count > 1);
  plan->across_rows = kept_unit && !reduced_unit;
  return INFINI_STATUS_SUCCESS;
}

// Each output element sums its runs in double: the reduced elements lie along the input's rows.
template <class T>
void SumPerOutput(const SumPlan &plan, const T *in, T *out) {
  const size_t grain = std::max<size_t>(1, (size_t(1) << 15) / std::max<size_t>(1, plan.reduced_count));
  plan.kept.ParallelForEach(grain, [&](size_t, const Offsets<2> &offsets, const Offsets<2> &steps, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const ptrdiff_t at = static_cast<ptrdiff_t>(i);
      const T *base = in + offsets[1] + at * steps[1];
      double sum = 0;
      for (const ReducedRun &run : plan.runs) {
        const T *x = base + run.offset;
        for (size_t j = 0; j < run.count; ++j) sum += Num<T>::Load(x[static_cast<ptrdiff_t>(j) * run.step]);
      }
      out[offsets[0] + at * steps[0]] = Num<T>::Store(static_cast<typename Num<T>::Compute>(sum));
    }
  });
}

// A run of outputs adds whole input rows into an accumulator, one reduced element at a time:
// the reduced elements lie across the rows (a MoE combine's experts), and each row is read in
// order (F16 converted a block at a time). Sums in F32 (F64 in double).
template <class T>
void SumAcrossRows(const SumPlan &plan, const T *in, T *out) {
  using Acc = typename Num<T>::Compute;
  constexpr size_t kBlock = 1024;
  plan.kept.ParallelForEach(kBlock, [&](size_t, const Offsets<2> &offsets, const Offsets<2> &steps, size_t n) {
    Acc acc[kBlock];
    alignas(32) float converted[kBlock];
    for (size_t b0 = 0; b0 < n; b0 += kBlock) {
      const size_t m = std::min(kBlock, n - b0);
      std::fill(acc, acc + m, Acc(0));
      const T *base = in + offsets[1] + static_cast<ptrdiff_t>(b0) * steps[1];
      for (const ReducedRun &run : plan.runs) {
        for (size_t j = 0; j < run.count; ++j) {
          const T *row = base + run.offset + static_cast<ptrdiff_t>(j) * run.step;
          if constexpr (std::is_same_v<T, f16_t>) {
            if (steps[1] == 1 && simd::Enabled()) {
              simd::F16ToF32(reinterpret_cast<const uint16_t *>(row), converted, m);
              for (size_t i = 0; i < m; ++i) acc[i] += converted[i];
              continue;
            }
          }
          for (size_t i = 0; i < m; ++i) acc[i] += Num<T>::Load(row[static_cast<ptrdiff_t>(i) * steps[1]]);
        }
      }
      T *y = out + offsets[0] + static_cast<ptrdiff_t>(b0) * steps[0];
      if constexpr (std::is_same_v<T, f16_t>) {
        if (steps[0] == 1 && simd::Enabled()) {
          simd::F32ToF16(acc, reinterpret_cast<uint16_t *>(y), m);
          continue;
        }
      }
      for (size_t i = 0; i < m; ++i) y[static_cast<ptrdiff_t>(i) * steps[0]] = Num<T>::Store(acc[i]);
    }
  });
}

template <class T>
void RunSumTyped(const SumPlan &plan, void *output, const void *input) {
  const T *in = static_cast<const T *>(input);
  T *out = static_cast<T *>(output);
  if (plan.across_rows) {
    SumAcrossRows(plan, in, out);
  } else {
    SumPerOutput(plan, in, out);
  }
}

inline void RunSum(const SumPlan &plan, void *output, const void *input) {
  DispatchFloat(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    RunSumTyped<T>(plan, output, input);
  });
}

}  // namespace infinicts::ref::op
