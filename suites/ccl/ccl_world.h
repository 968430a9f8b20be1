// A group of ranks under test: one communicator, device and stream per rank, made with
// infinicclCommInitAll (or adopted after infinicclCommInitRank), and the two ways of
// driving the ranks: every rank from the case's thread between GroupStart/GroupEnd, or
// one thread per rank. Device memory with guard bytes on both sides catches writes
// past a region. Every step answers a CallResult naming the call that failed.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cts/case.h"
#include "cts/rank_spread.h"
#include "infiniccl.h"

namespace infinicts::ccl_cases {

struct CallResult {
  int status = INFINI_STATUS_SUCCESS;
  std::string call;       // the failing call, as text
  std::string gave_null;  // what a call that answered SUCCESS gave instead of a handle ("a NULL pointer")
  std::string outside;    // one rank per process: why this process has no rank in the group
  bool ok() const { return status == INFINI_STATUS_SUCCESS && gave_null.empty() && outside.empty(); }
};

// A CallResult for `status` answered by `call`.
CallResult Check(int status, const std::string &call);
// A CallResult for `call`, which answered SUCCESS but gave `what` ("a NULL communicator").
CallResult GaveNull(const std::string &call, const std::string &what);

// Asserts a CallResult is SUCCESS, as CTS_ASSERT_OK does for the call it names: NOT_IMPLEMENTED /
// DEVICE_TYPE_NOT_SUPPORTED end the case `unsupported`, a failed call the case only needs
// (a stream, memory) ends it `blocked`.
#define CCL_ASSERT_OK(step)                                                                               \
  do {                                                                                                    \
    const ::infinicts::ccl_cases::CallResult ccl_result_ = (step);                                        \
    if (!ccl_result_.outside.empty()) GTEST_SKIP() << ::infinicts::cts::kOutsideGroupPrefix << ccl_result_.outside; \
    CTS_ASSERT_OK_AS(ccl_result_.status, ccl_result_.call, true);                                         \
    CTS_ASSERT_GAVE_AS(!ccl_result_.gave_null.empty(), ccl_result_.call, ccl_result_.gave_null);          \
  } while (0)

// How many ranks a group may have: the devices under test, or with one rank per process
// (cts/rank_spread.h) the processes.
int RankCapacity();
// "devices", or "ranks (one per process)".
const char *RankCapacityUnit();

// Skips the case when the run has fewer than `ranks` devices (or rank processes).
#define CCL_REQUIRE_DEVICES(ranks)                                                                        \
  do {                                                                                                    \
    if (::infinicts::ccl_cases::RankCapacity() < (ranks))                                                 \
      GTEST_SKIP() << "needs " << (ranks) << " " << ::infinicts::ccl_cases::RankCapacityUnit() << "; the run has " \
                   << ::infinicts::ccl_cases::RankCapacity();                                             \
  } while (0)

enum class Drive { kOneThread, kThreadPerRank };
const char *DriveName(Drive drive);  // "one_thread", "threads"

// The first `ranks` devices under test. With one rank per process, the device of this
// process's rank stands in every place (only that rank is driven here).
std::vector<int> FirstDevices(int ranks);

// Makes a device of the type under test current on the calling thread.
CallResult MakeCurrent(int device);

class DeviceMemory;

class World {
 public:
  World() = default;
  ~World();
  World(const World &) = delete;
  World &operator=(const World &) = delete;

  // kCreated: one new stream per rank (the NULL stream where StreamCreate answers it);
  // kDefault: every rank uses the NULL stream (the default stream of its device, which Run
  // and Synchronize make current around it).
  enum class Streams { kCreated, kDefault };

  // Rank r on device_ids[r], with infinicclCommInitAll. With one rank per process, only this
  // process's rank, with infinicclCommInitRank and rank 0's unique id (a process whose rank is
  // not below device_ids.size() answers `outside`: CCL_ASSERT_OK skips it).
  CallResult Open(const std::vector<int> &device_ids, Streams streams = Streams::kCreated);
  // Takes communicators made elsewhere (rank r on device_ids[r]).
  CallResult Adopt(const std::vector<infinicclComm_t> &comms, const std::vector<int> &device_ids,
                   Streams streams = Streams::kCreated);
  // Waits for every stream, then destroys the streams and the communicators; answers the
  // first failure. After a collective failed on some ranks only, the others may never
  // finish: then everything is left as it is, so the case ends instead of hanging.
  CallResult Close();

