// RMSNorm and LayerNorm: one team (a warp for short rows, the block for long ones) per row.
#include "device_common.cuh"

namespace infinicts::ref::op::cuda_rows {
namespace {

// y = x * scale * w with scale = 1 / sqrt(sum(x^2) / length + epsilon), as the CPU does.
template <class T, class W, int kTeam, int V>
__global__ void __launch_bounds__(kBlock) RMSNormKernel(const __grid_constant__ RMSNormArgs args, T *y, const T *x,
                                                        const W *w) {
  using A = AccOf<T>;
  using S = SumOf<T>;
  __shared__ S shared[kWarps];
  constexpr int kRowsPerBlock = kBlock / kTeam;
  const int lane = threadIdx.x % kTeam;
  const int64_t length = args.length;
  for (int64_t row = int64_t(blockIdx.x) * kRowsPerBlock + threadIdx.x / kTeam; row < args.rows.rows;
       row += int64_t(gridDim.x) * kRowsPerBlock) {
    int64_t offsets[2];
    RowOffsets(args.rows, row, offsets);
    T *yr = y + offsets[0];
    const T *xr = x + offsets[1];
    S sum_squares = 0;
    for (int64_t j = int64_t(lane) * V; j < length; j += int64_t(kTeam) * V) {
      const Pack<T, V> in = LoadPack<V>(xr, j, args.x_step);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        const S v = Num<T>::Load(in.v[k]);
        sum_squares += v * v;
      }
    }
    sum_squares = TeamAllReduce<kTeam>(sum_squares, SumOp{}, shared);
    const A scale =
        static_cast<A>(S(1) / sqrt(sum_squares / static_cast<S>(length) + static_cast<S>(args.epsilon)));
    for (int64_t j = int64_t(lane) * V; j < length; j += int64_t(kTeam) * V) {
      const Pack<T, V> in = LoadPack<V>(xr, j, args.x_step);
      const Pack<W, V> weight = LoadPack<V>(w, j, args.w_step);
      Pack<T, V> out;
#pragma unroll
      for (int k = 0; k < V; ++k) {
        out.v[k] = Num<T>::Store(Num<T>::Load(in.v[k]) * scale * static_cast<A>(Num<W>::Load(weight.v[k])));
      }
      StorePack<V>(yr, j, args.y_step, out);
    }
  }
}

template <class T, class W>
cudaError_t RMSNormTyped(const RMSNormArgs &args, T *y, const T *x, const W *w, cudaStream_t stream) {
  // 16-byte accesses of the data; the weight's packs have as many elements (32 bytes for
  // an F32 weight of a half row, so w must be aligned to that).
  constexpr int V = VectorWidth<T>();
  const bool unit = args.y_step == 1 && args.x_step == 1 && args.w_step == 1;
  const void *const pointers[2] = {y, x};
  const bool vector = unit && RowsVectorizable(args.rows, args.length, V, pointers) &&
                      reinterpret_cast<uintptr_t>(w) % (sizeof(W) * V) == 0;
  const bool warp = args.length <= kWarpRowLimit;
  const unsigned grid = GridFor(args.rows.rows, warp ? kWarps : 1);
  if (warp && vector) {
    RMSNormKernel<T, W, 32, V><<<grid, kBlock, 0, stream>>>(args, y, x, w);
  } else if (warp) {
    RMSNormKernel<T, W, 32, 1><<<grid, kBlock, 0, stream>>>(args, y, x, w);
  } else if (vector) {
    RMSNormKernel<T, W, kBlock, V><<<grid, kBlock, 0, stream>>>(args, y, x, w);
  } else {
    RMSNormKernel<T, W, kBlock, 1><<<grid, kBlock, 0, stream>>>(args, y, x, w);
  }
  return cudaGetLastError();
}

// The CPU's LayerNorm per row: two-pass mean and biased variance, std = sqrt(var + eps),
// standardization = (x - mean) / std, output = standardization * weight + bias.
template <class T, int kTeam, int V>
__global__ void __launch_bounds__(kBlock)
    LayerNormKernel(const __grid_constant__ LayerNormArgs args, T *output, T *standardization, T *std_deviation,
                    const T *input, const T *weight, const T *bias) {
  using A = AccOf<T>;
  using S = SumOf<T>;
  __shared__ S shared[kWarps];
  constexpr int kRowsPerBlock = kBlock / kTeam;
  const int lane = threadIdx.x % kTeam;
  const int64_t length = args.length;
  for (int64_t row = int64_t(blockIdx.x) * kRowsPerBlock + threadIdx.x / kTeam; row < args.rows.rows;
       row += int64_t(gridDim.x) * kRowsPerBlock) {
    int64_t offsets[4];
    RowOffsets(args.rows, row, offsets);
    const T *in = input + offsets[2];
    S sum = 0;
    for (int64_t j = int64_t(lane) * V; j < length; j += int64_t(kTeam) * V) {
      const Pack<T, V> x = LoadPack<V>(in, j, args.input_step);
#pragma unroll
      for (int k = 0; k < V; ++k) sum += Num<T>::Load(x.v[k]);
    }
    const S mean_sum = TeamAllReduce<kTeam>(sum, SumOp{}, shared) / static_cast<S>(length);
    S squares = 0;
    for (int64_t j = int64_t(lane) * V; j < length; j += int64_t(kTeam) * V) {
      const Pack<T, V> x = LoadPack<V>(in, j, args.input_step);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        const S centred = static_cast<S>(Num<T>::Load(x.v[k])) - mean_sum;
        squares += centred * centred;
      }
    }
    const S variance = TeamAllReduce<kTeam>(squares, SumOp{}, shared) / static_cast<S>(length);
    const S deviation_sum = sqrt(variance + static_cast<S>(args.eps));
    if (lane == 0) std_deviation[offsets[3]] = Num<T>::Store(static_cast<A>(deviation_sum));
    // The per-element work in the compute type.
    const A mean = static_cast<A>(mean_sum), deviation = static_cast<A>(deviation_sum);
    T *out = output + offsets[0];
    T *standard = standardization + offsets[1];
    for (int64_t j = int64_t(lane) * V; j < length; j += int64_t(kTeam) * V) {
      const Pack<T, V> x = LoadPack<V>(in, j, args.input_step);
      const Pack<T, V> w = LoadPack<V>(weight, j, args.weight_step);
      Pack<T, V> b{};
      if (bias != nullptr) b = LoadPack<V>(bias, j, args.bias_step);
      Pack<T, V> standard_out, out_out;
#pragma unroll
      for (int k = 0; k < V; ++k) {
        const A standardized = (Num<T>::Load(x.v[k]) - mean) / deviation;
        const A shift = bias != nullptr ? Num<T>::Load(b.v[k]) : A(0);
        standard_out.v[k] = Num<T>::Store(standardized);
        out_out.v[k] = Num<T>::Store(standardized * Num<T>::Load(w.v[k]) + shift);
      }
      StorePack<V>(standard, j, args.standardization_step, standard_out);
      StorePack<V>(out, j, args.output_step, out_out);
    }
  }
}

