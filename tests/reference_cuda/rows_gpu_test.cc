// The row kernels of libinfiniop.so's CUDA path (reference_impl/op/cuda/rows) on a GPU,
// each against a host computation in double of the CPU reference's formula: RMSNorm,
// LayerNorm, Softmax, LogSoftmax, CausalSoftmax, RoPE, Embedding and RandomSample, over
// every float dtype, short rows (a warp each) and long ones (a block each), contiguous rows
// (16-byte accesses) and strided ones, in place where the operator allows it. Outputs'
// gaps and unwritten rows must keep their bytes. Every case skips where CUDA sees no device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/rows/rows_args.h"
#include "cuda/rows/rows_kernels.h"
#include "cuda_count.h"
#include "rows_test_tensors.h"

namespace reference_cuda_test {
namespace {

namespace rows = infinicts::ref::op::cuda_rows;

struct Tolerance {
  double atol, rtol;
};

// The suite's defaults by dtype (docs/spec/op.md, OP-ACC-1).
Tolerance DefaultTolerance(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return {std::ldexp(1.0, -14), std::ldexp(1.0, -9)};
    case INFINI_DTYPE_BF16: return {std::ldexp(1.0, -14), std::ldexp(1.0, -6)};
    case INFINI_DTYPE_F32: return {1e-6, std::ldexp(1.0, -17)};
    default: return {1e-12, 1e-12};
  }
}

class RowsGpu : public ::testing::Test {
 public:
  // The launch's status, then the stream's.
  void Finish(cudaError_t launched) {
    ASSERT_EQ(launched, cudaSuccess) << cudaGetErrorString(launched);
    const cudaError_t done = cudaStreamSynchronize(stream_);
    ASSERT_EQ(done, cudaSuccess) << cudaGetErrorString(done);
  }

 protected:
  void SetUp() override {
    if (CudaDeviceCount() == 0) GTEST_SKIP() << "no CUDA device";
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    ASSERT_EQ(cudaStreamCreate(&stream_), cudaSuccess);
  }
  void TearDown() override {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }

