#include "ccl_world.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;
using cts::rt;

uint8_t GuardByte(size_t index) { return static_cast<uint8_t>(index * 37 + 11); }

std::string RankText(int rank) { return "(rank " + std::to_string(rank) + ")"; }

// Lets the rank threads wait until each has issued its calls.
class Barrier {
 public:
  explicit Barrier(int count) : left_(count) {}
  void ArriveAndWait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (--left_ == 0) {
      all_arrived_.notify_all();
      return;
    }
    all_arrived_.wait(lock, [this] { return left_ == 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable all_arrived_;
  int left_;
};

}  // namespace

CallResult Check(int status, const std::string &call) { return CallResult{status, status == 0 ? "" : call, ""}; }

CallResult GaveNull(const std::string &call, const std::string &what) {
  return CallResult{INFINI_STATUS_SUCCESS, call, what};
}

const char *DriveName(Drive drive) { return drive == Drive::kOneThread ? "one_thread" : "threads"; }

std::vector<int> FirstDevices(int ranks) {
  const auto &ids = cts::device_ids();
  return std::vector<int>(ids.begin(), ids.begin() + std::min<size_t>(ranks, ids.size()));
}

CallResult MakeCurrent(int device) {
  return Check(rt().infinirtSetDevice(cts::device_type(), device),
               "infinirtSetDevice(" + std::to_string(device) + ")");
}

World::~World() { Close(); }

CallResult World::Open(const std::vector<int> &device_ids, Streams streams) {
  std::vector<infinicclComm_t> comms(device_ids.size(), nullptr);
  const CallResult made = Check(
      ccl().infinicclCommInitAll(cts::device_type(), comms.data(), static_cast<int>(device_ids.size()), device_ids.data()),
      "infinicclCommInitAll(" + std::to_string(device_ids.size()) + " devices)");
  if (!made.ok()) return made;
  return Adopt(comms, device_ids, streams);
}

CallResult World::Adopt(const std::vector<infinicclComm_t> &comms, const std::vector<int> &device_ids,
                        Streams streams) {
  devices_ = device_ids;
  comms_ = comms;
  streams_.assign(device_ids.size(), nullptr);
  for (int r = 0; r < size(); ++r) {
    if (comms_[r] == nullptr) {
      return GaveNull("infinicclCommInitAll", "a NULL communicator for rank " + std::to_string(r));
    }
  }
  for (int r = 0; r < size() && streams == Streams::kCreated; ++r) {
    CallResult result = MakeCurrent(devices_[r]);
    if (result.ok()) result = Check(rt().infinirtStreamCreate(&streams_[r]), "infinirtStreamCreate" + RankText(r));
    if (!result.ok()) return result;
  }
  return {};
}

CallResult World::Allocate(int rank, size_t bytes, DeviceMemory **memory) {
  memories_.push_back(std::make_unique<DeviceMemory>());
  *memory = memories_.back().get();
  return memories_.back()->Allocate(devices_[rank], bytes);
}

CallResult World::Synchronize() {
  for (int r = 0; r < size(); ++r) {
    CallResult result = MakeCurrent(devices_[r]);
    if (result.ok()) result = Check(rt().infinirtStreamSynchronize(streams_[r]), "infinirtStreamSynchronize" + RankText(r));
    if (!result.ok()) return result;
  }
  return {};
}

CallResult World::RunStep(const std::function<CallResult(int)> &fn, int r) const {
  if (!fn) return {};
  const CallResult current = MakeCurrent(devices_[r]);
  return current.ok() ? fn(r) : current;
}

CallResult World::IssueFromOneThread(const RankSteps &steps) {
  const int ranks = size();
  const auto step = [this](const std::function<CallResult(int)> &fn, int r) { return RunStep(fn, r); };
  CallResult failure;
  bool issued_any = false;
  for (int r = 0; r < ranks && failure.ok(); ++r) failure = step(steps.before, r);
  int grouped = 0;
  for (; grouped < ranks && failure.ok(); ++grouped) {
    failure = Check(ccl().infinicclGroupStart(comms_[grouped]), "infinicclGroupStart" + RankText(grouped));
    if (!failure.ok()) break;
  }
  for (int r = 0; r < ranks && failure.ok(); ++r) {
    issued_any = true;
    failure = step(steps.issue, r);
  }
  for (int r = 0; r < grouped; ++r) {
    const CallResult ended = Check(ccl().infinicclGroupEnd(comms_[r]), "infinicclGroupEnd" + RankText(r));
    if (failure.ok()) failure = ended;
  }
  for (int r = 0; r < ranks && failure.ok(); ++r) failure = step(steps.after, r);
  if (!failure.ok() && issued_any) Abandon();
  return failure;
}

CallResult World::Run(Drive drive, const RankSteps &steps) {
  const int ranks = size();
  const auto step = [this](const std::function<CallResult(int)> &fn, int r) { return RunStep(fn, r); };
  if (drive == Drive::kOneThread) {
    const CallResult issued = IssueFromOneThread(steps);
    return issued.ok() ? Synchronize() : issued;
  }

  std::vector<CallResult> results(ranks);
  std::mutex failed_mutex;
  bool any_failed = false;
  Barrier all_issued(ranks);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      CallResult result = step(steps.before, r);
      if (result.ok()) result = step(steps.issue, r);
      if (result.ok()) result = step(steps.after, r);
      {
        std::lock_guard<std::mutex> lock(failed_mutex);
        if (!result.ok()) any_failed = true;
      }
      all_issued.ArriveAndWait();
      // A rank whose peer failed to issue would wait for ever: only wait when all issued.
      if (!any_failed) {
        result = Check(rt().infinirtStreamSynchronize(streams_[r]), "infinirtStreamSynchronize" + RankText(r));
      }
      results[r] = result;
    });
  }
  for (std::thread &thread : threads) thread.join();
  for (const CallResult &result : results) {
    if (!result.ok()) {
      if (any_failed) Abandon();
      return result;
    }
  }
  return {};
}

