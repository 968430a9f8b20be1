#include "tensors.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "reference_device.h"

namespace infinicts::bench {
namespace {

// Round-to-nearest binary16 of a float in the normal range, which FillPattern keeps to.
uint16_t ToHalfBits(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof x);
  const uint32_t sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  if (x < 0x38800000u) return static_cast<uint16_t>(sign);  // below F16 normals: zero
  x += 0xc8000fffu + ((x >> 13) & 1u);
  return static_cast<uint16_t>(sign | (x >> 13));
}

}  // namespace

TensorDesc::TensorDesc(const std::vector<size_t> &shape, infiniDtype_t dtype) {
  Check(infiniopCreateTensorDescriptor(&desc_, shape.size(), shape.data(), nullptr, dtype),
        "infiniopCreateTensorDescriptor");
}

TensorDesc::TensorDesc(const std::vector<size_t> &shape, const std::vector<ptrdiff_t> &strides, infiniDtype_t dtype) {
  Check(infiniopCreateTensorDescriptor(&desc_, shape.size(), shape.data(), strides.data(), dtype),
        "infiniopCreateTensorDescriptor");
}

TensorDesc::~TensorDesc() { infiniopDestroyTensorDescriptor(desc_); }

size_t DtypeBytes(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return 2;
    case INFINI_DTYPE_F32: return 4;
    default: throw std::invalid_argument("the benchmark uses F16 and F32 only");
  }
}

const char *DtypeName(infiniDtype_t dtype) { return dtype == INFINI_DTYPE_F16 ? "f16" : "f32"; }

void FillPattern(void *data, size_t count, infiniDtype_t dtype, unsigned seed) {
  // The pattern repeats every kPeriod elements: computed once, then copied (fast setup).
  constexpr size_t kPeriod = 65536;
  const size_t element = DtypeBytes(dtype);
  if (count > kPeriod) {
    FillPattern(data, kPeriod, dtype, seed);
    for (size_t done = kPeriod; done < count; done += kPeriod) {
      std::memcpy(static_cast<char *>(data) + done * element, data, std::min(kPeriod, count - done) * element);
    }
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    // A multiplicative hash gives a spread of values without a generator's cost.
    const uint32_t h = static_cast<uint32_t>((i + seed * 7919u) * 2654435761u) >> 16;
    const float value = static_cast<float>(h) * (4.0f / 65536.0f) - 2.0f;
    if (dtype == INFINI_DTYPE_F16) {
      static_cast<uint16_t *>(data)[i] = ToHalfBits(value);
    } else {
      static_cast<float *>(data)[i] = value;
    }
  }
}

}  // namespace infinicts::bench
