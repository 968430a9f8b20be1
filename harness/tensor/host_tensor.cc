#include "tensor/host_tensor.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "tensor/dtype.h"
#include "tensor/half.h"

namespace infinicts {
namespace {

template <class T>
T LoadAs(const void *address) {
  T value;
  std::memcpy(&value, address, sizeof value);
  return value;
}

template <class T>
void StoreAs(void *address, T value) {
  std::memcpy(address, &value, sizeof value);
}

// Nearest integer of T, saturating at T's range; NaN has no integer.
template <class T>
T ToIntegerSaturating(double value) {
  if (std::isnan(value)) throw std::invalid_argument("NaN stored into an integer tensor");
  const double rounded = std::nearbyint(value);
  // 2^k bounds are exact in double, unlike the maxima of 64-bit types.
  const double upper_exclusive = std::ldexp(1.0, std::numeric_limits<T>::digits);
  if (rounded >= upper_exclusive) return std::numeric_limits<T>::max();
  if (rounded <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  return static_cast<T>(rounded);
}

[[noreturn]] void ThrowUnreadable(infiniDtype_t dtype) {
  throw std::invalid_argument(std::string("HostTensor cannot hold elements of dtype ") + DtypeName(dtype));
}

void CheckReadable(infiniDtype_t dtype) {
  if (!IsHostReadable(dtype)) ThrowUnreadable(dtype);
}

}  // namespace

double LoadElement(infiniDtype_t dtype, const void *address) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return F16BitsToDouble(LoadAs<uint16_t>(address));
    case INFINI_DTYPE_BF16: return Bf16BitsToDouble(LoadAs<uint16_t>(address));
    case INFINI_DTYPE_F32: return LoadAs<float>(address);
    case INFINI_DTYPE_F64: return LoadAs<double>(address);
    // A BOOL reads as its byte: 0 and 1 are false and true, any other byte is no BOOL value
    // (a backend's wrong write) and matches neither.
    case INFINI_DTYPE_BOOL: return LoadAs<uint8_t>(address);
    case INFINI_DTYPE_BYTE:
    case INFINI_DTYPE_U8: return LoadAs<uint8_t>(address);
    case INFINI_DTYPE_U16: return LoadAs<uint16_t>(address);
    case INFINI_DTYPE_U32: return LoadAs<uint32_t>(address);
    case INFINI_DTYPE_U64: return static_cast<double>(LoadAs<uint64_t>(address));
    case INFINI_DTYPE_I8: return LoadAs<int8_t>(address);
    case INFINI_DTYPE_I16: return LoadAs<int16_t>(address);
    case INFINI_DTYPE_I32: return LoadAs<int32_t>(address);
    case INFINI_DTYPE_I64: return static_cast<double>(LoadAs<int64_t>(address));
    default: ThrowUnreadable(dtype);
  }
}

void StoreElement(infiniDtype_t dtype, void *address, double value) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return StoreAs(address, DoubleToF16Bits(value));
    case INFINI_DTYPE_BF16: return StoreAs(address, DoubleToBf16Bits(value));
    case INFINI_DTYPE_F32: return StoreAs(address, static_cast<float>(value));  // nearest, ties to even
    case INFINI_DTYPE_F64: return StoreAs(address, value);
    case INFINI_DTYPE_BOOL: return StoreAs<uint8_t>(address, value != 0.0 ? 1 : 0);
    case INFINI_DTYPE_BYTE:
    case INFINI_DTYPE_U8: return StoreAs(address, ToIntegerSaturating<uint8_t>(value));
    case INFINI_DTYPE_U16: return StoreAs(address, ToIntegerSaturating<uint16_t>(value));
    case INFINI_DTYPE_U32: return StoreAs(address, ToIntegerSaturating<uint32_t>(value));
    case INFINI_DTYPE_U64: return StoreAs(address, ToIntegerSaturating<uint64_t>(value));
    case INFINI_DTYPE_I8: return StoreAs(address, ToIntegerSaturating<int8_t>(value));
    case INFINI_DTYPE_I16: return StoreAs(address, ToIntegerSaturating<int16_t>(value));
    case INFINI_DTYPE_I32: return StoreAs(address, ToIntegerSaturating<int32_t>(value));
    case INFINI_DTYPE_I64: return StoreAs(address, ToIntegerSaturating<int64_t>(value));
    default: ThrowUnreadable(dtype);
  }
}

