// The CUDA paths of libinfiniop.so on a GPU, checked against the host: every case runs the
// same calls once on CPU device 0 and once on NVIDIA device 0 (tensors in that device's
// memory, tests/reference_op's Tensor) and compares what comes back. Every case skips
// where CUDA sees no device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "cuda_count.h"
#include "infiniop.h"
#include "infiniop/same_shape_operators.hpp"
#include "infinirt.h"
#include "op_test_support.h"

namespace reference_cuda_test {
namespace {

using infiniop_test::DeviceBuffer;
using infiniop_test::Tensor;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// What one case does on one device: creates its tensors (in the current device's memory),
// runs, and returns the outputs read back to the host.
using Case = std::function<std::vector<double>(infiniopHandle_t, infinirtStream_t)>;

std::vector<double> RunOn(infiniDevice_t device, const Case &body) {
  std::vector<double> result;
  EXPECT_EQ(infinirtSetDevice(device, 0), INFINI_STATUS_SUCCESS);
  infiniopHandle_t handle = nullptr;
  infinirtStream_t stream = nullptr;
  EXPECT_EQ(infiniopCreateHandle(&handle), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinirtStreamCreate(&stream), INFINI_STATUS_SUCCESS);
  if (handle != nullptr && stream != nullptr) result = body(handle, stream);
  if (stream != nullptr) {
    EXPECT_EQ(infinirtStreamDestroy(stream), INFINI_STATUS_SUCCESS);
  }
  if (handle != nullptr) {
    EXPECT_EQ(infiniopDestroyHandle(handle), INFINI_STATUS_SUCCESS);
  }
  infinirtSetDevice(INFINI_DEVICE_CPU, 0);
  return result;
}

// |gpu - cpu| <= atol + rtol * |cpu| everywhere; NaN where the host has NaN, the same
// infinity where it has one.
void ExpectGpuMatchesCpu(const Case &body, double rtol, double atol) {
  const std::vector<double> cpu = RunOn(INFINI_DEVICE_CPU, body);
  const std::vector<double> gpu = RunOn(INFINI_DEVICE_NVIDIA, body);
  ASSERT_EQ(gpu.size(), cpu.size());
  ASSERT_FALSE(cpu.empty());
  for (size_t i = 0; i < cpu.size(); ++i) {
    if (std::isnan(cpu[i])) {
      EXPECT_TRUE(std::isnan(gpu[i])) << "element " << i << ": gpu " << gpu[i];
    } else if (std::isinf(cpu[i])) {
      EXPECT_EQ(gpu[i], cpu[i]) << "element " << i;
    } else {
      EXPECT_NEAR(gpu[i], cpu[i], atol + rtol * std::fabs(cpu[i])) << "element " << i;
    }
  }
}

// Deterministic values in [-range, range], a few special ones first when `specials`.
std::vector<double> Values(size_t count, unsigned seed, double range, bool specials = false) {
  std::vector<double> values(count);
  uint32_t state = seed * 2654435761u + 1;
  for (size_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    values[i] = (static_cast<double>(state >> 8) / 16777216.0 * 2 - 1) * range;
  }
  const double special[] = {kNaN, kInf, -kInf, -0.0, 0.0};
  for (size_t i = 0; specials && i < 5 && i < count; ++i) values[i] = special[i];
  return values;
}

double Tolerance(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return 1.0 / 1024;
    case INFINI_DTYPE_BF16: return 1.0 / 128;
    case INFINI_DTYPE_F32: return 1e-6;
    default: return 1e-13;
  }
}

const infiniDtype_t kFloatDtypes[] = {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};

class OpGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (CudaDeviceCount() == 0) GTEST_SKIP() << "no CUDA device";
  }
  void TearDown() override { infinirtSetDevice(INFINI_DEVICE_CPU, 0); }
};

// ---- Elementwise ---------------------------------------------------------------------