  int size() const { return static_cast<int>(devices_.size()); }
  // The ranks this process drives: every rank, or with one rank per process its own.
  const std::vector<int> &local_ranks() const { return local_; }
  bool is_local(int rank) const;
  int device(int rank) const { return devices_[rank]; }
  infinicclComm_t comm(int rank) const { return comms_[rank]; }
  infinirtStream_t stream(int rank) const { return streams_[rank]; }

  // Device memory of `bytes` usable bytes on the rank's device, owned by the group: freed
  // by Close after every stream is done (or left allocated when the group was abandoned).
  CallResult Allocate(int rank, size_t bytes, DeviceMemory **memory);

  // What Run does for each rank: `before` and `after` enqueue other work on the rank's
  // stream around the collectives `issue` issues (either may be empty).
  struct RankSteps {
    std::function<CallResult(int rank)> before;
    std::function<CallResult(int rank)> issue;
    std::function<CallResult(int rank)> after;
  };
  // Runs the steps of every rank, then waits for every rank's stream.
  //   kOneThread: from this thread, rank after rank with each rank's device current; the
  //               collectives between GroupStart and GroupEnd of every rank's
  //               communicator, `before` ahead of the group and `after` behind it;
  //   kThreadPerRank: one thread per rank, which makes its device current, runs its steps
  //               and waits for its own stream.
  CallResult Run(Drive drive, const RankSteps &steps);
  // kOneThread's part of Run without the final wait.
  CallResult IssueFromOneThread(const RankSteps &steps);
  CallResult Run(Drive drive, const std::function<CallResult(int rank)> &issue) {
    return Run(drive, RankSteps{nullptr, issue, nullptr});
  }
  // Waits for every rank's stream.
  CallResult Synchronize();
  // Marks the group as left inconsistent (some ranks issued, some did not).
  void Abandon() { abandoned_ = true; }
  // Destroys one rank's communicator now, after waiting for its stream, where this process
  // drives that rank (Close leaves it be).
  CallResult DestroyRank(int rank);

 private:
  // Runs one optional step of rank r with its device current.
  CallResult RunStep(const std::function<CallResult(int)> &fn, int rank) const;
  // Open with one rank per process.
  CallResult OpenOwnRank(const std::vector<int> &device_ids, Streams streams);
  CallResult MakeStreams(Streams streams);

  std::vector<int> devices_;
  std::vector<infinicclComm_t> comms_;
  std::vector<infinirtStream_t> streams_;
  std::vector<int> local_;
  std::vector<std::unique_ptr<DeviceMemory>> memories_;
  bool abandoned_ = false;
};

// Device memory of one rank: `bytes` usable bytes between two guard zones of known
// content. Freed on its device when it goes away (after the device's work is done).
class DeviceMemory {
 public:
  static constexpr size_t kGuardBytes = 256;
  DeviceMemory() = default;
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  CallResult Allocate(int device, size_t bytes);
  uint8_t *data() const { return base_ == nullptr ? nullptr : base_ + kGuardBytes; }
  size_t size() const { return bytes_; }
  int device() const { return device_; }
  CallResult Upload(const uint8_t *host, size_t bytes, size_t offset = 0);
  CallResult Download(uint8_t *host, size_t bytes, size_t offset = 0) const;
  // Both guard zones still hold what Allocate wrote.
  testing::AssertionResult GuardsIntact() const;
  // Leaves the memory allocated (for a group that was abandoned mid-collective).
  void Leak() { base_ = nullptr; }

 private:
  uint8_t *base_ = nullptr;
  size_t bytes_ = 0;
  int device_ = 0;
};

}  // namespace infinicts::ccl_cases
