#include "reference_device.h"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace infinicts::bench {

void Check(infiniStatus_t status, const char *what) {
  if (status != INFINI_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + " answered status " + std::to_string(static_cast<int>(status)));
  }
}

int CpuDeviceCount() {
  int count = 0;
  Check(infinirtInit(), "infinirtInit");
  Check(infinirtGetDeviceCount(INFINI_DEVICE_CPU, &count), "infinirtGetDeviceCount");
  return count;
}

ReferenceDevice &ReferenceDevice::Get(int id) {
  static std::mutex mutex;
  static auto *devices = new std::map<int, std::unique_ptr<ReferenceDevice>>();  // kept to exit
  std::lock_guard<std::mutex> lock(mutex);
  auto &slot = (*devices)[id];
  if (!slot) slot.reset(new ReferenceDevice(id));
  return *slot;
}

ReferenceDevice::ReferenceDevice(int id) : id_(id) {
  Check(infinirtInit(), "infinirtInit");
  MakeCurrent();
  Check(infinirtStreamCreate(&stream_), "infinirtStreamCreate");
  Check(infiniopCreateHandle(&handle_), "infiniopCreateHandle");
}

void ReferenceDevice::MakeCurrent() const { Check(infinirtSetDevice(INFINI_DEVICE_CPU, id_), "infinirtSetDevice"); }

DeviceBuffer::DeviceBuffer(const ReferenceDevice &device, size_t bytes) : device_(device), bytes_(bytes) {
  device_.MakeCurrent();
  Check(infinirtMalloc(&data_, bytes == 0 ? 1 : bytes), "infinirtMalloc");
}

DeviceBuffer::~DeviceBuffer() {
  device_.MakeCurrent();
  infinirtFree(data_);
}

StreamTimer::StreamTimer(const ReferenceDevice &device) : device_(device) {
  device_.MakeCurrent();
  Check(infinirtEventCreate(&start_), "infinirtEventCreate");
  Check(infinirtEventCreate(&end_), "infinirtEventCreate");
}

StreamTimer::~StreamTimer() {
  device_.MakeCurrent();
  infinirtEventDestroy(start_);
  infinirtEventDestroy(end_);
}

void StreamTimer::Start() { Check(infinirtEventRecord(start_, device_.stream()), "infinirtEventRecord"); }

void StreamTimer::Stop() { Check(infinirtEventRecord(end_, device_.stream()), "infinirtEventRecord"); }

double StreamTimer::Seconds() {
  Check(infinirtEventSynchronize(end_), "infinirtEventSynchronize");
  float ms = 0;
  Check(infinirtEventElapsedTime(&ms, start_, end_), "infinirtEventElapsedTime");
  return static_cast<double>(ms) * 1e-3;
}

double StreamTimer::Time(const std::function<void()> &enqueue) {
  device_.MakeCurrent();
  Start();
  enqueue();
  Stop();
  return Seconds();
}

}  // namespace infinicts::bench