// Whether the NVIDIA path implements `op`: an operator without its CUDA kernel yet answers
// NOT_IMPLEMENTED to the create call there, and is left to the CPU cases.
bool ImplementedOnGpu(const infiniop_same_shape::Operator &op) {
  bool implemented = true;
  RunOn(INFINI_DEVICE_NVIDIA, [&](infiniopHandle_t handle, infinirtStream_t) {
    Tensor tensor({4}, INFINI_DTYPE_F32);
    InfiniopDescriptor *desc = nullptr;
    const infiniStatus_t status =
        op.create(handle, &desc, std::vector<infiniopTensorDescriptor_t>(op.inputs + 1, tensor.desc()));
    implemented = status != INFINI_STATUS_NOT_IMPLEMENTED;
    if (status == INFINI_STATUS_SUCCESS) {
      EXPECT_EQ(op.destroy(desc), INFINI_STATUS_SUCCESS);
    }
    return std::vector<double>();
  });
  return implemented;
}

// The elementwise operators of include/infiniop/operators.def that the NVIDIA path
// implements, by their number of inputs (Clip, with its bounds, has a case of its own below).
std::vector<infiniop_same_shape::Operator> OperatorsWithInputs(size_t inputs) {
  std::vector<infiniop_same_shape::Operator> chosen;
  for (const auto &op : infiniop_same_shape::Operators()) {
    if (op.inputs == inputs && ImplementedOnGpu(op)) chosen.push_back(op);
  }
  return chosen;
}

struct Layout {
  std::vector<size_t> shape;
  std::vector<ptrdiff_t> strides;  // empty: contiguous
};

// Input and output layouts of one shape: contiguous with a tail after the last 16-byte
// pack (the vector path); a transposed input; padded rows on both sides.
struct LayoutPair {
  Layout in, out;
};
const LayoutPair kUnaryLayouts[] = {
    {{{7, 149}, {}}, {{7, 149}, {}}},
    {{{37, 29}, {1, 37}}, {{37, 29}, {}}},
    {{{19, 33}, {40, 1}}, {{19, 33}, {35, 1}}},
};

size_t Numel(const std::vector<size_t> &shape) {
  size_t count = 1;
  for (size_t dim : shape) count *= dim;
  return count;
}

TEST_F(OpGpu, UnaryOperatorsOnEveryLayoutAndDtype) {
  for (const auto &op : OperatorsWithInputs(1)) {
    for (infiniDtype_t dtype : kFloatDtypes) {
      for (const LayoutPair &layouts : kUnaryLayouts) {
        SCOPED_TRACE(std::string(op.subject) + " dtype " + std::to_string(dtype));
        ExpectGpuMatchesCpu(
            [&](infiniopHandle_t handle, infinirtStream_t stream) {
              Tensor x(layouts.in.shape, dtype, layouts.in.strides), y(layouts.out.shape, dtype, layouts.out.strides);
              x.Upload(Values(Numel(layouts.in.shape), 1, 6, true));
              y.Upload(std::vector<double>(Numel(layouts.out.shape), 0));
              InfiniopDescriptor *desc = nullptr;
              EXPECT_EQ(op.create(handle, &desc, {y.desc(), x.desc()}), INFINI_STATUS_SUCCESS);
              EXPECT_EQ(op.compute(desc, nullptr, 0, {y.data(), x.data()}, stream), INFINI_STATUS_SUCCESS);
              EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
              EXPECT_EQ(op.destroy(desc), INFINI_STATUS_SUCCESS);
              return y.Download();
            },
            4 * Tolerance(dtype), 4 * Tolerance(dtype));
      }
    }
  }
}