  cudaStream_t stream_ = nullptr;
};

// `actual` (copied back from the device) against `expected` element by element, and its
// gaps against `before` (the bytes it was uploaded with).
void ExpectClose(const HostTensor &actual, const HostTensor &expected, const HostTensor &before, Tolerance tol,
                 const std::string &what) {
  int reported = 0;
  ForEachIndex(actual.layout().shape, [&](const std::vector<size_t> &index) {
    const double got = actual.Get(index), want = expected.Get(index);
    const bool ok = std::isnan(want) ? std::isnan(got)
                    : std::isinf(want) ? got == want
                                       : std::fabs(got - want) <= tol.atol + tol.rtol * std::fabs(want);
    if (!ok && reported++ < 5) {
      std::string at;
      for (size_t i : index) at += std::to_string(i) + ",";
      ADD_FAILURE() << what << " at [" << at << "]: got " << got << ", want " << want;
    }
  });
  const std::vector<bool> used = actual.ElementBytes();
  for (size_t b = 0; b < used.size(); ++b) {
    if (!used[b] && actual.bytes()[b] != before.bytes()[b]) {
      ADD_FAILURE() << what << ": gap byte " << b << " changed";
      break;
    }
  }
}

// ---- RMSNorm ----

void RunRMSNorm(RowsGpu *test, cudaStream_t stream, infiniDtype_t dtype, infiniDtype_t weight_dtype,
                const std::vector<size_t> &shape, const std::vector<ptrdiff_t> &y_strides,
                const std::vector<ptrdiff_t> &x_strides, bool in_place) {
  const float epsilon = 1e-5f;
  const size_t d = shape.back();
  HostTensor x(dtype, shape, x_strides), w(weight_dtype, {d});
  x.Fill(Uniform(1, -2, 2));
  w.Fill(Uniform(2, 0.5, 1.5));
  HostTensor y = in_place ? x : HostTensor(dtype, shape, y_strides);
  HostTensor expected(INFINI_DTYPE_F64, shape);
  std::vector<size_t> outer(shape.begin(), shape.end() - 1);
  ForEachIndex(outer, [&](const std::vector<size_t> &row) {
    std::vector<size_t> index = row;
    index.push_back(0);
    double squares = 0;
    for (size_t j = 0; j < d; ++j) index.back() = j, squares += x.Get(index) * x.Get(index);
    const double scale = 1.0 / std::sqrt(squares / static_cast<double>(d) + epsilon);
    for (size_t j = 0; j < d; ++j) index.back() = j, expected.Set(index, x.Get(index) * scale * w.Get({j}));
  });
  DeviceCopy dx(x), dw(w), dy(y);
  void *y_data = in_place ? dx.get() : dy.get();
  const rows::RMSNormArgs args = rows::RMSNormArgsFor(y.layout(), x.layout(), w.layout(), epsilon);
  ASSERT_NO_FATAL_FAILURE(test->Finish(rows::LaunchRMSNorm(args, y_data, dx.get(), dw.get(), stream)));
  HostTensor actual = y;
  ASSERT_EQ((in_place ? dx : dy).CopyTo(&actual), cudaSuccess);
  ExpectClose(actual, expected, y, DefaultTolerance(dtype), "rms_norm");
}

TEST_F(RowsGpu, RMSNormShortContiguousF32) {
  RunRMSNorm(this, stream_, INFINI_DTYPE_F32, INFINI_DTYPE_F32, {4, 3, 64}, {}, {}, false);
}
TEST_F(RowsGpu, RMSNormLongF16WithF32Weight) {
  RunRMSNorm(this, stream_, INFINI_DTYPE_F16, INFINI_DTYPE_F32, {3, 2000}, {}, {}, false);
}
TEST_F(RowsGpu, RMSNormLongBF16Vectorized) {
  RunRMSNorm(this, stream_, INFINI_DTYPE_BF16, INFINI_DTYPE_BF16, {5, 4096}, {}, {}, false);
}
TEST_F(RowsGpu, RMSNormF16WithBF16WeightInPlace) {
  RunRMSNorm(this, stream_, INFINI_DTYPE_F16, INFINI_DTYPE_BF16, {7, 256}, {}, {}, true);
}
TEST_F(RowsGpu, RMSNormTransposedF64) {
  RunRMSNorm(this, stream_, INFINI_DTYPE_F64, INFINI_DTYPE_F64, {6, 40}, {48, 1}, {1, 6}, false);
}
TEST_F(RowsGpu, RMSNormPaddedRowsF32) {
  // Row stride 70 (not a multiple of 4): the scalar path of a unit-stride row.
  RunRMSNorm(this, stream_, INFINI_DTYPE_F32, INFINI_DTYPE_F32, {9, 64}, {70, 1}, {66, 1}, false);
}

// ---- LayerNorm ----

void RunLayerNorm(RowsGpu *test, cudaStream_t stream, infiniDtype_t dtype, const std::vector<size_t> &shape,
                  const std::vector<ptrdiff_t> &out_strides, const std::vector<ptrdiff_t> &in_strides,
                  bool with_bias) {
  const float eps = 1e-5f;
  const size_t d = shape.back();
  const std::vector<size_t> outer(shape.begin(), shape.end() - 1);
  HostTensor in(dtype, shape, in_strides), w(dtype, {d}), b(dtype, {d});
  in.Fill(Uniform(3, -3, 5));
  w.Fill(Uniform(4, 0.5, 1.5));
  b.Fill(Uniform(5, -1, 1));
  HostTensor out(dtype, shape, out_strides), standard(dtype, shape), deviation(dtype, outer);
  HostTensor want_out(INFINI_DTYPE_F64, shape), want_standard(INFINI_DTYPE_F64, shape),
      want_deviation(INFINI_DTYPE_F64, outer);
  ForEachIndex(outer, [&](const std::vector<size_t> &row) {
    std::vector<size_t> index = row;
    index.push_back(0);
    double mean = 0, variance = 0;
    for (size_t j = 0; j < d; ++j) index.back() = j, mean += in.Get(index);
    mean /= static_cast<double>(d);
    for (size_t j = 0; j < d; ++j) index.back() = j, variance += (in.Get(index) - mean) * (in.Get(index) - mean);
    const double std_dev = std::sqrt(variance / static_cast<double>(d) + eps);
    want_deviation.Set(row, std_dev);
    for (size_t j = 0; j < d; ++j) {
      index.back() = j;
      const double standardized = (in.Get(index) - mean) / std_dev;
      want_standard.Set(index, standardized);
      want_out.Set(index, standardized * w.Get({j}) + (with_bias ? b.Get({j}) : 0.0));
    }
  });
  DeviceCopy d_in(in), d_w(w), d_b(b), d_out(out), d_standard(standard), d_deviation(deviation);
  const rows::LayerNormArgs args = rows::LayerNormArgsFor(out.layout(), standard.layout(), deviation.layout(),
                                                          in.layout(), w.layout(), with_bias ? &b.layout() : nullptr,
                                                          eps);
  ASSERT_NO_FATAL_FAILURE(test->Finish(rows::LaunchLayerNorm(args, d_out.get(), d_standard.get(), d_deviation.get(), d_in.get(), d_w.get(),
                                     with_bias ? d_b.get() : nullptr, stream)));
  Tolerance tol = DefaultTolerance(dtype);
  if (dtype == INFINI_DTYPE_F32) tol = {1e-5, 1e-4};
  HostTensor got_out = out, got_standard = standard, got_deviation = deviation;
  ASSERT_EQ(d_out.CopyTo(&got_out), cudaSuccess);
  ASSERT_EQ(d_standard.CopyTo(&got_standard), cudaSuccess);
  ASSERT_EQ(d_deviation.CopyTo(&got_deviation), cudaSuccess);
  ExpectClose(got_out, want_out, out, tol, "layer_norm output");
  ExpectClose(got_standard, want_standard, standard, tol, "layer_norm standardization");
  ExpectClose(got_deviation, want_deviation, deviation, tol, "layer_norm std_deviation");
}

TEST_F(RowsGpu, LayerNormShortF32WithBias) { RunLayerNorm(this, stream_, INFINI_DTYPE_F32, {7, 100}, {}, {}, true); }
TEST_F(RowsGpu, LayerNormLongF16WithoutBias) {
  RunLayerNorm(this, stream_, INFINI_DTYPE_F16, {3, 3000}, {}, {}, false);
}
TEST_F(RowsGpu, LayerNormStridedBF16) {
  RunLayerNorm(this, stream_, INFINI_DTYPE_BF16, {2, 3, 50}, {400, 120, 2}, {1, 2, 6}, true);
}
TEST_F(RowsGpu, LayerNormF64) { RunLayerNorm(this, stream_, INFINI_DTYPE_F64, {5, 1500}, {}, {}, true); }

// ---- Softmax family ----

enum class SoftmaxKind { kSoftmax, kLog, kCausal };

void RunSoftmax(RowsGpu *test, cudaStream_t stream, SoftmaxKind kind, infiniDtype_t dtype,
                const std::vector<size_t> &shape, size_t axis, const std::vector<ptrdiff_t> &y_strides,
                const std::vector<ptrdiff_t> &x_strides, bool in_place) {
  HostTensor x(dtype, shape, x_strides);
  x.Fill(Uniform(6, -8, 8));
  HostTensor y = in_place ? x : HostTensor(dtype, shape, y_strides);
  HostTensor expected(INFINI_DTYPE_F64, shape);
  std::vector<size_t> outer = shape;
  outer.erase(outer.begin() + static_cast<ptrdiff_t>(axis));
  const size_t length = shape[axis];
  const size_t seq = kind == SoftmaxKind::kCausal ? shape[shape.size() - 2] : 0;
  ForEachIndex(outer, [&](const std::vector<size_t> &row) {
    std::vector<size_t> index = row;
    index.insert(index.begin() + static_cast<ptrdiff_t>(axis), 0);
    const size_t valid = seq > 0 ? length - seq + row.back() + 1 : length;
    double max = -INFINITY, sum = 0;
    for (size_t j = 0; j < valid; ++j) index[axis] = j, max = std::fmax(max, x.Get(index));
    for (size_t j = 0; j < valid; ++j) index[axis] = j, sum += std::exp(x.Get(index) - max);
    for (size_t j = 0; j < length; ++j) {
      index[axis] = j;
      const double shifted = x.Get(index) - max;
      double result = 0;
      if (j < valid) result = kind == SoftmaxKind::kLog ? shifted - std::log(sum) : std::exp(shifted) / sum;
      expected.Set(index, result);
    }
  });
  DeviceCopy dx(x), dy(y);
  void *y_data = in_place ? dx.get() : dy.get();
  const rows::SoftmaxArgs args = kind == SoftmaxKind::kCausal
                                     ? rows::CausalSoftmaxArgsFor(y.layout(), x.layout())
                                     : rows::SoftmaxArgsFor(y.layout(), x.layout(), axis, kind == SoftmaxKind::kLog);
  ASSERT_NO_FATAL_FAILURE(test->Finish(rows::LaunchSoftmax(args, y_data, dx.get(), stream)));
  HostTensor actual = y;
  ASSERT_EQ((in_place ? dx : dy).CopyTo(&actual), cudaSuccess);
  Tolerance tol = DefaultTolerance(dtype);
  if (kind == SoftmaxKind::kLog && dtype == INFINI_DTYPE_F32) tol.atol = 1e-5;
  ExpectClose(actual, expected, y, tol, "softmax");
}

TEST_F(RowsGpu, SoftmaxShortF32Vectorized) {
  RunSoftmax(this, stream_, SoftmaxKind::kSoftmax, INFINI_DTYPE_F32, {8, 1000}, 1, {}, {}, false);
}
TEST_F(RowsGpu, SoftmaxLongF16InPlace) {
  RunSoftmax(this, stream_, SoftmaxKind::kSoftmax, INFINI_DTYPE_F16, {3, 5000}, 1, {}, {}, true);
}
TEST_F(RowsGpu, SoftmaxAlongAxis0F64) {
  RunSoftmax(this, stream_, SoftmaxKind::kSoftmax, INFINI_DTYPE_F64, {50, 6}, 0, {}, {}, false);
}
TEST_F(RowsGpu, SoftmaxOddLengthBF16) {
  RunSoftmax(this, stream_, SoftmaxKind::kSoftmax, INFINI_DTYPE_BF16, {4, 3, 33}, 2, {}, {1, 4, 12}, false);
}
TEST_F(RowsGpu, LogSoftmaxVocabF32) {
  RunSoftmax(this, stream_, SoftmaxKind::kLog, INFINI_DTYPE_F32, {4, 32000}, 1, {}, {}, false);
}
TEST_F(RowsGpu, LogSoftmaxShortF16) {
  RunSoftmax(this, stream_, SoftmaxKind::kLog, INFINI_DTYPE_F16, {16, 100}, 1, {}, {}, false);
}
TEST_F(RowsGpu, CausalSoftmaxSmallF32) {
  RunSoftmax(this, stream_, SoftmaxKind::kCausal, INFINI_DTYPE_F32, {2, 5, 9}, 2, {}, {}, false);
}
TEST_F(RowsGpu, CausalSoftmaxSquareF16Vectorized) {
  RunSoftmax(this, stream_, SoftmaxKind::kCausal, INFINI_DTYPE_F16, {3, 64, 64}, 2, {}, {}, true);
}
TEST_F(RowsGpu, CausalSoftmaxLongRowsF32) {
  RunSoftmax(this, stream_, SoftmaxKind::kCausal, INFINI_DTYPE_F32, {1, 3, 3000}, 2, {}, {}, false);
}
TEST_F(RowsGpu, CausalSoftmaxTransposedF64) {
  RunSoftmax(this, stream_, SoftmaxKind::kCausal, INFINI_DTYPE_F64, {2, 4, 6}, 2, {}, {24, 1, 4}, false);
}

// ---- RoPE ----

void RunRoPE(RowsGpu *test, cudaStream_t stream, infiniDtype_t dtype, infiniDtype_t pos_dtype, int algo,
             const std::vector<size_t> &shape, const std::vector<size_t> &pos_shape,
             const std::vector<ptrdiff_t> &x_strides, bool in_place) {
  const size_t ndim = shape.size(), dhead = shape.back(), half = dhead / 2, table_len = 20;
  HostTensor x(dtype, shape, x_strides), pos(pos_dtype, pos_shape);
  HostTensor sin_table(dtype, {table_len, half}), cos_table(dtype, {table_len, half}, {1, static_cast<ptrdiff_t>(table_len)});
  x.Fill(Uniform(7, -1, 1));
  sin_table.Fill(Uniform(8, -1, 1));
  cos_table.Fill(Uniform(9, -1, 1));
  size_t next = 0;
  // Positions cycle through the table with one past its end every seventh (left unwritten).
  pos.Fill([&] { const size_t at = next++; return static_cast<double>(at % 7 == 6 ? table_len : (at * 3) % table_len); });
  HostTensor y = in_place ? x : HostTensor(dtype, shape);
  HostTensor expected = y;
  std::vector<size_t> outer(shape.begin(), shape.end() - 1);
  ForEachIndex(outer, [&](const std::vector<size_t> &row) {
    std::vector<size_t> pos_index = {row[ndim - 3]};
    if (pos_shape.size() == 2) pos_index.insert(pos_index.begin(), ndim == 4 ? row[0] : 0);
    const double p = pos.Get(pos_index);
    if (p < 0 || p >= static_cast<double>(table_len)) return;
    const size_t position = static_cast<size_t>(p);
    std::vector<size_t> i0 = row, i1 = row;
    i0.push_back(0);
    i1.push_back(0);
    for (size_t i = 0; i < half; ++i) {
      i0.back() = algo == 0 ? 2 * i : i;
      i1.back() = algo == 0 ? 2 * i + 1 : i + half;
      const double s = sin_table.Get({position, i}), c = cos_table.Get({position, i});
      const double x0 = x.Get(i0), x1 = x.Get(i1);
      expected.Set(i0, x0 * c - x1 * s);
      expected.Set(i1, x0 * s + x1 * c);
    }
  });
  DeviceCopy dx(x), dy(y), dpos(pos), dsin(sin_table), dcos(cos_table);
  void *y_data = in_place ? dx.get() : dy.get();
  const rows::RoPEArgs args =
      rows::RoPEArgsFor(y.layout(), x.layout(), pos.layout(), sin_table.layout(), cos_table.layout(), algo);
  ASSERT_NO_FATAL_FAILURE(test->Finish(rows::LaunchRoPE(args, y_data, dx.get(), dpos.get(), dsin.get(), dcos.get(), stream)));
  HostTensor actual = y;
  ASSERT_EQ((in_place ? dx : dy).CopyTo(&actual), cudaSuccess);
  // Computed in F64 without contractions as on the CPU, rounded as the CPU rounds: bit for
  // bit, unwritten rows and gaps included.
  EXPECT_EQ(actual.bytes(), expected.bytes());
}

TEST_F(RowsGpu, RoPEGptJF32) { RunRoPE(this, stream_, INFINI_DTYPE_F32, INFINI_DTYPE_I32, 0, {9, 4, 64}, {9}, {}, false); }
TEST_F(RowsGpu, RoPENeoxF16BatchedPositions) {
  RunRoPE(this, stream_, INFINI_DTYPE_F16, INFINI_DTYPE_I64, 1, {2, 8, 3, 128}, {2, 8}, {}, false);
}
TEST_F(RowsGpu, RoPENeoxBF16StridedInPlace) {
  RunRoPE(this, stream_, INFINI_DTYPE_BF16, INFINI_DTYPE_U8, 1, {5, 2, 16}, {5}, {2, 200, 10}, true);
}
TEST_F(RowsGpu, RoPEGptJF64) { RunRoPE(this, stream_, INFINI_DTYPE_F64, INFINI_DTYPE_U64, 0, {7, 2, 10}, {7}, {}, false); }

// ---- Embedding ----

void RunEmbedding(RowsGpu *test, cudaStream_t stream, infiniDtype_t dtype, infiniDtype_t index_dtype,
                  const std::vector<size_t> &input_shape, const std::vector<ptrdiff_t> &output_strides) {
  const size_t vocab = 50, dim = 40;
  HostTensor weight(dtype, {vocab, dim}, {1, static_cast<ptrdiff_t>(vocab)}), input(index_dtype, input_shape);
  weight.Fill(Uniform(10, -4, 4));
  size_t next = 0;
  // Every fifth index is out of range (alternately -1 and vocab): its row stays unwritten.
  input.Fill([&] {
    const size_t at = next++;
    return at % 5 == 4 ? (at % 2 == 0 ? -1.0 : static_cast<double>(vocab)) : static_cast<double>((at * 13) % vocab);
  });
  std::vector<size_t> output_shape = input_shape;
  output_shape.push_back(dim);
  HostTensor output(dtype, output_shape, output_strides);
  HostTensor expected = output;
  ForEachIndex(input_shape, [&](const std::vector<size_t> &at) {
    const double index = input.Get(at);
    if (index < 0 || index >= static_cast<double>(vocab)) return;
    std::vector<size_t> out = at;
    out.push_back(0);
    for (size_t j = 0; j < dim; ++j) out.back() = j, expected.Set(out, weight.Get({static_cast<size_t>(index), j}));
  });
  DeviceCopy d_weight(weight), d_input(input), d_output(output);
  const rows::EmbeddingArgs args = rows::EmbeddingArgsFor(output.layout(), input.layout(), weight.layout());
  ASSERT_NO_FATAL_FAILURE(test->Finish(rows::LaunchEmbedding(args, d_output.get(), d_input.get(), d_weight.get(), stream)));
  HostTensor actual = output;
  ASSERT_EQ(d_output.CopyTo(&actual), cudaSuccess);
  // A copy: bit for bit, and unwritten rows keep their bytes.
  EXPECT_EQ(actual.bytes(), expected.bytes());
}

TEST_F(RowsGpu, EmbeddingF32WithI64Indices) { RunEmbedding(this, stream_, INFINI_DTYPE_F32, INFINI_DTYPE_I64, {3, 4}, {}); }
TEST_F(RowsGpu, EmbeddingF16ScalarIndex) { RunEmbedding(this, stream_, INFINI_DTYPE_F16, INFINI_DTYPE_I32, {}, {}); }
TEST_F(RowsGpu, EmbeddingBF16StridedOutput) {
  RunEmbedding(this, stream_, INFINI_DTYPE_BF16, INFINI_DTYPE_I32, {6}, {1, 6});
}
TEST_F(RowsGpu, EmbeddingF64) { RunEmbedding(this, stream_, INFINI_DTYPE_F64, INFINI_DTYPE_I64, {2, 2, 5}, {}); }

// ---- RandomSample ----

double RankKey(double v) { return std::isnan(v) ? -INFINITY : v; }

// The CPU reference's rule (RULES.md §5), written from its statement.
size_t HostDraw(const std::vector<double> &values, const rows::SampleParams &s) {
  const size_t n = values.size();
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return RankKey(values[a]) > RankKey(values[b]); });
  if (s.random_val == 0 || s.topp == 0 || s.topk == 1 || s.temperature == 0) return order[0];
  const size_t k = (s.topk > 0 && static_cast<size_t>(s.topk) <= n) ? static_cast<size_t>(s.topk) : n;
  const double max = RankKey(values[order[0]]);
  std::vector<double> cumulative(n);
  double running = 0;
  for (size_t r = 0; r < n; ++r) {
    running += std::exp((RankKey(values[order[r]]) - max) / static_cast<double>(s.temperature));
    cumulative[r] = running;
  }
  const double limit = static_cast<double>(s.random_val) *
                       std::min(cumulative[k - 1], cumulative[n - 1] * static_cast<double>(s.topp));
  for (size_t r = 0; r < k; ++r) {
    if (limit <= cumulative[r]) return order[r];
  }
  return order[k - 1];
}

