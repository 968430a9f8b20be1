// The plain-data side of the row kernels (rows_kernels.h): the row geometry every row
// operator walks and each operator's kernel arguments, all trivially copyable (they are
// kernel parameters). Plain C++: the operators build them at descriptor creation, and
// RowOffsets serves both the kernels and host code.
#ifndef INFINICTS_REF_OP_CUDA_ROWS_ROWS_GEOMETRY_H
#define INFINICTS_REF_OP_CUDA_ROWS_ROWS_GEOMETRY_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/kernel_limits.h"
#include "infinicore.h"
#include "core/host_device.h"

namespace infinicts::ref::op::cuda_rows {

// Functions both the kernels and host code (the tests) call.

// Tensor descriptors have at most 32 dims, so a row grid never has more.
constexpr int kMaxRowDims = 32;

// The rows of an operator with N operands: every index of the dims outside the row, in
// row-major order (row r is the r-th index in that order), and each operand's offset (in
// elements) of that row's first element. Dims of size 1 are dropped and neighbours that
// are contiguous for every operand merged, which keeps row numbering unchanged.
template <int N>
struct RowGrid {
  int ndim = 0;
  int64_t rows = 0;  // the product of the dims (0 for an empty tensor)
  int64_t shape[kMaxRowDims] = {};
  int64_t strides[kMaxRowDims][N] = {};
};

// A RowGrid from the outer shape and each operand's strides for those dims (host only).
template <int N>
RowGrid<N> MakeRowGrid(const std::vector<size_t> &shape, const std::array<const std::vector<ptrdiff_t> *, N> &strides) {
  RowGrid<N> grid;
  grid.rows = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    grid.rows *= static_cast<int64_t>(shape[d]);
    if (shape[d] == 1) continue;
    const int last = grid.ndim - 1;
    bool mergeable = last >= 0;
    for (int k = 0; k < N && mergeable; ++k) {
      mergeable = grid.strides[last][k] == (*strides[k])[d] * static_cast<int64_t>(shape[d]);
    }
    if (mergeable) {
      grid.shape[last] *= static_cast<int64_t>(shape[d]);
      for (int k = 0; k < N; ++k) grid.strides[last][k] = (*strides[k])[d];
      continue;
    }
    grid.shape[grid.ndim] = static_cast<int64_t>(shape[d]);
    for (int k = 0; k < N; ++k) grid.strides[grid.ndim][k] = (*strides[k])[d];
    ++grid.ndim;
  }
  return grid;
}

// Each operand's offset (in elements) of row `row`'s first element.
// The columns a causal row may see: row r of a [.., seq, length] softmax (length >= seq)
// sees columns 0 .. length - seq + r % seq (the last seq columns are the causal square);
// seq 0: not causal, every column.
INFINICTS_HOST_DEVICE inline int64_t CausalValidColumns(int64_t length, int64_t seq, int64_t row) {
  return seq > 0 ? length - seq + row % seq + 1 : length;
}

template <int N>
INFINICTS_HOST_DEVICE inline void RowOffsets(const RowGrid<N> &grid, int64_t row, int64_t (&offsets)[N]) {
  for (int k = 0; k < N; ++k) offsets[k] = 0;
  for (int d = grid.ndim - 1; d >= 0; --d) {
    const int64_t extent = grid.shape[d];
    const int64_t index = row % extent;
    row /= extent;
    for (int k = 0; k < N; ++k) offsets[k] += index * grid.strides[d][k];
  }
}

// RMSNorm: y = x * w / sqrt(mean(x^2) + epsilon) along each row.
// dtype: F16, BF16, F32, F64; weight_dtype: F16, BF16 or F32 for F16/BF16 data, dtype otherwise.
struct RMSNormArgs {
  infiniDtype_t dtype = INFINI_DTYPE_INVALID, weight_dtype = INFINI_DTYPE_INVALID;
  RowGrid<2> rows;  // operand 0: y, 1: x
  int64_t length = 0;
  int64_t y_step = 1, x_step = 1, w_step = 1;  // strides along the row
  float epsilon = 0;
};

