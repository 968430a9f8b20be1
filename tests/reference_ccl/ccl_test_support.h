// What the InfiniCCL smoke tests share: numbers in every number dtype, device buffers,
// driving the ranks from one thread or one thread each, and a fixture with a
// communicator over the four CPU virtual devices and one stream per device.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "infiniccl.h"

#define ASSERT_OK(expr) ASSERT_EQ((expr), INFINI_STATUS_SUCCESS)
#define EXPECT_OK(expr) EXPECT_EQ((expr), INFINI_STATUS_SUCCESS)

namespace ccl_test {

// The tests run with INFINICTS_CPU_DEVICES=4 (see CMakeLists.txt).
constexpr int kRanks = 4;

std::vector<infiniDtype_t> NumberDtypes();
std::string DtypeName(infiniDtype_t dtype);
size_t ElementSize(infiniDtype_t dtype);
// Signed integers and floating point: the dtypes that hold negative values.
bool HoldsNegatives(infiniDtype_t dtype);
bool IsFloating(infiniDtype_t dtype);

// Values the dtype represents exactly (the tests use small integers and quarters), as
// the dtype's bytes and back. Encoding a value the dtype cannot hold fails the test.
std::vector<uint8_t> Encode(infiniDtype_t dtype, const std::vector<double> &values);
std::vector<double> Decode(infiniDtype_t dtype, const std::vector<uint8_t> &bytes);

// Memory of one CPU device, freed at destruction.
class DeviceBuffer {
 public:
  DeviceBuffer(int device, size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  void *get() const { return data_; }
  char *bytes() const { return static_cast<char *>(data_); }
  void Upload(const std::vector<uint8_t> &bytes, size_t byte_offset = 0);
  std::vector<uint8_t> Download(size_t byte_count, size_t byte_offset = 0) const;

 private:
  void *data_ = nullptr;
};

enum class Driving { kOneThread, kThreadPerRank };
std::string DrivingName(Driving driving);

// Calls issue(rank) for each rank: in turn on the calling thread, or each on a thread of
// its own whose current device is devices[rank].
void ForEachRank(Driving driving, const std::vector<int> &devices, const std::function<void(int rank)> &issue);

// Expects got == want, naming the first few differing indices.
void ExpectValues(const std::vector<double> &got, const std::vector<double> &want, const std::string &context);

// Communicators from CommInitAll over devices 0..3 (rank r on device r) and a stream per
// device.
class CclTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Waits for every device stream.
  void SyncAll();

  std::vector<int> devices_;
  std::vector<infinicclComm_t> comms_;
  std::vector<infinirtStream_t> streams_;  // by device
};

}  // namespace ccl_test
