// RoPE: one thread per (row, pair), in F64 as the CPU reference (so the results match it
// bit for bit), rows with a position outside [0, table_len) left unwritten. A thread reads
// and writes only its own pair, so y may be x.
#include "device_common.cuh"

namespace infinicts::ref::op::cuda_rows {
namespace {

template <class T>
__global__ void __launch_bounds__(kBlock) RoPEKernel(const __grid_constant__ RoPEArgs args, T *y, const T *x,
                                                     const void *pos_ids, const T *sin_table, const T *cos_table) {
  const int64_t half = args.length / 2;
  const int64_t pairs = args.rows.rows * half;
  const bool gpt_j = args.algo == 0;
  for (int64_t at = int64_t(blockIdx.x) * kBlock + threadIdx.x; at < pairs; at += int64_t(gridDim.x) * kBlock) {
    const int64_t row = at / half, i = at % half;
    int64_t offsets[3];
    RowOffsets(args.rows, row, offsets);
    const int64_t position = LoadIndex(pos_ids, args.pos_dtype, offsets[2]);
    if (position < 0 || position >= args.table_len) continue;
    const double s = LoadF64(sin_table[position * args.sin_strides[0] + i * args.sin_strides[1]]);
    const double c = LoadF64(cos_table[position * args.cos_strides[0] + i * args.cos_strides[1]]);
    const int64_t p0 = gpt_j ? 2 * i : i, p1 = gpt_j ? 2 * i + 1 : i + half;
    const double x0 = LoadF64(x[offsets[1] + p0 * args.x_step]), x1 = LoadF64(x[offsets[1] + p1 * args.x_step]);
    // Explicit roundings: a fused multiply-add would round differently from the CPU.
    y[offsets[0] + p0 * args.y_step] = StoreF64<T>(__dsub_rn(__dmul_rn(x0, c), __dmul_rn(x1, s)));
    y[offsets[0] + p1 * args.y_step] = StoreF64<T>(__dadd_rn(__dmul_rn(x0, s), __dmul_rn(x1, c)));
  }
}

}  // namespace

cudaError_t LaunchRoPE(const RoPEArgs &args, void *y, const void *x, const void *pos_ids, const void *sin_table,
                       const void *cos_table, cudaStream_t stream) {
  const int64_t pairs = args.rows.rows * (args.length / 2);
  if (pairs == 0) return cudaSuccess;
  return DispatchFloat(args.dtype, [&](auto data) -> cudaError_t {
    using T = decltype(data);
    RoPEKernel<T><<<GridFor(pairs, kBlock), kBlock, 0, stream>>>(args, static_cast<T *>(y), static_cast<const T *>(x),
                                                                 pos_ids, static_cast<const T *>(sin_table),
                                                                 static_cast<const T *>(cos_table));
    return cudaGetLastError();
  });
}

}  // namespace infinicts::ref::op::cuda_rows
