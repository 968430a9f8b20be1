// Helpers of the CPU runtime smoke tests.
#ifndef INFINICTS_TESTS_REFERENCE_CPU_TEST_SUPPORT_H
#define INFINICTS_TESTS_REFERENCE_CPU_TEST_SUPPORT_H

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "infinicts_ref/runtime_internal.h"
#include "infinirt.h"

#define ASSERT_RT_OK(call) ASSERT_EQ((call), INFINI_STATUS_SUCCESS)
#define EXPECT_RT_OK(call) EXPECT_EQ((call), INFINI_STATUS_SUCCESS)

namespace reference_cpu_test {

// Holds a stream at a point of its work until Open(): lets a test observe work that has
// been enqueued but not run. Opens itself when it goes out of scope.
class Gate {
 public:
  Gate() : state_(std::make_shared<State>()) {}
  ~Gate() { Open(); }

  infiniStatus_t Block(infinirtStream_t stream) {
    std::shared_ptr<State> state = state_;
    return infinicts_ref::EnqueueOnStream(stream, [state] {
      std::unique_lock<std::mutex> lock(state->mutex);
      state->opened.wait(lock, [&] { return state->open; });
    });
  }

  void Open() {
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      state_->open = true;
    }
    state_->opened.notify_all();
  }

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable opened;
    bool open = false;
  };
  std::shared_ptr<State> state_;
};

// Enqueues a host-side sleep: measurable work of a known length.
inline infiniStatus_t EnqueueSleep(infinirtStream_t stream, std::chrono::milliseconds duration) {
  return infinicts_ref::EnqueueOnStream(stream, [duration] { std::this_thread::sleep_for(duration); });
}

// Every test starts on (CPU, 0) whatever the one before it did.
class RtTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_RT_OK(infinirtInit());
    ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  }
};

}  // namespace reference_cpu_test

#endif  // INFINICTS_TESTS_REFERENCE_CPU_TEST_SUPPORT_H
