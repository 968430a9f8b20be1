#include "rows_args.h"

#include <vector>

namespace infinicts::ref::op::cuda_rows {
namespace {

// A layout's shape and strides without dim `axis`.
struct Outer {
  std::vector<size_t> shape;
  std::vector<ptrdiff_t> strides;
};

Outer Without(const TensorLayout &layout, size_t axis) {
  Outer outer;
  for (size_t d = 0; d < layout.ndim(); ++d) {
    if (d == axis) continue;
    outer.shape.push_back(layout.shape[d]);
    outer.strides.push_back(layout.strides[d]);
  }
  return outer;
}

// Rows along `axis` of two operands of one shape.
RowGrid<2> PairRows(const TensorLayout &first, const TensorLayout &second, size_t axis) {
  const Outer a = Without(first, axis), b = Without(second, axis);
  return MakeRowGrid<2>(a.shape, {&a.strides, &b.strides});
}

}  // namespace

RMSNormArgs RMSNormArgsFor(const TensorLayout &y, const TensorLayout &x, const TensorLayout &w, float epsilon) {
  const size_t last = y.ndim() - 1;
  RMSNormArgs args;
  args.dtype = y.dtype;
  args.weight_dtype = w.dtype;
  args.rows = PairRows(y, x, last);
  args.length = static_cast<int64_t>(y.shape[last]);
  args.y_step = y.strides[last];
  args.x_step = x.strides[last];
  args.w_step = w.strides[0];
  args.epsilon = epsilon;
  return args;
}

LayerNormArgs LayerNormArgsFor(const TensorLayout &output, const TensorLayout &standardization,
                               const TensorLayout &std_deviation, const TensorLayout &input,
                               const TensorLayout &weight, const TensorLayout *bias, float eps) {
  const size_t last = input.ndim() - 1;
  const Outer out = Without(output, last), standard = Without(standardization, last), in = Without(input, last);
  LayerNormArgs args;
  args.dtype = input.dtype;
  // std_deviation has exactly the outer shape: its strides are the fourth operand's.
  args.rows = MakeRowGrid<4>(in.shape, {&out.strides, &standard.strides, &in.strides, &std_deviation.strides});
  args.length = static_cast<int64_t>(input.shape[last]);
  args.output_step = output.strides[last];
  args.standardization_step = standardization.strides[last];
  args.input_step = input.strides[last];
  args.weight_step = weight.strides[0];
  args.bias_step = bias != nullptr ? bias->strides[0] : 0;
  args.has_bias = bias != nullptr;
  args.eps = eps;
  return args;
}

SoftmaxArgs SoftmaxArgsFor(const TensorLayout &y, const TensorLayout &x, size_t axis, bool log) {
  SoftmaxArgs args;
  args.dtype = y.dtype;
  args.rows = PairRows(y, x, axis);
  args.length = static_cast<int64_t>(y.shape[axis]);
  args.y_step = y.strides[axis];
  args.x_step = x.strides[axis];
  args.log = log;
  return args;
}

SoftmaxArgs CausalSoftmaxArgsFor(const TensorLayout &y, const TensorLayout &x) {
  const size_t ndim = y.ndim();
  SoftmaxArgs args = SoftmaxArgsFor(y, x, ndim - 1, /*log=*/false);
  args.causal_seq_len = static_cast<int64_t>(y.shape[ndim - 2]);
  return args;
}

RoPEArgs RoPEArgsFor(const TensorLayout &y, const TensorLayout &x, const TensorLayout &pos_ids,
                     const TensorLayout &sin_table, const TensorLayout &cos_table, int algo) {
  const size_t last = y.ndim() - 1;
  const Outer rows = Without(y, last), x_rows = Without(x, last);
  // pos_ids seen with y's leading dims: it varies along batch (when batched) and token only.
  std::vector<ptrdiff_t> pos_rows(rows.shape.size(), 0);
  pos_rows[rows.shape.size() - 2] = pos_ids.strides[pos_ids.ndim() - 1];
  if (y.ndim() == 4 && pos_ids.ndim() == 2) pos_rows[0] = pos_ids.strides[0];
  RoPEArgs args;
  args.dtype = y.dtype;
  args.pos_dtype = pos_ids.dtype;
  args.algo = algo;
  args.rows = MakeRowGrid<3>(rows.shape, {&rows.strides, &x_rows.strides, &pos_rows});
  args.length = static_cast<int64_t>(y.shape[last]);
  args.y_step = y.strides[last];
  args.x_step = x.strides[last];
  args.table_len = static_cast<int64_t>(sin_table.shape[0]);
  args.sin_strides[0] = sin_table.strides[0];
  args.sin_strides[1] = sin_table.strides[1];
  args.cos_strides[0] = cos_table.strides[0];
  args.cos_strides[1] = cos_table.strides[1];
  return args;
}

EmbeddingArgs EmbeddingArgsFor(const TensorLayout &output, const TensorLayout &input, const TensorLayout &weight) {
  const Outer rows = Without(output, output.ndim() - 1);
  EmbeddingArgs args;
  args.dtype = weight.dtype;
  args.index_dtype = input.dtype;
  args.rows = MakeRowGrid<2>(input.shape, {&rows.strides, &input.strides});
  args.vocab = static_cast<int64_t>(weight.shape[0]);
  args.dim = static_cast<int64_t>(weight.shape[1]);
  args.output_step = output.strides.back();
  args.weight_row = weight.strides[0];
  args.weight_step = weight.strides[1];
  return args;
}

RandomSampleArgs RandomSampleArgsFor(const TensorLayout &result, const TensorLayout &probs) {
  RandomSampleArgs args;
  args.result_dtype = result.dtype;
  args.probs_dtype = probs.dtype;
  args.n = static_cast<int64_t>(probs.shape[0]);
  args.probs_step = probs.strides[0];
  return args;
}

}  // namespace infinicts::ref::op::cuda_rows