template <class T>
cudaError_t LayerNormTyped(const LayerNormArgs &args, T *output, T *standardization, T *std_deviation,
                           const T *input, const T *weight, const T *bias, cudaStream_t stream) {
  constexpr int V = VectorWidth<T>();
  const bool unit = args.output_step == 1 && args.standardization_step == 1 && args.input_step == 1 &&
                    args.weight_step == 1 && (bias == nullptr || args.bias_step == 1);
  // std_deviation (operand 3) holds one element a row: it is never walked with vectors.
  const void *const pointers[4] = {output, standardization, input, nullptr};
  const bool vector = unit && RowsVectorizable(args.rows, args.length, V, pointers) &&
                      reinterpret_cast<uintptr_t>(weight) % 16 == 0 && reinterpret_cast<uintptr_t>(bias) % 16 == 0;
  const bool warp = args.length <= kWarpRowLimit;
  const unsigned grid = GridFor(args.rows.rows, warp ? kWarps : 1);
  if (warp && vector) {
    LayerNormKernel<T, 32, V><<<grid, kBlock, 0, stream>>>(args, output, standardization, std_deviation, input,
                                                           weight, bias);
  } else if (warp) {
    LayerNormKernel<T, 32, 1><<<grid, kBlock, 0, stream>>>(args, output, standardization, std_deviation, input,
                                                           weight, bias);
  } else if (vector) {
    LayerNormKernel<T, kBlock, V><<<grid, kBlock, 0, stream>>>(args, output, standardization, std_deviation, input,
                                                               weight, bias);
  } else {
    LayerNormKernel<T, kBlock, 1><<<grid, kBlock, 0, stream>>>(args, output, standardization, std_deviation, input,
                                                               weight, bias);
  }
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchRMSNorm(const RMSNormArgs &args, void *y, const void *x, const void *w, cudaStream_t stream) {
  if (args.rows.rows == 0 || args.length == 0) return cudaSuccess;
  return DispatchFloat(args.dtype, [&](auto data) -> cudaError_t {
    using T = decltype(data);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (args.weight_dtype != args.dtype) return cudaErrorInvalidValue;
      return RMSNormTyped(args, static_cast<T *>(y), static_cast<const T *>(x), static_cast<const T *>(w), stream);
    } else {
      if (args.weight_dtype == INFINI_DTYPE_F64) return cudaErrorInvalidValue;
      return DispatchFloat(args.weight_dtype, [&](auto weight) -> cudaError_t {
        using W = decltype(weight);
        if constexpr (std::is_same_v<W, double>) {
          return cudaErrorInvalidValue;
        } else {
          return RMSNormTyped(args, static_cast<T *>(y), static_cast<const T *>(x), static_cast<const W *>(w),
                              stream);
        }
      });
    }
  });
}

cudaError_t LaunchLayerNorm(const LayerNormArgs &args, void *output, void *standardization, void *std_deviation,
                            const void *input, const void *weight, const void *bias, cudaStream_t stream) {
  // A row of length 0 still has its std_deviation element (NaN, as on the CPU).
  if (args.rows.rows == 0) return cudaSuccess;
  return DispatchFloat(args.dtype, [&](auto data) -> cudaError_t {
    using T = decltype(data);
    return LayerNormTyped(args, static_cast<T *>(output), static_cast<T *>(standardization),
                          static_cast<T *>(std_deviation), static_cast<const T *>(input),
                          static_cast<const T *>(weight), args.has_bias ? static_cast<const T *>(bias) : nullptr,
                          stream);
  });
}

}  // namespace infinicts::ref::op::cuda_rows
