#include "rt_graph_work.h"

#include <algorithm>

#include "cts/case.h"
#include "rt_data.h"

namespace infinicts::rt_cases {

using cts::rt;

void GraphWork::Prepare(std::mt19937_64 &rng, size_t bytes) {
  bytes_ = bytes;
  for (std::unique_ptr<ScopedDeviceMemory> *buffer : {&input_, &a_, &b_}) {
    void *p = nullptr;
    RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
    *buffer = std::make_unique<ScopedDeviceMemory>(p);
  }
  for (std::unique_ptr<ScopedHostMemory> *buffer : {&host_input_, &out_a_, &out_b_}) {
    void *p = nullptr;
    RT_ASSERT_ALLOCATED(rt().infinirtMallocHost(&p, bytes), p, bytes);
    *buffer = std::make_unique<ScopedHostMemory>(p);
  }
  // Windows of a quarter to a half of the buffer at odd offsets. The fill of a starts inside the
  // window the copy into b read, and the copy back into a reads from inside the window b received.
  const size_t quarter = std::max<size_t>(bytes / 4, 1);
  copy_from_a_ = {RandomIn(rng, 0, quarter), RandomIn(rng, quarter, 2 * quarter)};
  copy_to_b_at_ = RandomIn(rng, 0, bytes - copy_from_a_.length);
  const size_t fill_at = copy_from_a_.offset + RandomIn(rng, 0, copy_from_a_.length - 1);
  fill_a_window_ = {fill_at, RandomIn(rng, 1, bytes - fill_at)};
  const size_t read_b_at = copy_to_b_at_ + RandomIn(rng, 0, copy_from_a_.length - 1);
  copy_from_b_ = {read_b_at, RandomIn(rng, 1, bytes - read_b_at)};
  copy_to_a_at_ = RandomIn(rng, 0, bytes - copy_from_b_.length);
  fill_b_ = static_cast<uint8_t>(rng());
  fill_a_ = static_cast<uint8_t>(fill_b_ + 1 + rng() % 254);  // differs from fill_b_
}

void GraphWork::SetInput(const std::vector<uint8_t> &input_bytes) {
  input_model_ = input_bytes;
  std::copy(input_bytes.begin(), input_bytes.end(), static_cast<uint8_t *>(host_input_->get()));
}

void GraphWork::Model(std::vector<uint8_t> *a, std::vector<uint8_t> *b) const {
  *a = input_model_;
  b->assign(bytes_, fill_b_);
  std::copy_n(a->begin() + copy_from_a_.offset, copy_from_a_.length, b->begin() + copy_to_b_at_);
  std::fill_n(a->begin() + fill_a_window_.offset, fill_a_window_.length, fill_a_);
  std::copy_n(b->begin() + copy_from_b_.offset, copy_from_b_.length, a->begin() + copy_to_a_at_);
}

std::vector<uint8_t> GraphWork::ExpectedA() const {
  std::vector<uint8_t> a, b;
  Model(&a, &b);
  return a;
}

std::vector<uint8_t> GraphWork::ExpectedB() const {
  std::vector<uint8_t> a, b;
  Model(&a, &b);
  return b;
}

void GraphWork::ClearReadBack() {
  const std::vector<uint8_t> not_a = Complement(ExpectedA()), not_b = Complement(ExpectedB());
  std::copy(not_a.begin(), not_a.end(), static_cast<uint8_t *>(out_a_->get()));
  std::copy(not_b.begin(), not_b.end(), static_cast<uint8_t *>(out_b_->get()));
}

infiniStatus_t GraphWork::EnqueueSteps(infinirtStream_t stream) const {
  auto *const a = static_cast<uint8_t *>(a_->get());
  auto *const b = static_cast<uint8_t *>(b_->get());
  void *const input = input_->get();
  if (auto status = rt().infinirtMemcpyAsync(input, host_input_->get(), bytes_, INFINIRT_MEMCPY_H2D, stream)) {
    return status;
  }
  if (auto status = rt().infinirtMemcpyAsync(a, input, bytes_, INFINIRT_MEMCPY_D2D, stream)) return status;
  if (auto status = rt().infinirtMemsetAsync(b, fill_b_, bytes_, stream)) return status;
  if (auto status = rt().infinirtMemcpyAsync(b + copy_to_b_at_, a + copy_from_a_.offset, copy_from_a_.length,
                                             INFINIRT_MEMCPY_D2D, stream)) {
    return status;
  }
  if (auto status = rt().infinirtMemsetAsync(a + fill_a_window_.offset, fill_a_, fill_a_window_.length, stream)) {
    return status;
  }
  if (auto status = rt().infinirtMemcpyAsync(a + copy_to_a_at_, b + copy_from_b_.offset, copy_from_b_.length,
                                             INFINIRT_MEMCPY_D2D, stream)) {
    return status;
  }
  if (auto status = rt().infinirtMemcpyAsync(out_a_->get(), a, bytes_, INFINIRT_MEMCPY_D2H, stream)) return status;
  return rt().infinirtMemcpyAsync(out_b_->get(), b, bytes_, INFINIRT_MEMCPY_D2H, stream);
}

infiniStatus_t GraphWork::FillDeviceBuffers(uint8_t value) const {
  if (auto status = rt().infinirtMemset(a_->get(), value, bytes_)) return status;
  return rt().infinirtMemset(b_->get(), value, bytes_);
}

testing::AssertionResult GraphWork::ReadBackMatches() const {
  testing::AssertionResult a = SameBytes(ExpectedA().data(), out_a_->get(), bytes_);
  if (!a) return a << " (buffer a, read back into pinned memory)";
  testing::AssertionResult b = SameBytes(ExpectedB().data(), out_b_->get(), bytes_);
  if (!b) return b << " (buffer b, read back into pinned memory)";
  return testing::AssertionSuccess();
}

testing::AssertionResult GraphWork::ReadBackUntouched() const {
  testing::AssertionResult a = SameBytes(Complement(ExpectedA()).data(), out_a_->get(), bytes_);
  if (!a) return a << " (the pinned read-back of a was written)";
  testing::AssertionResult b = SameBytes(Complement(ExpectedB()).data(), out_b_->get(), bytes_);
  if (!b) return b << " (the pinned read-back of b was written)";
  return testing::AssertionSuccess();
}

testing::AssertionResult GraphWork::DeviceBufferAIs(const std::vector<uint8_t> &expected) const {
  std::vector<uint8_t> back = Complement(expected);
  const infiniStatus_t status = rt().infinirtMemcpy(back.data(), a_->get(), bytes_, INFINIRT_MEMCPY_D2H);
  if (status != INFINI_STATUS_SUCCESS) return testing::AssertionFailure() << "infinirtMemcpy D2H of a answered " << status;
  return SameBytes(expected.data(), back.data(), bytes_) << " (device buffer a)";
}

}  // namespace infinicts::rt_cases
