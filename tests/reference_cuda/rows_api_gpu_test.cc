// The row-wise operators through InfiniOP's interface (the hooks of ops/<op>.cc): every case
// runs the same calls on CPU device 0 (the reference) and on NVIDIA device 0 (tensors in
// that device's memory, workspace of the size the NVIDIA descriptor asks) and compares the
// outputs. Every case skips where CUDA sees no device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cuda_count.h"
#include "infiniop.h"
#include "infinirt.h"
#include "op_test_support.h"

namespace reference_cuda_test {
namespace {

using infiniop_test::DeviceBuffer;
using infiniop_test::Tensor;

// One case on one device: makes its tensors in the current device's memory, runs on
// `stream`, and returns each output read back to the host.
using Outputs = std::vector<std::vector<double>>;
using Case = std::function<Outputs(infiniopHandle_t, infinirtStream_t)>;

Outputs RunOn(infiniDevice_t device, const Case &body) {
  Outputs outputs;
  EXPECT_EQ(infinirtSetDevice(device, 0), INFINI_STATUS_SUCCESS);
  infiniopHandle_t handle = nullptr;
  infinirtStream_t stream = nullptr;
  EXPECT_EQ(infiniopCreateHandle(&handle), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinirtStreamCreate(&stream), INFINI_STATUS_SUCCESS);
  if (handle != nullptr && stream != nullptr) outputs = body(handle, stream);
  if (stream != nullptr) {
    EXPECT_EQ(infinirtStreamDestroy(stream), INFINI_STATUS_SUCCESS);
  }
  if (handle != nullptr) {
    EXPECT_EQ(infiniopDestroyHandle(handle), INFINI_STATUS_SUCCESS);
  }
  EXPECT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
  return outputs;
}

// 2 ulps of the dtype relative, as the suite's defaults (docs/spec/op.md, OP-ACC-1).
struct Tolerance {
  double atol, rtol;
};
Tolerance TwoUlps(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return {std::ldexp(1.0, -14), std::ldexp(1.0, -9)};
    case INFINI_DTYPE_BF16: return {std::ldexp(1.0, -14), std::ldexp(1.0, -6)};
    case INFINI_DTYPE_F32: return {1e-6, std::ldexp(1.0, -17)};
    default: return {1e-12, 1e-12};
  }
}

void ExpectSameOnBothDevices(const Case &body, Tolerance tol, const char *what) {
  const Outputs cpu = RunOn(INFINI_DEVICE_CPU, body);
  const Outputs gpu = RunOn(INFINI_DEVICE_NVIDIA, body);
  ASSERT_EQ(cpu.size(), gpu.size()) << what;
  for (size_t k = 0; k < cpu.size(); ++k) {
    ASSERT_EQ(cpu[k].size(), gpu[k].size()) << what;
    int reported = 0;
    for (size_t i = 0; i < cpu[k].size() && reported < 5; ++i) {
      const double want = cpu[k][i], got = gpu[k][i];
      const bool ok = std::isnan(want) ? std::isnan(got)
                      : std::isinf(want) ? got == want
                                         : std::fabs(got - want) <= tol.atol + tol.rtol * std::fabs(want);
      if (!ok) {
        ++reported;
        ADD_FAILURE() << what << " output " << k << " element " << i << ": gpu " << got << ", cpu " << want;
      }
    }
  }
}

// Deterministic values in [low, high).
std::vector<double> Values(size_t count, unsigned seed, double low, double high) {
  std::vector<double> values(count);
  uint32_t state = seed * 2654435761u + 7;
  for (size_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    values[i] = low + (high - low) * (static_cast<double>(state >> 8) / 16777216.0);
  }
  return values;
}

// The workspace a descriptor asks for on the current device (none: a null buffer).
std::unique_ptr<DeviceBuffer> Workspace(size_t size) {
  return size == 0 ? nullptr : std::make_unique<DeviceBuffer>(size);
}
void *Data(const std::unique_ptr<DeviceBuffer> &buffer) { return buffer == nullptr ? nullptr : buffer->get(); }

class RowsApiGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (CudaDeviceCount() == 0) GTEST_SKIP() << "no CUDA device";
  }
  void TearDown() override { infinirtSetDevice(INFINI_DEVICE_CPU, 0); }
};

struct Layout {
  std::vector<size_t> shape;
  std::vector<ptrdiff_t> strides;  // empty: contiguous
};

size_t Numel(const std::vector<size_t> &shape) {
  size_t count = 1;
  for (size_t dim : shape) count *= dim;
  return count;
}

