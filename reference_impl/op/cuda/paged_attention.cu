// PagedAttention and PagedAttentionPrefill on the GPU (paged_attention.h): one block of
// kPagedAttentionWarps warps per (query row, head). Warp w takes keys w, w + warps, ... up
// to the row's position: its lanes split the dot product (reduced by shuffles), then the
// value row into the warp's accumulator under a running softmax. The parts are merged once.
#include <cstdint>

#include "cuda/device_types.cuh"
#include "cuda/launch.h"
#include "cuda/paged_attention.h"

namespace infinicts::ref::op::cuda {
namespace {

constexpr int kWarpSize = 32;
constexpr unsigned kBlockThreads = kPagedAttentionWarps * kWarpSize;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ float WarpSum(float value) {
  for (int lane_mask = kWarpSize / 2; lane_mask > 0; lane_mask /= 2) {
    value += __shfl_xor_sync(kFullMask, value, lane_mask);
  }
  return value;
}

template <class T>
__global__ void __launch_bounds__(kBlockThreads)
    PagedAttentionKernel(const __grid_constant__ PagedAttentionGeometry g, T *out, const T *q, const T *k_cache,
                         const T *v_cache, const void *tables, const void *lens, const void *cum, const float *alibi) {
  extern __shared__ float shared[];
  float *query = shared;                   // [head_size]
  float *accumulators = shared + g.head_size;  // [warps][value_size]
  __shared__ QueryRow row_fate;
  __shared__ RunningSoftmax parts[kPagedAttentionWarps];
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize, lane = static_cast<int>(threadIdx.x) % kWarpSize;
  float *accumulator = accumulators + warp * g.value_size;

  for (int64_t item = blockIdx.x; item < g.rows * g.heads; item += gridDim.x) {
    const int64_t r = item / g.heads, h = item % g.heads;
    __syncthreads();  // the previous item is done with the shared state
    if (threadIdx.x == 0) row_fate = PlaceQueryRow(g, tables, lens, cum, r);
    __syncthreads();
    const QueryRow fate = row_fate;
    if (fate.fate == RowFate::kUntouched) continue;
    T *out_row = out + r * g.out_row + h * g.out_head;
    if (fate.fate == RowFate::kNan) {
      for (int64_t e = threadIdx.x; e < g.value_size; e += blockDim.x) out_row[e] = DeviceNum<T>::Store(NAN);
      continue;
    }
    const T *q_row = q + r * g.q_row + h * g.q_head;
    for (int64_t c = threadIdx.x; c < g.head_size; c += blockDim.x) query[c] = DeviceNum<T>::Load(q_row[c]);
    for (int64_t e = lane; e < g.value_size; e += kWarpSize) accumulator[e] = 0.0f;
    __syncthreads();

    const int64_t kv = PagedKvHead(g, h);
    const float slope = g.has_alibi ? alibi[h * g.alibi_step] : 0.0f;
    RunningSoftmax run = EmptySoftmax();  // every lane of the warp holds the same
    for (int64_t j = warp; j <= fate.position; j += kPagedAttentionWarps) {
      const int64_t block = BlockOfKey(g, tables, fate.seq, j);
      const T *key = k_cache + KeyRowOffset(g, block, kv, j);
      float partial = 0.0f;
      for (int64_t c = lane; c < g.head_size; c += kWarpSize) partial += query[c] * DeviceNum<T>::Load(key[c]);
      float score = WarpSum(partial) * g.scale;
      if (g.has_alibi) score += slope * static_cast<float>(j - fate.position);
      float rescale = 1.0f, weight = 0.0f;
      Absorb(&run, score, &rescale, &weight);
      const T *value = v_cache + ValueRowOffset(g, block, kv, j);
      for (int64_t e = lane; e < g.value_size; e += kWarpSize) {
        accumulator[e] = accumulator[e] * rescale + weight * DeviceNum<T>::Load(value[e]);
      }
    }
    if (lane == 0) parts[warp] = run;
    __syncthreads();

    float overall_max = -INFINITY;
    for (int w = 0; w < kPagedAttentionWarps; ++w) overall_max = parts[w].max > overall_max ? parts[w].max : overall_max;
    float factors[kPagedAttentionWarps];
    double total = 0.0;
    for (int w = 0; w < kPagedAttentionWarps; ++w) {
      factors[w] = MergeFactor(parts[w], overall_max);
      total += parts[w].sum * factors[w];
    }
    const float inverse = static_cast<float>(1.0 / total);
    for (int64_t e = threadIdx.x; e < g.value_size; e += blockDim.x) {
      float merged = 0.0f;
      for (int w = 0; w < kPagedAttentionWarps; ++w) merged += accumulators[w * g.value_size + e] * factors[w];
      out_row[e] = DeviceNum<T>::Store(merged * inverse);
    }
  }
}

template <class T>
infiniStatus_t Run(const PagedAttentionGeometry &g, void *out, const void *q, const void *k_cache,
                   const void *v_cache, const void *tables, const void *lens, const void *cum, const float *alibi,
                   cudaStream_t stream) {
  const uint64_t items = static_cast<uint64_t>(g.rows * g.heads);
  if (items == 0) return INFINI_STATUS_SUCCESS;
  const size_t shared_bytes = PagedAttentionSharedBytes(g);
  // Past the default 48 KB, its own static shared memory included, a kernel must opt in (head
  // or value sizes in the thousands).
  cudaFuncAttributes attributes{};
  const cudaError_t queried = cudaFuncGetAttributes(&attributes, PagedAttentionKernel<T>);
  if (queried != cudaSuccess) return ToStatus(queried);
  if (NeedsSharedMemoryOptIn(attributes.sharedSizeBytes, shared_bytes)) {
    const cudaError_t error = cudaFuncSetAttribute(PagedAttentionKernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   static_cast<int>(shared_bytes));
    if (error != cudaSuccess) return ToStatus(error);
  }
  const unsigned blocks = static_cast<unsigned>(items < kMaxBlocks ? items : kMaxBlocks);
  PagedAttentionKernel<T><<<blocks, kBlockThreads, shared_bytes, stream>>>(
      g, static_cast<T *>(out), static_cast<const T *>(q), static_cast<const T *>(k_cache),
      static_cast<const T *>(v_cache), tables, lens, cum, alibi);
  return INFINI_STATUS_SUCCESS;
}

}  // namespace

infiniStatus_t PagedAttention(const InfiniopDescriptor &desc, const PagedAttentionGeometry &geometry,
                              infiniDtype_t dtype, void *out, const void *q, const void *k_cache, const void *v_cache,
                              const void *block_tables, const void *seq_lens, const void *cum_seq_lens_q,
                              const void *alibi_slopes, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  const auto *alibi = static_cast<const float *>(alibi_slopes);
  infiniStatus_t status = INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (dtype == INFINI_DTYPE_F16) {
    status = Run<__half>(geometry, out, q, k_cache, v_cache, block_tables, seq_lens, cum_seq_lens_q, alibi,
                         scope.stream());
  } else if (dtype == INFINI_DTYPE_BF16) {
    status = Run<__nv_bfloat16>(geometry, out, q, k_cache, v_cache, block_tables, seq_lens, cum_seq_lens_q, alibi,
                                scope.stream());
  }
  INFINIOP_RETURN_IF_ERROR(status);
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
