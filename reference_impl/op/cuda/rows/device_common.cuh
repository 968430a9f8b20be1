// What the row kernels share: storage types and their compute types, row offsets from a
// RowGrid, team reductions (a warp per row for short rows, a block per row for long ones),
// 16-byte vector access to contiguous rows, and the launch geometry.
#ifndef INFINICTS_REF_OP_CUDA_ROWS_DEVICE_COMMON_CUH
#define INFINICTS_REF_OP_CUDA_ROWS_DEVICE_COMMON_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "cuda/device_types.cuh"
#include "rows_kernels.h"

namespace infinicts::ref::op::cuda_rows {

constexpr int kBlock = 256;          // threads per block of every row kernel
constexpr int kWarps = kBlock / 32;
constexpr int64_t kMaxGrid = 65535;  // blocks; every kernel strides over the rest
// Rows up to this length get a warp each, longer rows a whole block.
constexpr int64_t kWarpRowLimit = 1024;

// Storage type -> compute type (F32 for the halves and F32, F64 for F64) and the one
// rounding when stored: cuda/device_types.cuh's, shared with the other CUDA kernels.
template <class T>
using Num = cuda::DeviceNum<T>;
template <class T>
using AccOf = cuda::DeviceCompute<T>;

// The type row sums accumulate in: F32 for the halves (their 2-ulp tolerance leaves room),
// F64 for F32 and F64 rows, as the CPU reference's F32 vector path sums in F64 (a row of
// 32000 F32 terms summed in F32 could approach F32's 64-ulp tolerance).
template <class T>
using SumOf = std::conditional_t<sizeof(T) == 2, float, double>;

using cuda::LoadF64;  // device_types.cuh
using cuda::StoreF64;

struct SumOp {
  template <class A>
  __device__ A operator()(A a, A b) const { return a + b; }
};
// fmax, as the CPU reference: a NaN never wins over a number.
struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

template <class A, class Op>
__device__ A WarpAllReduce(A value, Op op) {
  for (int mask = 16; mask > 0; mask >>= 1) value = op(value, __shfl_xor_sync(0xffffffffu, value, mask));
  return value;
}

// A team of kTeam threads (32: one warp, kBlock: the block) works on one row. Every thread
// of the team gets the reduction of all the team's values. A block team uses `shared`
// (kWarps entries) and synchronizes the block, so all its threads must call it.
template <int kTeam, class A, class Op>
__device__ A TeamAllReduce(A value, Op op, A *shared) {
  value = WarpAllReduce(value, op);
  if constexpr (kTeam == 32) {
    return value;
  } else {
    static_assert(kTeam == kBlock, "a team is a warp or the block");
    const int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0) shared[warp] = value;
    __syncthreads();
    A total = shared[0];
    for (int w = 1; w < kWarps; ++w) total = op(total, shared[w]);
    __syncthreads();  // shared is free again for the next reduction
    return total;
  }
}

// V consecutive elements, loaded or stored as one access (16 bytes when V > 1).
template <class T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

// Elements j .. j + V of a row with stride `step` (V > 1 only for unit-stride, aligned rows).
template <int V, class T>
__device__ Pack<T, V> LoadPack(const T *row, int64_t j, int64_t step) {
  if constexpr (V == 1) {
    return Pack<T, 1>{{row[j * step]}};
  } else {
    return *reinterpret_cast<const Pack<T, V> *>(row + j);
  }
}
template <int V, class T>
__device__ void StorePack(T *row, int64_t j, int64_t step, const Pack<T, V> &pack) {
  if constexpr (V == 1) {
    row[j * step] = pack.v[0];
  } else {
    *reinterpret_cast<Pack<T, V> *>(row + j) = pack;
  }
}

// Elements per 16-byte access.
template <class T>
constexpr int VectorWidth() {
  return static_cast<int>(16 / sizeof(T));
}

// Whether a unit-stride row walk can use 16-byte accesses: every pointer 16-byte aligned,
// every row offset and the length multiples of the vector width. An operand whose pointer
// is null here is not walked with vector accesses and imposes nothing.
template <int N>
bool RowsVectorizable(const RowGrid<N> &grid, int64_t length, int width, const void *const (&pointers)[N]) {
  if (width <= 1 || length % width != 0) return false;
  for (int k = 0; k < N; ++k) {
    if (pointers[k] == nullptr) continue;
    if (reinterpret_cast<uintptr_t>(pointers[k]) % 16 != 0) return false;
    for (int d = 0; d < grid.ndim; ++d) {
      if (grid.strides[d][k] % width != 0) return false;
    }
  }
  return true;
}

// Blocks for `units` units of work taking `per_block` each, at most kMaxGrid.
inline unsigned GridFor(int64_t units, int64_t per_block) {
  const int64_t blocks = (units + per_block - 1) / per_block;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxGrid ? kMaxGrid : blocks));
}

// The storage type of a float dtype: fn(T{}) (a value only for its type).
template <class Fn>
cudaError_t DispatchFloat(infiniDtype_t dtype, Fn &&fn) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return fn(__half{});
    case INFINI_DTYPE_BF16: return fn(__nv_bfloat16{});
    case INFINI_DTYPE_F32: return fn(float{});
    case INFINI_DTYPE_F64: return fn(double{});
    default: return cudaErrorInvalidValue;
  }
}

// An integer of any integer dtype at `data[offset]`, as int64; U64 values beyond int64 map
// to -1 (out of every range), as IndexValue does on the CPU.
__device__ inline int64_t LoadIndex(const void *data, infiniDtype_t dtype, int64_t offset) {
  switch (dtype) {
    case INFINI_DTYPE_I8: return static_cast<const int8_t *>(data)[offset];
    case INFINI_DTYPE_I16: return static_cast<const int16_t *>(data)[offset];
    case INFINI_DTYPE_I32: return static_cast<const int32_t *>(data)[offset];
    case INFINI_DTYPE_I64: return static_cast<const int64_t *>(data)[offset];
    case INFINI_DTYPE_U8: return static_cast<const uint8_t *>(data)[offset];
    case INFINI_DTYPE_U16: return static_cast<const uint16_t *>(data)[offset];
    case INFINI_DTYPE_U32: return static_cast<const uint32_t *>(data)[offset];
    case INFINI_DTYPE_U64: {
      const uint64_t v = static_cast<const uint64_t *>(data)[offset];
      return v > static_cast<uint64_t>(INT64_MAX) ? -1 : static_cast<int64_t>(v);
    }
    default: return -1;
  }
}

}  // namespace infinicts::ref::op::cuda_rows

#endif  // INFINICTS_REF_OP_CUDA_ROWS_DEVICE_COMMON_CUH