TEST_F(OpGpu, BinaryOperatorsWithBroadcastAndInPlace) {
  for (const auto &op : OperatorsWithInputs(2)) {
    for (infiniDtype_t dtype : kFloatDtypes) {
      SCOPED_TRACE(std::string(op.subject) + " dtype " + std::to_string(dtype));
      // b broadcasts one row over every row (stride 0) and a is transposed.
      ExpectGpuMatchesCpu(
          [&](infiniopHandle_t handle, infinirtStream_t stream) {
            Tensor a({29, 37}, dtype, {1, 29}), b({29, 37}, dtype, {0, 1}), c({29, 37}, dtype);
            a.Upload(Values(29 * 37, 2, 4, true));
            std::vector<double> row = Values(37, 3, 4);
            std::vector<double> b_values;
            for (int r = 0; r < 29; ++r) b_values.insert(b_values.end(), row.begin(), row.end());
            b.Upload(b_values);
            InfiniopDescriptor *desc = nullptr;
            EXPECT_EQ(op.create(handle, &desc, {c.desc(), a.desc(), b.desc()}), INFINI_STATUS_SUCCESS);
            EXPECT_EQ(op.compute(desc, nullptr, 0, {c.data(), a.data(), b.data()}, stream), INFINI_STATUS_SUCCESS);
            EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
            EXPECT_EQ(op.destroy(desc), INFINI_STATUS_SUCCESS);
            return c.Download();
          },
          4 * Tolerance(dtype), 4 * Tolerance(dtype));
      // In place, contiguous: c = a (the vector path).
      ExpectGpuMatchesCpu(
          [&](infiniopHandle_t handle, infinirtStream_t stream) {
            Tensor a({1029}, dtype), b({1029}, dtype);
            a.Upload(Values(1029, 4, 3, true));
            b.Upload(Values(1029, 5, 3));
            InfiniopDescriptor *desc = nullptr;
            EXPECT_EQ(op.create(handle, &desc, {a.desc(), a.desc(), b.desc()}), INFINI_STATUS_SUCCESS);
            EXPECT_EQ(op.compute(desc, nullptr, 0, {a.data(), a.data(), b.data()}, stream), INFINI_STATUS_SUCCESS);
            EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
            EXPECT_EQ(op.destroy(desc), INFINI_STATUS_SUCCESS);
            return a.Download();
          },
          4 * Tolerance(dtype), 4 * Tolerance(dtype));
    }
  }
}

// Contiguous but not 16-byte aligned (an offset view): the strided path, writing only its
// elements.
TEST_F(OpGpu, MisalignedContiguousViews) {
  for (infiniDtype_t dtype : kFloatDtypes) {
    SCOPED_TRACE("dtype " + std::to_string(dtype));
    ExpectGpuMatchesCpu(
        [&](infiniopHandle_t handle, infinirtStream_t stream) {
          Tensor x({2, 1001}, dtype), y({2, 1001}, dtype);
          x.Upload(Values(2002, 6, 5, true));
          y.Upload(std::vector<double>(2002, 9));
          const size_t shape[1] = {1001};
          infiniopTensorDescriptor_t row = nullptr;
          EXPECT_EQ(infiniopCreateTensorDescriptor(&row, 1, shape, nullptr, dtype), INFINI_STATUS_SUCCESS);
          const size_t element = dtype == INFINI_DTYPE_F64 ? 8 : dtype == INFINI_DTYPE_F32 ? 4 : 2;
          InfiniopDescriptor *desc = nullptr;
          EXPECT_EQ(infiniopCreateReluDescriptor(handle, &desc, row, row), INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infiniopRelu(desc, nullptr, 0, static_cast<char *>(y.data()) + 1001 * element,
                                 static_cast<char *>(x.data()) + 1001 * element, stream),
                    INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infiniopDestroyReluDescriptor(desc), INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infiniopDestroyTensorDescriptor(row), INFINI_STATUS_SUCCESS);
          return y.Download();  // row 0 must still hold 9
        },
        0, 0);
  }
}

TEST_F(OpGpu, ClipWithCrossedAndNaNBounds) {
  for (infiniDtype_t dtype : kFloatDtypes) {
    SCOPED_TRACE("dtype " + std::to_string(dtype));
    ExpectGpuMatchesCpu(
        [&](infiniopHandle_t handle, infinirtStream_t stream) {
          const size_t n = 515;
          Tensor x({n}, dtype), low({n}, dtype), high({n}, dtype, {0}), y({n}, dtype);
          x.Upload(Values(n, 7, 4, true));
          std::vector<double> lows = Values(n, 8, 2);
          lows[7] = kNaN;
          lows[8] = 3;  // above high: low wins
          low.Upload(lows);
          high.Upload(std::vector<double>(n, 1.5));
          y.Upload(std::vector<double>(n, 0));
          InfiniopDescriptor *desc = nullptr;
          EXPECT_EQ(infiniopCreateClipDescriptor(handle, &desc, y.desc(), x.desc(), low.desc(), high.desc()),
                    INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infiniopClip(desc, nullptr, 0, y.data(), x.data(), low.data(), high.data(), stream),
                    INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infiniopDestroyClipDescriptor(desc), INFINI_STATUS_SUCCESS);
          return y.Download();
        },
        0, 0);
  }
}