// LayerNorm with InfiniCore's three outputs, with or without bias. One float dtype for all.
struct LayerNormArgs {
  infiniDtype_t dtype = INFINI_DTYPE_INVALID;
  RowGrid<4> rows;  // operands: 0 output, 1 standardization, 2 input, 3 std_deviation
  int64_t length = 0;
  int64_t output_step = 1, standardization_step = 1, input_step = 1, weight_step = 1, bias_step = 1;
  bool has_bias = false;  // without it the bias pointer is ignored
  float eps = 0;
};

// Softmax, LogSoftmax (log) and CausalSoftmax (causal_seq_len > 0: row r keeps the columns
// j <= length - seq + r % seq, the others become 0). y may be x (in place).
struct SoftmaxArgs {
  infiniDtype_t dtype = INFINI_DTYPE_INVALID;
  RowGrid<2> rows;  // operand 0: y, 1: x
  int64_t length = 0;
  int64_t y_step = 1, x_step = 1;
  int64_t causal_seq_len = 0;
  bool log = false;
};

// RoPE over rows of dhead = length elements, one row per (batch, token, head).
// algo: 0 GPT_J (pairs 2i, 2i+1), 1 GPT_NEOX (pairs i, i + length/2). pos_dtype: any
// integer dtype; a position outside [0, table_len) leaves its row unwritten.
struct RoPEArgs {
  infiniDtype_t dtype = INFINI_DTYPE_INVALID, pos_dtype = INFINI_DTYPE_INVALID;
  int algo = 0;
  RowGrid<3> rows;  // operands: 0 y, 1 x, 2 pos_ids (stride 0 along heads)
  int64_t length = 0;
  int64_t y_step = 1, x_step = 1;
  int64_t table_len = 0;
  int64_t sin_strides[2] = {0, 0}, cos_strides[2] = {0, 0};
};

// Embedding: output row r = weight row input[r] (index_dtype I32 or I64); an index outside
// [0, vocab) leaves its row unwritten. Rows are copied bit for bit.
struct EmbeddingArgs {
  infiniDtype_t dtype = INFINI_DTYPE_INVALID, index_dtype = INFINI_DTYPE_INVALID;
  RowGrid<2> rows;  // over input's shape; operand 0: output, 1: input
  int64_t vocab = 0, dim = 0;
  int64_t output_step = 1, weight_row = 0, weight_step = 1;
};

// RandomSample over n logits (RULES.md §5): the argmax when random_val, topp or
// temperature is 0 or topk is 1, else InfiniCore's top-k/top-p draw with `random_val`.
struct RandomSampleArgs {
  infiniDtype_t result_dtype = INFINI_DTYPE_INVALID, probs_dtype = INFINI_DTYPE_INVALID;
  int64_t n = 0;
  int64_t probs_step = 1;
};
struct SampleParams {
  float random_val = 0, topp = 0, temperature = 0;
  int topk = 0;
};
// Every kernel takes one of these by value, beside a few pointers (cuda/kernel_limits.h).
static_assert(op::cuda::FitsKernelParameters<RMSNormArgs>() && op::cuda::FitsKernelParameters<LayerNormArgs>() &&
                  op::cuda::FitsKernelParameters<SoftmaxArgs>() && op::cuda::FitsKernelParameters<RoPEArgs>() &&
                  op::cuda::FitsKernelParameters<EmbeddingArgs>(),
              "the row kernels' parameters must fit in 4 KB");
static_assert(sizeof(RandomSampleArgs) + sizeof(SampleParams) + op::cuda::kKernelScalarArgumentBytes <=
                  op::cuda::kKernelParameterBytes,
              "RandomSample's draw kernel's parameters must fit in 4 KB");

// Device workspace the draw needs (the ranking of all n logits), alignment slack included.
size_t RandomSampleWorkspaceBytes(int64_t n);

}  // namespace infinicts::ref::op::cuda_rows

#endif  // INFINICTS_REF_OP_CUDA_ROWS_ROWS_GEOMETRY_H