TEST_F(RowsApiGpu, RMSNorm) {
  struct Config {
    infiniDtype_t dtype, weight_dtype;
    Layout x;
  };
  const Config configs[] = {
      {INFINI_DTYPE_F16, INFINI_DTYPE_F32, {{5, 300}, {}}},   {INFINI_DTYPE_BF16, INFINI_DTYPE_BF16, {{3, 5000}, {}}},
      {INFINI_DTYPE_F32, INFINI_DTYPE_F32, {{8, 64}, {1, 8}}}, {INFINI_DTYPE_F64, INFINI_DTYPE_F64, {{2, 3, 100}, {}}},
  };
  for (const Config &c : configs) {
    const size_t d = c.x.shape.back();
    ExpectSameOnBothDevices(
        [&](infiniopHandle_t handle, infinirtStream_t stream) -> Outputs {
          Tensor x(c.x.shape, c.dtype, c.x.strides), w({d}, c.weight_dtype), y(c.x.shape, c.dtype);
          x.Upload(Values(x.numel(), 1, -2, 2));
          w.Upload(Values(d, 2, 0.5, 1.5));
          y.Upload(std::vector<double>(y.numel(), 0));
          infiniopRMSNormDescriptor_t desc = nullptr;
          EXPECT_OK(infiniopCreateRMSNormDescriptor(handle, &desc, y.desc(), x.desc(), w.desc(), 1e-5f));
          size_t size = 0;
          EXPECT_OK(infiniopGetRMSNormWorkspaceSize(desc, &size));
          const auto workspace = Workspace(size);
          EXPECT_OK(infiniopRMSNorm(desc, Data(workspace), size, y.data(), x.data(), w.data(), stream));
          EXPECT_OK(infinirtStreamSynchronize(stream));
          EXPECT_OK(infiniopDestroyRMSNormDescriptor(desc));
          return {y.Download()};
        },
        TwoUlps(c.dtype), "rms_norm");
  }
}

TEST_F(RowsApiGpu, LayerNormWithAndWithoutBias) {
  struct Config {
    infiniDtype_t dtype;
    std::vector<size_t> shape;
    bool bias;
  };
  const Config configs[] = {{INFINI_DTYPE_F32, {4, 700}, true}, {INFINI_DTYPE_F16, {3, 2000}, false},
                            {INFINI_DTYPE_F64, {2, 2, 33}, true}};
  for (const Config &c : configs) {
    const size_t d = c.shape.back();
    const std::vector<size_t> rows(c.shape.begin(), c.shape.end() - 1);
    Tolerance tol = TwoUlps(c.dtype);
    if (c.dtype == INFINI_DTYPE_F32) tol = {1e-5, 1e-4};
    ExpectSameOnBothDevices(
        [&](infiniopHandle_t handle, infinirtStream_t stream) -> Outputs {
          Tensor in(c.shape, c.dtype), w({d}, c.dtype), b({d}, c.dtype), out(c.shape, c.dtype),
              standard(c.shape, c.dtype), deviation(rows, c.dtype);
          in.Upload(Values(in.numel(), 3, -3, 5));
          w.Upload(Values(d, 4, 0.5, 1.5));
          b.Upload(Values(d, 5, -1, 1));
          infiniopLayerNormDescriptor_t desc = nullptr;
          EXPECT_OK(infiniopCreateLayerNormDescriptor(handle, &desc, out.desc(), standard.desc(), deviation.desc(),
                                                      in.desc(), w.desc(), c.bias ? b.desc() : nullptr, 1e-5f));
          size_t size = 0;
          EXPECT_OK(infiniopGetLayerNormWorkspaceSize(desc, &size));
          const auto workspace = Workspace(size);
          EXPECT_OK(infiniopLayerNorm(desc, Data(workspace), size, out.data(), standard.data(), deviation.data(),
                                      in.data(), w.data(), c.bias ? b.data() : nullptr, stream));
          EXPECT_OK(infinirtStreamSynchronize(stream));
          EXPECT_OK(infiniopDestroyLayerNormDescriptor(desc));
          return {out.Download(), standard.Download(), deviation.Download()};
        },
        tol, "layer_norm");
  }
}