// ---- Gemm ------------------------------------------------------------------------------

struct GemmLayouts {
  std::vector<size_t> c_shape, a_shape, b_shape;
  std::vector<ptrdiff_t> c_strides, a_strides, b_strides;  // empty: contiguous
};

Case GemmCase(infiniDtype_t dtype, const GemmLayouts &l, float alpha, float beta, bool nan_in_c = false) {
  return [=](infiniopHandle_t handle, infinirtStream_t stream) {
    Tensor c(l.c_shape, dtype, l.c_strides), a(l.a_shape, dtype, l.a_strides), b(l.b_shape, dtype, l.b_strides);
    a.Upload(Values(Numel(l.a_shape), 11, 1));
    b.Upload(Values(Numel(l.b_shape), 12, 1));
    c.Upload(nan_in_c ? std::vector<double>(Numel(l.c_shape), kNaN) : Values(Numel(l.c_shape), 13, 1));
    InfiniopDescriptor *desc = nullptr;
    EXPECT_EQ(infiniopCreateGemmDescriptor(handle, &desc, c.desc(), a.desc(), b.desc()), INFINI_STATUS_SUCCESS);
    size_t size = 0;
    EXPECT_EQ(infiniopGetGemmWorkspaceSize(desc, &size), INFINI_STATUS_SUCCESS);
    DeviceBuffer workspace(size);
    EXPECT_EQ(infiniopGemm(desc, workspace.get(), size, c.data(), a.data(), b.data(), alpha, beta, stream),
              INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infiniopDestroyGemmDescriptor(desc), INFINI_STATUS_SUCCESS);
    return c.Download();
  };
}

double GemmTolerance(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return 1.0 / 256;
    case INFINI_DTYPE_BF16: return 1.0 / 32;
    case INFINI_DTYPE_F32: return 2e-5;
    default: return 1e-12;
  }
}

TEST_F(OpGpu, GemmEveryStorageOrderAndDtype) {
  // m 33, k 70, n 45; each matrix row-major, column-major or padded.
  const GemmLayouts layouts[] = {
      {{33, 45}, {33, 70}, {70, 45}, {}, {}, {}},
      {{33, 45}, {33, 70}, {70, 45}, {}, {1, 33}, {1, 70}},        // A and B column-major
      {{33, 45}, {33, 70}, {70, 45}, {1, 33}, {}, {1, 70}},        // C column-major
      {{33, 45}, {33, 70}, {70, 45}, {1, 40}, {1, 40}, {50, 1}},   // padded leading dims
      {{33, 45}, {33, 70}, {70, 45}, {48, 1}, {75, 1}, {1, 72}},
  };
  for (infiniDtype_t dtype : kFloatDtypes) {
    for (const GemmLayouts &layout : layouts) {
      SCOPED_TRACE("dtype " + std::to_string(dtype));
      ExpectGpuMatchesCpu(GemmCase(dtype, layout, 1.5f, 0.5f), GemmTolerance(dtype), GemmTolerance(dtype));
    }
  }
}

TEST_F(OpGpu, GemmBatchesBroadcastAndEdgeShapes) {
  for (infiniDtype_t dtype : kFloatDtypes) {
    SCOPED_TRACE("dtype " + std::to_string(dtype));
    const double tolerance = GemmTolerance(dtype);
    // A batch of 3, A shared by every batch, B batched column-major with a padded batch stride.
    ExpectGpuMatchesCpu(GemmCase(dtype, {{3, 17, 19}, {1, 17, 23}, {3, 23, 19}, {}, {}, {500, 1, 23}}, 1, 0),
                        tolerance, tolerance);
    // Vectors: m = 1 and n = 1.
    ExpectGpuMatchesCpu(GemmCase(dtype, {{1, 31}, {1, 64}, {64, 31}, {}, {}, {}}, 1, 1), tolerance, tolerance);
    ExpectGpuMatchesCpu(GemmCase(dtype, {{31, 1}, {31, 64}, {64, 1}, {}, {}, {}}, 2, 0), tolerance, tolerance);
    // beta = 0 never reads C (NaN there), and k = 0: C = beta * C.
    ExpectGpuMatchesCpu(GemmCase(dtype, {{9, 10}, {9, 11}, {11, 10}, {}, {}, {}}, 1, 0, true), tolerance, tolerance);
    ExpectGpuMatchesCpu(GemmCase(dtype, {{2, 9, 10}, {2, 9, 0}, {2, 0, 10}, {}, {9, 1, 1}, {10, 10, 1}}, 1, 0.5f),
                        0, 0);
    ExpectGpuMatchesCpu(GemmCase(dtype, {{9, 10}, {9, 0}, {0, 10}, {1, 9}, {1, 1}, {10, 1}}, 1, 0, true), 0, 0);
  }
}

