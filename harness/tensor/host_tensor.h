// A tensor in host memory with any layout: dtype, shape, strides in elements, an offset
// into its storage, and the storage as bytes. Elements are read and written as doubles
// (integers also as int64), so oracles and generators work in fp64 whatever the dtype.
//
// Moving a tensor to a device and back: allocate storage_bytes() there, copy storage()
// over, and hand the backend `device_base + data_offset_bytes()` with shape() and strides();
// after the call copy the device storage back into storage().
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "infinicore.h"
#include "tensor/layout.h"

namespace infinicts {

class HostTensor {
 public:
  HostTensor();  // a 0-d F64 tensor holding 0
  // Contiguous, zero-filled.
  HostTensor(infiniDtype_t dtype, Shape shape);
  // Storage covers exactly the elements up to the layout's highest offset; zero-filled.
  HostTensor(infiniDtype_t dtype, Layout layout);
  // Contiguous, from values in row-major order (each rounded to dtype).
  static HostTensor FromValues(infiniDtype_t dtype, Shape shape, const std::vector<double> &values);

  infiniDtype_t dtype() const { return dtype_; }
  const Shape &shape() const { return layout_.shape; }
  const Strides &strides() const { return layout_.strides; }
  ptrdiff_t offset() const { return layout_.offset; }
  const Layout &layout() const { return layout_; }
  size_t ndim() const { return layout_.shape.size(); }
  size_t numel() const { return NumElements(layout_.shape); }
  size_t element_size() const;

  uint8_t *storage() { return storage_.data(); }
  const uint8_t *storage() const { return storage_.data(); }
  size_t storage_bytes() const { return storage_.size(); }
  size_t storage_elements() const;
  size_t data_offset_bytes() const { return static_cast<size_t>(layout_.offset) * element_size(); }
  void *data() { return storage_.data() + data_offset_bytes(); }  // element (0, ..., 0)
  const void *data() const { return storage_.data() + data_offset_bytes(); }

  // Element access by multi-index. Set rounds to the dtype (nearest, ties to even, for
  // floats; nearest integer, saturating, for integers; nonzero is true for BOOL).
  double Get(const std::vector<size_t> &index) const;
  void Set(const std::vector<size_t> &index, double value);
  // Exact access for integer and BOOL dtypes (I64 and U64 beyond 2^53 included; a BOOL as
  // its byte, which Get reads too: 0, 1, or another byte that is no BOOL value).
  int64_t GetInt(const std::vector<size_t> &index) const;
  void SetInt(const std::vector<size_t> &index, int64_t value);
  // Element access by position in row-major (logical) order, whatever the strides.
  double GetAt(size_t row_major_index) const;
  void SetAt(size_t row_major_index, double value);

  // Every element in row-major order.
  std::vector<double> ToDoubles() const;
  // Row-major copy in this dtype (offset 0).
  HostTensor Contiguous() const;
  // Row-major copy converted to another dtype (values rounded to it).
  HostTensor ToDtype(infiniDtype_t dtype) const;
  // Copy of the values into a new tensor of the same dtype with another layout (same shape).
  HostTensor WithLayout(const Layout &layout) const;

  // Storage element (not byte) positions that no index of the layout reaches: the gaps of
  // a padded or offset view, which an operator must leave untouched.
  std::vector<size_t> UncoveredStorageElements() const;
  // Writes `value` into every storage element, gaps included.
  void FillStorage(double value);
  // Raw storage element access (position counted in elements from the storage start).
  double GetStorageElement(size_t position) const;
  void SetStorageElement(size_t position, double value);

 private:
  size_t ElementOffset(const std::vector<size_t> &index) const;   // storage element position
  size_t RowMajorOffset(size_t row_major_index) const;

  infiniDtype_t dtype_;
  Layout layout_;
  std::vector<uint8_t> storage_;
};

// Reads / writes one element of `dtype` at `address` (which need not be aligned).
double LoadElement(infiniDtype_t dtype, const void *address);
void StoreElement(infiniDtype_t dtype, void *address, double value);

// The value `value` takes once stored in dtype (a double holding the stored number).
double RoundToDtype(infiniDtype_t dtype, double value);

}  // namespace infinicts