void RunRandomSample(RowsGpu *test, cudaStream_t stream, infiniDtype_t dtype, infiniDtype_t result_dtype, size_t n,
                     ptrdiff_t stride, unsigned seed, double spread) {
  HostTensor probs(dtype, {n}, {stride});
  probs.Fill(Uniform(seed, -spread, spread));
  if (n > 10) probs.Set({3}, NAN);  // ranks as -Inf
  std::vector<double> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = probs.Get({i});
  HostTensor result(result_dtype, {});
  const rows::RandomSampleArgs args = rows::RandomSampleArgsFor(result.layout(), probs.layout());
  DeviceCopy d_probs(probs), d_result(result), workspace(rows::RandomSampleWorkspaceBytes(static_cast<int64_t>(n)));
  const std::vector<rows::SampleParams> draws = {
      {0.0f, 0.9f, 1.0f, 50}, {0.5f, 0.0f, 1.0f, 50}, {0.5f, 0.9f, 1.0f, 1},  {0.5f, 0.9f, 0.0f, 50},
      {0.3f, 0.8f, 0.7f, 50}, {0.9f, 1.0f, 1.0f, 0},  {0.99f, 1.0f, 2.0f, 0}, {0.1f, 0.5f, 1.0f, 3},
      {0.7f, 0.95f, 1.3f, static_cast<int>(n) + 5}, {1.5f, 1.0f, 1.0f, 4}, {0.999f, 1.0f, 50.0f, 0},
  };
  for (const rows::SampleParams &s : draws) {
    ASSERT_NO_FATAL_FAILURE(test->Finish(rows::LaunchRandomSample(args, s, d_result.get(), d_probs.get(), workspace.get(), stream)));
    HostTensor got = result;
    ASSERT_EQ(d_result.CopyTo(&got), cudaSuccess);
    EXPECT_EQ(static_cast<size_t>(got.Get({})), HostDraw(values, s))
        << "n " << n << " random_val " << s.random_val << " topp " << s.topp << " temperature " << s.temperature
        << " topk " << s.topk;
  }
}