// One descriptor on two streams, calls enqueued alternately (OP-STREAM-3): each stream's
// products come out as the host computes them, with cuBLAS's handle shared by both.
TEST_F(OpGpu, GemmOnTwoStreamsAlternately) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_F32}) {
    SCOPED_TRACE("dtype " + std::to_string(dtype));
    ExpectGpuMatchesCpu(
        [&](infiniopHandle_t handle, infinirtStream_t first) {
          infinirtStream_t second = nullptr;
          EXPECT_EQ(infinirtStreamCreate(&second), INFINI_STATUS_SUCCESS);
          Tensor a1({64, 96}, dtype), b1({96, 80}, dtype), c1({64, 80}, dtype);
          Tensor a2({64, 96}, dtype), b2({96, 80}, dtype), c2({64, 80}, dtype);
          a1.Upload(Values(64 * 96, 51, 1));
          b1.Upload(Values(96 * 80, 52, 1));
          a2.Upload(Values(64 * 96, 53, 1));
          b2.Upload(Values(96 * 80, 54, 1));
          c1.Upload(std::vector<double>(64 * 80, 0));
          c2.Upload(std::vector<double>(64 * 80, 0));
          InfiniopDescriptor *desc = nullptr;
          EXPECT_EQ(infiniopCreateGemmDescriptor(handle, &desc, c1.desc(), a1.desc(), b1.desc()),
                    INFINI_STATUS_SUCCESS);
          size_t size = 0;
          EXPECT_EQ(infiniopGetGemmWorkspaceSize(desc, &size), INFINI_STATUS_SUCCESS);
          DeviceBuffer workspace1(size), workspace2(size);
          for (int round = 0; round < 8; ++round) {
            // c += a * b / 8 each round: the result depends on every call running once, in order.
            EXPECT_EQ(infiniopGemm(desc, workspace1.get(), size, c1.data(), a1.data(), b1.data(), 0.125f, 1.0f, first),
                      INFINI_STATUS_SUCCESS);
            EXPECT_EQ(
                infiniopGemm(desc, workspace2.get(), size, c2.data(), a2.data(), b2.data(), 0.125f, 1.0f, second),
                INFINI_STATUS_SUCCESS);
          }
          EXPECT_EQ(infinirtStreamSynchronize(first), INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infinirtStreamSynchronize(second), INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infiniopDestroyGemmDescriptor(desc), INFINI_STATUS_SUCCESS);
          EXPECT_EQ(infinirtStreamDestroy(second), INFINI_STATUS_SUCCESS);
          std::vector<double> both = c1.Download();
          const std::vector<double> other = c2.Download();
          both.insert(both.end(), other.begin(), other.end());
          return both;
        },
        4 * GemmTolerance(dtype), 4 * GemmTolerance(dtype));
  }
}

// ---- Rearrange -------------------------------------------------------------------------

Case RearrangeCase(infiniDtype_t dtype, const Layout &dst_layout, const Layout &src_layout) {
  return [=](infiniopHandle_t handle, infinirtStream_t stream) {
    Tensor dst(dst_layout.shape, dtype, dst_layout.strides), src(src_layout.shape, dtype, src_layout.strides);
    src.Upload(Values(Numel(src_layout.shape), 21, 100));
    dst.Upload(std::vector<double>(Numel(dst_layout.shape), 0));
    InfiniopDescriptor *desc = nullptr;
    EXPECT_EQ(infiniopCreateRearrangeDescriptor(handle, &desc, dst.desc(), src.desc()), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infiniopRearrange(desc, dst.data(), src.data(), stream), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infiniopDestroyRearrangeDescriptor(desc), INFINI_STATUS_SUCCESS);
    return dst.Download();
  };
}

