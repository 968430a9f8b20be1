#include "op_test_support.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/half.h"

namespace infiniop_test {
namespace {

using infinicts::ref::op::Bf16ToFloat;
using infinicts::ref::op::F16ToFloat;
using infinicts::ref::op::FloatToBf16;
using infinicts::ref::op::FloatToF16;

size_t ElementSize(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_I8: case INFINI_DTYPE_U8: return 1;
    case INFINI_DTYPE_F16: case INFINI_DTYPE_BF16: case INFINI_DTYPE_I16: case INFINI_DTYPE_U16: return 2;
    case INFINI_DTYPE_F32: case INFINI_DTYPE_I32: case INFINI_DTYPE_U32: return 4;
    default: return 8;
  }
}

template <class T>
void Put(void *at, T v) {
  std::memcpy(at, &v, sizeof v);
}

template <class T>
T Get(const void *at) {
  T v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

void Encode(infiniDtype_t dtype, double value, unsigned char *at) {
  switch (dtype) {
    case INFINI_DTYPE_F16: Put(at, FloatToF16(static_cast<float>(value))); break;
    case INFINI_DTYPE_BF16: Put(at, FloatToBf16(static_cast<float>(value))); break;
    case INFINI_DTYPE_F32: Put(at, static_cast<float>(value)); break;
    case INFINI_DTYPE_F64: Put(at, value); break;
    case INFINI_DTYPE_I8: Put(at, static_cast<int8_t>(value)); break;
    case INFINI_DTYPE_I16: Put(at, static_cast<int16_t>(value)); break;
    case INFINI_DTYPE_I32: Put(at, static_cast<int32_t>(value)); break;
    case INFINI_DTYPE_I64: Put(at, static_cast<int64_t>(value)); break;
    case INFINI_DTYPE_U8: Put(at, static_cast<uint8_t>(std::isnan(value) ? 0 : value)); break;
    case INFINI_DTYPE_U16: Put(at, static_cast<uint16_t>(std::isnan(value) ? 0 : value)); break;
    case INFINI_DTYPE_U32: Put(at, static_cast<uint32_t>(std::isnan(value) ? 0 : value)); break;
    case INFINI_DTYPE_U64: Put(at, static_cast<uint64_t>(std::isnan(value) ? 0 : value)); break;
    default: FAIL() << "dtype " << dtype << " has no encoding in the test";
  }
}

double Decode(infiniDtype_t dtype, const unsigned char *at) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return F16ToFloat(Get<uint16_t>(at));
    case INFINI_DTYPE_BF16: return Bf16ToFloat(Get<uint16_t>(at));
    case INFINI_DTYPE_F32: return Get<float>(at);
    case INFINI_DTYPE_F64: return Get<double>(at);
    case INFINI_DTYPE_I8: return Get<int8_t>(at);
    case INFINI_DTYPE_I16: return Get<int16_t>(at);
    case INFINI_DTYPE_I32: return Get<int32_t>(at);
    case INFINI_DTYPE_I64: return static_cast<double>(Get<int64_t>(at));
    case INFINI_DTYPE_U8: return Get<uint8_t>(at);
    case INFINI_DTYPE_U16: return Get<uint16_t>(at);
    case INFINI_DTYPE_U32: return Get<uint32_t>(at);
    default: return static_cast<double>(Get<uint64_t>(at));
  }
}

std::vector<ptrdiff_t> ContiguousStrides(const std::vector<size_t> &shape) {
  std::vector<ptrdiff_t> strides(shape.size());
  ptrdiff_t step = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = step;
    step *= static_cast<ptrdiff_t>(shape[d]);
  }
  return strides;
}

size_t Span(const std::vector<size_t> &shape, const std::vector<ptrdiff_t> &strides) {
  size_t span = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return 1;
    span += (shape[d] - 1) * static_cast<size_t>(strides[d]);
  }
  return span;
}

}  // namespace

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  if (bytes > 0) {
    EXPECT_OK(infinirtMalloc(&data_, bytes));
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (data_ != nullptr) {
    EXPECT_OK(infinirtFree(data_));
  }
}

Tensor::Tensor(std::vector<size_t> shape, infiniDtype_t dtype, std::vector<ptrdiff_t> strides)
    : shape_(std::move(shape)),
      strides_(strides.empty() ? ContiguousStrides(shape_) : std::move(strides)),
      dtype_(dtype),
      span_(Span(shape_, strides_)),
      storage_(Span(shape_, strides_) * ElementSize(dtype)) {
  EXPECT_OK(infiniopCreateTensorDescriptor(&desc_, shape_.size(), shape_.data(), strides_.data(), dtype_));
}

Tensor::~Tensor() {
  if (desc_ != nullptr) {
    EXPECT_OK(infiniopDestroyTensorDescriptor(desc_));
  }
}

size_t Tensor::numel() const {
  size_t count = 1;
  for (size_t dim : shape_) count *= dim;
  return count;
}

std::vector<size_t> Tensor::LogicalOffsets() const {
  std::vector<size_t> offsets;
  const size_t count = numel();
  for (size_t linear = 0; linear < count; ++linear) {
    size_t rest = linear, offset = 0;
    for (size_t d = shape_.size(); d-- > 0;) {
      offset += (rest % shape_[d]) * static_cast<size_t>(strides_[d]);
      rest /= shape_[d];
    }
    offsets.push_back(offset);
  }
  return offsets;
}

void Tensor::Upload(const std::vector<double> &values, double padding) {
  ASSERT_EQ(values.size(), numel());
  const size_t element = ElementSize(dtype_);
  std::vector<unsigned char> host(span_ * element);
  for (size_t i = 0; i < span_; ++i) Encode(dtype_, padding, &host[i * element]);
  const std::vector<size_t> offsets = LogicalOffsets();
  for (size_t i = 0; i < values.size(); ++i) Encode(dtype_, values[i], &host[offsets[i] * element]);
  ASSERT_OK(infinirtMemcpy(data(), host.data(), host.size(), INFINIRT_MEMCPY_H2D));
}

std::vector<double> Tensor::Download() const {
  const size_t element = ElementSize(dtype_);
  std::vector<unsigned char> host(span_ * element);
  EXPECT_OK(infinirtMemcpy(host.data(), data(), host.size(), INFINIRT_MEMCPY_D2H));
  std::vector<double> values;
  for (size_t offset : LogicalOffsets()) values.push_back(Decode(dtype_, &host[offset * element]));
  return values;
}

void OpTest::SetUp() {
  ASSERT_OK(infinirtInit());
  ASSERT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  ASSERT_OK(infiniopCreateHandle(&handle_));
  ASSERT_OK(infinirtStreamCreate(&stream_));
}

void OpTest::TearDown() {
  if (stream_ != nullptr) {
    EXPECT_OK(infinirtStreamDestroy(stream_));
  }
  if (handle_ != nullptr) {
    EXPECT_OK(infiniopDestroyHandle(handle_));
  }
}

void ExpectNear(const std::vector<double> &got, const std::vector<double> &want, double tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tolerance) << "at element " << i;
  }
}

}  // namespace infiniop_test