TEST_F(RowsGpu, RandomSampleOneLogit) { RunRandomSample(this, stream_, INFINI_DTYPE_F32, INFINI_DTYPE_I32, 1, 1, 11, 1); }
TEST_F(RowsGpu, RandomSampleSmallF64) { RunRandomSample(this, stream_, INFINI_DTYPE_F64, INFINI_DTYPE_U8, 7, 3, 12, 2); }
TEST_F(RowsGpu, RandomSampleTiesF16) {
  // Logits in [-1, 1) stored as F16 over 1000 entries: many exact ties (lower index first).
  RunRandomSample(this, stream_, INFINI_DTYPE_F16, INFINI_DTYPE_I16, 1000, 1, 13, 1);
}
TEST_F(RowsGpu, RandomSampleVocabF32) {
  // 32000 logits: the sort crosses its shared-memory tile (global merge steps).
  RunRandomSample(this, stream_, INFINI_DTYPE_F32, INFINI_DTYPE_I64, 32000, 1, 14, 6);
}
TEST_F(RowsGpu, RandomSampleStridedBF16) {
  RunRandomSample(this, stream_, INFINI_DTYPE_BF16, INFINI_DTYPE_U32, 5000, 2, 15, 4);
}

}  // namespace
}  // namespace reference_cuda_test