TEST_F(OpGpu, RearrangeEveryPath) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_I8, INFINI_DTYPE_F16, INFINI_DTYPE_F32, INFINI_DTYPE_I64}) {
    SCOPED_TRACE("dtype " + std::to_string(dtype));
    ExpectGpuMatchesCpu(RearrangeCase(dtype, {{5, 6, 7}, {}}, {{5, 6, 7}, {}}), 0, 0);               // memcpy
    ExpectGpuMatchesCpu(RearrangeCase(dtype, {{33, 21}, {24, 1}}, {{33, 21}, {30, 1}}), 0, 0);       // 2-D rows
    ExpectGpuMatchesCpu(RearrangeCase(dtype, {{65, 47}, {}}, {{65, 47}, {1, 65}}), 0, 0);           // transpose
    ExpectGpuMatchesCpu(RearrangeCase(dtype, {{4, 5, 6}, {1, 4, 20}}, {{4, 5, 6}, {30, 6, 1}}), 0, 0);
    ExpectGpuMatchesCpu(RearrangeCase(dtype, {{3, 8}, {}}, {{3, 8}, {0, 1}}), 0, 0);                 // broadcast
  }
}

// ---- Streams and the operators without a CUDA path --------------------------------------

TEST_F(OpGpu, StreamsOfAnotherDeviceAreRefusedAndNullStreamWorks) {
  ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
  infinirtStream_t cpu_stream = nullptr;
  ASSERT_EQ(infinirtStreamCreate(&cpu_stream), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0), INFINI_STATUS_SUCCESS);
  infiniopHandle_t handle = nullptr;
  ASSERT_EQ(infiniopCreateHandle(&handle), INFINI_STATUS_SUCCESS);
  {
    Tensor a({300}, INFINI_DTYPE_F32), c({300}, INFINI_DTYPE_F32);
    a.Upload(Values(300, 31, 2));
    InfiniopDescriptor *desc = nullptr;
    ASSERT_EQ(infiniopCreateAddDescriptor(handle, &desc, c.desc(), a.desc(), a.desc()), INFINI_STATUS_SUCCESS);
    infiniDevice_t type = INFINI_DEVICE_CPU;
    ASSERT_EQ(infiniopGetDescriptorDeviceType(desc, &type), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(type, INFINI_DEVICE_NVIDIA);
    EXPECT_EQ(infiniopAdd(desc, nullptr, 0, c.data(), a.data(), a.data(), cpu_stream), INFINI_STATUS_BAD_PARAM);
    ASSERT_EQ(infiniopAdd(desc, nullptr, 0, c.data(), a.data(), a.data(), nullptr), INFINI_STATUS_SUCCESS);
    ASSERT_EQ(infinirtDeviceSynchronize(), INFINI_STATUS_SUCCESS);
    const std::vector<double> in = a.Download(), out = c.Download();
    for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], 2 * in[i]) << i;
    EXPECT_EQ(infiniopDestroyAddDescriptor(desc), INFINI_STATUS_SUCCESS);
  }
  EXPECT_EQ(infiniopDestroyHandle(handle), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(infinirtStreamDestroy(cpu_stream), INFINI_STATUS_SUCCESS);
}

// ---- Conv ------------------------------------------------------------------------------

struct ConvCaseSpec {
  std::vector<size_t> x_shape, w_shape, y_shape;
  std::vector<ptrdiff_t> x_strides;  // empty: contiguous
  std::vector<ptrdiff_t> w_strides;  // empty: contiguous
  std::vector<size_t> pads, dilations;
  std::vector<ptrdiff_t> steps;
  bool bias;
};

