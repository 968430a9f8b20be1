// Attention on the GPU (attention.h): straightforward kernels, one thread per cache
// element, per score, per output element, and one block per softmax row.
#include <cstdint>

#include "cuda/attention.h"
#include "cuda/device_types.cuh"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

constexpr unsigned kRowThreads = 256;  // the softmax's block

template <class Bits>
__global__ void WriteCachesKernel(const __grid_constant__ AttentionGeometry g, Bits *k_cache, Bits *v_cache,
                                  const Bits *k, const Bits *v) {
  const uint64_t total = static_cast<uint64_t>(g.n_kv * g.seq * g.dim);
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t c = static_cast<int64_t>(i % static_cast<uint64_t>(g.dim));
    const int64_t s = static_cast<int64_t>(i / static_cast<uint64_t>(g.dim) % static_cast<uint64_t>(g.seq));
    const int64_t h = static_cast<int64_t>(i / static_cast<uint64_t>(g.dim * g.seq));
    k_cache[At3(g.k_cache, h, g.pos + s, c)] = k[At3(g.k, h, s, c)];
    v_cache[At3(g.v_cache, h, g.pos + s, c)] = v[At3(g.v, h, s, c)];
  }
}

template <class T>
__global__ void ScoresKernel(const __grid_constant__ AttentionGeometry g, float *scores, const T *q,
                             const T *k_cache, float scale) {
  const int64_t length = ScoreRowLength(g);
  const uint64_t total = static_cast<uint64_t>(g.n_q * g.seq * length);
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t row = static_cast<int64_t>(i / static_cast<uint64_t>(length));
    const int64_t j = static_cast<int64_t>(i % static_cast<uint64_t>(length));
    const int64_t h = HeadOfRow(g, row), token = TokenOfRow(g, row);
    if (j >= VisibleKeys(g, token)) continue;
    const int64_t kv = KvHeadOf(g, h);
    float dot = 0;
    for (int64_t c = 0; c < g.dim; ++c) {
      dot += DeviceNum<T>::Load(q[At3(g.q, h, token, c)]) * DeviceNum<T>::Load(k_cache[At3(g.k_cache, kv, j, c)]);
    }
    scores[i] = dot * scale;
  }
}

template <class A>
__device__ A BlockReduce(A value, A *shared, bool take_max) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      const A other = shared[threadIdx.x + half];
      shared[threadIdx.x] = take_max ? (other > shared[threadIdx.x] ? other : shared[threadIdx.x])
                                     : shared[threadIdx.x] + other;
    }
    __syncthreads();
  }
  const A result = shared[0];
  __syncthreads();
  return result;
}

// One block per score row: exp(s - max) / sum over the visible keys, in place.
__global__ void __launch_bounds__(kRowThreads) SoftmaxRowsKernel(const __grid_constant__ AttentionGeometry g,
                                                                   float *scores) {
  __shared__ float shared_max[kRowThreads];
  __shared__ double shared_sum[kRowThreads];
  const int64_t length = ScoreRowLength(g);
  for (int64_t row = blockIdx.x; row < g.n_q * g.seq; row += gridDim.x) {
    float *s = scores + row * length;
    const int64_t valid = VisibleKeys(g, TokenOfRow(g, row));
    float max = -INFINITY;
    for (int64_t j = threadIdx.x; j < valid; j += blockDim.x) max = s[j] > max ? s[j] : max;
    max = BlockReduce(max, shared_max, true);
    double sum = 0;
    for (int64_t j = threadIdx.x; j < valid; j += blockDim.x) {
      s[j] = expf(s[j] - max);
      sum += s[j];
    }
    sum = BlockReduce(sum, shared_sum, false);
    const float inverse = static_cast<float>(1.0 / sum);
    for (int64_t j = threadIdx.x; j < valid; j += blockDim.x) s[j] *= inverse;
    __syncthreads();
  }
}

template <class T>
__global__ void OutputKernel(const __grid_constant__ AttentionGeometry g, T *out, const float *scores,
                             const T *v_cache) {
  const int64_t length = ScoreRowLength(g);
  const uint64_t total = static_cast<uint64_t>(g.n_q * g.seq * g.dim);
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t row = static_cast<int64_t>(i / static_cast<uint64_t>(g.dim));
    const int64_t c = static_cast<int64_t>(i % static_cast<uint64_t>(g.dim));
    const int64_t h = HeadOfRow(g, row), token = TokenOfRow(g, row), kv = KvHeadOf(g, h);
    const float *p = scores + row * length;
    float sum = 0;
    for (int64_t j = 0; j < VisibleKeys(g, token); ++j) sum += p[j] * DeviceNum<T>::Load(v_cache[At3(g.v_cache, kv, j, c)]);
    out[At3(g.out, token, h, c)] = DeviceNum<T>::Store(sum);
  }
}

template <class T, class Bits>
void Run(const AttentionGeometry &g, void *out, const void *q, const void *k, const void *v, void *k_cache,
         void *v_cache, float *scores, cudaStream_t stream) {
  const uint64_t entries = static_cast<uint64_t>(g.n_kv * g.seq * g.dim);
  if (entries > 0) {
    WriteCachesKernel<Bits><<<BlocksFor(entries), kThreads, 0, stream>>>(
        g, static_cast<Bits *>(k_cache), static_cast<Bits *>(v_cache), static_cast<const Bits *>(k),
        static_cast<const Bits *>(v));
  }
  const uint64_t rows = static_cast<uint64_t>(g.n_q * g.seq);
  if (rows == 0 || g.dim == 0) return;
  const float scale = static_cast<float>(1.0 / sqrt(static_cast<double>(g.dim)));
  ScoresKernel<T><<<BlocksFor(rows * static_cast<uint64_t>(ScoreRowLength(g))), kThreads, 0, stream>>>(
      g, scores, static_cast<const T *>(q), static_cast<const T *>(k_cache), scale);
  SoftmaxRowsKernel<<<static_cast<unsigned>(rows < kMaxBlocks ? rows : kMaxBlocks), kRowThreads, 0, stream>>>(g,
                                                                                                            scores);
  OutputKernel<T><<<BlocksFor(rows * static_cast<uint64_t>(g.dim)), kThreads, 0, stream>>>(
      g, static_cast<T *>(out), scores, static_cast<const T *>(v_cache));
}

}  // namespace

infiniStatus_t Attention(const InfiniopDescriptor &desc, const AttentionGeometry &geometry, infiniDtype_t dtype,
                         void *out, const void *q, const void *k, const void *v, void *k_cache, void *v_cache,
                         void *workspace, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  const uintptr_t address = reinterpret_cast<uintptr_t>(workspace);
  auto *scores = reinterpret_cast<float *>((address + 255) & ~uintptr_t(255));
  switch (dtype) {
    case INFINI_DTYPE_F16: Run<__half, uint16_t>(geometry, out, q, k, v, k_cache, v_cache, scores, scope.stream()); break;
    case INFINI_DTYPE_BF16:
      Run<__nv_bfloat16, uint16_t>(geometry, out, q, k, v, k_cache, v_cache, scores, scope.stream());
      break;
    case INFINI_DTYPE_F32: Run<float, uint32_t>(geometry, out, q, k, v, k_cache, v_cache, scores, scope.stream()); break;
    default: return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
