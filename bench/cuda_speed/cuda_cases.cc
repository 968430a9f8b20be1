#include "cuda_cases.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>

#include "infiniop.h"
#include "infiniop/tensor_descriptor.h"

namespace infinicts::bench::cuda {
namespace {

size_t SizeOf(infiniDtype_t dtype) { return dtype == INFINI_DTYPE_F32 ? 4 : 2; }
const char *NameOf(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_F32 ? "F32" : dtype == INFINI_DTYPE_F16 ? "F16" : "BF16";
}

float ToFloat(const void *data, size_t i, infiniDtype_t dtype) {
  if (dtype == INFINI_DTYPE_F32) return static_cast<const float *>(data)[i];
  if (dtype == INFINI_DTYPE_F16) return __half2float(static_cast<const __half *>(data)[i]);
  return __bfloat162float(static_cast<const __nv_bfloat16 *>(data)[i]);
}

void FromFloat(float value, void *data, size_t i, infiniDtype_t dtype) {
  if (dtype == INFINI_DTYPE_F32) static_cast<float *>(data)[i] = value;
  else if (dtype == INFINI_DTYPE_F16) static_cast<__half *>(data)[i] = __float2half(value);
  else static_cast<__nv_bfloat16 *>(data)[i] = __float2bfloat16(value);
}

class Buffer {
 public:
  Buffer(size_t count, infiniDtype_t dtype) : count_(count), dtype_(dtype) {
    CheckCuda(cudaMalloc(&data_, count * SizeOf(dtype)), "cudaMalloc");
  }
  ~Buffer() { cudaFree(data_); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  void *data() const { return data_; }
  size_t bytes() const { return count_ * SizeOf(dtype_); }

  // Uniform values in [low, high): a block of random ones repeated (random data, since
  // zeros would flatter the tensor cores, without generating gigabytes on the host).
  void FillUniform(float low, float high, unsigned seed) {
    const size_t block = std::min<size_t>(count_, size_t{1} << 22);
    std::vector<unsigned char> host(block * SizeOf(dtype_));
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> uniform(low, high);
    for (size_t i = 0; i < block; ++i) FromFloat(uniform(generator), host.data(), i, dtype_);
    for (size_t done = 0; done < count_; done += block) {
      const size_t n = std::min(block, count_ - done);
      CheckCuda(cudaMemcpy(static_cast<unsigned char *>(data_) + done * SizeOf(dtype_), host.data(), n * SizeOf(dtype_),
                           cudaMemcpyHostToDevice),
                "cudaMemcpy to the device");
    }
  }
  // The first `count` values, as floats.
  std::vector<float> Head(size_t count) const {
    count = std::min(count, count_);
    std::vector<unsigned char> host(count * SizeOf(dtype_));
    CheckCuda(cudaMemcpy(host.data(), data_, host.size(), cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = ToFloat(host.data(), i, dtype_);
    return values;
  }

 private:
  void *data_ = nullptr;
  size_t count_;
  infiniDtype_t dtype_;
};

// A contiguous tensor descriptor, destroyed with the object.
class Desc {
 public:
  Desc(std::vector<size_t> shape, infiniDtype_t dtype) {
    std::vector<ptrdiff_t> strides(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * static_cast<ptrdiff_t>(shape[d]);
    CheckRt(infiniopCreateTensorDescriptor(&desc_, shape.size(), shape.data(), strides.data(), dtype),
            "infiniopCreateTensorDescriptor");
  }
  ~Desc() { infiniopDestroyTensorDescriptor(desc_); }
  Desc(const Desc &) = delete;
  Desc &operator=(const Desc &) = delete;
  operator infiniopTensorDescriptor_t() const { return desc_; }

 private:
  infiniopTensorDescriptor_t desc_ = nullptr;
};

// The operator's workspace, on the device.
struct Workspace {
  void *data = nullptr;
  size_t bytes = 0;
  explicit Workspace(size_t size) : bytes(size) {
    if (size > 0) CheckCuda(cudaMalloc(&data, size), "cudaMalloc (workspace)");
  }
  ~Workspace() { cudaFree(data); }
};

void Require(bool holds, const std::string &what) {
  if (!holds) throw std::runtime_error("wrong output: " + what);
}

// Seconds per call of operator `name`: its descriptor made by `create`, its workspace
// allocated, `run` (desc, workspace, workspace bytes) timed on the reference stream, the
// descriptor destroyed. The timing waits for its end mark, so every call is done after.
template <class Descriptor, class Create, class Run>
double TimeOperator(const BenchContext &context, const std::string &name, Create create,
                    infiniStatus_t (*workspace_size)(Descriptor, size_t *), Run run,
                    infiniStatus_t (*destroy)(Descriptor)) {
  Descriptor desc = nullptr;
  CheckRt(create(&desc), ("infiniopCreate" + name + "Descriptor").c_str());
  size_t bytes = 0;
  CheckRt(workspace_size(desc, &bytes), ("infiniopGet" + name + "WorkspaceSize").c_str());
  const Workspace workspace(bytes);
  const std::string call = "infiniop" + name;
  const double seconds = TimeOnReferenceStream(
      context.stream, [&] { CheckRt(run(desc, workspace.data, workspace.bytes), call.c_str()); }, context.timing);
  destroy(desc);
  return seconds;
}

// (bytes read + bytes written) / time of one device-to-device copy of `bytes`.
double CopyBandwidth(const BenchContext &context, size_t bytes) {
  Buffer from(bytes / 4, INFINI_DTYPE_F32), to(bytes / 4, INFINI_DTYPE_F32);
  auto stream = static_cast<cudaStream_t>(context.cuda_stream);
  const double seconds = TimeOnCudaStream(
      context.cuda_stream,
      [&] { CheckCuda(cudaMemcpyAsync(to.data(), from.data(), from.bytes(), cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync"); },
      context.timing);
  return 2.0 * static_cast<double>(from.bytes()) / seconds;
}

void AddGemmRow(const BenchContext &context, infiniDtype_t dtype, size_t size, std::vector<RatioRow> *rows) {
  const size_t m = size, n = size, k = size;
  Buffer a(m * k, dtype), b(k * n, dtype), c(m * n, dtype), direct_c(m * n, dtype);
  a.FillUniform(-1, 1, 1);
  b.FillUniform(-1, 1, 2);
  const Desc a_desc({m, k}, dtype), b_desc({k, n}, dtype), c_desc({m, n}, dtype);
  const double reference_s = TimeOperator(
      context, "Gemm",
      [&](infiniopGemmDescriptor_t *desc) { return infiniopCreateGemmDescriptor(context.handle, desc, c_desc, a_desc, b_desc); },
      infiniopGetGemmWorkspaceSize,
      [&](infiniopGemmDescriptor_t desc, void *workspace, size_t bytes) {
        return infiniopGemm(desc, workspace, bytes, c.data(), a.data(), b.data(), 1.0f, 0.0f, context.stream);
      },
      infiniopDestroyGemmDescriptor);

  // Row-major C = A B is column-major C^T = B^T A^T: B first, leading dimensions n, k, n.
  const cudaDataType type = dtype == INFINI_DTYPE_F32 ? CUDA_R_32F : dtype == INFINI_DTYPE_F16 ? CUDA_R_16F : CUDA_R_16BF;
  const float alpha = 1, beta = 0;
  auto cublas = static_cast<cublasHandle_t>(context.cublas);
  const double direct_s = TimeOnCudaStream(context.cuda_stream, [&] {
    const cublasStatus_t status =
        cublasGemmEx(cublas, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &alpha,
                     b.data(), type, static_cast<int>(n), a.data(), type, static_cast<int>(k), &beta, direct_c.data(), type,
                     static_cast<int>(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasGemmEx failed with status " + std::to_string(status));
  }, context.timing);

  // Both sides compute the same sums: they agree to the output's rounding.
  const std::vector<float> ours = c.Head(1 << 20), theirs = direct_c.Head(1 << 20);
  double largest = 0, worst = 0;
  for (size_t i = 0; i < ours.size(); ++i) {
    largest = std::max(largest, static_cast<double>(std::fabs(theirs[i])));
    worst = std::max(worst, static_cast<double>(std::fabs(ours[i] - theirs[i])));
  }
  Require(largest > 0 && worst <= 1e-2 * largest, std::string("Gemm ") + NameOf(dtype) + " differs from cuBLAS by " +
                                                     std::to_string(worst) + " (largest value " + std::to_string(largest) + ")");
  const double flops = 2.0 * static_cast<double>(m) * n * k;
  rows->push_back({std::string("gemm ") + NameOf(dtype) + " " + std::to_string(size) + "^3 vs cublasGemmEx",
                   flops / reference_s, flops / direct_s, 0.95, false});
}

// Add: c = a + b, checked on the first elements.
double AddRate(const BenchContext &context, infiniDtype_t dtype, size_t count) {
  Buffer a(count, dtype), b(count, dtype), c(count, dtype);
  a.FillUniform(-4, 4, 3);
  b.FillUniform(-4, 4, 4);
  const Desc desc_of({count}, dtype);
  const double seconds = TimeOperator(
      context, "Add",
      [&](infiniopAddDescriptor_t *desc) { return infiniopCreateAddDescriptor(context.handle, desc, desc_of, desc_of, desc_of); },
      infiniopGetAddWorkspaceSize,
      [&](infiniopAddDescriptor_t desc, void *workspace, size_t bytes) {
        return infiniopAdd(desc, workspace, bytes, c.data(), a.data(), b.data(), context.stream);
      },
      infiniopDestroyAddDescriptor);
  const std::vector<float> x = a.Head(1 << 16), y = b.Head(1 << 16), sum = c.Head(1 << 16);
  for (size_t i = 0; i < sum.size(); ++i) {
    const float expected = x[i] + y[i];
    Require(std::fabs(sum[i] - expected) <= 8e-3f * std::fabs(expected) + 1e-6f, std::string("Add ") + NameOf(dtype));
  }
  return 3.0 * static_cast<double>(c.bytes()) / seconds;
}

// RMSNorm over rows of `columns` (weight in the same dtype), checked on the first row.
double RmsNormRate(const BenchContext &context, infiniDtype_t dtype, size_t rows, size_t columns) {
  Buffer x(rows * columns, dtype), w(columns, dtype), y(rows * columns, dtype);
  x.FillUniform(-2, 2, 5);
  w.FillUniform(0.5, 1.5, 6);
  const Desc x_desc({rows, columns}, dtype), w_desc({columns}, dtype);
  const float epsilon = 1e-6f;
  const double seconds = TimeOperator(
      context, "RMSNorm",
      [&](infiniopRMSNormDescriptor_t *desc) {
        return infiniopCreateRMSNormDescriptor(context.handle, desc, x_desc, x_desc, w_desc, epsilon);
      },
      infiniopGetRMSNormWorkspaceSize,
      [&](infiniopRMSNormDescriptor_t desc, void *workspace, size_t bytes) {
        return infiniopRMSNorm(desc, workspace, bytes, y.data(), x.data(), w.data(), context.stream);
      },
      infiniopDestroyRMSNormDescriptor);
  const std::vector<float> row = x.Head(columns), weight = w.Head(columns), out = y.Head(columns);
  double squares = 0;
  for (float v : row) squares += static_cast<double>(v) * v;
  const double scale = 1.0 / std::sqrt(squares / static_cast<double>(columns) + epsilon);
  for (size_t j = 0; j < columns; ++j) {
    const double expected = row[j] * scale * weight[j];
    Require(std::fabs(out[j] - expected) <= 2e-2 * std::fabs(expected) + 1e-3, std::string("RMSNorm ") + NameOf(dtype));
  }
  return (2.0 * static_cast<double>(y.bytes()) + static_cast<double>(w.bytes())) / seconds;
}

// Softmax along rows of `columns`: the first row sums to 1 and follows exp(x - max).
double SoftmaxRate(const BenchContext &context, infiniDtype_t dtype, size_t rows, size_t columns) {
  Buffer x(rows * columns, dtype), y(rows * columns, dtype);
  x.FillUniform(-6, 6, 7);
  const Desc desc_of({rows, columns}, dtype);
  const double seconds = TimeOperator(
      context, "Softmax",
      [&](infiniopSoftmaxDescriptor_t *desc) { return infiniopCreateSoftmaxDescriptor(context.handle, desc, desc_of, desc_of, 1); },
      infiniopGetSoftmaxWorkspaceSize,
      [&](infiniopSoftmaxDescriptor_t desc, void *workspace, size_t bytes) {
        return infiniopSoftmax(desc, workspace, bytes, y.data(), x.data(), context.stream);
      },
      infiniopDestroySoftmaxDescriptor);
  const std::vector<float> row = x.Head(columns), out = y.Head(columns);
  const float max = *std::max_element(row.begin(), row.end());
  double total = 0;
  for (float v : row) total += std::exp(static_cast<double>(v) - max);
  for (size_t j = 0; j < columns; ++j) {
    const double expected = std::exp(static_cast<double>(row[j]) - max) / total;
    Require(std::fabs(out[j] - expected) <= 1e-2 * expected + 1e-7, std::string("Softmax ") + NameOf(dtype));
  }
  return 2.0 * static_cast<double>(y.bytes()) / seconds;
}

}  // namespace

void AddGemmRows(const BenchContext &context, std::vector<RatioRow> *rows) {
  const size_t size = context.smoke ? 512 : 8192;
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}) AddGemmRow(context, dtype, size, rows);
}

void AddBandwidthRows(const BenchContext &context, std::vector<RatioRow> *rows) {
  // Large enough to be several times the 50-60 MB L2 of current parts: 2^28 elements.
  const size_t count = context.smoke ? size_t{1} << 20 : size_t{1} << 28;
  const size_t columns = context.smoke ? 1024 : 8192, row_count = count / columns;
  const double copy = CopyBandwidth(context, count * 4);
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_F32}) {
    const std::string suffix = std::string(" ") + NameOf(dtype);
    rows->push_back({"add" + suffix + " vs D2D copy", AddRate(context, dtype, count), copy, 0.8, true});
    rows->push_back({"rms_norm" + suffix + " vs D2D copy", RmsNormRate(context, dtype, row_count, columns), copy, 0.7, true});
    rows->push_back({"softmax" + suffix + " vs D2D copy", SoftmaxRate(context, dtype, row_count, columns), copy, 0.7, true});
  }
}

}  // namespace infinicts::bench::cuda