double RoundToDtype(infiniDtype_t dtype, double value) {
  uint8_t scratch[8];
  StoreElement(dtype, scratch, value);
  return LoadElement(dtype, scratch);
}

HostTensor::HostTensor() : HostTensor(INFINI_DTYPE_F64, Shape{}) {}

HostTensor::HostTensor(infiniDtype_t dtype, Shape shape) : HostTensor(dtype, ContiguousLayout(shape)) {}

HostTensor::HostTensor(infiniDtype_t dtype, Layout layout) : dtype_(dtype), layout_(std::move(layout)) {
  CheckReadable(dtype);
  if (layout_.strides.size() != layout_.shape.size()) {
    throw std::invalid_argument("HostTensor: shape " + ShapeText(layout_.shape) + " and strides " +
                                StridesText(layout_.strides) + " differ in rank");
  }
  storage_.assign(StorageElements(layout_) * DtypeSize(dtype), 0);
}

HostTensor HostTensor::FromValues(infiniDtype_t dtype, Shape shape, const std::vector<double> &values) {
  HostTensor tensor(dtype, std::move(shape));
  if (values.size() != tensor.numel()) {
    throw std::invalid_argument("HostTensor::FromValues: " + std::to_string(values.size()) + " values for shape " +
                                ShapeText(tensor.shape()));
  }
  for (size_t i = 0; i < values.size(); ++i) tensor.SetStorageElement(i, values[i]);
  return tensor;
}

size_t HostTensor::element_size() const { return DtypeSize(dtype_); }

size_t HostTensor::storage_elements() const { return storage_.size() / element_size(); }

size_t HostTensor::ElementOffset(const std::vector<size_t> &index) const {
  if (index.size() != ndim()) {
    throw std::out_of_range("index of rank " + std::to_string(index.size()) + " into a tensor of shape " +
                            ShapeText(shape()));
  }
  ptrdiff_t position = layout_.offset;
  for (size_t d = 0; d < index.size(); ++d) {
    if (index[d] >= layout_.shape[d]) {
      throw std::out_of_range("index " + std::to_string(index[d]) + " in dimension " + std::to_string(d) +
                              " of shape " + ShapeText(shape()));
    }
    position += static_cast<ptrdiff_t>(index[d]) * layout_.strides[d];
  }
  return static_cast<size_t>(position);
}

size_t HostTensor::RowMajorOffset(size_t row_major_index) const {
  if (row_major_index >= numel()) throw std::out_of_range("row-major index past the end of " + ShapeText(shape()));
  ptrdiff_t position = layout_.offset;
  for (size_t d = ndim(); d-- > 0;) {
    const size_t extent = layout_.shape[d];
    position += static_cast<ptrdiff_t>(row_major_index % extent) * layout_.strides[d];
    row_major_index /= extent;
  }
  return static_cast<size_t>(position);
}

double HostTensor::Get(const std::vector<size_t> &index) const { return GetStorageElement(ElementOffset(index)); }

void HostTensor::Set(const std::vector<size_t> &index, double value) {
  SetStorageElement(ElementOffset(index), value);
}

int64_t HostTensor::GetInt(const std::vector<size_t> &index) const {
  const uint8_t *address = storage_.data() + ElementOffset(index) * element_size();
  switch (dtype_) {
    case INFINI_DTYPE_I64: return LoadAs<int64_t>(address);
    case INFINI_DTYPE_U64: return static_cast<int64_t>(LoadAs<uint64_t>(address));
    default:
      if (!IsInteger(dtype_) && dtype_ != INFINI_DTYPE_BOOL) {
        throw std::invalid_argument(std::string("GetInt on a tensor of dtype ") + DtypeName(dtype_));
      }
      return static_cast<int64_t>(LoadElement(dtype_, address));
  }
}

