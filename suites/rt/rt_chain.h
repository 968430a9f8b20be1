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
  // Start, then `count` operations.
  infiniStatus_t Enqueue(infinirtStream_t stream, int count);

  // After the work is known to be done: reads both buffers back (blocking Memcpy D2H)
  // and compares them and every snapshot with the model.
  testing::AssertionResult Verify() const;

  size_t bytes() const { return bytes_; }
  void *main_buffer() const { return main_ ? main_->get() : nullptr; }
  const std::vector<uint8_t> &expected_main() const { return model_main_; }
  // The call that failed, for messages.
  const std::string &last_call() const { return last_call_; }
  // Whether Start's infinirtMalloc answered SUCCESS with a NULL pointer (Start then enqueued nothing).
  bool malloc_gave_null() const { return malloc_gave_null_; }

 private:
  struct Snapshot {
    std::vector<uint8_t> expected;
    std::unique_ptr<std::vector<uint8_t>> host;  // stable address while the copy is pending
  };

  infiniStatus_t Call(const char *what, infiniStatus_t status);

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