TEST_F(RowsApiGpu, SoftmaxAndLogSoftmaxAlongAnAxis) {
  struct Config {
    infiniDtype_t dtype;
    Layout x;
    int axis;
    bool log;
  };
  const Config configs[] = {
      {INFINI_DTYPE_F32, {{6, 1500}, {}}, 1, false},    {INFINI_DTYPE_F16, {{40, 5}, {}}, 0, false},
      {INFINI_DTYPE_BF16, {{3, 4, 9}, {1, 3, 12}}, -1, false}, {INFINI_DTYPE_F32, {{4, 32000}, {}}, -1, true},
      {INFINI_DTYPE_F64, {{7, 130}, {}}, 1, true},
  };
  for (const Config &c : configs) {
    Tolerance tol = TwoUlps(c.dtype);
    if (c.log && c.dtype == INFINI_DTYPE_F32) tol.atol = 1e-5;
    ExpectSameOnBothDevices(
        [&](infiniopHandle_t handle, infinirtStream_t stream) -> Outputs {
          Tensor x(c.x.shape, c.dtype, c.x.strides), y(c.x.shape, c.dtype);
          x.Upload(Values(x.numel(), 6, -8, 8));
          y.Upload(std::vector<double>(y.numel(), 0));
          InfiniopDescriptor *desc = nullptr;
          size_t size = 0;
          if (c.log) {
            EXPECT_OK(infiniopCreateLogSoftmaxDescriptor(handle, &desc, y.desc(), x.desc(), c.axis));
            EXPECT_OK(infiniopGetLogSoftmaxWorkspaceSize(desc, &size));
          } else {
            EXPECT_OK(infiniopCreateSoftmaxDescriptor(handle, &desc, y.desc(), x.desc(), c.axis));
            EXPECT_OK(infiniopGetSoftmaxWorkspaceSize(desc, &size));
          }
          const auto workspace = Workspace(size);
          if (c.log) {
            EXPECT_OK(infiniopLogSoftmax(desc, Data(workspace), size, y.data(), x.data(), stream));
          } else {
            EXPECT_OK(infiniopSoftmax(desc, Data(workspace), size, y.data(), x.data(), stream));
          }
          EXPECT_OK(infinirtStreamSynchronize(stream));
          EXPECT_OK(c.log ? infiniopDestroyLogSoftmaxDescriptor(desc) : infiniopDestroySoftmaxDescriptor(desc));
          return {y.Download()};
        },
        tol, c.log ? "log_softmax" : "softmax");
  }
}

TEST_F(RowsApiGpu, CausalSoftmaxInPlaceAndNot) {
  struct Config {
    infiniDtype_t dtype;
    std::vector<size_t> shape;
    bool in_place;
  };
  const Config configs[] = {{INFINI_DTYPE_F16, {2, 7, 12}, false},
                            {INFINI_DTYPE_F32, {4, 64, 64}, true},
                            {INFINI_DTYPE_F64, {1, 3, 2000}, false}};
  for (const Config &c : configs) {
    ExpectSameOnBothDevices(
        [&](infiniopHandle_t handle, infinirtStream_t stream) -> Outputs {
          Tensor x(c.shape, c.dtype), y(c.shape, c.dtype);
          x.Upload(Values(x.numel(), 7, -6, 6));
          y.Upload(std::vector<double>(y.numel(), 0));
          Tensor &out = c.in_place ? x : y;
          infiniopCausalSoftmaxDescriptor_t desc = nullptr;
          EXPECT_OK(infiniopCreateCausalSoftmaxDescriptor(handle, &desc, out.desc(), x.desc()));
          size_t size = 0;
          EXPECT_OK(infiniopGetCausalSoftmaxWorkspaceSize(desc, &size));
          const auto workspace = Workspace(size);
          EXPECT_OK(infiniopCausalSoftmax(desc, Data(workspace), size, out.data(), x.data(), stream));
          EXPECT_OK(infinirtStreamSynchronize(stream));
          EXPECT_OK(infiniopDestroyCausalSoftmaxDescriptor(desc));
          return {out.Download()};
        },
        TwoUlps(c.dtype), "causal_softmax");
  }
}

TEST_F(RowsApiGpu, RoPEBothAlgorithms) {
  struct Config {
    infiniDtype_t dtype, pos_dtype;
    infiniopRoPEAlgo_t algo;
    std::vector<size_t> shape;
  };
  const Config configs[] = {{INFINI_DTYPE_F16, INFINI_DTYPE_I32, INFINIOP_ROPE_ALGO_GPT_NEOX, {6, 4, 32}},
                            {INFINI_DTYPE_F32, INFINI_DTYPE_I64, INFINIOP_ROPE_ALGO_GPT_J, {2, 5, 3, 16}},
                            {INFINI_DTYPE_BF16, INFINI_DTYPE_U16, INFINIOP_ROPE_ALGO_GPT_J, {3, 2, 8}}};
  const size_t table_len = 12;
  for (const Config &c : configs) {
    const size_t ndim = c.shape.size(), seq = c.shape[ndim - 3], half = c.shape.back() / 2;
    std::vector<size_t> pos_shape = {seq};
    if (ndim == 4) pos_shape.insert(pos_shape.begin(), c.shape[0]);
    ExpectSameOnBothDevices(
        [&](infiniopHandle_t handle, infinirtStream_t stream) -> Outputs {
          Tensor x(c.shape, c.dtype), y(c.shape, c.dtype), pos(pos_shape, c.pos_dtype);
          Tensor sin_table({table_len, half}, c.dtype), cos_table({table_len, half}, c.dtype);
          x.Upload(Values(x.numel(), 8, -1, 1));
          y.Upload(std::vector<double>(y.numel(), 0.25));  // rows of an out-of-range position keep it
          std::vector<double> positions(Numel(pos_shape));
          for (size_t i = 0; i < positions.size(); ++i) positions[i] = static_cast<double>(i % 5 == 4 ? table_len : (i * 5) % table_len);
          pos.Upload(positions);
          sin_table.Upload(Values(sin_table.numel(), 9, -1, 1));
          cos_table.Upload(Values(cos_table.numel(), 10, -1, 1));
          infiniopRoPEDescriptor_t desc = nullptr;
          EXPECT_OK(infiniopCreateRoPEDescriptor(handle, &desc, y.desc(), x.desc(), pos.desc(), sin_table.desc(),
                                                 cos_table.desc(), c.algo));
          size_t size = 0;
          EXPECT_OK(infiniopGetRoPEWorkspaceSize(desc, &size));
          const auto workspace = Workspace(size);
          EXPECT_OK(infiniopRoPE(desc, Data(workspace), size, y.data(), x.data(), pos.data(), sin_table.data(),
                                 cos_table.data(), stream));
          EXPECT_OK(infinirtStreamSynchronize(stream));
          EXPECT_OK(infiniopDestroyRoPEDescriptor(desc));
          return {y.Download()};
        },
        {0, 0}, "rope");  // F64 arithmetic on both: the same roundings
  }
}