CallResult World::Close() {
  if (abandoned_) {
    for (auto &memory : memories_) memory->Leak();
    memories_.clear();
    devices_.clear();
    comms_.clear();
    streams_.clear();
    return {};
  }
  CallResult first = Synchronize();
  memories_.clear();
  for (int r = 0; r < size(); ++r) {
    if (streams_[r] == nullptr) continue;
    CallResult result = MakeCurrent(devices_[r]);
    if (result.ok()) result = Check(rt().infinirtStreamDestroy(streams_[r]), "infinirtStreamDestroy" + RankText(r));
    if (first.ok()) first = result;
  }
  for (int r = 0; r < size(); ++r) {
    if (comms_[r] == nullptr) continue;
    const CallResult result = Check(ccl().infinicclCommDestroy(comms_[r]), "infinicclCommDestroy" + RankText(r));
    if (first.ok()) first = result;
  }
  devices_.clear();
  comms_.clear();
  streams_.clear();
  return first;
}

DeviceMemory::~DeviceMemory() {
  if (base_ == nullptr) return;
  if (MakeCurrent(device_).ok()) rt().infinirtFree(base_);
}

CallResult DeviceMemory::Allocate(int device, size_t bytes) {
  device_ = device;
  bytes_ = bytes;
  CallResult result = MakeCurrent(device);
  if (!result.ok()) return result;
  void *base = nullptr;
  result = Check(rt().infinirtMalloc(&base, bytes + 2 * kGuardBytes),
                 "infinirtMalloc(" + std::to_string(bytes + 2 * kGuardBytes) + " bytes)");
  if (!result.ok()) return result;
  if (base == nullptr) return GaveNull("infinirtMalloc", "a NULL pointer for " + std::to_string(bytes + 2 * kGuardBytes) + " bytes");
  base_ = static_cast<uint8_t *>(base);
  uint8_t guard[kGuardBytes];
  for (size_t i = 0; i < kGuardBytes; ++i) guard[i] = GuardByte(i);
  result = Check(rt().infinirtMemcpy(base_, guard, kGuardBytes, INFINIRT_MEMCPY_H2D), "infinirtMemcpy(front guard)");
  if (!result.ok()) return result;
  return Check(rt().infinirtMemcpy(base_ + kGuardBytes + bytes, guard, kGuardBytes, INFINIRT_MEMCPY_H2D),
               "infinirtMemcpy(back guard)");
}

CallResult DeviceMemory::Upload(const uint8_t *host, size_t bytes, size_t offset) {
  if (bytes == 0) return {};
  CallResult result = MakeCurrent(device_);
  if (!result.ok()) return result;
  return Check(rt().infinirtMemcpy(data() + offset, host, bytes, INFINIRT_MEMCPY_H2D), "infinirtMemcpy(H2D)");
}

CallResult DeviceMemory::Download(uint8_t *host, size_t bytes, size_t offset) const {
  if (bytes == 0) return {};
  CallResult result = MakeCurrent(device_);
  if (!result.ok()) return result;
  return Check(rt().infinirtMemcpy(host, data() + offset, bytes, INFINIRT_MEMCPY_D2H), "infinirtMemcpy(D2H)");
}

testing::AssertionResult DeviceMemory::GuardsIntact() const {
  uint8_t front[kGuardBytes], back[kGuardBytes];
  if (!MakeCurrent(device_).ok() ||
      rt().infinirtMemcpy(front, base_, kGuardBytes, INFINIRT_MEMCPY_D2H) != INFINI_STATUS_SUCCESS ||
      rt().infinirtMemcpy(back, base_ + kGuardBytes + bytes_, kGuardBytes, INFINIRT_MEMCPY_D2H) != INFINI_STATUS_SUCCESS) {
    return testing::AssertionFailure() << "the guard bytes around a buffer could not be read back";
  }
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (front[i] != GuardByte(i)) {
      return testing::AssertionFailure() << "a byte " << (kGuardBytes - i) << " bytes before the buffer was written";
    }
  }
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (back[i] != GuardByte(i)) {
      return testing::AssertionFailure() << "a byte " << i << " bytes after the end of the buffer was written";
    }
  }
  return testing::AssertionSuccess();
}

}  // namespace infinicts::ccl_cases