Case ConvCase(infiniDtype_t dtype, const ConvCaseSpec &spec) {
  return [=](infiniopHandle_t handle, infinirtStream_t stream) {
    Tensor x(spec.x_shape, dtype, spec.x_strides), w(spec.w_shape, dtype, spec.w_strides), y(spec.y_shape, dtype),
        bias({spec.w_shape[0]}, dtype);
    x.Upload(Values(Numel(spec.x_shape), 41, 1));
    w.Upload(Values(Numel(spec.w_shape), 42, 1));
    y.Upload(std::vector<double>(Numel(spec.y_shape), kNaN));
    bias.Upload(Values(spec.w_shape[0], 43, 1));
    InfiniopDescriptor *desc = nullptr;
    std::vector<size_t> pads = spec.pads, dilations = spec.dilations;
    std::vector<ptrdiff_t> steps = spec.steps;
    EXPECT_EQ(infiniopCreateConvDescriptor(handle, &desc, y.desc(), x.desc(), w.desc(),
                                           spec.bias ? bias.desc() : nullptr, pads.data(), steps.data(),
                                           dilations.data(), pads.size()),
              INFINI_STATUS_SUCCESS);
    size_t size = 0;
    EXPECT_EQ(infiniopGetConvWorkspaceSize(desc, &size), INFINI_STATUS_SUCCESS);
    DeviceBuffer workspace(size);
    EXPECT_EQ(infiniopConv(desc, workspace.get(), size, y.data(), x.data(), w.data(),
                           spec.bias ? bias.data() : nullptr, stream),
              INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_SUCCESS);
    EXPECT_EQ(infiniopDestroyConvDescriptor(desc), INFINI_STATUS_SUCCESS);
    return y.Download();
  };
}

TEST_F(OpGpu, ConvPaddingStridesDilationsAndLayouts) {
  // Packed weights go to cuDNN (NCHW or channels-last), others to the direct kernel.
  const ConvCaseSpec specs[] = {
      // 2-d, padded, strided, with bias: 9x11 input, 3x3 kernel, pad 1, stride 2.
      {{2, 3, 9, 11}, {4, 3, 3, 3}, {2, 4, 5, 6}, {}, {}, {1, 1}, {1, 1}, {2, 2}, true},
      // 2-d, dilated, channels-last input layout, no bias.
      {{1, 5, 8, 8}, {2, 5, 2, 3}, {1, 2, 6, 4}, {320, 1, 40, 5}, {}, {0, 0}, {2, 2}, {1, 1}, false},
      // 1-d and 3-d.
      {{3, 2, 17}, {3, 2, 4}, {3, 3, 16}, {}, {}, {1}, {1}, {1}, true},
      {{1, 2, 4, 5, 6}, {2, 2, 2, 2, 2}, {1, 2, 3, 4, 5}, {}, {}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, true},
      // A channels-last weight (cuDNN's NHWC filter) and a padded one (the direct kernel).
      {{2, 4, 7, 7}, {3, 4, 3, 3}, {2, 3, 5, 5}, {}, {36, 1, 12, 4}, {0, 0}, {1, 1}, {1, 1}, true},
      {{2, 4, 7, 7}, {3, 4, 3, 3}, {2, 3, 7, 7}, {}, {80, 20, 6, 2}, {1, 1}, {1, 1}, {1, 1}, true},
      // A layer size where cuDNN's tensor-core and GEMM algorithms are the ones chosen.
      {{2, 64, 28, 28}, {64, 64, 3, 3}, {2, 64, 28, 28}, {}, {}, {1, 1}, {1, 1}, {1, 1}, true},
  };
  for (infiniDtype_t dtype : kFloatDtypes) {
    for (const ConvCaseSpec &spec : specs) {
      SCOPED_TRACE("dtype " + std::to_string(dtype));
      // Sums of a different order (cuDNN's against OpenBLAS's) differ by rounding errors that
      // grow as the root of the sum's length: the Gemm tolerance holds for up to 32 terms.
      const double terms = static_cast<double>(Numel(spec.w_shape) / spec.w_shape[0]);
      const double tolerance = GemmTolerance(dtype) * std::max(1.0, std::sqrt(terms / 32));
      ExpectGpuMatchesCpu(ConvCase(dtype, spec), tolerance, tolerance);
    }
  }
}

}  // namespace
}  // namespace reference_cuda_test