TEST_F(RowsApiGpu, EmbeddingCopiesRowsExactly) {
  for (infiniDtype_t index_dtype : {INFINI_DTYPE_I32, INFINI_DTYPE_I64}) {
    ExpectSameOnBothDevices(
        [&](infiniopHandle_t handle, infinirtStream_t stream) -> Outputs {
          const size_t vocab = 30, dim = 16;
          Tensor weight({vocab, dim}, INFINI_DTYPE_BF16), input({2, 5}, index_dtype), output({2, 5, dim}, INFINI_DTYPE_BF16);
          weight.Upload(Values(weight.numel(), 11, -3, 3));
          std::vector<double> indices(10);
          for (size_t i = 0; i < indices.size(); ++i) indices[i] = i == 7 ? -1.0 : static_cast<double>((i * 7) % vocab);
          input.Upload(indices);
          output.Upload(std::vector<double>(output.numel(), 0.5));
          infiniopEmbeddingDescriptor_t desc = nullptr;
          EXPECT_OK(infiniopCreateEmbeddingDescriptor(handle, &desc, output.desc(), input.desc(), weight.desc()));
          EXPECT_OK(infiniopEmbedding(desc, output.data(), input.data(), weight.data(), stream));
          EXPECT_OK(infinirtStreamSynchronize(stream));
          EXPECT_OK(infiniopDestroyEmbeddingDescriptor(desc));
          return {output.Download()};
        },
        {0, 0}, "embedding");
  }
}

TEST_F(RowsApiGpu, RandomSampleDrawsTheCpuIndex) {
  struct Draw {
    float random_val, topp, temperature;
    int topk;
  };
  const Draw draws[] = {{0.0f, 0.9f, 1.0f, 50}, {0.4f, 0.9f, 0.8f, 50}, {0.95f, 1.0f, 1.0f, 0},
                        {0.6f, 0.7f, 2.0f, 1000}, {0.2f, 1.0f, 1.0f, 1}, {0.999f, 1.0f, 30.0f, 0}};
  for (infiniDtype_t dtype : {INFINI_DTYPE_F32, INFINI_DTYPE_F16}) {
    for (const Draw &draw : draws) {
      ExpectSameOnBothDevices(
          [&](infiniopHandle_t handle, infinirtStream_t stream) -> Outputs {
            const size_t n = dtype == INFINI_DTYPE_F32 ? 32000 : 1000;
            Tensor probs({n}, dtype), result({}, INFINI_DTYPE_I64);
            probs.Upload(Values(n, 12, -5, 5));
            infiniopRandomSampleDescriptor_t desc = nullptr;
            EXPECT_OK(infiniopCreateRandomSampleDescriptor(handle, &desc, result.desc(), probs.desc()));
            size_t size = 0;
            EXPECT_OK(infiniopGetRandomSampleWorkspaceSize(desc, &size));
            const auto workspace = Workspace(size);
            EXPECT_OK(infiniopRandomSample(desc, Data(workspace), size, result.data(), probs.data(), draw.random_val,
                                           draw.topp, draw.topk, draw.temperature, stream));
            EXPECT_OK(infinirtStreamSynchronize(stream));
            EXPECT_OK(infiniopDestroyRandomSampleDescriptor(desc));
            return {result.Download()};
          },
          {0, 0}, "random_sample");
    }
  }
}

}  // namespace
}  // namespace reference_cuda_test
