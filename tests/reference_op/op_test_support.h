// What the smoke tests share: a fixture holding a handle and a stream on CPU device 0,
// and Tensor, a descriptor plus device storage that is filled and read in the logical
// (row-major) order of its elements, whatever its strides.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <vector>

#include "infiniop.h"
#include "infinirt.h"

#define EXPECT_OK(expr) EXPECT_EQ((expr), INFINI_STATUS_SUCCESS)
#define ASSERT_OK(expr) ASSERT_EQ((expr), INFINI_STATUS_SUCCESS)

namespace infiniop_test {

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  void *get() const { return data_; }
  size_t size() const { return bytes_; }

 private:
  void *data_ = nullptr;
  size_t bytes_ = 0;
};

class Tensor {
 public:
  // strides empty: contiguous row-major.
  Tensor(std::vector<size_t> shape, infiniDtype_t dtype, std::vector<ptrdiff_t> strides = {});
  ~Tensor();
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;

  infiniopTensorDescriptor_t desc() const { return desc_; }
  void *data() const { return storage_.get(); }
  size_t numel() const;

  // Writes values (one per logical element) and fills the rest of the storage with
  // `padding` (NaN by default, so that stray reads show).
  void Upload(const std::vector<double> &values, double padding = std::numeric_limits<double>::quiet_NaN());
  std::vector<double> Download() const;

 private:
  std::vector<size_t> LogicalOffsets() const;

  std::vector<size_t> shape_;
  std::vector<ptrdiff_t> strides_;
  infiniDtype_t dtype_;
  size_t span_ = 1;  // elements the storage holds
  infiniopTensorDescriptor_t desc_ = nullptr;
  DeviceBuffer storage_;
};

class OpTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  void Sync() { ASSERT_OK(infinirtStreamSynchronize(stream_)); }

  infiniopHandle_t handle_ = nullptr;
  infinirtStream_t stream_ = nullptr;
};

// Expects got[i] within tolerance of want[i] for every i.
void ExpectNear(const std::vector<double> &got, const std::vector<double> &want, double tolerance);

}  // namespace infiniop_test
