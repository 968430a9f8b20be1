#include "ccl_world.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
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

int RankCapacity() {
  if (const auto &spread = cts::Spread()) return spread->ranks;
  return static_cast<int>(cts::device_ids().size());
}

const char *RankCapacityUnit() { return cts::Spread() ? "ranks (one per process)" : "devices"; }

std::vector<int> FirstDevices(int ranks) {
  const auto &ids = cts::device_ids();
  if (cts::Spread()) {
    if (ids.empty()) return {};
    return std::vector<int>(std::min(ranks, RankCapacity()), ids.front());
  }
  return std::vector<int>(ids.begin(), ids.begin() + std::min<size_t>(ranks, ids.size()));
}

CallResult MakeCurrent(int device) {
  return Check(rt().infinirtSetDevice(cts::device_type(), device),
               "infinirtSetDevice(" + std::to_string(device) + ")");
}

World::~World() { Close(); }

bool World::is_local(int rank) const { return std::find(local_.begin(), local_.end(), rank) != local_.end(); }

CallResult World::Open(const std::vector<int> &device_ids, Streams streams) {
  if (cts::Spread()) return OpenOwnRank(device_ids, streams);
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
  local_.clear();
  for (int r = 0; r < size(); ++r) local_.push_back(r);
  for (int r = 0; r < size(); ++r) {
    if (comms_[r] == nullptr) {
      return GaveNull("infinicclCommInitAll", "a NULL communicator for rank " + std::to_string(r));
    }
  }
  return MakeStreams(streams);
}

CallResult World::MakeStreams(Streams streams) {
  for (int r : local_) {
    if (streams != Streams::kCreated) break;
    CallResult result = MakeCurrent(devices_[r]);
    if (result.ok()) result = Check(rt().infinirtStreamCreate(&streams_[r]), "infinirtStreamCreate" + RankText(r));
    if (!result.ok()) return result;
  }
  return {};
}

CallResult World::OpenOwnRank(const std::vector<int> &device_ids, Streams streams) {
  const int rank = cts::Spread()->rank, ranks = static_cast<int>(device_ids.size());
  if (rank >= ranks) {
    CallResult outside;
    outside.outside = "rank " + std::to_string(rank) + " has no part in this group of " + std::to_string(ranks);
    return outside;
  }
  devices_ = device_ids;
  comms_.assign(ranks, nullptr);
  streams_.assign(ranks, nullptr);
  local_ = {rank};
  CallResult result = MakeCurrent(devices_[rank]);
  if (!result.ok()) return result;
  infinicclUniqueId_t id{};
  if (rank == 0) {
    result = Check(ccl().infinicclGetUniqueId(&id), "infinicclGetUniqueId");
    if (!result.ok()) return result;
  }
  std::string error;
  const std::optional<std::string> shared =
      cts::ShareFromRankZero(std::string(reinterpret_cast<const char *>(&id), sizeof id), &error);
  if (!shared || shared->size() != sizeof id) {
    // The runner's failure, not the backend's: the case cannot go on, and says why.
    return Check(INFINI_STATUS_INTERNAL_ERROR, "sharing rank 0's unique id (" + (shared ? "wrong size" : error) + ")");
  }
  std::memcpy(&id, shared->data(), sizeof id);
  result = Check(ccl().infinicclCommInitRank(&comms_[rank], ranks, id, rank),
                 "infinicclCommInitRank(" + std::to_string(ranks) + " ranks)" + RankText(rank));
  if (!result.ok()) return result;
  if (comms_[rank] == nullptr) return GaveNull("infinicclCommInitRank", "a NULL communicator" + RankText(rank));
  return MakeStreams(streams);
}

CallResult World::Allocate(int rank, size_t bytes, DeviceMemory **memory) {
  memories_.push_back(std::make_unique<DeviceMemory>());
  *memory = memories_.back().get();
  return memories_.back()->Allocate(devices_[rank], bytes);
}

CallResult World::Synchronize() {
  for (int r : local_) {
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
  const auto step = [this](const std::function<CallResult(int)> &fn, int r) { return RunStep(fn, r); };
  CallResult failure;
  bool issued_any = false;
  for (size_t i = 0; i < local_.size() && failure.ok(); ++i) failure = step(steps.before, local_[i]);
  size_t grouped = 0;
  for (; grouped < local_.size() && failure.ok(); ++grouped) {
    const int r = local_[grouped];
    failure = Check(ccl().infinicclGroupStart(comms_[r]), "infinicclGroupStart" + RankText(r));
    if (!failure.ok()) break;
  }
  for (size_t i = 0; i < local_.size() && failure.ok(); ++i) {
    issued_any = true;
    failure = step(steps.issue, local_[i]);
  }
  for (size_t i = 0; i < grouped; ++i) {
    const int r = local_[i];
    const CallResult ended = Check(ccl().infinicclGroupEnd(comms_[r]), "infinicclGroupEnd" + RankText(r));
    if (failure.ok()) failure = ended;
  }
  for (size_t i = 0; i < local_.size() && failure.ok(); ++i) failure = step(steps.after, local_[i]);
  if (!failure.ok() && issued_any) Abandon();
  return failure;
}

CallResult World::Run(Drive drive, const RankSteps &steps) {
  const int ranks = static_cast<int>(local_.size());
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
  for (int i = 0; i < ranks; ++i) {
    threads.emplace_back([&, i] {
      const int r = local_[i];
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
      results[i] = result;
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

CallResult World::DestroyRank(int r) {
  if (!is_local(r) || comms_[r] == nullptr) return {};
  CallResult result = MakeCurrent(devices_[r]);
  if (result.ok()) result = Check(rt().infinirtStreamSynchronize(streams_[r]), "infinirtStreamSynchronize" + RankText(r));
  if (!result.ok()) return result;
  result = Check(ccl().infinicclCommDestroy(comms_[r]), "infinicclCommDestroy" + RankText(r));
  comms_[r] = nullptr;
  return result;
}

CallResult World::Close() {
  if (abandoned_) {
    for (auto &memory : memories_) memory->Leak();
    memories_.clear();
    devices_.clear();
    comms_.clear();
    streams_.clear();
    local_.clear();
    return {};
  }
  CallResult first = Synchronize();
  memories_.clear();
  for (int r : local_) {
    if (streams_[r] == nullptr) continue;
    CallResult result = MakeCurrent(devices_[r]);
    if (result.ok()) result = Check(rt().infinirtStreamDestroy(streams_[r]), "infinirtStreamDestroy" + RankText(r));
    if (first.ok()) first = result;
  }
  for (int r : local_) {
    if (comms_[r] == nullptr) continue;
    const CallResult result = Check(ccl().infinicclCommDestroy(comms_[r]), "infinicclCommDestroy" + RankText(r));
    if (first.ok()) first = result;
  }
  devices_.clear();
  comms_.clear();
  streams_.clear();
  local_.clear();
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
