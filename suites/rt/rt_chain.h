// A seeded random sequence of stream-ordered work on two device buffers (`main` and
// `scratch`), with a host model of what each buffer must hold when the work is done.
// Memsets, H2D copies, D2D copies between the buffers and D2H snapshots overlap at
// random, so the final bytes (and every snapshot) depend on the order the stream runs
// them in: a backend that reorders or defers any of them produces different bytes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cts/case.h"
#include "infinirt.h"
#include "rt_pending.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {

class StreamChain {
 public:
  StreamChain(uint64_t seed, size_t bytes);
  // Releases the device buffers first: their release waits for the device, so a copy a case
  // that ended early left pending never reads a staging buffer or writes a snapshot freed here.
  ~StreamChain();
  StreamChain(const StreamChain &) = delete;
  StreamChain &operator=(const StreamChain &) = delete;

  // Allocates both buffers on the current device and enqueues their random initial
  // content (H2D) on `stream`.
  infiniStatus_t Start(infinirtStream_t stream);
  // Enqueues one more random operation on `stream` and applies it to the model.
  infiniStatus_t EnqueueNext(infinirtStream_t stream);
  // Enqueues the read-back of both buffers into pinned host memory (MallocHost), the chain's
  // last work: Verify compares it with the model before it makes any runtime call. With
  // `behind`, its long work goes first, once the pinned memory is ready, so the read-back is
  // still pending for a while after this returns.
  infiniStatus_t Finish(infinirtStream_t stream, const PendingWork *behind = nullptr);
  // Start, then `count` operations, then Finish. With `behind`, its long work goes before Finish,
  // so the read-back is still pending for a while once the host has enqueued it.
  infiniStatus_t Enqueue(infinirtStream_t stream, int count, const PendingWork *behind = nullptr);

  // Right after the call that says the work is done (a synchronize, EventQuery answering
  // COMPLETE), before any other runtime call: compares what the D2H copies wrote to pinned
  // host memory (the snapshots, the final read-back) with the model without a runtime call in
  // between, since a blocking Memcpy may wait for the device by itself and hide work not yet
  // done; then reads both buffers back (blocking Memcpy D2H) and compares them too.
  testing::AssertionResult Verify() const;
  // Verify's first half alone (pinned memory, no runtime call): for a case with several chains,
  // all of them before any blocking read-back.
  testing::AssertionResult VerifyObserved() const;

  size_t bytes() const { return bytes_; }
  void *main_buffer() const { return main_ ? main_->get() : nullptr; }
  const std::vector<uint8_t> &expected_main() const { return model_main_; }
  // The call that failed, for messages.
  const std::string &last_call() const { return last_call_; }
  // Whether Start's infinirtMalloc answered SUCCESS with a NULL pointer (Start then enqueued nothing).
  bool malloc_gave_null() const { return malloc_gave_null_; }

 private:
  // A D2H copy's destination in pinned host memory and what it must hold once done.
  struct Snapshot {
    std::string what;  // "D2H snapshot 3", "final read-back of the main buffer"
    std::vector<uint8_t> expected;
    std::unique_ptr<ScopedHostMemory> host;
  };

  infiniStatus_t Call(const char *what, infiniStatus_t status);
  // New pinned memory for [offset, offset + length) of a buffer, holding the complement of
  // what the model says it must receive; *snapshot stays NULL when MallocHost gave NULL.
  infiniStatus_t NewSnapshot(std::string what, size_t offset, size_t length, const std::vector<uint8_t> &model,
                             Snapshot **snapshot);
  // Enqueues the D2H copy of `length` bytes at `device` into the snapshot's pinned memory.
  infiniStatus_t EnqueueSnapshot(infinirtStream_t stream, const Snapshot *snapshot, const uint8_t *device);
  // Both together: a D2H copy of [offset, offset + length) of `device` into new pinned memory.
  infiniStatus_t Snap(infinirtStream_t stream, std::string what, const uint8_t *device, size_t offset, size_t length,
                      const std::vector<uint8_t> &model);

  std::mt19937_64 rng_;
  size_t bytes_;
  std::unique_ptr<ScopedDeviceMemory> main_, scratch_;
  std::vector<uint8_t> model_main_, model_scratch_;
  std::deque<std::vector<uint8_t>> staging_;  // H2D sources must stay unchanged until done
  std::deque<Snapshot> snapshots_;
  std::string last_call_;
  bool malloc_gave_null_ = false;
};

}  // namespace infinicts::rt_cases

// Asserts that a chain step succeeded, as CTS_ASSERT_OK does for the runtime call that did not.
#define CTS_ASSERT_CHAIN_OK(chain, step)                                                   \
  do {                                                                                     \
    const infiniStatus_t chain_status_ = (chain).step;                                     \
    CTS_ASSERT_OK_AS(chain_status_, "the chain's " + (chain).last_call(), true);           \
    CTS_ASSERT_GAVE_AS((chain).malloc_gave_null(), std::string("the chain's infinirtMalloc"), \
                       "a NULL pointer for " << (chain).bytes() << " bytes");              \
  } while (0)
