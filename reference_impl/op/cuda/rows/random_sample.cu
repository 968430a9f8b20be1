// RandomSample on the GPU, InfiniCore's rule as the CPU reference applies it, in F64.
//  - argmax mode: one block reduces (key, index) pairs, the larger key winning and the
//    lower index on ties; a NaN logit ranks as -Inf.
//  - otherwise: the logits are ranked (larger key first, lower index on ties) by a bitonic
//    sort of (key, index) pairs in the workspace, padded to a power of two with -Inf keys
//    and indices past n (so padding ranks last); then one block sums the weights
//    exp((v - max) / temperature) over all ranks and over the first K, and scans the first
//    K ranks for the first cumulative weight >= limit.
#include <cmath>

#include "cuda/rows/bitonic_rank.h"
#include "device_common.cuh"

namespace infinicts::ref::op::cuda_rows {
namespace {

constexpr int kSampleBlock = 1024;          // the argmax and the draw run in one block
constexpr int kSampleWarps = kSampleBlock / 32;
constexpr size_t kWorkspaceAlign = 256;

__device__ inline void StoreIndex(void *result, infiniDtype_t dtype, int64_t index) {
  switch (dtype) {
    case INFINI_DTYPE_I8: *static_cast<int8_t *>(result) = static_cast<int8_t>(index); break;
    case INFINI_DTYPE_I16: *static_cast<int16_t *>(result) = static_cast<int16_t>(index); break;
    case INFINI_DTYPE_I32: *static_cast<int32_t *>(result) = static_cast<int32_t>(index); break;
    case INFINI_DTYPE_I64: *static_cast<int64_t *>(result) = index; break;
    case INFINI_DTYPE_U8: *static_cast<uint8_t *>(result) = static_cast<uint8_t>(index); break;
    case INFINI_DTYPE_U16: *static_cast<uint16_t *>(result) = static_cast<uint16_t>(index); break;
    case INFINI_DTYPE_U32: *static_cast<uint32_t *>(result) = static_cast<uint32_t>(index); break;
    case INFINI_DTYPE_U64: *static_cast<uint64_t *>(result) = static_cast<uint64_t>(index); break;
    default: break;
  }
}

template <class T>
__global__ void __launch_bounds__(kSampleBlock)
    ArgmaxKernel(RandomSampleArgs args, void *result, const T *probs) {
  __shared__ double shared_keys[kSampleWarps];
  __shared__ int64_t shared_indices[kSampleWarps];
  double key = -INFINITY;
  int64_t index = args.n;  // ranks after every real logit
  for (int64_t i = threadIdx.x; i < args.n; i += kSampleBlock) {
    const double candidate = RankKey(LoadF64(probs[i * args.probs_step]));
    if (RanksBefore(candidate, i, key, index)) key = candidate, index = i;
  }
  for (int mask = 16; mask > 0; mask >>= 1) {
    const double other_key = __shfl_xor_sync(0xffffffffu, key, mask);
    const int64_t other_index = __shfl_xor_sync(0xffffffffu, index, mask);
    if (RanksBefore(other_key, other_index, key, index)) key = other_key, index = other_index;
  }
  if (threadIdx.x % 32 == 0) shared_keys[threadIdx.x / 32] = key, shared_indices[threadIdx.x / 32] = index;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kSampleWarps; ++w) {
      if (RanksBefore(shared_keys[w], shared_indices[w], key, index)) key = shared_keys[w], index = shared_indices[w];
    }
    StoreIndex(result, args.result_dtype, index);
  }
}

template <class T>
__global__ void __launch_bounds__(kBlock)
    FillKeysKernel(RandomSampleArgs args, const T *probs, double *keys, int64_t *indices, int64_t padded) {
  for (int64_t i = int64_t(blockIdx.x) * kBlock + threadIdx.x; i < padded; i += int64_t(gridDim.x) * kBlock) {
    keys[i] = i < args.n ? RankKey(LoadF64(probs[i * args.probs_step])) : -INFINITY;
    indices[i] = i;
  }
}

