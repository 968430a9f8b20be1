// Stream-ordered work for the graph cases, with a host model of its result. Seven steps over
// pinned host memory and three device buffers (`input`, `a`, `b`) whose result depends on their
// order: copy the pinned input into `input`, copy that into a, fill b, copy a window of a into b,
// fill a window of a that the previous copy read, copy a window of b back into a, read a and b
// back into pinned memory. The windows overlap, so a replay that runs the steps out of order, runs
// none, or reads the input as it was at capture gives other bytes.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "infinirt.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {

class GraphWork {
 public:
  // Allocates the buffers on the current device and draws the steps' windows and fill values
  // (fatal failures end the case; the caller checks HasFatalFailure()).
  void Prepare(std::mt19937_64 &rng, size_t bytes);

  // Writes the pinned input the next run reads, from the host: no work may be pending on it.
  void SetInput(const std::vector<uint8_t> &input_bytes);
  // Fills the pinned read-back buffers with the complement of what the next run must give, so a
  // run that writes nothing, or misses a byte, shows.
  void ClearReadBack();
  // Enqueues the seven steps on `stream` (captured, when the stream is capturing).
  infiniStatus_t EnqueueSteps(infinirtStream_t stream) const;

  // Right after the synchronize, before any other runtime call: the pinned read-back holds the
  // model's result for the input last set.
  testing::AssertionResult ReadBackMatches() const;
  // The read-back still holds what ClearReadBack wrote: no run wrote it.
  testing::AssertionResult ReadBackUntouched() const;
  // The device buffer `a` (read with a blocking Memcpy) still holds `expected`.
  testing::AssertionResult DeviceBufferAIs(const std::vector<uint8_t> &expected) const;
  // Sets every byte of a and b to `value` with blocking Memsets.
  infiniStatus_t FillDeviceBuffers(uint8_t value) const;
  void *device_a() const { return a_->get(); }
  size_t bytes() const { return bytes_; }
  // The model's a and b for the input last set.
  std::vector<uint8_t> ExpectedA() const;
  std::vector<uint8_t> ExpectedB() const;

 private:
  struct Window {
    size_t offset, length;
  };
  void Model(std::vector<uint8_t> *a, std::vector<uint8_t> *b) const;

  size_t bytes_ = 0;
  std::unique_ptr<ScopedDeviceMemory> input_, a_, b_;
  std::unique_ptr<ScopedHostMemory> host_input_, out_a_, out_b_;
  std::vector<uint8_t> input_model_;
  uint8_t fill_b_ = 0, fill_a_ = 0;
  size_t copy_to_b_at_ = 0;  // b[copy_to_b_at_ ...) <- a[copy_from_a_]
  Window copy_from_a_{}, fill_a_window_{}, copy_from_b_{};
  size_t copy_to_a_at_ = 0;  // a[copy_to_a_at_ ...) <- b[copy_from_b_]
};

}  // namespace infinicts::rt_cases
