// Device and its Stream / DeviceBuffer wrappers over the fake runtime: the
// right functions, on the right device, with the caller's device unchanged, and
// every handle destroyed exactly once.
#include <string>
#include <utility>

#include "fake_runtime_test_base.h"

namespace infinicts::device::testing {
namespace {

class DeviceTest : public FakeRuntimeTest {
 protected:
  // The caller sits on cpu:1 while working with nvidia:2, so a missing guard shows.
  void SetUp() override {
    FakeRuntimeTest::SetUp();
    ExchangeDevice(rt_, cpu1_);
  }
  Device gpu_{rt_, gpu2_};
};

TEST_F(DeviceTest, StreamIsCreatedOnItsDeviceAndDestroyedOnce) {
  infinirtStream_t raw = nullptr;
  {
    std::unique_ptr<Stream> stream = gpu_.CreateStream();
    raw = stream->raw();
    ASSERT_NE(nullptr, raw);
    EXPECT_EQ(&gpu_, &stream->device());
    EXPECT_EQ(gpu2_, Fake().live_streams.at(raw));
    EXPECT_EQ(cpu1_, FakeCurrentDevice());
  }
  EXPECT_EQ(1, Calls("infinirtStreamDestroy"));
  EXPECT_EQ(gpu2_, Fake().DeviceAtLastCall("infinirtStreamDestroy"));
  EXPECT_TRUE(Fake().live_streams.empty());
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, StreamSynchronizePassesItsHandleOnItsDevice) {
  std::unique_ptr<Stream> stream = gpu_.CreateStream();
  stream->Synchronize();
  EXPECT_EQ(stream->raw(), Fake().last_synchronized_stream);
  EXPECT_EQ(gpu2_, Fake().DeviceAtLastCall("infinirtStreamSynchronize"));
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, StreamFailuresThrowTheStatusAndRestoreTheDevice) {
  std::unique_ptr<Stream> stream = gpu_.CreateStream();
  Force("infinirtStreamSynchronize", INFINI_STATUS_INTERNAL_ERROR);
  try {
    stream->Synchronize();
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_INTERNAL_ERROR, error.status());
    EXPECT_NE(std::string::npos, std::string(error.what()).find("infinirtStreamSynchronize"));
  }
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, StreamCreateFailureThrowsAndLeaksNothing) {
  Force("infinirtStreamCreate", INFINI_STATUS_DEVICE_NOT_INITIALIZED);
  try {
    gpu_.CreateStream();
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_DEVICE_NOT_INITIALIZED, error.status());
  }
  EXPECT_EQ(0, Calls("infinirtStreamDestroy"));
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, SuccessWithTheNullStreamGivesTheDefaultStream) {
  Force("infinirtStreamCreate", INFINI_STATUS_SUCCESS);  // answers without filling the handle
  {
    std::unique_ptr<Stream> stream = gpu_.CreateStream();
    ASSERT_NE(nullptr, stream);
    EXPECT_EQ(nullptr, stream->raw());
    EXPECT_TRUE(stream->is_default());
    stream->Synchronize();  // the NULL stream is a valid stream
  }
  EXPECT_EQ(0, Calls("infinirtStreamDestroy"));  // nor is it the caller's to destroy
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, FailedStreamDestroyDoesNotThrowFromTheDestructor) {
  std::unique_ptr<Stream> stream = gpu_.CreateStream();
  Force("infinirtStreamDestroy", INFINI_STATUS_INTERNAL_ERROR);
  stream.reset();
  EXPECT_EQ(1, Calls("infinirtStreamDestroy"));
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, AllocateOnTheDeviceAndFreeOnceOnIt) {
  void *data = nullptr;
  {
    DeviceBuffer buffer = gpu_.Allocate(4096);
    data = buffer.data();
    ASSERT_NE(nullptr, data);
    EXPECT_EQ(4096u, buffer.size());
    EXPECT_EQ(gpu2_, buffer.device());
    EXPECT_EQ(gpu2_, Fake().live_allocations.at(data).device);
    EXPECT_EQ(cpu1_, FakeCurrentDevice());
  }
  EXPECT_EQ(1, Calls("infinirtFree"));
  EXPECT_EQ(0, Calls("infinirtFreeHost"));
  EXPECT_EQ(gpu2_, Fake().DeviceAtLastCall("infinirtFree"));
  EXPECT_TRUE(Fake().live_allocations.empty());
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, ZeroByteAllocationWithNullNeedsNoFree) {
  { DeviceBuffer buffer = gpu_.Allocate(0); EXPECT_EQ(nullptr, buffer.data()); }
  EXPECT_EQ(0, Calls("infinirtFree"));
}