// One step (k, j) over the whole array, j >= the tile: one thread per pair.
__global__ void __launch_bounds__(kBlock)
    BitonicGlobalStep(double *keys, int64_t *indices, int64_t padded, int64_t k, int64_t j) {
  for (int64_t t = int64_t(blockIdx.x) * kBlock + threadIdx.x; t < padded / 2; t += int64_t(gridDim.x) * kBlock) {
    const int64_t i = PairFirst(t, j);
    CompareExchange(keys, indices, i, j, i, k);
  }
}

// Stages k_first .. k_last (powers of two), each from j = min(k, tile) / 2 down to 1,
// within tiles of `tile` elements in shared memory (one tile a block, tile / 2 threads).
__global__ void __launch_bounds__(kSortTile / 2)
    BitonicTileSteps(double *keys, int64_t *indices, int64_t tile, int64_t k_first, int64_t k_last) {
  __shared__ double tile_keys[kSortTile];
  __shared__ int64_t tile_indices[kSortTile];
  const int64_t base = int64_t(blockIdx.x) * tile;
  for (int64_t e = threadIdx.x; e < tile; e += blockDim.x) {
    tile_keys[e] = keys[base + e];
    tile_indices[e] = indices[base + e];
  }
  __syncthreads();
  ForEachTileStep(tile, k_first, k_last, [&](int64_t k, int64_t j) {
    const int64_t i = PairFirst(threadIdx.x, j);
    CompareExchange(tile_keys, tile_indices, i, j, base + i, k);
    __syncthreads();
  });
  for (int64_t e = threadIdx.x; e < tile; e += blockDim.x) {
    keys[base + e] = tile_keys[e];
    indices[base + e] = tile_indices[e];
  }
}

// The block's sum of `value` (every thread gets it); shared holds kSampleWarps doubles.
__device__ double BlockSum(double value, double *shared) {
  value = WarpAllReduce(value, SumOp{});
  if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = value;
  __syncthreads();
  double total = 0;
  for (int w = 0; w < kSampleWarps; ++w) total += shared[w];
  __syncthreads();
  return total;
}

// The inclusive prefix sum of `value` over the block's threads, and in *total the block's
// sum (the last thread's prefix, summed in the same order); shared holds kSampleWarps doubles.
__device__ double BlockInclusiveScan(double value, double *shared, double *total) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int delta = 1; delta < 32; delta <<= 1) {
    const double other = __shfl_up_sync(0xffffffffu, value, delta);
    if (lane >= delta) value += other;
  }
  if (lane == 31) shared[warp] = value;
  __syncthreads();
  double before = 0, all = 0;
  for (int w = 0; w < kSampleWarps; ++w) {
    if (w == warp) before = all;
    all += shared[w];
  }
  __syncthreads();
  *total = all;
  return before + value;
}

