// Host tensors for the row-kernel tests: a layout (shape, strides in elements, dtype) over
// a byte buffer spanning it, read and written element by element as double, and a device
// copy of it. Strides are non-negative here; gaps of a padded layout hold a fill pattern.
#ifndef INFINICTS_TESTS_REFERENCE_CUDA_ROWS_TEST_TENSORS_H
#define INFINICTS_TESTS_REFERENCE_CUDA_ROWS_TEST_TENSORS_H

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "core/dtype.h"
#include "core/half.h"
#include "core/tensor.h"

namespace reference_cuda_test {

using infinicts::ref::op::TensorLayout;

// Every index of `shape` in row-major order.
inline void ForEachIndex(const std::vector<size_t> &shape, const std::function<void(const std::vector<size_t> &)> &fn) {
  size_t count = 1;
  for (size_t dim : shape) count *= dim;
  std::vector<size_t> index(shape.size(), 0);
  for (size_t n = 0; n < count; ++n) {
    fn(index);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

inline std::vector<ptrdiff_t> Contiguous(const std::vector<size_t> &shape) {
  std::vector<ptrdiff_t> strides(shape.size());
  ptrdiff_t step = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = step;
    step *= static_cast<ptrdiff_t>(shape[d]);
  }
  return strides;
}

class HostTensor {
 public:
  HostTensor(infiniDtype_t dtype, std::vector<size_t> shape, std::vector<ptrdiff_t> strides = {})
      : layout_{dtype, std::move(shape), std::move(strides)} {
    if (layout_.strides.empty()) layout_.strides = Contiguous(layout_.shape);
    size_t span = 1;
    for (size_t d = 0; d < layout_.ndim(); ++d) {
      if (layout_.shape[d] == 0) span = 0;
    }
    if (span != 0) {
      for (size_t d = 0; d < layout_.ndim(); ++d) span += (layout_.shape[d] - 1) * static_cast<size_t>(layout_.strides[d]);
    }
    bytes_.resize(span * ElementSize());
    for (size_t i = 0; i < bytes_.size(); ++i) bytes_[i] = static_cast<unsigned char>(0xA5 ^ (i * 7));
  }

  const TensorLayout &layout() const { return layout_; }
  size_t ElementSize() const { return infinicts::ref::op::DtypeSize(layout_.dtype); }
  const std::vector<unsigned char> &bytes() const { return bytes_; }
  std::vector<unsigned char> &bytes() { return bytes_; }

  size_t Offset(const std::vector<size_t> &index) const {
    size_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d) offset += index[d] * static_cast<size_t>(layout_.strides[d]);
    return offset;
  }

  double Get(const std::vector<size_t> &index) const { return Decode(&bytes_[Offset(index) * ElementSize()]); }
  void Set(const std::vector<size_t> &index, double value) { Encode(value, &bytes_[Offset(index) * ElementSize()]); }

  // Whether each byte belongs to an element (the others are gaps of the layout).
  std::vector<bool> ElementBytes() const {
    std::vector<bool> used(bytes_.size(), false);
    ForEachIndex(layout_.shape, [&](const std::vector<size_t> &index) {
      for (size_t b = 0; b < ElementSize(); ++b) used[Offset(index) * ElementSize() + b] = true;
    });
    return used;
  }

  // Every element from `draw` (called in row-major order).
  void Fill(const std::function<double()> &draw) {
    ForEachIndex(layout_.shape, [&](const std::vector<size_t> &index) { Set(index, draw()); });
  }

  // The value a double becomes once stored in this dtype (the CPU reference's roundings).
  double Rounded(double value) const {
    unsigned char scratch[8];
    Encode(value, scratch);
    return Decode(scratch);
  }

 private:
  double Decode(const unsigned char *p) const {
    using namespace infinicts::ref::op;
    switch (layout_.dtype) {
      case INFINI_DTYPE_F16: { uint16_t b; std::memcpy(&b, p, 2); return F16ToFloat(b); }
      case INFINI_DTYPE_BF16: { uint16_t b; std::memcpy(&b, p, 2); return Bf16ToFloat(b); }
      case INFINI_DTYPE_F32: { float f; std::memcpy(&f, p, 4); return f; }
      case INFINI_DTYPE_F64: { double f; std::memcpy(&f, p, 8); return f; }
      case INFINI_DTYPE_I8: return *reinterpret_cast<const int8_t *>(p);
      case INFINI_DTYPE_U8: return *p;
      case INFINI_DTYPE_I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
      case INFINI_DTYPE_U16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
      case INFINI_DTYPE_I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
      case INFINI_DTYPE_U32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
      case INFINI_DTYPE_I64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
      case INFINI_DTYPE_U64: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
      default: return 0;
    }
  }
  void Encode(double value, unsigned char *p) const {
    using namespace infinicts::ref::op;
    switch (layout_.dtype) {
      case INFINI_DTYPE_F16: { const uint16_t b = FloatToF16(static_cast<float>(value)); std::memcpy(p, &b, 2); break; }
      case INFINI_DTYPE_BF16: { const uint16_t b = FloatToBf16(static_cast<float>(value)); std::memcpy(p, &b, 2); break; }
      case INFINI_DTYPE_F32: { const float f = static_cast<float>(value); std::memcpy(p, &f, 4); break; }
      case INFINI_DTYPE_F64: std::memcpy(p, &value, 8); break;
      case INFINI_DTYPE_I8: { const int8_t v = static_cast<int8_t>(value); std::memcpy(p, &v, 1); break; }
      case INFINI_DTYPE_U8: { const uint8_t v = static_cast<uint8_t>(value); std::memcpy(p, &v, 1); break; }
      case INFINI_DTYPE_I16: { const int16_t v = static_cast<int16_t>(value); std::memcpy(p, &v, 2); break; }
      case INFINI_DTYPE_U16: { const uint16_t v = static_cast<uint16_t>(value); std::memcpy(p, &v, 2); break; }
      case INFINI_DTYPE_I32: { const int32_t v = static_cast<int32_t>(value); std::memcpy(p, &v, 4); break; }
      case INFINI_DTYPE_U32: { const uint32_t v = static_cast<uint32_t>(value); std::memcpy(p, &v, 4); break; }
      case INFINI_DTYPE_I64: { const int64_t v = static_cast<int64_t>(value); std::memcpy(p, &v, 8); break; }
      case INFINI_DTYPE_U64: { const uint64_t v = static_cast<uint64_t>(value); std::memcpy(p, &v, 8); break; }
      default: break;
    }
  }

  TensorLayout layout_;
  std::vector<unsigned char> bytes_;
};

// A device copy of a host tensor's bytes (16-byte aligned: cudaMalloc's 256).
class DeviceCopy {
 public:
  explicit DeviceCopy(const HostTensor &host) : bytes_(host.bytes().size()) {
    if (cudaMalloc(&data_, bytes_ == 0 ? 1 : bytes_) != cudaSuccess) data_ = nullptr;
    if (data_ != nullptr && bytes_ > 0) cudaMemcpy(data_, host.bytes().data(), bytes_, cudaMemcpyHostToDevice);
  }
  explicit DeviceCopy(size_t bytes) : bytes_(bytes) {
    if (cudaMalloc(&data_, bytes_ == 0 ? 1 : bytes_) != cudaSuccess) data_ = nullptr;
  }
  ~DeviceCopy() { cudaFree(data_); }
  DeviceCopy(const DeviceCopy &) = delete;
  DeviceCopy &operator=(const DeviceCopy &) = delete;

  void *get() const { return data_; }
  // The device bytes back into `host` (same size).
  cudaError_t CopyTo(HostTensor *host) const {
    return cudaMemcpy(host->bytes().data(), data_, bytes_, cudaMemcpyDeviceToHost);
  }

 private:
  void *data_ = nullptr;
  size_t bytes_;
};

// Uniform values in [low, high) from a fixed seed.
inline std::function<double()> Uniform(unsigned seed, double low, double high) {
  auto engine = std::make_shared<std::mt19937_64>(seed);
  return [engine, low, high] { return std::uniform_real_distribution<double>(low, high)(*engine); };
}

}  // namespace reference_cuda_test

#endif  // INFINICTS_TESTS_REFERENCE_CUDA_ROWS_TEST_TENSORS_H