TEST_F(DeviceTest, AllocationFailuresThrow) {
  Force("infinirtMalloc", INFINI_STATUS_INTERNAL_ERROR);
  try {
    gpu_.Allocate(64);
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_INTERNAL_ERROR, error.status());
    EXPECT_NE(std::string::npos, std::string(error.what()).find("infinirtMalloc"));
  }
  Force("infinirtMalloc", INFINI_STATUS_SUCCESS);  // SUCCESS with NULL for 64 bytes
  try {
    gpu_.Allocate(64);
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    // The status the backend answered, never one it did not.
    EXPECT_EQ(INFINI_STATUS_SUCCESS, error.status());
    EXPECT_EQ("infinirtMalloc", error.call());
    EXPECT_STREQ("infinirtMalloc answered SUCCESS with a NULL pointer for 64 bytes", error.what());
  }
  EXPECT_EQ(0, Calls("infinirtFree"));
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, MovedBuffersAreFreedExactlyOnce) {
  DeviceBuffer first = gpu_.Allocate(128);
  void *first_data = first.data();
  DeviceBuffer moved(std::move(first));
  EXPECT_EQ(nullptr, first.data());
  EXPECT_EQ(0u, first.size());
  EXPECT_EQ(first_data, moved.data());
  EXPECT_EQ(128u, moved.size());

  DeviceBuffer second = gpu_.Allocate(64);
  void *second_data = second.data();
  moved = std::move(second);  // the first allocation is freed now
  EXPECT_EQ(1, Calls("infinirtFree"));
  EXPECT_EQ(0u, Fake().live_allocations.count(first_data));
  EXPECT_EQ(second_data, moved.data());

  DeviceBuffer &alias = moved;
  moved = std::move(alias);  // self-move keeps the buffer
  EXPECT_EQ(second_data, moved.data());
  EXPECT_EQ(1, Calls("infinirtFree"));

  DeviceBuffer empty;
  empty = std::move(moved);
  { DeviceBuffer gone = std::move(first); }  // destroying moved-from buffers frees nothing
  EXPECT_EQ(1, Calls("infinirtFree"));
  empty = DeviceBuffer();
  EXPECT_EQ(2, Calls("infinirtFree"));
  EXPECT_TRUE(Fake().live_allocations.empty());
}

TEST_F(DeviceTest, SynchronizeAndMemInfoRunOnTheDevice) {
  gpu_.Synchronize();
  EXPECT_EQ(gpu2_, Fake().DeviceAtLastCall("infinirtDeviceSynchronize"));
  DeviceBuffer buffer = gpu_.Allocate(1024);
  size_t free_bytes = 0;
  size_t total_bytes = 0;
  gpu_.MemInfo(&free_bytes, &total_bytes);
  EXPECT_EQ(size_t{1} << 30, total_bytes);
  EXPECT_EQ(total_bytes - 1024, free_bytes);
  EXPECT_EQ(gpu2_, Fake().DeviceAtLastCall("infinirtGetMemInfo"));
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, DeviceThatCannotBeSetFailsBeforeCallingTheBackend) {
  Device missing(rt_, DeviceId{INFINI_DEVICE_NVIDIA, 9});
  try {
    missing.CreateStream();
    FAIL() << "no DeviceError";
  } catch (const DeviceError &error) {
    EXPECT_EQ(INFINI_STATUS_DEVICE_NOT_FOUND, error.status());
  }
  EXPECT_EQ(0, Calls("infinirtStreamCreate"));
  EXPECT_THROW(missing.Allocate(8), DeviceError);
  EXPECT_EQ(0, Calls("infinirtMalloc"));
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

TEST_F(DeviceTest, DestructorsStillReleaseWhenTheDeviceCannotBeRead) {
  std::unique_ptr<Stream> stream = gpu_.CreateStream();
  DeviceBuffer buffer = gpu_.Allocate(32);
  Force("infinirtGetDevice", INFINI_STATUS_INTERNAL_ERROR);
  stream.reset();
  buffer = DeviceBuffer();
  EXPECT_TRUE(Fake().live_streams.empty());
  EXPECT_TRUE(Fake().live_allocations.empty());
  EXPECT_EQ(cpu1_, FakeCurrentDevice());
}

}  // namespace
}  // namespace infinicts::device::testing
