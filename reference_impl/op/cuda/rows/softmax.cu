// Softmax, LogSoftmax and CausalSoftmax: one team per row, three passes as on the CPU
// (the maximum, the sum of exp(x - max), the results), columns past a causal row's last
// kept one set to 0. Every element is read and written by the same thread in every pass,
// so y may be x.
#include <cmath>

#include "device_common.cuh"

namespace infinicts::ref::op::cuda_rows {
namespace {

__device__ inline float Exp(float v) { return expf(v); }
__device__ inline double Exp(double v) { return exp(v); }
__device__ inline float Log(float v) { return logf(v); }
__device__ inline double Log(double v) { return log(v); }

template <class T, int kTeam, int V>
__global__ void __launch_bounds__(kBlock) SoftmaxKernel(const __grid_constant__ SoftmaxArgs args, T *y, const T *x) {
  using A = AccOf<T>;
  using S = SumOf<T>;
  __shared__ A shared_max[kWarps];
  __shared__ S shared_sum[kWarps];
  constexpr int kRowsPerBlock = kBlock / kTeam;
  const int lane = threadIdx.x % kTeam;
  const int64_t length = args.length;
  for (int64_t row = int64_t(blockIdx.x) * kRowsPerBlock + threadIdx.x / kTeam; row < args.rows.rows;
       row += int64_t(gridDim.x) * kRowsPerBlock) {
    int64_t offsets[2];
    RowOffsets(args.rows, row, offsets);
    T *yr = y + offsets[0];
    const T *xr = x + offsets[1];
    const int64_t valid = CausalValidColumns(length, args.causal_seq_len, row);

    A max = -INFINITY;
    for (int64_t j = int64_t(lane) * V; j < valid; j += int64_t(kTeam) * V) {
      const Pack<T, V> in = LoadPack<V>(xr, j, args.x_step);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        if (j + k < valid) max = MaxOp{}(max, Num<T>::Load(in.v[k]));
      }
    }
    max = TeamAllReduce<kTeam>(max, MaxOp{}, shared_max);

    S sum = 0;
    for (int64_t j = int64_t(lane) * V; j < valid; j += int64_t(kTeam) * V) {
      const Pack<T, V> in = LoadPack<V>(xr, j, args.x_step);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        if (j + k < valid) sum += Exp(Num<T>::Load(in.v[k]) - max);
      }
    }
    sum = TeamAllReduce<kTeam>(sum, SumOp{}, shared_sum);

    const A log_sum = static_cast<A>(Log(sum)), inverse = static_cast<A>(S(1) / sum);
    for (int64_t j = int64_t(lane) * V; j < length; j += int64_t(kTeam) * V) {
      const Pack<T, V> in = LoadPack<V>(xr, j, args.x_step);
      Pack<T, V> out;
#pragma unroll
      for (int k = 0; k < V; ++k) {
        A result = 0;
        if (j + k < valid) {
          const A shifted = Num<T>::Load(in.v[k]) - max;
          result = args.log ? shifted - log_sum : Exp(shifted) * inverse;
        }
        out.v[k] = Num<T>::Store(result);
      }
      StorePack<V>(yr, j, args.y_step, out);
    }
  }
}

template <class T>
cudaError_t SoftmaxTyped(const SoftmaxArgs &args, T *y, const T *x, cudaStream_t stream) {
  constexpr int V = VectorWidth<T>();
  const void *const pointers[2] = {y, x};
  const bool vector = args.y_step == 1 && args.x_step == 1 && RowsVectorizable(args.rows, args.length, V, pointers);
  const bool warp = args.length <= kWarpRowLimit;
  const unsigned grid = GridFor(args.rows.rows, warp ? kWarps : 1);
  if (warp && vector) {
    SoftmaxKernel<T, 32, V><<<grid, kBlock, 0, stream>>>(args, y, x);
  } else if (warp) {
    SoftmaxKernel<T, 32, 1><<<grid, kBlock, 0, stream>>>(args, y, x);
  } else if (vector) {
    SoftmaxKernel<T, kBlock, V><<<grid, kBlock, 0, stream>>>(args, y, x);
  } else {
    SoftmaxKernel<T, kBlock, 1><<<grid, kBlock, 0, stream>>>(args, y, x);
  }
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchSoftmax(const SoftmaxArgs &args, void *y, const void *x, cudaStream_t stream) {
  if (args.rows.rows == 0 || args.length == 0) return cudaSuccess;
  return DispatchFloat(args.dtype, [&](auto data) -> cudaError_t {
    using T = decltype(data);
    return SoftmaxTyped(args, static_cast<T *>(y), static_cast<const T *>(x), stream);
  });
}

}  // namespace infinicts::ref::op::cuda_rows