__global__ void __launch_bounds__(kSampleBlock)
    DrawKernel(RandomSampleArgs args, SampleParams sample, const double *keys, const int64_t *indices, void *result) {
  __shared__ double shared[kSampleWarps];
  __shared__ int64_t first_rank;
  const int64_t n = args.n;
  const int64_t k = (sample.topk > 0 && sample.topk <= n) ? sample.topk : n;
  const double max = keys[0], temperature = sample.temperature;
  double total = 0, top = 0;
  for (int64_t r = threadIdx.x; r < n; r += kSampleBlock) {
    const double weight = exp((keys[r] - max) / temperature);
    total += weight;
    if (r < k) top += weight;
  }
  total = BlockSum(total, shared);
  top = BlockSum(top, shared);
  const double by_topp = total * static_cast<double>(sample.topp);
  const double limit = static_cast<double>(sample.random_val) * (by_topp < top ? by_topp : top);  // std::min
  if (threadIdx.x == 0) first_rank = k - 1;  // when no rank reaches the limit (random_val > 1)
  __syncthreads();
  double carried = 0;
  for (int64_t base = 0; base < k; base += kSampleBlock) {
    const int64_t r = base + threadIdx.x;
    const double weight = r < k ? exp((keys[r] - max) / temperature) : 0.0;
    double tile_total = 0;
    const double cumulative = carried + BlockInclusiveScan(weight, shared, &tile_total);
    const bool reached = r < k && limit <= cumulative;
    const unsigned ballot = __ballot_sync(0xffffffffu, reached);
    // The first reaching rank of each warp; the lowest over the warps wins.
    if (ballot != 0 && threadIdx.x % 32 == 0) {
      atomicMin(reinterpret_cast<unsigned long long *>(&first_rank),
                static_cast<unsigned long long>(base + threadIdx.x + __ffs(ballot) - 1));
    }
    if (__syncthreads_or(reached)) break;  // also publishes first_rank
    carried += tile_total;
  }
  if (threadIdx.x == 0) StoreIndex(result, args.result_dtype, indices[first_rank]);
}

}  // namespace

size_t RandomSampleWorkspaceBytes(int64_t n) {
  const int64_t padded = PaddedCount(n < 1 ? 1 : n);
  return static_cast<size_t>(padded) * (sizeof(double) + sizeof(int64_t)) + kWorkspaceAlign;
}

cudaError_t LaunchRandomSample(const RandomSampleArgs &args, const SampleParams &sample, void *result,
                               const void *probs, void *workspace, cudaStream_t stream) {
  if (args.n < 1) return cudaErrorInvalidValue;
  const bool argmax = sample.random_val == 0 || sample.topp == 0 || sample.topk == 1 || sample.temperature == 0;
  if (argmax) {
    return DispatchFloat(args.probs_dtype, [&](auto data) -> cudaError_t {
      using T = decltype(data);
      ArgmaxKernel<T><<<1, kSampleBlock, 0, stream>>>(args, result, static_cast<const T *>(probs));
      return cudaGetLastError();
    });
  }
  if (workspace == nullptr) return cudaErrorInvalidValue;
  const uintptr_t address = reinterpret_cast<uintptr_t>(workspace);
  auto *keys = reinterpret_cast<double *>((address + kWorkspaceAlign - 1) & ~uintptr_t(kWorkspaceAlign - 1));
  const int64_t padded = PaddedCount(args.n);
  auto *indices = reinterpret_cast<int64_t *>(keys + padded);
  cudaError_t status = DispatchFloat(args.probs_dtype, [&](auto data) -> cudaError_t {
    using T = decltype(data);
    FillKeysKernel<T><<<GridFor(padded, kBlock), kBlock, 0, stream>>>(args, static_cast<const T *>(probs), keys,
                                                                     indices, padded);
    return cudaGetLastError();
  });
  if (status != cudaSuccess) return status;
  const int64_t tile = padded < kSortTile ? padded : kSortTile;
  const unsigned tiles = static_cast<unsigned>(padded / tile);
  const unsigned tile_threads = static_cast<unsigned>(tile < 2 ? 1 : tile / 2);
  RunBitonicSchedule(
      padded, tile,
      [&](int64_t k_first, int64_t k_last) {
        BitonicTileSteps<<<tiles, tile_threads, 0, stream>>>(keys, indices, tile, k_first, k_last);
      },
      [&](int64_t k, int64_t j) {
        BitonicGlobalStep<<<GridFor(padded / 2, kBlock), kBlock, 0, stream>>>(keys, indices, padded, k, j);
      });
  status = cudaGetLastError();
  if (status != cudaSuccess) return status;
  DrawKernel<<<1, kSampleBlock, 0, stream>>>(args, sample, keys, indices, result);
  return cudaGetLastError();
}

}  // namespace infinicts::ref::op::cuda_rows