void HostTensor::SetInt(const std::vector<size_t> &index, int64_t value) {
  uint8_t *address = storage_.data() + ElementOffset(index) * element_size();
  switch (dtype_) {
    case INFINI_DTYPE_I64: return StoreAs(address, value);
    case INFINI_DTYPE_U64: return StoreAs(address, static_cast<uint64_t>(value));
    case INFINI_DTYPE_BOOL: return StoreAs(address, static_cast<uint8_t>(value));  // the byte GetInt read
    default:
      if (!IsInteger(dtype_)) {
        throw std::invalid_argument(std::string("SetInt on a tensor of dtype ") + DtypeName(dtype_));
      }
      return StoreElement(dtype_, address, static_cast<double>(value));
  }
}

double HostTensor::GetAt(size_t row_major_index) const { return GetStorageElement(RowMajorOffset(row_major_index)); }

void HostTensor::SetAt(size_t row_major_index, double value) {
  SetStorageElement(RowMajorOffset(row_major_index), value);
}

std::vector<double> HostTensor::ToDoubles() const {
  const size_t count = numel();
  std::vector<double> values(count);
  if (count == 0) return values;
  // Walk the multi-index like an odometer, keeping the storage position up to date.
  std::vector<size_t> index(ndim(), 0);
  ptrdiff_t position = layout_.offset;
  for (size_t i = 0; i < count; ++i) {
    values[i] = GetStorageElement(static_cast<size_t>(position));
    for (size_t d = ndim(); d-- > 0;) {
      position += layout_.strides[d];
      if (++index[d] < layout_.shape[d]) break;
      position -= layout_.strides[d] * static_cast<ptrdiff_t>(layout_.shape[d]);
      index[d] = 0;
    }
  }
  return values;
}

HostTensor HostTensor::Contiguous() const { return ToDtype(dtype_); }

HostTensor HostTensor::ToDtype(infiniDtype_t dtype) const {
  if (dtype == dtype_ && (IsInteger(dtype) || dtype == INFINI_DTYPE_BOOL)) {
    HostTensor copy(dtype, shape());  // integers copied exactly, beyond 2^53 too
    for (size_t i = 0; i < numel(); ++i) {
      const std::vector<size_t> index = UnravelIndex(i, shape());
      copy.SetInt(index, GetInt(index));
    }
    return copy;
  }
  return FromValues(dtype, shape(), ToDoubles());
}

HostTensor HostTensor::WithLayout(const Layout &layout) const {
  if (layout.shape != shape()) {
    throw std::invalid_argument("WithLayout: shape " + ShapeText(layout.shape) + " differs from " +
                                ShapeText(shape()));
  }
  HostTensor copy(dtype_, layout);
  const size_t size = element_size();
  for (size_t i = 0; i < numel(); ++i) {
    std::memcpy(copy.storage_.data() + copy.RowMajorOffset(i) * size, storage_.data() + RowMajorOffset(i) * size,
                size);
  }
  return copy;
}

std::vector<size_t> HostTensor::UncoveredStorageElements() const {
  std::vector<bool> covered(storage_elements(), false);
  for (size_t i = 0; i < numel(); ++i) covered[RowMajorOffset(i)] = true;
  std::vector<size_t> gaps;
  for (size_t position = 0; position < covered.size(); ++position) {
    if (!covered[position]) gaps.push_back(position);
  }
  return gaps;
}

void HostTensor::FillStorage(double value) {
  for (size_t position = 0; position < storage_elements(); ++position) SetStorageElement(position, value);
}

double HostTensor::GetStorageElement(size_t position) const {
  if (position >= storage_elements()) throw std::out_of_range("storage element past the end");
  return LoadElement(dtype_, storage_.data() + position * element_size());
}

void HostTensor::SetStorageElement(size_t position, double value) {
  if (position >= storage_elements()) throw std::out_of_range("storage element past the end");
  StoreElement(dtype_, storage_.data() + position * element_size(), value);
}

}  // namespace infinicts
